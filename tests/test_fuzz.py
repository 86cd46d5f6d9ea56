"""Fuzzing: arbitrary text, bytes, shapes and dtypes through the parsers, the builders,
the bulk solver and the command line. The only outcomes allowed are a result that
checks out or the documented ValueError (for the CLI: exit code 0 or 2 and a message);
never another exception, a hang or a wrong answer.

CI runs this file a second time with NUMBA_BOUNDSCHECK=1, so an out-of-range index
that slips past the input checks into a kernel raises IndexError there.
"""

import csv
import io
import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from numbadlx import ExactCover, problems, sudoku
from numbadlx.cli import EXIT_NO_ANSWER, EXIT_OK, EXIT_UNFINISHED, EXIT_USAGE, main
from numbadlx.sudoku import format_lines, iter_chunks, parse, read_csv
from tests.helpers import FEW, FUZZ, all_4x4_grids, bounds_checked, check_built_problem, grid_errors

# --------------------------------------------------------------------- inputs
# Text that looks a little like puzzles, so the fuzzing reaches past the first check.
PUZZLE_CHARS = '0123456789.ABCDEFGZabz \t,|+-#"\r\n'
EXTRA_CHARS = "\x00\x0b\x0c\x1c\x85\u2028\ufeff\udc80é😀xQ:;'"


def _shaped_lines(draw):
    """Lines of a plausible length: 4, 6, 9, 16, 25 cells or n*n of those."""
    n = draw(st.sampled_from([4, 6, 9, 16]))
    count = draw(st.sampled_from([n, n * n, n * n - 1, n * n + 1]))
    alphabet = st.sampled_from("0123456789." + "ABCDEFG"[: max(0, n - 9)])
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        cells = draw(st.lists(alphabet, min_size=count, max_size=count))
        line = "".join(cells)
        if draw(st.booleans()):
            line = draw(st.sampled_from([" ", ",", ""])).join(cells)
        if draw(st.integers(0, 4)) == 0:
            position = draw(st.integers(0, len(line)))
            line = (
                line[:position]
                + draw(st.text(PUZZLE_CHARS + EXTRA_CHARS, max_size=3))
                + line[position:]
            )
        lines.append(line)
    head = draw(
        st.sampled_from(["", "", "\ufeff", "# comment\n", "quizzes,solutions\n", "puzzle\n", "|\n"])
    )
    ending = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    return head + ending.join(lines) + draw(st.sampled_from(["", ending]))


@st.composite
def puzzle_texts(draw):
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(st.text(PUZZLE_CHARS, max_size=400))
    if kind == 1:
        return draw(st.text(PUZZLE_CHARS + EXTRA_CHARS, max_size=200))
    if kind == 2:
        return draw(st.text(max_size=200))
    return _shaped_lines(draw)


def _to_bytes(text):
    return text.encode("utf-8", "surrogateescape")


NUMBER_DTYPES = st.sampled_from(
    [
        np.uint8,
        np.int8,
        np.int16,
        np.uint16,
        np.int32,
        np.int64,
        np.uint64,
        np.float16,
        np.float32,
        np.float64,
        np.bool_,
        np.complex64,
    ]
)


@st.composite
def arrays(draw, dtypes=NUMBER_DTYPES):
    dtype = np.dtype(draw(dtypes))
    shape = draw(
        st.sampled_from(
            [
                (16,),
                (81,),
                (4, 4),
                (1, 16),
                (2, 16),
                (3, 81),
                (9, 9),
                (2, 4, 4),
                (16, 16),
                (0, 16),
                (0, 81),
                (5,),
                (2, 15),
                (1, 36),
                (6, 6),
                (2, 2, 2, 2),
                (1, 1, 16),
                (),
            ]
        )
    )
    if dtype.kind == "f":
        elements = st.one_of(
            st.sampled_from([0.0, 1.0, 2.0, 4.0, 9.0, 0.5, -1.0]),
            st.floats(allow_nan=True, allow_infinity=True, width=16 if dtype == np.float16 else 32),
        )
    elif dtype.kind == "c":
        elements = st.complex_numbers(max_magnitude=10, width=64)
    elif dtype.kind == "b":
        elements = st.booleans()
    else:
        info = np.iinfo(dtype)
        elements = st.one_of(st.integers(0, 9), st.integers(int(info.min), int(info.max)))
    return draw(hnp.arrays(dtype, shape, elements=elements))


def _check_puzzles(array):
    """What parse() promises: (N, n*n) uint8, values 0..n, n from 4 to 36."""
    assert isinstance(array, np.ndarray) and array.dtype == np.uint8 and array.ndim == 2
    n = math.isqrt(array.shape[1])
    assert n * n == array.shape[1] and 4 <= n <= 36
    assert array.size == 0 or int(array.max()) <= n
    # and what it returns reads back unchanged
    if array.shape[0]:
        assert np.array_equal(parse(format_lines(array), n=n), array)
    return n


# ------------------------------------------------------------------- parsers
@pytest.mark.slow
@FUZZ
@given(puzzle_texts())
def test_parse_text_gives_puzzles_or_value_error(text):
    assume("\n" in text or len(text) > 40 or not text.strip())  # not a file name
    try:
        array = parse(text)
    except FileNotFoundError as error:
        # one line that is no well-formed puzzle line is a file name, and missing
        assert "\n" not in text and "\r" not in text and error.filename == text
        return
    except ValueError as error:
        assert str(error)
        return
    _check_puzzles(array)


@pytest.mark.slow
@FUZZ
@given(
    puzzle_texts(),
    st.sampled_from([None, "lines", "grid", "csv"]),
    st.sampled_from([None, 4, 9, 16]),
)
def test_parse_bytes_with_format_and_size(text, fmt, n):
    try:
        array = parse(_to_bytes(text), format=fmt, n=n)
    except ValueError:
        return
    got = _check_puzzles(array)
    assert n is None or got == n


@FUZZ
@given(st.lists(st.one_of(puzzle_texts(), st.binary(max_size=100)), max_size=5))
def test_parse_lists_of_strings(items):
    try:
        array = parse(items)
    except ValueError:
        return
    _check_puzzles(array)
    assert array.shape[0] >= 0


@FUZZ
@given(arrays())
def test_parse_arrays_of_any_shape_and_dtype(array):
    try:
        result = parse(array)
    except ValueError:
        return
    _check_puzzles(result)
    # a good array keeps its values
    assert np.array_equal(result.ravel(), array.astype(np.float64).ravel().astype(np.uint8))


@FUZZ
@given(st.binary(max_size=600))
def test_parse_random_bytes(data):
    try:
        array = parse(data)
    except ValueError:
        return
    _check_puzzles(array)


@FEW
@given(puzzle_texts(), st.sampled_from(["p.txt", "p.csv", "p.npy", "p.sdk"]), st.integers(1, 5))
def test_files_iter_chunks_and_read_csv(tmp_path, text, name, chunk_size):
    path = tmp_path / name
    path.write_bytes(_to_bytes(text))
    try:
        chunks = list(iter_chunks(path, chunk_size=chunk_size))
    except ValueError:
        chunks = None
    if chunks is not None:
        for chunk in chunks:
            assert 1 <= len(chunk) <= chunk_size
            assert chunk.bad.shape == (len(chunk),) and len(chunk.raw) == len(chunk)
            assert sorted(i for i, _ in chunk.errors) == np.flatnonzero(chunk.bad).tolist()
            assert not chunk.puzzles[chunk.bad].any()
            if len(chunk):
                _check_puzzles(chunk.puzzles)
        # whole-file parse agrees whenever no line was bad
        if chunks and not any(c.bad.any() for c in chunks):
            assert np.array_equal(parse(path), np.concatenate([c.puzzles for c in chunks]))
    if name.endswith(".csv"):
        try:
            puzzles, solutions = read_csv(path)
        except ValueError:
            return
        _check_puzzles(puzzles) if len(puzzles) else None


# ------------------------------------------------- builders (more in test_fuzz_exact_cover.py)
@FUZZ
@given(
    arrays(
        st.sampled_from(
            [np.uint8, np.int8, np.int64, np.float32, np.float64, np.bool_, np.complex64, np.uint64]
        )
    ),
    st.one_of(st.none(), st.integers(-1, 20)),
)
def test_exact_cover_from_dense_arrays(matrix, secondary):
    try:
        problem = ExactCover(matrix, secondary=secondary)
    except ValueError:
        return
    assert problem.n_options == (matrix.shape[0] if matrix.ndim == 2 else -1)
    check_built_problem(problem)


# ---------------------------------------------------------------- bulk solver
@FUZZ
@given(arrays(), st.integers(1, 3), st.one_of(st.none(), st.integers(1, 500)))
def test_sudoku_solve_on_random_arrays(array, limit, max_nodes):
    try:
        result = sudoku.solve(array, limit=limit, max_nodes=max_nodes)
    except ValueError:
        return
    n = result.n
    assert result.puzzles.shape == result.solutions.shape and result.puzzles.shape[1] == n * n
    names = result.status_names()
    # the puzzles solved are the ones given (rows with values that are not 0..n are
    # INVALID), never a silently converted copy
    given = np.asarray(array).reshape(len(result), n * n)
    for k in np.flatnonzero(names != "INVALID"):
        assert np.array_equal(result.puzzles[k], given[k])
    assert "NOT_RUN" not in names
    found = result.counts > 0
    assert np.all(result.counts <= limit)
    # every solution returned is a valid completion of its puzzle
    assert grid_errors(result.puzzles[found], result.solutions[found], result.box) == []
    assert not result.solutions[~found].any()
    for k in np.flatnonzero(names == "INVALID"):
        assert result.counts[k] == 0
    for k in np.flatnonzero((names == "UNIQUE") | (names == "SOLVED")):
        assert result.counts[k] == 1
    for k in np.flatnonzero(names == "MULTIPLE"):
        assert result.counts[k] >= 2
    # a clash among the givens is INVALID; a puzzle without one is solved
    for k in range(min(len(result), 5)):
        if sudoku.check_grid(result.puzzles[k], result.box) is not None:
            assert names[k] == "INVALID"
        elif result.puzzles[k].any():  # (rows with bad values are zeroed and INVALID)
            assert names[k] != "INVALID"


@FUZZ
@given(st.lists(st.integers(0, 4), min_size=16, max_size=16), st.integers(1, 400))
def test_sudoku_4x4_counts_match_enumeration(cells, limit):
    """Every 4x4 puzzle, clashing or not: the count matches the 288 grids."""
    puzzle = np.array(cells, dtype=np.uint8)
    result = sudoku.solve(puzzle[None], limit=limit)
    grids = _ALL_4X4
    matches = np.all((puzzle == 0) | (grids == puzzle), axis=1).sum()
    if sudoku.check_grid(puzzle) is not None:
        assert result.status_names()[0] == "INVALID"
        assert matches == 0
    else:
        assert result.counts[0] == min(matches, limit)


def _all_4x4():

    return all_4x4_grids()


_ALL_4X4 = _all_4x4()


# ------------------------------------------------------------------------- CLI
@FEW
@given(
    puzzle_texts(),
    st.sampled_from(["in.txt", "in.csv"]),
    st.sampled_from(["out.txt", "out.csv"]),
    st.integers(1, 4),
)
def test_cli_on_random_files(tmp_path, capsys, text, name, out_name, chunk_size):
    source = tmp_path / name
    source.write_bytes(_to_bytes(text))
    out = tmp_path / out_name
    code = main(
        [
            "solve",
            str(source),
            "-o",
            str(out),
            "--chunk-size",
            str(chunk_size),
            "--max-nodes",
            "5000",
            "--no-progress",
            "--overwrite",  # the examples share tmp_path: each replaces the one before
        ]
    )
    err = capsys.readouterr().err
    assert code in (EXIT_OK, EXIT_NO_ANSWER, EXIT_USAGE, EXIT_UNFINISHED), err
    if code == EXIT_USAGE:
        assert "numbadlx: error:" in err
        return
    data = out.read_bytes()
    assert data == b"" or data.endswith(b"\n")
    assert not (tmp_path / (out_name + ".progress")).exists()
    # what the library says about the same puzzles
    chunks = list(iter_chunks(source, chunk_size=chunk_size))
    if chunks:
        puzzles = np.concatenate([c.puzzles for c in chunks])
        bad = np.concatenate([c.bad for c in chunks])
        expected = sudoku.solve(puzzles, max_nodes=5000, invalid=bad)
        statuses = expected.status_names().tolist()
        solutions = format_lines(expected.solutions)
    else:
        statuses, solutions, puzzles = [], [], None
    if {"INVALID", "NO_SOLUTION"} & set(statuses):
        assert code == EXIT_NO_ANSWER
    else:
        assert code == (EXIT_UNFINISHED if "BUDGET" in statuses else EXIT_OK)
    text_out = data.decode("utf-8")
    if out_name.endswith(".csv"):
        rows = list(csv.reader(io.StringIO(text_out)))
        assert rows[0] == ["puzzle", "solution", "status", "count", "nodes", "message"]
        rows = rows[1:]
        assert [row[2] for row in rows] == statuses
        # the reason of each INVALID row in its message column
        assert all(row[5] for row, status in zip(rows, statuses) if status == "INVALID")
        got = [row[1] for row in rows]
    else:
        rows = text_out.splitlines()
        assert len(rows) == len(statuses)
        got = []
        for row, status in zip(rows, statuses):
            if status in ("UNIQUE", "SOLVED"):
                assert "#" not in row
                got.append(row)
            else:
                head, _, note = row.rpartition("  # ")
                assert note.startswith(status), (row, status)
                got.append(head if status in ("MULTIPLE", "BUDGET") else "")
    assert len(got) == len(statuses)
    for k, solution in enumerate(got):
        if statuses[k] in ("UNIQUE", "SOLVED", "MULTIPLE") or (
            statuses[k] == "BUDGET" and expected.counts[k]
        ):
            assert solution == solutions[k]
            n = math.isqrt(puzzles.shape[1])
            grid = parse([solution], n=n)
            assert grid_errors(puzzles[k : k + 1], grid, sudoku.box_shape(n)) == []


# ------------------------------------------------------- bounds checking is real
@pytest.mark.skipif(not bounds_checked(), reason="only in the NUMBA_BOUNDSCHECK=1 run")
def test_boundscheck_run_compiles_its_kernels_instead_of_loading_them():
    """Numba's cache ignores NUMBA_BOUNDSCHECK, so kernels loaded from it may have no
    checks: in the bounds-checked run every kernel used must have been compiled fresh
    (conftest.py gives that run a cache folder of its own)."""
    import numba

    assert numba.config.BOUNDSCHECK
    # every engine's serial kernel (one puzzle) and parallel one (more than 16 puzzles;
    # "bands" solves 9x9 only)
    for rows in (1, 20):
        for engine in ("dlx", "bits"):
            sudoku.solve(np.zeros((rows, 16), dtype=np.uint8), limit=300, engine=engine)
        sudoku.solve(np.zeros((rows, 81), dtype=np.uint8), limit=3, engine="bands")
        rules = sudoku.Rules(
            cages=[([0, 1], 3), ([2, 6], None)], thermos=[[4, 5]], white_dots=[[8, 9]], odd=[15]
        )
        sudoku.solve(np.zeros((rows, 16), dtype=np.uint8), limit=300, rules=rules, engine="cages")
    ExactCover([[0], [1], [0, 1]]).count()
    ExactCover([[0, 1], [1]], secondary=1, colours=[[0, 3], [5]]).count()
    ExactCover([[0], [1], [0, 1]]).count(method="memo")
    ExactCover([[0, 1], [1]], secondary=1, colours=[[0, 3], [5]]).count(method="memo")
    # past the memo table's first 1,024 entries, so that it grows (rehash); 8x8 domino
    # tilings, OEIS A004003
    assert problems.domino_tilings(8, 8).count(method="memo") == 12_988_816
    ExactCover([[0], [0]], bounds=[(1, 2)]).count()
    ExactCover(
        [[0, 1], [0, 1], [0]], secondary=1, colours=[[0, 5], [0, 5], [0]], bounds=[(2, 2)]
    ).count()
    modules = dict(_kernel_modules())
    for name, module in modules.items():
        for attribute in dir(module):
            dispatcher = getattr(module, attribute)
            stats = getattr(dispatcher, "stats", None)
            if stats is not None and hasattr(stats, "cache_hits"):
                assert not sum(stats.cache_hits.values()), f"{name}.{attribute} was loaded"
    # every entry kernel the calls above ran was compiled here, under bounds checking
    for name, attribute in [
        ("numbadlx.core.links", "build_links"),
        ("numbadlx.core.kernels.xc", "search_x"),
        ("numbadlx.core.kernels.xc", "search_c"),
        ("numbadlx.core.kernels.m", "search_m"),
        ("numbadlx.core.kernels.m", "search_m_plain"),
        ("numbadlx.core.kernels.memo", "memo_x"),
        ("numbadlx.core.kernels.memo", "memo_c"),
        ("numbadlx.core.kernels.memo", "rehash"),
        ("numbadlx.sudoku.engines._dlx", "solve_units"),
        ("numbadlx.sudoku.engines._bits", "solve_units"),
        ("numbadlx.sudoku.engines._bands", "solve_units"),
        ("numbadlx.sudoku.engines._cages", "solve_units"),
        ("numbadlx.sudoku.engines._constraint_tables", "_derive"),
    ]:
        stats = getattr(modules[name], attribute).stats
        assert sum(stats.cache_misses.values()) > 0, f"{name}.{attribute} was not compiled"


def _kernel_modules():
    """Every module that holds @njit kernels: numbadlx.core.links, the modules of
    numbadlx.core.kernels and the Sudoku engines."""
    import importlib
    import pkgutil

    import numbadlx.core.kernels as kernels

    names = ["numbadlx.core.links"]
    names += [
        f"numbadlx.sudoku.engines.{name}"
        for name in ("_dlx", "_bits", "_bands", "_cages", "_constraint_tables")
    ]
    names += [info.name for info in pkgutil.iter_modules(kernels.__path__, kernels.__name__ + ".")]
    return [(name, importlib.import_module(name)) for name in names]


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "--limit", "-3"],
        ["solve", "--chunk-size", "0"],
        ["solve", "--box", "3"],
        ["solve", "--timeout", "soon"],
        ["count"],
        ["frobnicate"],
    ],
)
def test_cli_bad_arguments_exit_2(argv, capsys):
    try:
        code = main(argv)
    except SystemExit as stop:
        code = stop.code
    assert code == 2
    assert capsys.readouterr().err
