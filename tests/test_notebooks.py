"""Execute every notebook in notebooks/ top to bottom; any error (a failed ``assert``
cell included) fails the test. The notebooks are stored with the outputs of such a run
(the documentation site shows them without running anything); the tests run a copy.

The notebooks run in a fresh ``python3`` kernel with ``notebooks/`` as the working
directory, so their ``../../shared/data`` default finds the datasets beside the repo
(or ``NUMBADLX_DATA`` names them). A notebook that reads the datasets is skipped, with
a message, when they are absent.
"""

import os
import time
from pathlib import Path

import pytest

from tests.helpers import DATA_ENV, data_dir

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
# notebooks that read the public datasets
NEEDS_DATA = {"03_bulk_datasets.ipynb", "05_making_puzzles.ipynb"}
CELL_TIMEOUT = 600


def _notebooks():
    return sorted(NOTEBOOKS.glob("*.ipynb"))


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
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    pytest.importorskip("matplotlib")
    pytest.importorskip("pandas")
    if path.name in NEEDS_DATA:
        folder = data_dir()
        if not folder.is_dir():
            pytest.skip(
                f"{path.name} needs the public datasets, not found at {folder} (set {DATA_ENV})"
            )
        monkeypatch.setenv(DATA_ENV, str(folder.resolve()))
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
