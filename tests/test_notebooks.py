"""Execute every notebook in notebooks/ top to bottom; any error (a failed ``assert``
cell included) fails the test. The notebooks are stored with the outputs of such a run
(the documentation site shows them without running anything); the tests run a copy.

The notebooks run in a fresh ``python3`` kernel with ``notebooks/`` as the working
directory, so their ``../../shared/data`` default finds the datasets beside the repo
(or ``NUMBADLX_DATA`` names them). A notebook that reads the datasets is skipped, with
a message, when they are absent.
"""

import json
import os
import time
from pathlib import Path

import pytest

from tests.helpers import DATA_ENV, data_dir

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
CELL_TIMEOUT = 600


def _notebooks():
    return sorted(NOTEBOOKS.glob("*.ipynb"))


def _reads_the_datasets(path):
    """Whether a notebook reads the public datasets: one of its code cells names the
    folder's variable (``NUMBADLX_DATA``). Read from the notebook, not listed by hand, so
    a notebook that starts reading the datasets is skipped without them at once."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return any(
        DATA_ENV in "".join(cell["source"])
        for cell in notebook["cells"]
        if cell["cell_type"] == "code"
    )


def _without_the_datasets(path):
    """Why ``path`` cannot run here (it reads the datasets and they are absent), or None."""
    folder = data_dir()
    if _reads_the_datasets(path) and not folder.is_dir():
        return f"{path.name} needs the public datasets, not found at {folder} (set {DATA_ENV})"
    return None


def test_a_notebook_that_reads_the_datasets_is_skipped_without_them(tmp_path, monkeypatch):
    """A fresh clone has no datasets beside it: the notebooks that read them (their
    default folder is ``../../shared/data``) are skipped, saying why; the others run."""
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "missing"))
    skipped = {path.name for path in _notebooks() if _without_the_datasets(path)}
    reading = {path.name for path in _notebooks() if "shared/data" in path.read_text()}
    assert skipped == reading and "07_variants.ipynb" in skipped
    assert "01_exact_cover.ipynb" not in skipped
    monkeypatch.setenv(DATA_ENV, str(tmp_path))
    assert not any(_without_the_datasets(path) for path in _notebooks())


def test_notebooks_are_numbered_and_stored_with_the_outputs_of_one_clean_run():
    """The documentation site renders the stored outputs (it never runs a notebook), so
    each notebook is committed as one top-to-bottom run left it: every code cell run
    once, in order, and no error among the outputs."""
    nbformat = pytest.importorskip("nbformat")
    names = [path.name for path in _notebooks()]
    assert names[:6] == [
        "01_exact_cover.ipynb",
        "02_sudoku.ipynb",
        "03_bulk_datasets.ipynb",
        "04_beyond_sudoku.ipynb",
        "05_making_puzzles.ipynb",
        "06_backtracking_vs_dlx.ipynb",
    ]
    for path in _notebooks():
        notebook = nbformat.read(path, as_version=4)
        nbformat.validate(notebook)
        code = [cell for cell in notebook.cells if cell.cell_type == "code"]
        assert code, path.name
        counts = [cell.execution_count for cell in code]
        assert counts == list(range(1, len(code) + 1)), (
            f"{path.name} is not stored as one clean run (execution counts {counts}): "
            f"run it top to bottom in a fresh kernel and save it"
        )
        errors = [o for cell in code for o in cell.outputs if o.get("output_type") == "error"]
        assert not errors, f"{path.name} holds an error output"
        assert any("assert " in cell.source for cell in code), (
            f"{path.name} checks none of its results"
        )


@pytest.mark.slow
@pytest.mark.parametrize("path", _notebooks(), ids=lambda path: path.stem)
def test_notebook_runs(path, monkeypatch):
    missing = _without_the_datasets(path)
    if missing:
        pytest.skip(missing)
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    pytest.importorskip("matplotlib")
    pytest.importorskip("pandas")
    if _reads_the_datasets(path):
        monkeypatch.setenv(DATA_ENV, str(data_dir().resolve()))
    # the kernel imports the checkout under test, as with an editable install: it then
    # shares the suite's Numba cache (the installed wheel is run by .ci/release)
    path_now = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), path_now])))
    # a headless backend, and no warning about Jupyter's old config paths
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    monkeypatch.setenv("JUPYTER_PLATFORM_DIRS", "1")
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    )
    start = time.perf_counter()
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as error:
        pytest.fail(f"{path.name} failed:\n{error}", pytrace=False)
    seconds = time.perf_counter() - start
    print(f"{path.name}: {seconds:.1f} s")
    errors = [
        output
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if output.get("output_type") == "error"
    ]
    assert not errors
