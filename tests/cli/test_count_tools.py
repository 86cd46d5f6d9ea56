"""``numbadlx count --estimate``, ``--reduce``, ``--cheapest``, ``--progress``,
``--engine`` and ``--threads``."""

import re

import pytest

from numbadlx import problems
from numbadlx.cli import EXIT_OK, EXIT_USAGE, main


def test_estimate_prints_knuths_estimates_without_counting(tmp_path, capsys):
    path = tmp_path / "queens.dlx"
    path.write_text(problems.n_queens(6).to_dlx())
    assert main(["count", str(path), "--estimate", "3000", "--seed", "4"]) == EXIT_OK
    out = capsys.readouterr().out
    number = r"([\d.e+]+)"
    found = re.search(rf"estimated {number} nodes .* and {number} solutions .* 3,?000 random", out)
    assert found, out
    assert 2 <= float(found.group(2)) <= 6  # 4 solutions; thousands of paths
    assert main(["count", str(path), "--estimate", "10", "--show", "1"]) == EXIT_USAGE


def test_reduce_counts_the_smaller_problem_and_says_what_went(tmp_path, capsys):
    path = tmp_path / "pent.dlx"
    path.write_text(problems.pentominoes(3, 20).to_dlx())
    assert main(["count", str(path), "--reduce"]) == EXIT_OK
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0] == "8 solutions"
    assert re.search(r"reduced: [\d,]+ options? and \d+ items? removed", captured.err)


def test_cheapest_prints_the_k_cheapest_with_their_costs(tmp_path, capsys):
    path = tmp_path / "priced.dlx"
    path.write_text("a b c\na b |5\nc |1\na |2\nb c |3\nb |1\n")
    assert main(["count", str(path), "--cheapest", "2"]) == EXIT_OK
    out = capsys.readouterr().out.splitlines()
    assert out == ["solution 1: cost 4", "  c", "  a", "  b", "solution 2: cost 5", "  a", "  b c"]
    assert main(["count", str(path), "--cheapest", "2", "--limit", "3"]) == EXIT_USAGE


def test_progress_shows_a_rising_share_of_the_tree(tmp_path, capsys, monkeypatch):
    import numbadlx.cli._count as count_module

    ticks = iter(range(10**6))
    monkeypatch.setattr(count_module._progress_line, "__init__", _fast_clock(ticks))
    path = tmp_path / "queens.dlx"
    path.write_text(problems.n_queens(11).to_dlx())
    assert main(["count", str(path), "--progress"]) == EXIT_OK
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0] == "2680 solutions"
    shares = [float(s) for s in re.findall(r"about ([\d.]+)% of the tree", captured.err)]
    assert shares and shares == sorted(shares) and 0 <= shares[0] and shares[-1] <= 100


def _fast_clock(ticks):
    def init(self):
        self.clock = lambda: next(ticks)  # a quarter of a second passes every call
        self.last = -1.0
        self.shown = False

    return init


def test_engine_and_threads_count_multiplicities_on_dancing_cells(tmp_path, capsys, monkeypatch):
    from numbadlx.core import search

    path = tmp_path / "tetrominoes.dlx"
    path.write_text(problems.polyomino_tilings(5, 8, problems.TETROMINOES, copies=2).to_dlx())
    assert main(["count", str(path)]) == EXIT_OK
    plain = capsys.readouterr().out.splitlines()[0]
    engines = []
    real = search.engine_for
    monkeypatch.setattr(search, "engine_for", lambda p: engines.append(real(p)) or engines[-1])
    assert main(["count", str(path), "--engine", "cells", "--threads", "2"]) == EXIT_OK
    assert capsys.readouterr().out.splitlines()[0] == plain
    assert engines and set(engines) == {"cells"}
    with pytest.raises(SystemExit) as refused:
        main(["count", str(path), "--engine", "links"])
    assert refused.value.code == EXIT_USAGE
