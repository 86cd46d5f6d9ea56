"""The README's examples work as written: its Python blocks run, and its command lines
run from a checkout with ``../shared/data`` beside it (skipped without the data), writing
only into the scratch folder ``$SCRATCH``. The README stays a short guide."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import data_dir, plain_env, run_once

# The README's examples test the user's path (unchecked kernels), not memory safety:
# they run in one of CI's two runs of the suite.
pytestmark = run_once

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
DATA = data_dir()


def _blocks(language):
    """The code blocks of the README fenced as ```language (plain ``` for "")."""
    blocks, current, inside = [], [], None
    for line in README.splitlines():
        if line.startswith("```"):
            if inside is None:
                inside, current = line[3:].strip(), []
            else:
                if inside == language:
                    blocks.append("\n".join(current) + "\n")
                inside = None
        elif inside is not None:
            current.append(line)
    return blocks


def _python_blocks():
    blocks = _blocks("python")
    assert len(blocks) >= 3, "the README lost its Python examples"
    return blocks


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(_blocks("python"))))
def test_python_blocks_run_as_written(index, tmp_path):
    code = _python_blocks()[index]
    if "dask" in code:
        pytest.importorskip("distributed")
    if "plotting" in code:
        pytest.importorskip("matplotlib")
    run = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(plain_env(), MPLBACKEND="Agg"),
    )
    assert run.returncode == 0, run.stderr[-3000:]


def _commands():
    """Command lines of the README's plain code blocks that run numbadlx (the two set-up
    commands and the benchmark commands, which install things, excepted)."""
    found = []
    for block in _blocks(""):
        for line in block.splitlines():
            command = line.split("  #")[0].strip()
            runs_numbadlx = command.startswith("numbadlx ") or "| numbadlx " in command
            if runs_numbadlx and "pip install" not in command:
                found.append(command)
    return found


def test_the_readme_has_commands_to_check():
    assert len(_commands()) >= 6


@pytest.mark.slow
@pytest.mark.skipif(not DATA.is_dir(), reason=f"no datasets at {DATA}")
@pytest.mark.parametrize("command", _commands())
def test_command_lines_run_from_a_checkout(command, tmp_path):
    # a checkout in tmp_path/repo with ../shared/data beside it; outputs go to $SCRATCH
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "examples").symlink_to(ROOT / "examples")
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "data").symlink_to(DATA)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    run = subprocess.run(
        command,
        shell=True,
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(
            plain_env(),
            PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"],
            SCRATCH=str(scratch),
        ),
    )
    # 3: a documented budget stop (the 25x25 example); anything else is a failure
    assert run.returncode in (0, 3), run.stderr[-3000:]
    assert "error" not in run.stderr.lower(), run.stderr[-3000:]
    # the examples write into the scratch folder, never into the checkout
    assert sorted(path.name for path in repo.iterdir()) == ["examples"]
    if "-o " in command:
        assert any(scratch.iterdir()), "the output should be in $SCRATCH"


def test_command_lines_write_into_the_scratch_folder():
    for command in _commands():
        if " -o " in command:
            assert " -o $SCRATCH/" in command, command
    assert "SCRATCH=$(mktemp -d)" in README


def test_the_readme_is_a_short_guide():
    lines = README.splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines (at most 200)"
    headings = [line for line in lines if line.startswith("## ")]
    assert headings[:2] == ["## Set up (a fresh machine, from this folder)", "## Quickstart"]
    # no development machine's paths, issue numbers or commit ids
    assert not re.search(r"/work/|/home/|issue \d|#\d+\b", README)
    assert not re.search(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b", README)


def test_the_readme_links_exist():
    for target in re.findall(r"\]\(((?!https?:|#)[^)]+)\)", README):
        assert (ROOT / target.split("#")[0]).exists(), target
