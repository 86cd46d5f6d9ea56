"""The built-in problems with colours and multiplicities against counts made apart:
word squares and crossword fills by brute force, matrices with given line sums and
queens through multiplicities against OEIS, domino tilings against a polynomial."""

import itertools

import numpy as np
import pytest

from numbadlx import problems, verify

# ------------------------------------------------------------------ problems: colours


def _brute_force_grids(pattern, words, distinct):
    """Count crossword fills by filling the slots one by one in plain Python: an
    independent check of :func:`problems.crossword` (no exact cover involved)."""
    rows = [list(row) for row in pattern]
    height, width = len(rows), len(rows[0])
    slots = []
    for r in range(height):
        for c in range(width):
            for dr, dc in ((0, 1), (1, 0)):
                if rows[r][c] == "#" or (
                    0 <= r - dr and 0 <= c - dc and rows[r - dr][c - dc] != "#"
                ):
                    continue
                cells = []
                rr, cc = r, c
                while rr < height and cc < width and rows[rr][cc] != "#":
                    cells.append((rr, cc))
                    rr, cc = rr + dr, cc + dc
                if len(cells) >= 2:
                    slots.append(cells)
    # fill the slot that crosses the most filled ones next, so clashes show early
    ordered = []
    while slots:
        filled = {cell for cells in ordered for cell in cells}
        best = max(slots, key=lambda cells: sum(cell in filled for cell in cells))
        slots.remove(best)
        ordered.append(best)
    slots = ordered
    by_length = {}
    partial = set()  # every word with any of its letters blanked out
    for word in dict.fromkeys(words):
        by_length.setdefault(len(word), []).append(word)
        for mask in itertools.product((False, True), repeat=len(word)):
            partial.add("".join("." if m else ch for m, ch in zip(mask, word)))
    crossing = [
        [j for j, other in enumerate(slots) if j != k and set(other) & set(cells)]
        for k, cells in enumerate(slots)
    ]

    def fill(k, used):
        if k == len(slots):
            return 1
        total = 0
        cells = slots[k]
        for word in by_length.get(len(cells), []):
            if distinct and word in used:
                continue
            if all(rows[r][c] in (".", ch) for (r, c), ch in zip(cells, word)):
                saved = [rows[r][c] for r, c in cells]
                for (r, c), ch in zip(cells, word):
                    rows[r][c] = ch
                # forward check: each crossing slot must still fit some word
                if all("".join(rows[r][c] for r, c in slots[j]) in partial for j in crossing[k]):
                    total += fill(k + 1, used | {word})
                for (r, c), ch in zip(cells, saved):
                    rows[r][c] = ch
        return total

    return fill(0, frozenset())


def _three_by_three_squares(words, distinct):
    """Count 3 x 3 grids whose rows and columns are all words, by testing every triple
    of rows at once with NumPy (with ``distinct``, the six words must differ)."""
    codes = np.array([[ord(ch) - 97 for ch in word] for word in words])
    is_word = np.zeros((26, 26, 26), dtype=bool)
    is_word[codes[:, 0], codes[:, 1], codes[:, 2]] = True
    total = 0
    for top in codes:
        ok = np.ones((len(codes), len(codes)), dtype=bool)  # (middle row, bottom row)
        for j in range(3):
            ok &= is_word[top[j], codes[:, j][:, None], codes[:, j][None, :]]
        for middle, bottom in zip(*np.nonzero(ok)):
            grid = [top, codes[middle], codes[bottom]]
            lines = {tuple(row) for row in grid} | {tuple(col) for col in zip(*grid)}
            total += len(lines) == 6 or not distinct
    return total


@pytest.mark.slow
@pytest.mark.parametrize("distinct", [True, False])
def test_word_squares_on_builtin_words_match_brute_force(distinct):
    # derived independently: every grid whose rows and columns are words of WORDS3
    # (with distinct, all six words differ)
    expected = _three_by_three_squares(problems.WORDS3, distinct)
    problem = problems.word_square(3, distinct=distinct)
    assert problem.count() == expected == (8042 if distinct else 22025)
    for solution in problem.solutions(limit=20):
        assert verify(problem, solution)
        grid = problems.crossword_grid(problem, solution)
        words = grid + ["".join(col) for col in zip(*grid)]
        assert all(word in problems.WORDS3 for word in words)
        if distinct:
            assert len(set(words)) == 6


@pytest.mark.slow
@pytest.mark.parametrize(
    "pattern", [["c..", ".#.", "..t"], ["...#", ".#..", "...."], ["s..", "...", "..."]]
)
def test_crossword_fills_match_brute_force(pattern):
    words = problems.WORDS3 + ("oxen", "tame", "ease", "aloe", "opal", "area", "idea")
    expected = _brute_force_grids(pattern, words, True)
    problem = problems.crossword(pattern, words)
    assert problem.count() == expected
    for solution in problem.solutions(limit=5):
        grid = problems.crossword_grid(problem, solution)
        assert all(g == p or p == "." for gr, pr in zip(grid, pattern) for g, p in zip(gr, pr))


# ------------------------------------------------------------------ problems: multiplicities


def _matrices_with_line_sums(n, k):
    """0/1 n x n matrices with every row and column sum k, row by row over the
    column-sum vector (dynamic programming, independent of exact cover)."""
    states = {tuple([0] * n): 1}
    for _ in range(n):
        nxt = {}
        for sums, ways in states.items():
            for cols in itertools.combinations(range(n), k):
                new = list(sums)
                for c in cols:
                    new[c] += 1
                if max(new) <= k:
                    key = tuple(new)
                    nxt[key] = nxt.get(key, 0) + ways
        states = nxt
    return states.get(tuple([k] * n), 0)


@pytest.mark.parametrize("n, expected", [(2, 1), (3, 6), (4, 90), (5, 2040), (6, 67950)])
def test_two_per_row_and_column_oeis_a001499(n, expected):
    assert _matrices_with_line_sums(n, 2) == expected  # the DP agrees with OEIS A001499
    problem = problems.k_per_row_and_column(n, 2)
    assert problem.algorithm == "M"
    assert problem.count() == expected
    assert verify(problem, problem.solve())


def test_three_per_row_and_column_matches_dp():
    problem = problems.k_per_row_and_column(5, 3)
    assert problem.count() == _matrices_with_line_sums(5, 3) == 2040  # complement of k = 2


@pytest.mark.parametrize("n, expected", [(4, 2), (5, 10), (6, 4), (7, 40), (8, 92)])
def test_queens_through_multiplicities_oeis_a000170(n, expected):
    # rows and columns exactly 1, diagonals 0..1: N queens as an Algorithm M problem
    problem = problems.k_per_row_and_column(n, 1, max_per_diagonal=1)
    assert problem.algorithm == "M"
    assert problem.count() == expected == problems.n_queens(n).count()


def _two_per_line_with_diagonals(n, d):
    """Brute force: 2 marks per row and column, at most d per diagonal either way."""
    pairs = list(itertools.combinations(range(n), 2))
    count = 0

    def place(r, cols, diag, anti):
        nonlocal count
        if r == n:
            count += all(v == 2 for v in cols)
            return
        for pair in pairs:
            if any(cols[c] == 2 or diag[r + c] == d or anti[r - c + n - 1] == d for c in pair):
                continue
            for c in pair:
                cols[c] += 1
                diag[r + c] += 1
                anti[r - c + n - 1] += 1
            place(r + 1, cols, diag, anti)
            for c in pair:
                cols[c] -= 1
                diag[r + c] -= 1
                anti[r - c + n - 1] -= 1

    place(0, [0] * n, [0] * (2 * n - 1), [0] * (2 * n - 1))
    return count


@pytest.mark.parametrize("n, d", [(4, 1), (5, 2), (6, 2), (6, 1)])
def test_two_per_line_with_diagonal_limit_matches_brute_force(n, d):
    problem = problems.k_per_row_and_column(n, 2, max_per_diagonal=d)
    assert problem.count() == _two_per_line_with_diagonals(n, d)


def _domino_polynomial(rows, cols):
    """Tilings of a rows x cols board by number of horizontal dominoes, by a
    broken-profile transfer matrix (independent of exact cover)."""
    states = {(0, 0): 1}  # (mask of squares ahead already filled, horizontals) -> ways
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        nxt = {}
        for (mask, h), ways in states.items():
            if mask & 1:
                key = (mask >> 1, h)
                nxt[key] = nxt.get(key, 0) + ways
                continue
            if r + 1 < rows:  # vertical: fills the square one row below
                key = ((mask >> 1) | (1 << (cols - 1)), h)
                nxt[key] = nxt.get(key, 0) + ways
            if c + 1 < cols and not mask & 2:  # horizontal: fills the next square
                key = ((mask | 2) >> 1, h + 1)
                nxt[key] = nxt.get(key, 0) + ways
        states = nxt
    result = {}
    for (mask, h), ways in states.items():
        if mask == 0:
            result[h] = result.get(h, 0) + ways
    return result


@pytest.mark.parametrize("rows, cols, total", [(4, 4, 36), (6, 6, 6728), (3, 8, 153)])
def test_domino_tilings_by_horizontal_count(rows, cols, total):
    # totals: OEIS A004003 (4x4: 36, 6x6: 6728) and A001835 (3 x 8: 153)
    by_h = _domino_polynomial(rows, cols)
    assert sum(by_h.values()) == total == problems.domino_tilings(rows, cols).count()
    for h in range(0, rows * cols // 2 + 1):
        problem = problems.domino_tilings(rows, cols, horizontal=h)
        assert problem.count() == by_h.get(h, 0), h
    lo, hi = 2, 6
    ranged = problems.domino_tilings(rows, cols, horizontal=(lo, hi))
    assert ranged.count() == sum(by_h.get(h, 0) for h in range(lo, hi + 1))
    solution = ranged.solve()
    assert verify(ranged, solution)
