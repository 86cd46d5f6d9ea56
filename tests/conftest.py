import os
from pathlib import Path

import pytest

DATA_ENV = "NUMBADLX_DATA"


def data_dir():
    """The public puzzle datasets: $NUMBADLX_DATA, else ../shared/data beside the repo."""
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "shared" / "data"


@pytest.fixture(scope="session")
def datasets():
    folder = data_dir()
    if not folder.is_dir():
        pytest.skip(
            f"public datasets not found at {folder} (set {DATA_ENV} to the folder "
            f"holding sudoku17.txt etc.)"
        )
    return folder
