"""The release's metadata, read from pyproject.toml: what a wheel needs at run time is
declared as package data, and CI builds, checks and runs the wheel (.ci/release; this
test does not build, which takes a fresh environment and minutes)."""

import fnmatch
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PACKAGE = ROOT / "numbadlx"


def _declared(path):
    """True if package-data declares the package file ``path`` (relative to numbadlx/)."""
    for package, patterns in PYPROJECT["tool"]["setuptools"]["package-data"].items():
        folder = Path(*package.split(".")[1:])
        for pattern in patterns:
            if fnmatch.fnmatch(path.as_posix(), (folder / pattern).as_posix()):
                return True
    return False


def test_every_data_file_of_the_package_is_declared():
    files = [
        path.relative_to(PACKAGE)
        for path in PACKAGE.rglob("*")
        if path.is_file()
        and path.suffix not in (".py", ".pyc", ".nbi", ".nbc")
        and "__pycache__" not in path.parts
    ]
    wanted = {"py.typed", "sudoku/data/sample_puzzles.txt", "display/assets/player.js"}
    assert wanted <= {path.as_posix() for path in files}
    assert [path for path in files if not _declared(path)] == []


def test_the_metadata_a_release_needs():
    project = PYPROJECT["project"]
    assert project["version"] and project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"] and (ROOT / "LICENSE").is_file()
    assert {"Homepage", "Documentation", "Source", "Changelog"} <= set(project["urls"])
    assert "Typing :: Typed" in project["classifiers"]
    assert project["scripts"]["numbadlx"] == "numbadlx.cli:main"
    extras = project["optional-dependencies"]
    assert {"cli", "dask", "test", "docs", "jupyter", "notebooks", "dev"} <= set(extras)
    assert {"build", "twine"} <= {spec.split(">")[0].split("=")[0] for spec in extras["dev"]}


def test_ci_builds_and_runs_the_wheel():
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    release = (ROOT / ".ci" / "release").read_text(encoding="utf-8")
    assert "\n.ci/release\n" in run
    for step in ("-m build", "twine check", "-m venv", 'numbadlx" solve', "__version__"):
        assert step in release, step
