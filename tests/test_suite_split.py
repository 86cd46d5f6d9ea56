"""CI runs the suite twice, plain and with NUMBA_BOUNDSCHECK=1; the tests of the user's
path (``tests.helpers.run_once``) run in exactly one of the two, whichever
``NUMBADLX_ONCE_IN`` names, and their subprocesses get the user's unchecked build."""

import os
import re
from pathlib import Path

import pytest

from tests import helpers

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("where", [None, "plain", "boundscheck"])
def test_a_run_once_test_runs_in_exactly_one_of_the_two_runs(where, monkeypatch):
    if where is None:
        monkeypatch.delenv(helpers.ONCE_ENV, raising=False)
    else:
        monkeypatch.setenv(helpers.ONCE_ENV, where)
    runs = []
    for flag in ("0", "1"):
        monkeypatch.setenv("NUMBA_BOUNDSCHECK", flag)
        runs.append(helpers._once_here())
    assert runs == ([False, True] if where == "boundscheck" else [True, False])


def test_an_unknown_choice_is_an_error_naming_it(monkeypatch):
    monkeypatch.setenv(helpers.ONCE_ENV, "both")
    with pytest.raises(ValueError, match=r"NUMBADLX_ONCE_IN='both'.*'plain' or 'boundscheck'"):
        helpers._once_here()


def test_subprocesses_of_a_checked_run_get_the_unchecked_build_in_a_cache_of_its_own():
    checked = {"NUMBA_BOUNDSCHECK": "1", "NUMBA_CACHE_DIR": "/checked", "KEEP": "x"}
    env = helpers.plain_env(checked)
    assert "NUMBA_BOUNDSCHECK" not in env and env["KEEP"] == "x"
    assert env["NUMBA_CACHE_DIR"] != "/checked" and os.path.isdir(env["NUMBA_CACHE_DIR"])
    assert helpers.plain_env(checked)["NUMBA_CACHE_DIR"] == env["NUMBA_CACHE_DIR"]
    assert checked["NUMBA_BOUNDSCHECK"] == "1"  # the caller's mapping is left as it was
    plain = {"NUMBA_BOUNDSCHECK": "0", "NUMBA_CACHE_DIR": "/plain"}
    assert helpers.plain_env(plain) == plain


def test_ci_sends_the_run_once_tests_to_the_bounds_checked_run():
    script = (ROOT / ".ci" / "run").read_text()
    exported = re.search(rf"^export {helpers.ONCE_ENV}=(\w+)$", script, re.M)
    assert exported and exported.group(1) == "boundscheck"
    # exported before either run of the suite starts
    assert exported.start() < script.index("NUMBA_BOUNDSCHECK=1 python -m pytest")
    assert exported.start() < script.index('eval "$TEST"')


def test_ci_runs_readme_command_2_without_the_datasets_and_the_checked_run_with_them():
    """A fresh clone has no ../shared beside it: CI runs README command 2 that way (the
    datasets' folder named by NUMBADLX_DATA does not exist), so a test or notebook that
    needs the datasets and does not skip without them fails CI."""
    script = (ROOT / ".ci" / "run").read_text()
    plain = re.search(r'^NUMBADLX_DATA="([^"]+)" eval "\$TEST"$', script, re.M)
    assert plain, "README command 2 should run with NUMBADLX_DATA naming a missing folder"
    assert "no-datasets-here" in plain.group(1) and "shared" not in plain.group(1)
    checked = next(line for line in script.splitlines() if "NUMBA_BOUNDSCHECK=1 python" in line)
    assert "NUMBADLX_DATA" not in checked
    assert not re.search(r"^export NUMBADLX_DATA", script, re.M)
