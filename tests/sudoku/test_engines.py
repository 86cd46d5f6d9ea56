"""The Sudoku engines - Dancing Links ("dlx"), candidate bit masks ("bits") and, for 9x9
with 3x3 boxes, per-digit band masks ("bands") - give one truth: the same status and
count (up to the limit) for every puzzle, every solution a valid completion of its givens
(checked independently), and the same grid for every puzzle with one solution. Budgets
and timeouts hold for the bit-mask engines too."""

import csv
import time

import numpy as np
import pytest

from numbadlx import BudgetExceeded, sudoku
from numbadlx.cli import main
from numbadlx.sudoku import Status, random_puzzles
from numbadlx.sudoku.shape import MAX_SIZE, MIN_SIZE
from tests.helpers import grid_errors, holed_puzzles

# (file, puzzles taken: evenly spaced, None for all)
DATASETS = [
    ("sudoku17.txt", 400),
    ("top1465.txt", 300),
    ("forum_hardest_1106.txt", 80),
    ("serg_benchmark.txt", 300),
    ("kaggle_bryanpark_10k.csv", 300),
    ("radcliffe_3m_sample_7034.csv", 300),
    ("top95.txt", None),
    ("hardest.txt", None),
    ("easy50_projecteuler96.txt", None),
    ("sudoku16x16_100.txt", 40),
    ("sudoku16x16_singles.txt", None),
    ("sudoku25x25.txt", 2),  # the third is in test_sudoku.py (too slow for DLX)
]


def _load(path, take):
    puzzles = sudoku.read_csv(path)[0] if path.suffix == ".csv" else sudoku.parse(path)
    if take is not None and take < len(puzzles):
        puzzles = puzzles[:: len(puzzles) // take][:take]
    return puzzles


def _engines_for(n, box):
    """Every engine that solves this shape ("bands" only 9x9 with 3x3 boxes)."""
    classic = n == 9 and tuple(sudoku.box_shape(n, box)) == (3, 3)
    return ("dlx", "bits", "bands") if classic else ("dlx", "bits")


def _solve_all(puzzles, **options):
    """Results of every engine for the puzzles' shape, by engine name."""
    puzzles = np.asarray(puzzles)
    n = int(round(puzzles.shape[1] ** 0.5))
    results = {}
    for engine in _engines_for(n, options.get("box")):
        results[engine] = sudoku.solve(puzzles, engine=engine, **options)
        assert results[engine].engine == engine
    return results


def _both(puzzles, **options):
    results = _solve_all(puzzles, **options)
    for engine in results:
        if engine not in ("dlx", "bits"):
            _assert_agree(results["dlx"], results[engine])
    return results["dlx"], results["bits"]


def _assert_agree(dlx, bits):
    """Same statuses and counts; every grid found is valid; unique puzzles: same grid."""
    assert np.array_equal(dlx.status, bits.status)
    assert np.array_equal(dlx.counts, bits.counts)
    found = bits.counts > 0
    box = bits.box
    assert grid_errors(bits.puzzles[found], bits.solutions[found], box) == []
    assert grid_errors(dlx.puzzles[found], dlx.solutions[found], box) == []
    assert not bits.solutions[~found].any() and not dlx.solutions[~found].any()
    unique = np.isin(bits.status, [Status.UNIQUE, Status.SOLVED])
    if bits.limit >= 2:
        assert np.array_equal(dlx.solutions[unique], bits.solutions[unique])
    # a guess is a node with two or more candidates: never more guesses than nodes
    for result in (dlx, bits):
        assert np.all(result.guesses <= result.nodes)


@pytest.mark.parametrize("name, take", DATASETS, ids=[d[0].split(".")[0] for d in DATASETS])
def test_engines_agree_on_the_public_datasets(datasets, name, take):
    puzzles = _load(datasets / name, take)
    dlx, bits = _both(puzzles, limit=2)  # and "bands" where the shape is 9x9
    _assert_agree(dlx, bits)
    assert np.all(np.isin(bits.status, [Status.UNIQUE, Status.MULTIPLE]))
    if name == "serg_benchmark.txt":
        # this set's puzzles have several solutions each: first grids may differ
        assert np.all(bits.status == Status.MULTIPLE)


def test_engines_agree_on_the_special_cases(datasets):
    with open(datasets / "sudoku_special_cases.csv") as handle:
        rows = list(csv.DictReader(handle))
    puzzles = sudoku.parse([row["puzzle"] for row in rows])
    dlx, bits = _both(puzzles, limit=1001)
    _assert_agree(dlx, bits)
    published = np.array([int(row["solution_count"].replace(">1000", "1001")) for row in rows])
    valid = bits.status != Status.INVALID
    assert np.array_equal(np.minimum(published, 1001)[valid], bits.counts[valid])


def _box_shapes():
    shapes = []
    for n in range(MIN_SIZE, MAX_SIZE + 1):
        for rows in range(2, n // 2 + 1):
            if n % rows == 0 and n // rows >= 2:
                shapes.append((n, (rows, n // rows)))
    return shapes


@pytest.mark.slow
def test_engines_agree_on_random_grids_of_every_box_shape():
    rng = np.random.default_rng(2026)
    seen = set()
    for n, box in _box_shapes():
        puzzles = holed_puzzles(n, box, rng, 5 if n <= 16 else 2)
        dlx, bits = _both(puzzles, limit=3, box=box, max_nodes=20_000)
        finished = (dlx.status != Status.BUDGET) & (bits.status != Status.BUDGET)
        assert finished.mean() >= 0.75, (n, box)
        for name in ("status", "counts"):
            assert np.array_equal(getattr(dlx, name)[finished], getattr(bits, name)[finished])
        found = bits.counts > 0
        assert grid_errors(puzzles[found], bits.solutions[found], box) == []
        unique = finished & (bits.status == Status.UNIQUE)
        assert np.array_equal(dlx.solutions[unique], bits.solutions[unique])
        seen.update(Status(s).name for s in bits.status[finished])
    assert {"UNIQUE", "MULTIPLE", "NO_SOLUTION"} <= seen


def test_bands_agrees_on_counts_and_contradictions_of_9x9_grids():
    # many holes (counts far above 2, compared up to a high limit), few holes, and
    # no-solution puzzles: every backtracking path of the band engine is taken
    rng = np.random.default_rng(11)
    puzzles = holed_puzzles(9, (3, 3), rng, 40)
    puzzles[:2] = 0  # empty grids (6.67e21 solutions): counted to the limit
    for limit in (1, 2, 700):
        results = _solve_all(puzzles, limit=limit)
        assert set(results) == {"dlx", "bits", "bands"}
        _assert_agree(results["dlx"], results["bands"])
        assert results["bands"].counts[0] == limit
    statuses = {Status(s).name for s in results["bands"].status}
    assert {"UNIQUE", "MULTIPLE", "NO_SOLUTION"} <= statuses


def test_bands_is_for_the_classic_shape_only():
    assert sudoku.pick_engine("auto", 9) == "bands"
    assert sudoku.pick_engine("auto", 9, (3, 3)) == "bands"
    with pytest.raises(ValueError, match='engine "bands" solves 9x9 puzzles with 3x3 boxes'):
        sudoku.solve(np.zeros((1, 16), dtype=np.uint8), engine="bands")
    with pytest.raises(ValueError, match="got 16x16 with 4x4 boxes"):
        sudoku.pick_engine("bands", 16)


def test_engines_agree_on_counts_of_small_grids():
    # 4x4 and 6x6 with many holes: counts far above 2, compared up to a high limit
    rng = np.random.default_rng(7)
    for n, box in [(4, (2, 2)), (6, (2, 3)), (6, (3, 2))]:
        puzzles = holed_puzzles(n, box, rng, 12)
        puzzles[:3] = 0  # empty grids: 288 4x4 grids, 28,200,960 6x6 ones (counted to 5000)
        dlx, bits = _both(puzzles, limit=5000, box=box)
        _assert_agree(dlx, bits)
        assert bits.counts[0] == (288 if n == 4 else 5000)


def test_minimal_puzzles_give_identical_grids_and_fewer_bits_guesses():
    puzzles = random_puzzles(60, seed=31)
    dlx, bits = _both(puzzles, limit=2)
    _assert_agree(dlx, bits)
    assert np.all(bits.status == Status.UNIQUE)
    # locked candidates make the bit-mask engine guess no more often than DLX overall
    assert bits.guesses.sum() <= dlx.guesses.sum()


def test_one_puzzle_helpers_take_the_engine():
    puzzle = "0200004034000000"
    assert sudoku.format_line(sudoku.solve_one(puzzle, engine="bits")) == "4213134234212134"
    for engine in ("auto", "dlx", "bits"):
        assert sudoku.count_solutions("0" * 16, engine=engine) == 288
    grid = "0" * 81
    assert {sudoku.count_solutions(grid, limit=5, engine=e) for e in sudoku.ENGINES} == {5}
    assert (
        grid_errors([sudoku.parse(grid)[0]], [sudoku.solve_one(grid, engine="bands")], (3, 3)) == []
    )
    with pytest.raises(
        ValueError, match="engine must be one of auto, dlx, bits, bands, cages; got 'fast'"
    ):
        sudoku.solve([puzzle], engine="fast")
    with pytest.raises(ValueError, match="engine"):
        sudoku.count_solutions(puzzle, engine="DLX")
    with pytest.raises(ValueError, match="invalid puzzle: digit 1 appears twice in row 1"):
        sudoku.solve_one("11" + "0" * 14, engine="bits")


def test_auto_picks_an_exact_engine_for_every_size():
    for n, box in _box_shapes():
        assert sudoku.pick_engine("auto", n, box) in _engines_for(n, box)
    result = sudoku.solve(random_puzzles(3, seed=5))
    assert result.engine == sudoku.pick_engine("auto", 9)


def test_invalid_rows_are_the_same_for_both_engines():
    puzzles = random_puzzles(4, seed=8)
    puzzles[1, :2] = [5, 5]
    puzzles[2, 0] = 10  # a value above n
    dlx, bits = _both(puzzles)
    _assert_agree(dlx, bits)
    assert bits.status_names().tolist() == ["UNIQUE", "INVALID", "INVALID", "UNIQUE"]
    assert bits.nodes[1] == bits.guesses[1] == 0


# ------------------------------------------------------------------ budgets
@pytest.mark.parametrize("engine", ["bits", "bands"])
def test_bit_engines_max_nodes_give_budget_at_exactly_that_many_nodes(engine):
    empty = np.zeros((2, 81), dtype=np.uint8)
    result = sudoku.solve(empty, limit=10**12, max_nodes=500, engine=engine)
    assert np.all(result.status == Status.BUDGET) and np.all(result.nodes == 500)
    assert np.all(result.counts > 0)
    assert grid_errors(empty, result.solutions, (3, 3)) == []
    with pytest.raises(BudgetExceeded, match="max_nodes=40"):
        sudoku.count_solutions("0" * 81, max_nodes=40, engine=engine)
    # a node budget too small for the search, large enough for propagation alone
    forum = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
    assert sudoku.solve([forum], max_nodes=1, engine=engine).status[0] in (
        Status.BUDGET,
        Status.UNIQUE,
    )


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["bits", "bands"])
@pytest.mark.parametrize("seconds", [0.0, 0.5])
def test_bit_engines_timeout_returns_on_time(seconds, engine):
    sudoku.warm_up((engine,))  # every kernel of the engine loaded before the timing
    batch = np.concatenate([np.zeros((3, 81), dtype=np.uint8), random_puzzles(50, seed=9)])
    start = time.perf_counter()
    result = sudoku.solve(batch, limit=10**12, timeout=seconds, engine=engine)
    took = time.perf_counter() - start
    assert took < seconds + 0.25
    assert np.all(result.status[:3] == Status.BUDGET)
    done = result.status[3:] != Status.BUDGET
    if seconds:
        assert done.all()
    assert grid_errors(batch[3:][done], result.solutions[3:][done], (3, 3)) == []


# ---------------------------------------------------------------------- CLI
def test_cli_engine_option(tmp_path, capsys):
    puzzles = random_puzzles(5, seed=12)
    source = tmp_path / "in.txt"
    source.write_text("\n".join(sudoku.format_lines(puzzles)) + "\n")
    lines = {}
    for engine in ("dlx", "bits", "bands"):
        out = tmp_path / f"{engine}.txt"
        assert main(["solve", str(source), "-o", str(out), "--engine", engine]) == 0
        lines[engine] = out.read_text()
    assert lines["dlx"] == lines["bits"] == lines["bands"]
    assert grid_errors(puzzles, sudoku.parse(lines["bits"].splitlines()), (3, 3)) == []
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["solve", str(source), "--engine", "fast"])
    assert "invalid choice: 'fast'" in capsys.readouterr().err


# ----------------------------------------------------------- parallel units
@pytest.mark.slow
def test_fetch_add_hands_out_every_unit_exactly_once():
    # threads of one prange take units from a shared counter: none lost, none twice
    import numba
    from numba import njit, prange

    from numbadlx.sudoku.engines import fetch_add
    from numbadlx.sudoku.parallel import parallel_threads

    @njit(parallel=True)
    def take_all(n_units, lanes, work):
        taken = np.zeros(n_units, dtype=np.int64)
        by_lane = np.zeros(lanes, dtype=np.int64)
        next_unit = np.zeros(1, dtype=np.int64)
        for lane in prange(lanes):
            while True:
                unit = fetch_add(next_unit, 0, 1)
                if unit >= n_units:
                    break
                taken[unit] += 1
                by_lane[lane] += 1
                x = 0.0
                for r in range(work[unit]):  # uneven units, the heavy ones first
                    x = x * 0.5 + r
                work[unit] = np.int64(x) & 1
        return taken, by_lane, next_unit  # (an element read here came out 0: see fetch_add)

    lanes = min(4, numba.config.NUMBA_NUM_THREADS)
    for n_units, heaviest in ((0, 0), (1, 9), (7, 20000), (5000, 20000), (200_000, 0)):
        # the last: units with no work, so that the threads take them at the same time
        work = np.linspace(heaviest, 0, n_units).astype(np.int64)
        with parallel_threads(lanes):
            taken, by_lane, final = take_all(n_units, lanes, work)
        assert np.all(taken == 1)
        assert by_lane.sum() == n_units
        assert final[0] == n_units + lanes  # each lane's last call found no unit left


@pytest.mark.parametrize("engine", ["dlx", "bits", "bands"])
def test_threads_sharing_the_units_equal_one_call_for_any_unit_size(engine):
    # every engine's batch kernel runs the one bulk loop: one call on one thread, or
    # calls at once on several threads sharing one counter, same rows, same results
    from numbadlx._stopping import call_on_lanes, new_flag
    from numbadlx.sudoku.engines import REGISTRY
    from numbadlx.sudoku.geometry import unit_table

    rng = np.random.default_rng(21)
    puzzles = np.concatenate([random_puzzles(150, seed=22), holed_puzzles(9, (3, 3), rng, 40)])
    puzzles[5, :2] = [7, 7]  # INVALID rows are cleared, not solved
    invalid = np.zeros(len(puzzles), dtype=np.uint8)
    invalid[5] = Status.INVALID
    table = unit_table(9)
    kernel = REGISTRY[engine].solve_units

    def run(chunk, lanes):
        out = (
            np.zeros_like(puzzles),
            invalid.copy(),
            np.zeros(len(puzzles), dtype=np.int64),
            np.zeros(len(puzzles), dtype=np.int64),
            np.zeros(len(puzzles), dtype=np.int64),
        )
        counter = np.zeros(1, np.int64)
        with new_flag() as stop:
            call_on_lanes(kernel, stop, lanes, puzzles, table, 3, 0, stop, chunk, counter, *out)
        units = -(-len(puzzles) // chunk)
        assert counter[0] == units + lanes  # each lane's last take found no unit left
        return out

    serial = run(len(puzzles), 1)
    assert serial[1][5] == Status.INVALID and not serial[0][5].any()
    assert (serial[1][serial[1] != Status.INVALID] != Status.NOT_RUN).all()
    for chunk in (1, 3, 64, 1000):
        for lanes in (1, 2, 5):  # 5: more lanes than cores
            parallel = run(chunk, lanes)
            for a, b in zip(serial, parallel):
                assert np.array_equal(a, b), (chunk, lanes)


# ----------------------------------------------------------- the engines' contract
def test_every_engine_keeps_the_one_contract():
    # one signature for every engine's four kernels, one set of statuses, one registry
    import inspect

    from numbadlx.sudoku import engines

    kernels = ("allocate_work", "solve_one", "solve_units")

    def parameters(engine):
        return [list(inspect.signature(getattr(engine, k).py_func).parameters) for k in kernels]

    first = parameters(engines.REGISTRY["dlx"])
    assert first[1] == ["grid", "table", "limit", "max_nodes", "stop", "work", "solution"]
    for name, engine in engines.REGISTRY.items():
        assert engine.name == name and parameters(engine) == first, name
    assert engines.ENGINES == sudoku.ENGINES == ("auto", *engines.REGISTRY)
    assert {s.name: int(s) for s in Status} == {
        name: getattr(engines, name)
        for name in ("NOT_RUN", "UNIQUE", "SOLVED", "MULTIPLE", "NO_SOLUTION", "INVALID", "BUDGET")
    }
    # "auto" takes the best-ranked engine that fits the shape
    assert sudoku.pick_engine("auto", 9) == "bands"
    assert sudoku.pick_engine("auto", 9, (3, 3)) == "bands"
    assert sudoku.pick_engine("auto", 16) == sudoku.pick_engine("auto", 6, (3, 2)) == "bits"


@pytest.mark.parametrize(
    "n,box", [(4, (2, 2)), (6, (2, 3)), (6, (3, 2)), (12, (3, 4)), (9, (3, 3))]
)
def test_unit_table_is_the_rows_columns_and_boxes(n, box):
    # the one geometry every engine takes, against its definition cell by cell
    from numbadlx.sudoku.geometry import unit_table

    table = unit_table(n, box)
    rows, cols = box
    where = [(c // n, c % n, (c // n // rows) * (n // cols) + c % n // cols) for c in range(n * n)]
    units = [
        [c for c in range(n * n) if where[c][kind] == u] for kind in range(3) for u in range(n)
    ]
    assert table.units.tolist() == units
    assert table.cell_units.tolist() == [[r, n + c, 2 * n + b] for r, c, b in where]
    peers = [
        [p for p in range(n * n) if p != c and any(x == y for x, y in zip(where[c], where[p]))]
        for c in range(n * n)
    ]
    assert table.peers.tolist() == peers
    assert (table.n, table.box_rows, table.box_cols) == (n, rows, cols)
    assert not table.units.flags.writeable and unit_table(n, box) is table


def _singles_reference(grid, n, units, peers):
    """Naked and hidden singles to their fixed point, in plain Python: the candidates
    of each cell (a list of sets), or None on a contradiction."""
    cand = [{int(v)} if v else set(range(1, n + 1)) for v in grid]
    for cell, v in enumerate(grid):
        if v:
            for p in peers[cell]:
                cand[p].discard(int(v))
    placed = {cell for cell, v in enumerate(grid) if v}
    while True:
        if any(not c for c in cand):
            return None
        single = next((c for c in range(n * n) if c not in placed and len(cand[c]) == 1), None)
        if single is None:
            for unit in units:
                for d in range(1, n + 1):
                    places = [c for c in unit if d in cand[c]]
                    if not places:
                        return None
                    if len(places) == 1 and places[0] not in placed and len(cand[places[0]]) > 1:
                        single = places[0]
                        cand[single] = {d}
                        break
                if single is not None:
                    break
        if single is None:
            return cand
        placed.add(single)
        (d,) = cand[single]
        for p in peers[single]:
            if d in cand[p] and p in placed:
                return None
            cand[p].discard(d)


@pytest.mark.parametrize("n,box", [(4, (2, 2)), (6, (2, 3)), (9, (3, 3))])
def test_making_searches_with_the_engines_propagation(n, box):
    # one singles propagation in the package: the making kernels call the engines' own
    # (settle_singles: the singles of the propagation the bits engine searches with,
    # without locked candidates), and it reaches the fixed point of naked and hidden
    # singles from a grid's givens
    import inspect

    from numbadlx.sudoku import engines, making
    from numbadlx.sudoku.engines import _bits, _propagation
    from numbadlx.sudoku.geometry import unit_table, unit_tables
    from numbadlx.sudoku.making import _masks, _search

    assert _search.settle_singles is engines.settle_singles is _propagation.settle_singles
    assert engines.propagate is _bits.propagate
    assert "settle_singles(" in inspect.getsource(_propagation.propagate.py_func)
    assert _search.place is engines.place is _bits.place
    assert _search.queue_singles is engines.queue_singles
    for module in (_search, _masks):
        own = {
            name
            for name, f in vars(module).items()
            if getattr(f, "__module__", "") == module.__name__
        }
        assert not own & set(vars(_propagation)), module.__name__
    units, peers, _ = unit_tables(n, *box)
    table = unit_table(n, box)
    full = np.uint64((1 << n) - 1)
    rng = np.random.default_rng(n)
    grids = making.random_grids(30, n, box, seed=n)
    queue = np.empty(16 * n * n + 64, dtype=np.int32)
    contradictions = 0
    for k, grid in enumerate(grids):
        puzzle = grid.copy()
        puzzle[rng.permutation(n * n)[: rng.integers(n * n // 2, n * n - 1)]] = 0
        if k % 3 == 0:  # a wrong given now and then, for contradictions
            cell = int(rng.choice(np.flatnonzero(puzzle)))
            puzzle[cell] = puzzle[cell] % n + 1
        cand = np.empty(n * n, dtype=np.uint64)
        if not _masks.candidates_of(puzzle, cand, peers, full):
            continue
        got = _search.singles(cand, units, peers, queue)
        expected = _singles_reference(puzzle, n, table.units.tolist(), table.peers.tolist())
        if expected is None:
            contradictions += 1
            assert got < 0
            continue
        assert got >= 0
        digits = [{d + 1 for d in range(n) if int(m) >> d & 1} for m in cand]
        assert digits == expected
    assert contradictions > 0
