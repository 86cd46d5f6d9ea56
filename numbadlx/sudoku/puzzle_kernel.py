"""Kernels that make, transform and rate puzzles (njit; plain arrays in and out).

Candidates are bit masks: ``cand[cell]`` has bit ``d`` set when digit ``d + 1`` may
still go there; a cell whose digit is fixed also carries :data:`PLACED`. The shape of
the grid comes in as tables built once in Python (:func:`numbadlx.sudoku.rate` and
friends make them with :func:`numbadlx.sudoku.shape.unit_tables`):

* ``units``: ``(3 n, n)`` cells of every row, column and box;
* ``peers``: ``(n^2, P)`` the cells sharing a row, column or box with a cell;
* ``where``: ``(n^2, 3)`` the row, column and box of a cell.

Pieces, each used by several public functions:

* a small random generator (SplitMix64) whose state is one uint64 per puzzle, seeded
  from ``(seed, puzzle index)``, so results never depend on the thread that made them;
* :func:`propagate` (naked and hidden singles) and :func:`search`, a depth-first search
  over cells with fewest candidates that counts its guesses; with ``randomise`` it breaks
  ties and orders digits at random, which is how random full grids are made;
* :func:`logic_solve`, a human-style solver on a ladder of techniques (singles, locked
  candidates, subsets, fish, wings, chains and trials, :func:`apply_technique`) that
  records its steps;
* :func:`transform_one`, a random isomorph of one puzzle;
* the bulk loops (``prange`` over puzzles) of grids, puzzles, ratings and isomorphs.

Uniqueness while making puzzles is proved by :func:`search` too: blanking cells of a
puzzle whose only solution is known keeps it unique exactly when no solution puts
another digit into one of the blanked cells, one complete search per blanked cell with
the known digit forbidden (cheaper than counting to two). The tests re-check every
puzzle made with the exact-cover solver (:func:`numbadlx.sudoku.solve`).
"""

import numpy as np
from numba import njit, prange

from .engines import popcount as ctpop

ONE = np.uint64(1)
ZERO = np.uint64(0)
PLACED = np.uint64(1) << np.uint64(62)

# outcomes of the solvers
SOLVED = 1
STUCK = 2
CONTRADICTION = 3
BUDGET = 4

# The technique ladder (codes index numbadlx.sudoku.rate.TECHNIQUES).
T_GIVEN = 0
T_HIDDEN_SINGLE_BOX = 1
T_HIDDEN_SINGLE_LINE = 2
T_NAKED_SINGLE = 3
T_POINTING = 4
T_CLAIMING = 5
T_NAKED_PAIR = 6
T_X_WING = 7
T_HIDDEN_PAIR = 8
T_NAKED_TRIPLE = 9
T_SWORDFISH = 10
T_HIDDEN_TRIPLE = 11
T_XY_WING = 12
T_XYZ_WING = 13
T_NAKED_QUAD = 14
T_JELLYFISH = 15
T_HIDDEN_QUAD = 16
T_X_CHAIN = 17
T_FORCING_CHAIN = 18
T_NISHIO = 19
T_DYNAMIC_CHAIN = 20
T_DYNAMIC_CHAIN_PLUS = 21
T_SEARCH = 22
# the rungs from T_NISHIO up assume a candidate and follow its consequences (trials)
T_FIRST_TRIAL = T_NISHIO
# step record columns: technique, cell, digit, candidates removed (0 for a placement)
STEP_FIELDS = 4


# ---------------------------------------------------------------- tables


def full_mask(n):
    """The candidate mask with all n digits."""
    return np.uint64((1 << n) - 1)


# ---------------------------------------------------------------- bits and randomness


@njit(cache=True, nogil=True, inline="always")
def popcount(x):
    """Number of set bits of a uint64, as int64 (a uint64 would mix into floats)."""
    return np.int64(ctpop(x))


@njit(cache=True, nogil=True, inline="always")
def lowest_bit(x):
    """The lowest set bit of ``x`` (0 if none)."""
    return x & (~x + ONE)


@njit(cache=True, nogil=True, inline="always")
def bit_index(bit):
    """Position of a single set bit (digit ``d + 1`` has bit ``d``)."""
    return popcount(bit - ONE)


@njit(cache=True, nogil=True, inline="always")
def next_random(state):
    """SplitMix64: advance ``state[0]`` and return 64 random bits."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True, inline="always")
def random_below(state, k):
    """A random integer in ``0..k-1`` (the modulo bias is below 2**-58 here)."""
    return int(next_random(state) % np.uint64(k))


@njit(cache=True, nogil=True)
def seed_state(seed, index, state):
    """The generator state of puzzle ``index`` of a run with ``seed``."""
    state[0] = np.uint64(seed) * np.uint64(0xD1B54A32D192ED03) + np.uint64(index)
    next_random(state)
    next_random(state)


@njit(cache=True, nogil=True)
def shuffle(values, count, state):
    """Fisher-Yates shuffle of ``values[:count]``."""
    for i in range(count - 1, 0, -1):
        j = random_below(state, i + 1)
        t = values[i]
        values[i] = values[j]
        values[j] = t


@njit(cache=True, nogil=True, inline="always")
def random_bit(mask, state):
    """A set bit of ``mask`` chosen at random."""
    k = random_below(state, popcount(mask))
    for _ in range(k):
        mask &= mask - ONE
    return lowest_bit(mask)


# ---------------------------------------------------------------- singles


@njit(cache=True, nogil=True)
def place(cand, cell, bit, peers, stack, top):
    """Fix ``bit`` in ``cell`` and remove it from the peers; cells left with one
    candidate go on ``stack``. Returns the new stack top, or -1 on a contradiction."""
    cand[cell] = bit | PLACED
    for j in range(peers.shape[1]):
        p = peers[cell, j]
        c = cand[p]
        if c & bit:
            if c & PLACED:
                return -1
            c &= ~bit
            if c == ZERO:
                return -1
            cand[p] = c
            if (c & (c - ONE)) == ZERO:
                stack[top] = p
                top += 1
    return top


@njit(cache=True, nogil=True)
def drain(cand, peers, stack, top):
    """Place every cell on ``stack`` that still has a single candidate (naked singles,
    repeated until none is left). Returns the number placed, or -1."""
    placed = 0
    while top > 0:
        top -= 1
        p = stack[top]
        c = cand[p]
        if c & PLACED:
            continue
        top = place(cand, p, c, peers, stack, top)
        if top < 0:
            return -1
        placed += 1
    return placed


@njit(cache=True, nogil=True)
def propagate(cand, units, peers, stack, full):
    """Naked and hidden singles until neither applies. Returns the number of cells
    placed, or -1 on a contradiction (a cell without candidates, a digit without a
    place in some unit)."""
    n = units.shape[1]
    top = 0
    for cell in range(cand.shape[0]):
        c = cand[cell]
        if not (c & PLACED) and (c & (c - ONE)) == ZERO:
            if c == ZERO:
                return -1
            stack[top] = cell
            top += 1
    placed = drain(cand, peers, stack, top)
    if placed < 0:
        return -1
    while True:
        found = False
        for u in range(units.shape[0]):
            once = ZERO
            twice = ZERO
            done = ZERO
            for j in range(n):
                c = cand[units[u, j]]
                if c & PLACED:
                    done |= c
                else:
                    twice |= once & c
                    once |= c
            done &= ~PLACED
            if (once | done) != full:
                return -1
            hidden = once & ~twice & ~done
            if hidden == ZERO:
                continue
            top = 0
            while hidden:
                bit = lowest_bit(hidden)
                hidden ^= bit
                for j in range(n):
                    cell = units[u, j]
                    c = cand[cell]
                    if not (c & PLACED) and (c & bit):
                        cand[cell] = bit
                        stack[top] = cell
                        top += 1
                        break
            more = drain(cand, peers, stack, top)
            if more < 0:
                return -1
            placed += more
            found = True
        if not found:
            return placed


@njit(cache=True, nogil=True)
def candidates_of(puzzle, cand, peers, full):
    """Candidates of a puzzle with its givens placed; False if the givens clash or a
    value is above n."""
    nn = puzzle.shape[0]
    for cell in range(nn):
        cand[cell] = full
    for cell in range(nn):
        v = puzzle[cell]
        if v != 0:
            bit = ONE << np.uint64(v - 1)
            if (bit & full) == ZERO or not (cand[cell] & bit) or (cand[cell] & PLACED):
                return False
            cand[cell] = bit | PLACED
            for j in range(peers.shape[1]):
                p = peers[cell, j]
                if cand[p] & PLACED:
                    if cand[p] & bit:
                        return False
                else:
                    cand[p] &= ~bit
    return True


# ---------------------------------------------------------------- search


@njit(cache=True, nogil=True)
def choose_cell(cand, randomise, state):
    """The unplaced cell with fewest candidates (-1 if all are placed): the first such
    cell, or with ``randomise`` one of them at random."""
    best = 1 << 30
    cell = -1
    ties = 0
    for k in range(cand.shape[0]):
        c = cand[k]
        if c & PLACED:
            continue
        s = popcount(c)
        if s < best:
            best = s
            cell = k
            ties = 1
            if s == 2 and not randomise:
                break
        elif s == best and randomise:
            ties += 1
            if random_below(state, ties) == 0:
                cell = k
    return cell


@njit(cache=True, nogil=True)
def search(
    states, todo, cells, stack, units, peers, full, limit, max_guesses, randomise, state, solution
):
    """Depth-first search from the candidates in ``states[0]``: singles after every
    choice, branching on a cell with fewest candidates.

    A *guess* is a digit tried in a cell while other digits of that cell are still
    untried (the last one left is forced, not a guess). Returns ``(solutions up to
    limit, guesses, complete)``; the first solution goes to ``solution`` (digits 1..n).
    ``max_guesses`` > 0 stops the search there (complete False).
    """
    guesses = 0
    count = 0
    if propagate(states[0], units, peers, stack, full) < 0:
        return 0, 0, True
    level = 0
    choose = True
    nn = states.shape[1]
    while True:
        if choose:
            cur = states[level]
            cell = choose_cell(cur, randomise, state)
            if cell < 0:
                count += 1
                if count == 1:
                    for k in range(nn):
                        solution[k] = bit_index(cur[k] & ~PLACED) + 1
                if count >= limit:
                    return count, guesses, True
                level -= 1
                if level < 0:
                    return count, guesses, True
                choose = False
                continue
            cells[level] = cell
            todo[level] = cur[cell]
        t = todo[level]
        if t == ZERO:
            level -= 1
            if level < 0:
                return count, guesses, True
            choose = False
            continue
        bit = random_bit(t, state) if randomise else lowest_bit(t)
        t ^= bit
        todo[level] = t
        if t != ZERO:
            guesses += 1
            if max_guesses > 0 and guesses > max_guesses:
                return count, guesses, False
        child = states[level + 1]
        child[:] = states[level]
        child[cells[level]] = bit
        if propagate(child, units, peers, stack, full) < 0:
            choose = False
            continue
        level += 1
        choose = True


@njit(cache=True, nogil=True)
def search_work(nn):
    """Work arrays of :func:`search` for grids of ``nn`` cells."""
    states = np.zeros((nn + 2, nn), dtype=np.uint64)
    todo = np.zeros(nn + 2, dtype=np.uint64)
    cells = np.zeros(nn + 2, dtype=np.int64)
    stack = np.zeros(16 * nn + 64, dtype=np.int32)
    return states, todo, cells, stack


@njit(cache=True, nogil=True)
def random_grid_into(out, units, peers, full, state, states, todo, cells, stack):
    """A random full grid, by :func:`search` with random choices from the empty grid.
    Restarts (with the generator moved on) when a search meets too many dead ends."""
    nn = out.shape[0]
    budget = 2 * nn
    while True:
        for k in range(nn):
            states[0, k] = full
        count, _, _ = search(
            states, todo, cells, stack, units, peers, full, 1, budget, True, state, out
        )
        if count == 1:
            return
        budget *= 2


# ---------------------------------------------------------------- the logic ladder


@njit(cache=True, nogil=True, inline="always")
def sees(where, a, b):
    """True if two different cells share a row, column or box."""
    return a != b and (
        where[a, 0] == where[b, 0] or where[a, 1] == where[b, 1] or where[a, 2] == where[b, 2]
    )


@njit(cache=True, nogil=True)
def record(steps, n_steps, technique, cell, digit, removed):
    """Write one step as row ``n_steps`` of ``steps`` (if it fits); the new count."""
    if n_steps < steps.shape[0]:
        steps[n_steps, 0] = technique
        steps[n_steps, 1] = cell
        steps[n_steps, 2] = digit
        steps[n_steps, 3] = removed
    return n_steps + 1


@njit(cache=True, nogil=True)
def eliminate(cand, cell, mask, first):
    """Remove ``mask`` from an unplaced cell; returns how many candidates went, and
    remembers the first (cell, digit) removed in ``first``."""
    c = cand[cell]
    if c & PLACED:
        return 0
    gone = c & mask
    if gone == ZERO:
        return 0
    cand[cell] = c & ~mask
    if first[0] < 0:
        first[0] = cell
        first[1] = bit_index(lowest_bit(gone)) + 1
    return popcount(gone)


@njit(cache=True, nogil=True)
def place_single(cand, cell, bit, peers):
    """Place one digit found by a single; False on a contradiction."""
    cand[cell] = bit | PLACED
    for j in range(peers.shape[1]):
        p = peers[cell, j]
        c = cand[p]
        if c & bit:
            if c & PLACED:
                return False
            c &= ~bit
            if c == ZERO:
                return False
            cand[p] = c
    return True


@njit(cache=True, nogil=True)
def find_hidden_single(cand, units, full, first_unit, last_unit):
    """A hidden single in units ``first_unit..last_unit-1``: ``(cell, bit)``, ``(-2, 0)``
    on a contradiction, ``(-1, 0)`` if none."""
    n = units.shape[1]
    for u in range(first_unit, last_unit):
        once = ZERO
        twice = ZERO
        done = ZERO
        for j in range(n):
            c = cand[units[u, j]]
            if c & PLACED:
                done |= c
            else:
                twice |= once & c
                once |= c
        done &= ~PLACED
        if (once | done) != full:
            return -2, ZERO
        hidden = once & ~twice & ~done
        if hidden:
            bit = lowest_bit(hidden)
            for j in range(n):
                cell = units[u, j]
                if not (cand[cell] & PLACED) and (cand[cell] & bit):
                    return cell, bit
    return -1, ZERO


@njit(cache=True, nogil=True)
def next_combination(index, k, m):
    """Advance ``index[:k]`` to the next k-subset of ``0..m-1``; False after the last."""
    i = k - 1
    while i >= 0 and index[i] == m - k + i:
        i -= 1
    if i < 0:
        return False
    index[i] += 1
    for j in range(i + 1, k):
        index[j] = index[j - 1] + 1
    return True


@njit(cache=True, nogil=True)
def naked_subset(cand, units, k, first, members):
    """k cells of a unit holding only k digits between them: those digits leave the
    unit's other cells. Returns the number of candidates removed."""
    n = units.shape[1]
    index = np.zeros(4, dtype=np.int64)
    for u in range(units.shape[0]):
        m = 0
        for j in range(n):
            c = cand[units[u, j]]
            if not (c & PLACED):
                s = popcount(c)
                if 2 <= s <= k:
                    members[m] = units[u, j]
                    m += 1
        if m < k:
            continue
        for j in range(k):
            index[j] = j
        while True:
            union = ZERO
            for j in range(k):
                union |= cand[members[index[j]]]
            if popcount(union) == k:
                removed = 0
                for j in range(n):
                    cell = units[u, j]
                    inside = False
                    for t in range(k):
                        if members[index[t]] == cell:
                            inside = True
                    if not inside:
                        removed += eliminate(cand, cell, union, first)
                if removed:
                    return removed
            if not next_combination(index, k, m):
                break
    return 0


@njit(cache=True, nogil=True)
def hidden_subset(cand, units, k, first, positions, digits):
    """k digits of a unit that fit only in the same k cells: those cells lose every other
    digit. Returns the number of candidates removed."""
    n = units.shape[1]
    index = np.zeros(4, dtype=np.int64)
    for u in range(units.shape[0]):
        for d in range(n):
            positions[d] = 0
        placed = ZERO
        for j in range(n):
            c = cand[units[u, j]]
            if c & PLACED:
                placed |= c
                continue
            rest = c
            while rest:
                bit = lowest_bit(rest)
                rest ^= bit
                positions[bit_index(bit)] |= np.int64(1) << j
        m = 0
        for d in range(n):
            if not (placed & (ONE << np.uint64(d))):
                s = popcount(np.uint64(positions[d]))
                if 2 <= s <= k:
                    digits[m] = d
                    m += 1
        if m < k:
            continue
        for j in range(k):
            index[j] = j
        while True:
            where = np.int64(0)
            keep = ZERO
            for j in range(k):
                where |= positions[digits[index[j]]]
                keep |= ONE << np.uint64(digits[index[j]])
            if popcount(np.uint64(where)) == k:
                removed = 0
                for j in range(n):
                    if where & (np.int64(1) << j):
                        removed += eliminate(cand, units[u, j], ~keep & ~PLACED, first)
                if removed:
                    return removed
            if not next_combination(index, k, m):
                break
    return 0


@njit(cache=True, nogil=True)
def locked_candidates(cand, units, where, pointing, first):
    """Pointing (a box's digit confined to one row or column leaves the rest of that
    line) or claiming (a line's digit confined to one box leaves the rest of the box)."""
    n = units.shape[1]
    for d in range(n):
        bit = ONE << np.uint64(d)
        if pointing:
            first_unit, last_unit = 2 * n, 3 * n
        else:
            first_unit, last_unit = 0, 2 * n
        for u in range(first_unit, last_unit):
            line_r = -1
            line_c = -1
            box = -1
            same_r = True
            same_c = True
            same_b = True
            count = 0
            for j in range(n):
                cell = units[u, j]
                c = cand[cell]
                if (c & PLACED) or not (c & bit):
                    continue
                count += 1
                if count == 1:
                    line_r = where[cell, 0]
                    line_c = where[cell, 1]
                    box = where[cell, 2]
                else:
                    same_r = same_r and where[cell, 0] == line_r
                    same_c = same_c and where[cell, 1] == line_c
                    same_b = same_b and where[cell, 2] == box
            if count < 2:
                continue
            removed = 0
            if pointing:
                for target, same in ((line_r, same_r), (n + line_c, same_c)):
                    if same:
                        for j in range(n):
                            cell = units[target, j]
                            if where[cell, 2] != box:
                                removed += eliminate(cand, cell, bit, first)
            elif same_b:
                for j in range(n):
                    cell = units[2 * n + box, j]
                    if (u < n and where[cell, 0] != line_r) or (
                        u >= n and where[cell, 1] != line_c
                    ):
                        removed += eliminate(cand, cell, bit, first)
            if removed:
                return removed
    return 0


@njit(cache=True, nogil=True)
def fish(cand, units, k, first, lines, masks):
    """X-wing (k = 2), swordfish (3), jellyfish (4): a digit confined, in k rows, to the
    same k columns leaves those columns' other rows (and the same with rows and columns
    swapped)."""
    n = units.shape[1]
    index = np.zeros(4, dtype=np.int64)
    for d in range(n):
        bit = ONE << np.uint64(d)
        for base in range(2):
            cover = 1 - base
            m = 0
            for line in range(n):
                mask = np.int64(0)
                placed = False
                u = base * n + line
                for j in range(n):
                    c = cand[units[u, j]]
                    if c & bit:
                        if c & PLACED:
                            placed = True
                            break
                        mask |= np.int64(1) << j
                if placed:
                    continue
                s = popcount(np.uint64(mask))
                if 2 <= s <= k:
                    lines[m] = line
                    masks[m] = mask
                    m += 1
            if m < k:
                continue
            for j in range(k):
                index[j] = j
            while True:
                union = np.int64(0)
                for j in range(k):
                    union |= masks[index[j]]
                if popcount(np.uint64(union)) == k:
                    removed = 0
                    for other in range(n):
                        if not (union & (np.int64(1) << other)):
                            continue
                        u = cover * n + other
                        for j in range(n):
                            inside = False
                            for t in range(k):
                                if lines[index[t]] == j:
                                    inside = True
                            if not inside:
                                removed += eliminate(cand, units[u, j], bit, first)
                    if removed:
                        return removed
                if not next_combination(index, k, m):
                    break
    return 0


@njit(cache=True, nogil=True)
def wing(cand, peers, where, xyz, first):
    """XY-wing: a pivot {x,y} seeing pincers {x,z} and {y,z}; z leaves every cell seeing
    both pincers. XYZ-wing: a pivot {x,y,z} with pincers {x,z} and {y,z}; z leaves every
    cell seeing all three."""
    nn = cand.shape[0]
    size = 3 if xyz else 2
    for pivot in range(nn):
        pc = cand[pivot]
        if (pc & PLACED) or popcount(pc) != size:
            continue
        for a in range(peers.shape[1]):
            p1 = peers[pivot, a]
            c1 = cand[p1]
            if (c1 & PLACED) or popcount(c1) != 2:
                continue
            if xyz:
                if (c1 & pc) != c1:
                    continue
            elif popcount(c1 & pc) != 1:
                continue
            for b in range(a + 1, peers.shape[1]):
                p2 = peers[pivot, b]
                c2 = cand[p2]
                if (c2 & PLACED) or popcount(c2) != 2 or c2 == c1:
                    continue
                z = c1 & c2
                if popcount(z) != 1:
                    continue
                if xyz:
                    if (c2 & pc) != c2:
                        continue
                elif (z & pc) or (c1 | c2) & pc != pc:
                    continue
                removed = 0
                for cell in range(nn):
                    if cell == p1 or cell == p2 or cell == pivot:
                        continue
                    if sees(where, cell, p1) and sees(where, cell, p2):
                        if xyz and not sees(where, cell, pivot):
                            continue
                        removed += eliminate(cand, cell, z, first)
                if removed:
                    return removed
    return 0


# ------------------------------------------------ the logic ladder: chains and trials


@njit(cache=True, nogil=True)
def strong_links(cand, units, n, strong):
    """Fill ``strong``: entry ``(cell * n + d) * 3 + kind`` is the other cell of digit
    ``d + 1`` in the cell's row (kind 0), column (1) or box (2) when the digit has
    exactly two places left there (a *strong link*: one of the two holds it), else -1."""
    nn = cand.shape[0]
    strong[: 3 * nn * n] = -1
    for u in range(units.shape[0]):
        kind = u // n
        for d in range(n):
            bit = ONE << np.uint64(d)
            a = -1
            b = -1
            count = 0
            for j in range(n):
                c = cand[units[u, j]]
                if c & bit:
                    if c & PLACED:
                        count = 3
                        break
                    count += 1
                    if count == 1:
                        a = units[u, j]
                    elif count == 2:
                        b = units[u, j]
                    else:
                        break
            if count == 2:
                strong[(a * n + d) * 3 + kind] = b
                strong[(b * n + d) * 3 + kind] = a


@njit(cache=True, nogil=True)
def follow_strong(cand, n, strong, off, mixed, queue, tail, seen_on, stamp):
    """Candidate ``off`` is false: queue the candidates that must then be true (its
    strong-link partners; with ``mixed`` also the other digit of a two-digit cell).
    Returns the new queue tail."""
    cell = off // n
    d = off % n
    for kind in range(3):
        partner = strong[off * 3 + kind]
        if partner >= 0:
            on = partner * n + d
            if seen_on[on] != stamp:
                seen_on[on] = stamp
                queue[tail] = on
                tail += 1
    if mixed:
        c = cand[cell]
        if popcount(c) == 2:
            on = cell * n + bit_index(c & ~(ONE << np.uint64(d)))
            if seen_on[on] != stamp:
                seen_on[on] = stamp
                queue[tail] = on
                tail += 1
    return tail


@njit(cache=True, nogil=True)
def chain_refutes(cand, peers, n, strong, start, mixed, queue, seen_on, seen_off, stamp):
    """True if a chain leads from candidate ``start`` (``cell * n + d``) being true to
    ``start`` being false, so that it can go.

    The chain alternates: a true candidate makes its peers with the same digit false
    (with ``mixed`` also the other digits of its cell); a false candidate makes its
    strong-link partner true (with ``mixed`` also the other digit of a two-digit cell).
    Links are those of the current candidates (static, as in Sudoku Explainer's forcing
    chains); breadth first, so the chain found is a shortest one. Entries of ``seen_on``
    and ``seen_off`` equal to ``stamp`` mark visited candidates."""
    head = 0
    tail = 1
    queue[0] = start
    seen_on[start] = stamp
    while head < tail:
        node = queue[head]
        head += 1
        cell = node // n
        bit = ONE << np.uint64(node % n)
        for j in range(peers.shape[1]):
            p = peers[cell, j]
            c = cand[p]
            if (c & PLACED) or not (c & bit):
                continue
            off = p * n + node % n
            if off == start:
                return True
            if seen_off[off] != stamp:
                seen_off[off] = stamp
                tail = follow_strong(cand, n, strong, off, mixed, queue, tail, seen_on, stamp)
        if mixed:
            rest = cand[cell] & ~bit
            while rest:
                other = lowest_bit(rest)
                rest ^= other
                off = cell * n + bit_index(other)
                if off == start:
                    return True
                if seen_off[off] != stamp:
                    seen_off[off] = stamp
                    tail = follow_strong(cand, n, strong, off, mixed, queue, tail, seen_on, stamp)
    return False


@njit(cache=True, nogil=True)
def remove_marked(cand, gone, first):
    """Remove ``gone[cell]`` from every unplaced cell; the number of candidates removed."""
    removed = 0
    for cell in range(cand.shape[0]):
        if gone[cell]:
            removed += eliminate(cand, cell, gone[cell], first)
    return removed


@njit(cache=True, nogil=True)
def chains(cand, units, peers, n, mixed, cands, first):
    """X-chains (one digit, links along rows, columns and boxes) or, with ``mixed``,
    forcing chains (also links inside cells: XY-chains, W-wings and other alternating
    inference chains): every candidate from which :func:`chain_refutes` finds a chain
    to its own negation goes. All are found on the same candidates, then removed."""
    nn = cand.shape[0]
    size = nn * n
    strong = np.empty(3 * size, dtype=np.int64)
    queue = np.empty(size, dtype=np.int64)
    seen_on = np.zeros(size, dtype=np.int64)
    seen_off = np.zeros(size, dtype=np.int64)
    strong_links(cand, units, n, strong)
    gone = cands[2]
    gone[:] = ZERO
    stamp = 0
    for cell in range(nn):
        c = cand[cell]
        if c & PLACED:
            continue
        while c:
            bit = lowest_bit(c)
            c ^= bit
            stamp += 1
            start = cell * n + bit_index(bit)
            if chain_refutes(cand, peers, n, strong, start, mixed, queue, seen_on, seen_off, stamp):
                gone[cell] |= bit
    return remove_marked(cand, gone, first)


@njit(cache=True, nogil=True)
def settle(trial, units, peers, where, full, plus, ints, stack, first):
    """Follow the consequences in ``trial``: naked and hidden singles until none is left
    and, with ``plus``, also locked candidates, hidden and naked pairs and X-wings (the
    techniques Sudoku Explainer's "dynamic forcing chains (+)" use inside a chain).
    False on a contradiction. ``ints`` (two rows of n) and ``stack`` are scratch."""
    while True:
        if propagate(trial, units, peers, stack, full) < 0:
            return False
        if not plus:
            return True
        if locked_candidates(trial, units, where, True, first) > 0:
            continue
        if locked_candidates(trial, units, where, False, first) > 0:
            continue
        if hidden_subset(trial, units, 2, first, ints[1], ints[0]) > 0:
            continue
        if naked_subset(trial, units, 2, first, ints[0]) > 0:
            continue
        if fish(trial, units, 2, first, ints[0], ints[1]) > 0:
            continue
        return True


@njit(cache=True, nogil=True)
def try_branch(cand, trial, cell, keep, units, peers, where, full, plus, ints, stack, first):
    """``trial`` becomes ``cand`` with ``cell`` cut down to the candidates ``keep``,
    settled (:func:`settle`); False if that leads to a contradiction."""
    trial[:] = cand
    trial[cell] = keep
    if keep == ZERO:
        return False
    return settle(trial, units, peers, where, full, plus, ints, stack, first)


@njit(cache=True, nogil=True)
def add_branch(union, trial):
    """Digits a branch leaves in each cell, added to ``union``."""
    for cell in range(trial.shape[0]):
        union[cell] |= trial[cell] & ~PLACED


@njit(cache=True, nogil=True)
def mark_outside(cand, union, gone):
    """Candidates that no branch kept go to ``gone``."""
    for cell in range(cand.shape[0]):
        if not (cand[cell] & PLACED):
            gone[cell] |= cand[cell] & ~union[cell]


@njit(cache=True, nogil=True)
def digit_trial(cand, units, peers, where, cell, d, possible, done):
    """Nishio's test: place digit ``d + 1`` in ``cell`` and follow that digit alone
    (every unit where it has one place left gets it there). True if that leads to a
    unit with no place for it. ``possible`` (n^2) and ``done`` (3 n) are scratch."""
    n = units.shape[1]
    bit = ONE << np.uint64(d)
    done[: 3 * n] = 0
    for k in range(cand.shape[0]):
        c = cand[k]
        possible[k] = 1 if (c & bit) and not (c & PLACED) else 0
        if (c & bit) and (c & PLACED):
            for kind in range(3):
                done[kind * n + where[k, kind]] = 1
    place_at = cell
    while True:
        if place_at >= 0:
            possible[place_at] = 0
            for kind in range(3):
                done[kind * n + where[place_at, kind]] = 1
            for j in range(peers.shape[1]):
                possible[peers[place_at, j]] = 0
        place_at = -1
        for u in range(3 * n):
            if done[u]:
                continue
            count = 0
            last = -1
            for j in range(n):
                if possible[units[u, j]]:
                    count += 1
                    last = units[u, j]
            if count == 0:
                return True
            if count == 1:
                place_at = last
                break
        if place_at < 0:
            return False


@njit(cache=True, nogil=True)
def nishio(cand, units, peers, where, cands, first):
    """Nishio: a candidate whose digit, placed there and followed alone
    (:func:`digit_trial`), leaves some unit without a place for it goes. Every
    candidate is tried on the same candidates, then all refuted ones are removed."""
    gone = cands[2]
    gone[:] = ZERO
    possible = np.empty(cand.shape[0], dtype=np.int64)
    done = np.empty(3 * units.shape[1], dtype=np.int64)
    for cell in range(cand.shape[0]):
        c = cand[cell]
        if c & PLACED:
            continue
        while c:
            bit = lowest_bit(c)
            c ^= bit
            if digit_trial(cand, units, peers, where, cell, bit_index(bit), possible, done):
                gone[cell] |= bit
    return remove_marked(cand, gone, first)


@njit(cache=True, nogil=True)
def dynamic_chains(cand, units, peers, where, full, plus, ints, cands, first):
    """Dynamic forcing chains: every candidate is assumed in turn (and, in a cell with
    three or more, its absence too), each branch followed by :func:`settle`. A candidate
    whose branch ends in a contradiction goes (whose absence does: the cell's others
    go); what all the digits of a cell (cell forcing), all the places of a digit in a
    unit (unit forcing), or a candidate and its absence (double forcing) agree on
    removing goes. All on the same candidates."""
    n = units.shape[1]
    nn = cand.shape[0]
    trial = cands[0]
    union = cands[1]
    gone = cands[2]
    on = cands[3]
    gone[:] = ZERO
    unions = np.zeros((3 * n * n, nn), dtype=np.uint64)  # the branches of each unit, digit
    stack = np.empty(16 * nn + 64, dtype=np.int32)
    dummy = np.zeros(2, dtype=np.int64)
    for cell in range(nn):
        c = cand[cell]
        if c & PLACED:
            continue
        union[:] = ZERO
        rest = c
        while rest:
            bit = lowest_bit(rest)
            rest ^= bit
            if not try_branch(
                cand, on, cell, bit, units, peers, where, full, plus, ints, stack, dummy
            ):
                gone[cell] |= bit
                continue
            add_branch(union, on)
            d = bit_index(bit)
            for kind in range(3):
                add_branch(unions[(kind * n + where[cell, kind]) * n + d], on)
            if popcount(c) > 2:  # a two-digit cell's double forcing is its cell forcing
                if not try_branch(
                    cand, trial, cell, c & ~bit, units, peers, where, full, plus, ints, stack, dummy
                ):
                    gone[cell] |= c & ~bit
                    continue
                add_branch(trial, on)
                mark_outside(cand, trial, gone)
        mark_outside(cand, union, gone)
    for u in range(units.shape[0]):
        for d in range(n):
            bit = ONE << np.uint64(d)
            places = 0
            for j in range(n):
                c = cand[units[u, j]]
                if c & bit:
                    places += 1 if not (c & PLACED) else n + 1
            if 2 <= places <= n:
                mark_outside(cand, unions[u * n + d], gone)
    return remove_marked(cand, gone, first)


@njit(cache=True, nogil=True)
def apply_technique(technique, cand, units, peers, where, full, work, first):
    """Apply one elimination technique of the ladder (T_POINTING and up, below
    T_SEARCH) to ``cand``; the number of candidates removed (0: it does not apply).
    ``first`` receives the first (cell, digit) removed; ``work`` is scratch
    (:func:`logic_work`)."""
    n = units.shape[1]
    ints, cands = work
    members = ints[0]
    second = ints[1]
    if technique == T_POINTING:
        return locked_candidates(cand, units, where, True, first)
    if technique == T_CLAIMING:
        return locked_candidates(cand, units, where, False, first)
    if technique == T_NAKED_PAIR:
        return naked_subset(cand, units, 2, first, members)
    if technique == T_X_WING:
        return fish(cand, units, 2, first, members, second)
    if technique == T_HIDDEN_PAIR:
        return hidden_subset(cand, units, 2, first, second, members)
    if technique == T_NAKED_TRIPLE:
        return naked_subset(cand, units, 3, first, members)
    if technique == T_SWORDFISH:
        return fish(cand, units, 3, first, members, second)
    if technique == T_HIDDEN_TRIPLE:
        return hidden_subset(cand, units, 3, first, second, members)
    if technique == T_XY_WING:
        return wing(cand, peers, where, False, first)
    if technique == T_XYZ_WING:
        return wing(cand, peers, where, True, first)
    if technique == T_NAKED_QUAD:
        return naked_subset(cand, units, 4, first, members)
    if technique == T_JELLYFISH:
        return fish(cand, units, 4, first, members, second)
    if technique == T_HIDDEN_QUAD:
        return hidden_subset(cand, units, 4, first, second, members)
    if technique == T_X_CHAIN:
        return chains(cand, units, peers, n, False, cands, first)
    if technique == T_FORCING_CHAIN:
        return chains(cand, units, peers, n, True, cands, first)
    if technique == T_NISHIO:
        return nishio(cand, units, peers, where, cands, first)
    if technique == T_DYNAMIC_CHAIN:
        return dynamic_chains(cand, units, peers, where, full, False, ints, cands, first)
    if technique == T_DYNAMIC_CHAIN_PLUS:
        return dynamic_chains(cand, units, peers, where, full, True, ints, cands, first)
    return 0


@njit(cache=True, nogil=True)
def logic_solve(cand, units, peers, where, full, steps, work, solution, top):
    """Solve with the easiest technique that makes progress, again and again.

    Returns ``(outcome, hardest technique, steps taken, searches, first stall)``:
    SOLVED, STUCK (nothing on the ladder applies) or CONTRADICTION; ``first stall`` is
    the number of cells still empty when singles first ran out (0 if they never did).
    Techniques below ``top`` are tried (T_SEARCH: the whole ladder). With a
    ``solution`` (an empty array for none), a stalled solver takes the solution's digit
    of a cell with fewest candidates (a T_SEARCH step) and goes on, without the trial
    rungs from then on (the rating is already at the top); ``searches`` counts those
    steps (the outcome is then STUCK even when the grid gets filled). Each step
    goes into ``steps`` (as far as it reaches): technique, cell, digit (a placement) or
    technique, first cell and digit removed, candidates removed. ``work`` is scratch
    (:func:`logic_work`).
    """
    n = units.shape[1]
    nn = cand.shape[0]
    first = np.zeros(2, dtype=np.int64)
    hardest = T_GIVEN
    n_steps = 0
    searches = 0
    first_stall = 0
    while True:
        left = 0
        for cell in range(nn):
            if not (cand[cell] & PLACED):
                left += 1
                if cand[cell] == ZERO:
                    return CONTRADICTION, hardest, n_steps, searches, first_stall
        if left == 0:
            return (SOLVED if searches == 0 else STUCK), hardest, n_steps, searches, first_stall
        # singles: box, line, naked
        technique = T_GIVEN
        cell, bit = find_hidden_single(cand, units, full, 2 * n, 3 * n)
        if cell >= 0:
            technique = T_HIDDEN_SINGLE_BOX
        elif cell == -1:
            cell, bit = find_hidden_single(cand, units, full, 0, 2 * n)
            if cell >= 0:
                technique = T_HIDDEN_SINGLE_LINE
        if cell == -2:
            return CONTRADICTION, hardest, n_steps, searches, first_stall
        if technique == T_GIVEN:
            for k in range(nn):
                c = cand[k]
                if not (c & PLACED) and (c & (c - ONE)) == ZERO:
                    cell = k
                    bit = c
                    technique = T_NAKED_SINGLE
                    break
        if technique != T_GIVEN:
            if not place_single(cand, cell, bit, peers):
                return CONTRADICTION, max(hardest, technique), n_steps, searches, first_stall
            hardest = max(hardest, technique)
            n_steps = record(steps, n_steps, technique, cell, bit_index(bit) + 1, 0)
            continue
        if first_stall == 0:
            first_stall = left
        # eliminations, easiest first
        first[0] = -1
        first[1] = 0
        removed = 0
        for technique in range(T_POINTING, top if searches == 0 else T_FIRST_TRIAL):
            removed = apply_technique(technique, cand, units, peers, where, full, work, first)
            if removed:
                break
        if not removed:
            if solution.shape[0] == 0:
                return STUCK, T_SEARCH, n_steps, searches, first_stall
            # beyond the ladder: take the solution's digit of a cell with fewest candidates
            # (what a search would have to find) and carry on
            cell = -1
            best = n + 1
            for k in range(nn):
                c = cand[k]
                if not (c & PLACED) and popcount(c) < best:
                    best = popcount(c)
                    cell = k
            bit = ONE << np.uint64(solution[cell] - 1)
            if not (cand[cell] & bit) or not place_single(cand, cell, bit, peers):
                return CONTRADICTION, T_SEARCH, n_steps, searches, first_stall
            searches += 1
            hardest = T_SEARCH
            n_steps = record(steps, n_steps, T_SEARCH, cell, solution[cell], 0)
            continue
        hardest = max(hardest, technique)
        n_steps = record(steps, n_steps, technique, first[0], first[1], removed)


@njit(cache=True, nogil=True)
def logic_value(outcome, hardest, first_stall, nn, ratings):
    """The logic rating: ``ratings[hardest]`` times ``1 + first_stall / nn`` (the share
    of the ``nn`` cells still empty when singles first ran out; 0 if they never did);
    NaN on a contradiction."""
    if outcome == CONTRADICTION:
        return np.nan
    return ratings[hardest] * (1.0 + first_stall / nn)


@njit(cache=True, nogil=True)
def logic_work(n):
    """Scratch of :func:`logic_solve`, a tuple: ``ints`` (two rows of cells or digits of
    a unit) and ``cands`` (four candidate grids: trials, their unions, what goes). The
    chains and trials make their larger tables when they run."""
    return np.zeros((2, max(n, 4)), dtype=np.int64), np.zeros((4, n * n), dtype=np.uint64)


# ---------------------------------------------------------------- isomorphs


@njit(cache=True, nogil=True)
def transform_one(puzzle, n, box_rows, box_cols, state, out, row_order, col_order, digits, groups):
    """A random isomorph of ``puzzle`` into ``out``: bands and the rows inside each band,
    stacks and the columns inside each stack, digits relabelled, and (square boxes only)
    a transpose with probability one half."""
    for axis in range(2):
        size = box_rows if axis == 0 else box_cols
        order = row_order if axis == 0 else col_order
        count = n // size
        for g in range(count):
            groups[g] = g
        shuffle(groups, count, state)
        for g in range(count):
            for i in range(size):
                order[g * size + i] = groups[g] * size + i
            shuffle(order[g * size : (g + 1) * size], size, state)
    digits[0] = 0
    for d in range(1, n + 1):
        digits[d] = d
    shuffle(digits[1:], n, state)
    flip = box_rows == box_cols and random_below(state, 2) == 1
    for i in range(n):
        for j in range(n):
            v = digits[puzzle[row_order[i] * n + col_order[j]]]
            if flip:
                out[j * n + i] = v
            else:
                out[i * n + j] = v


@njit(cache=True, nogil=True)
def transform_work(n):
    """Work arrays of :func:`transform_one`."""
    row_order = np.zeros(n, dtype=np.int64)
    col_order = np.zeros(n, dtype=np.int64)
    digits = np.zeros(n + 1, dtype=np.uint8)
    groups = np.zeros(n, dtype=np.int64)
    return row_order, col_order, digits, groups


# ---------------------------------------------------------------- bulk loops


@njit(cache=True, parallel=True, nogil=True)
def random_grids_bulk(out, units, peers, full, seed, first_index):
    """Row ``k`` of ``out`` becomes the random grid of index ``first_index + k``."""
    count, nn = out.shape
    for k in prange(count):
        state = np.zeros(1, dtype=np.uint64)
        seed_state(seed, first_index + k, state)
        states, todo, cells, stack = search_work(nn)
        random_grid_into(out[k], units, peers, full, state, states, todo, cells, stack)


@njit(cache=True, parallel=True, nogil=True)
def transform_bulk(puzzles, n, box_rows, box_cols, seed, first_index, out, chunk):
    """Row ``k`` of ``out`` becomes the isomorph of ``puzzles[k]`` drawn from
    ``(seed, first_index + k)``."""
    count = puzzles.shape[0]
    n_chunks = (count + chunk - 1) // chunk
    for c in prange(n_chunks):
        state = np.zeros(1, dtype=np.uint64)
        row_order, col_order, digits, groups = transform_work(n)
        for k in range(c * chunk, min(count, (c + 1) * chunk)):
            seed_state(seed, first_index + k, state)
            transform_one(
                puzzles[k],
                n,
                box_rows,
                box_cols,
                state,
                out[k],
                row_order,
                col_order,
                digits,
                groups,
            )


@njit(cache=True, parallel=True, nogil=True)
def rate_bulk(
    puzzles,
    n,
    box_rows,
    box_cols,
    units,
    peers,
    where,
    full,
    isomorphs,
    seed,
    first_index,
    do_logic,
    ratings,
    guesses,
    logic,
    outcome,
    hardest,
    n_steps,
    steps,
    chunk,
):
    """Ratings of every puzzle (rows assumed valid: values 0..n).

    Puzzle ``k`` draws its isomorphs from ``(seed, first_index + k)``.
    ``guesses[k]``: mean guesses of :func:`search` (first solution, first cell of
    fewest candidates, lowest digit first) over ``isomorphs`` random isomorphs; NaN if
    the givens clash or there is no solution. With ``do_logic``: the ladder's
    ``outcome``, ``hardest`` technique, step count and :func:`logic_value`. ``steps``
    receives the steps of puzzle ``k`` in ``steps[k]`` when its first dimension is the
    number of puzzles (and is ignored otherwise).
    """
    count, nn = puzzles.shape
    n_chunks = (count + chunk - 1) // chunk
    keep_steps = steps.shape[0] == count
    for c in prange(n_chunks):
        state = np.zeros(1, dtype=np.uint64)
        states, todo, cells, stack = search_work(nn)
        row_order, col_order, digits, groups = transform_work(n)
        image = np.zeros(nn, dtype=np.uint8)
        solution = np.zeros(nn, dtype=np.uint8)
        cand = np.zeros(nn, dtype=np.uint64)
        work = logic_work(n)
        no_steps = np.zeros((0, STEP_FIELDS), dtype=np.int32)
        for k in range(c, count, n_chunks):
            seed_state(seed, first_index + k, state)
            if not candidates_of(puzzles[k], cand, peers, full):
                guesses[k] = np.nan
                logic[k] = np.nan
                outcome[k] = CONTRADICTION
                continue
            total = 0
            solvable = True
            # singles reach the same cells in every isomorph: if they fill the grid,
            # every isomorph takes 0 guesses
            states[0, :] = cand
            isomorphs_left = isomorphs
            if propagate(states[0], units, peers, stack, full) < 0:
                solvable = False
                isomorphs_left = 0
            elif choose_cell(states[0], False, state) < 0:
                isomorphs_left = 0
            for _ in range(isomorphs_left):
                transform_one(
                    puzzles[k],
                    n,
                    box_rows,
                    box_cols,
                    state,
                    image,
                    row_order,
                    col_order,
                    digits,
                    groups,
                )
                candidates_of(image, states[0], peers, full)
                found, g, _ = search(
                    states, todo, cells, stack, units, peers, full, 1, 0, False, state, solution
                )
                if found == 0:
                    solvable = False
                    break
                total += g
            guesses[k] = total / isomorphs if solvable else np.nan
            if not do_logic:
                continue
            mine = steps[k] if keep_steps else no_steps
            o, h, s, _, stalled = logic_solve(
                cand, units, peers, where, full, mine, work, solution[:0], T_SEARCH
            )
            if o == STUCK and solvable:
                # carry on past the ladder with the digits of the (first) solution (the
                # trial rungs have just failed here: not again)
                candidates_of(puzzles[k], states[0], peers, full)
                search(states, todo, cells, stack, units, peers, full, 1, 0, False, state, solution)
                o, _, more, _, _ = logic_solve(
                    cand,
                    units,
                    peers,
                    where,
                    full,
                    mine[min(s, mine.shape[0]) :],
                    work,
                    solution,
                    T_FIRST_TRIAL,
                )
                s += more
                o = STUCK if o != CONTRADICTION else o
            outcome[k] = o
            hardest[k] = h
            n_steps[k] = s
            logic[k] = logic_value(o, h, stalled, nn, ratings)


@njit(cache=True, nogil=True)
def other_solution(
    puzzle, cell, digit, units, peers, where, full, states, todo, cells, stack, state, solution
):
    """True if ``puzzle`` has a solution with something other than ``digit`` in the
    blank ``cell``: a complete search (first solution only) with that digit forbidden."""
    bit = ONE << np.uint64(digit - 1)
    # quick proofs first: the digit is the only one the givens leave in the cell
    # (naked single), or the only place of that digit in one of the cell's units
    # (hidden single), both counting givens only
    seen = ZERO
    for j in range(peers.shape[1]):
        v = puzzle[peers[cell, j]]
        if v != 0:
            seen |= ONE << np.uint64(v - 1)
    if (full & ~seen) == bit:
        return False
    # the rows, columns and boxes where a given already holds the digit
    n = units.shape[1]
    held = np.zeros(3 * n, dtype=np.bool_)
    for k in range(puzzle.shape[0]):
        if puzzle[k] == digit:
            held[where[k, 0]] = True
            held[n + where[k, 1]] = True
            held[2 * n + where[k, 2]] = True
    for kind in range(3):
        u = kind * n + where[cell, kind]
        elsewhere = False
        for j in range(n):
            other = units[u, j]
            if other != cell and puzzle[other] == 0:
                if not (
                    held[where[other, 0]]
                    or held[n + where[other, 1]]
                    or held[2 * n + where[other, 2]]
                ):
                    elsewhere = True
                    break
        if not elsewhere:
            return False
    if not candidates_of(puzzle, states[0], peers, full):
        return False
    states[0, cell] &= ~bit
    if states[0, cell] == ZERO:
        return False
    found, _, _ = search(
        states, todo, cells, stack, units, peers, full, 1, 0, False, state, solution
    )
    return found > 0


@njit(cache=True, parallel=True, nogil=True)
def generate_bulk(
    out,
    attempts,
    n,
    box_rows,
    box_cols,
    units,
    peers,
    where,
    full,
    orbits,
    orbit_sizes,
    minimal,
    strict,
    clue_lo,
    clue_hi,
    rate_lo,
    rate_hi,
    ratings,
    max_attempts,
    seed,
    first_index,
):
    """Row ``k`` of ``out`` becomes the puzzle of index ``first_index + k``.

    For every attempt: a random grid, then the cell orbits (one cell, or the cells a
    symmetry maps onto each other) blanked in random order, each kept blank only if the
    puzzle stays unique. With ``minimal`` the pass goes through every orbit (which
    leaves no removable orbit); otherwise it stops at a clue count drawn from
    ``clue_lo..clue_hi``. With ``strict`` (symmetry and minimal), every single clue is
    then checked too. The attempt is kept if its clue count and logic rating (when
    ``rate_hi`` >= 0) are within bounds; ``attempts[k]`` is the number of attempts
    used, or -1 if ``max_attempts`` ran out. ``ratings[t]`` is the logic rating of
    technique ``t``."""
    count, nn = out.shape
    n_orbits = orbits.shape[0]
    for k in prange(count):
        state = np.zeros(1, dtype=np.uint64)
        seed_state(seed, first_index + k, state)
        states, todo, cells, stack = search_work(nn)
        grid = np.zeros(nn, dtype=np.uint8)
        puzzle = np.zeros(nn, dtype=np.uint8)
        solution = np.zeros(nn, dtype=np.uint8)
        cand = np.zeros(nn, dtype=np.uint64)
        order = np.arange(n_orbits)
        work = logic_work(n)
        no_steps = np.zeros((0, STEP_FIELDS), dtype=np.int32)
        attempts[k] = -1
        for attempt in range(max_attempts):
            random_grid_into(grid, units, peers, full, state, states, todo, cells, stack)
            puzzle[:] = grid
            shuffle(order, n_orbits, state)
            clues = nn
            target = clue_lo + random_below(state, clue_hi - clue_lo + 1)
            for t in range(n_orbits):
                if not minimal and clues <= target:
                    break
                o = order[t]
                size = orbit_sizes[o]
                if not minimal and clues - size < clue_lo:
                    continue
                for j in range(size):
                    puzzle[orbits[o, j]] = 0
                # the puzzle was unique (its solution is grid), so another solution of
                # the blanked one must differ from grid in a blanked cell
                unique = True
                for j in range(size):
                    cell = orbits[o, j]
                    if other_solution(
                        puzzle,
                        cell,
                        grid[cell],
                        units,
                        peers,
                        where,
                        full,
                        states,
                        todo,
                        cells,
                        stack,
                        state,
                        solution,
                    ):
                        unique = False
                        break
                if unique:
                    clues -= size
                else:
                    for j in range(size):
                        puzzle[orbits[o, j]] = grid[orbits[o, j]]
            if clues < clue_lo or clues > clue_hi:
                continue
            if strict:
                removable = False
                for cell in range(nn):
                    if puzzle[cell] != 0:
                        puzzle[cell] = 0
                        other = other_solution(
                            puzzle,
                            cell,
                            grid[cell],
                            units,
                            peers,
                            where,
                            full,
                            states,
                            todo,
                            cells,
                            stack,
                            state,
                            solution,
                        )
                        puzzle[cell] = grid[cell]
                        if not other:
                            removable = True
                            break
                if removable:
                    continue
            if rate_hi >= 0:
                candidates_of(puzzle, cand, peers, full)
                o, h, _, _, stalled = logic_solve(
                    cand, units, peers, where, full, no_steps, work, grid, T_SEARCH
                )
                value = logic_value(o, h, stalled, nn, ratings)
                if value < rate_lo or value > rate_hi:
                    continue
            out[k] = puzzle
            attempts[k] = attempt + 1
            break
