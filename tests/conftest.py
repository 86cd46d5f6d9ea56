import pytest

from tests.helpers import DATA_ENV, data_dir


@pytest.fixture(scope="session")
def datasets():
    folder = data_dir()
    if not folder.is_dir():
        pytest.skip(
            f"public datasets not found at {folder} (set {DATA_ENV} to the folder "
            f"holding sudoku17.txt etc.)"
        )
    return folder
