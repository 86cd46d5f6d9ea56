"""Constraint propagation on candidate masks: the engines' singles and locked candidates.

A grid's state is one ``uint64`` mask per cell: bit ``d`` while digit ``d + 1`` may
still go there, and the contract's :data:`PLACED` bit once the cell's digit is fixed
and has been, or is queued to be, taken out of its peers. Between calls every unplaced
cell has at least two candidates (a cell left with one is placed at once); a state
that does not hold this yet (an empty grid's masks, a cell cut down to one digit by
hand) is brought to it by :func:`queue_singles`.

* :func:`place` fixes a cell and queues it;
* :func:`queue_singles` places and queues every unplaced cell with one candidate;
* :func:`propagate` empties the queue into the peers (naked singles), places hidden
  singles, and with ``locked`` runs locked candidates between rounds, to the fixed
  point; :func:`propagate_crossing` also runs them between any two crossing units.

The "bits" engine searches with them, and so do the making kernels (random grids, the
uniqueness proof of generate, the tries of rate, the logic ladder's trials), with
locked candidates off.
"""

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from ..._compiling import inner_njit
from ._contract import PLACED

_ONE = np.uint64(1)
_DIGITS = ~PLACED


@njit(cache=True, nogil=True, inline="always")
def place(masks, cell, bit, queue, tail):
    """Fix ``cell`` to the digit ``bit`` (a one-bit mask) and queue it at
    ``queue[tail]``; returns the new queue tail. The digit leaves the peers when
    :func:`propagate` empties the queue.

    Examples
    --------
    >>> import numpy as np
    >>> from numbadlx.sudoku.engines import PLACED, place
    >>> masks = np.full(4, 0b1111, dtype=np.uint64)
    >>> queue = np.empty(4, dtype=np.int32)
    >>> place(masks, 2, np.uint64(0b0100), queue, 0), bool(masks[2] == 0b0100 | PLACED)
    (1, True)
    """
    masks[cell] = bit | PLACED
    queue[tail] = cell
    return tail + 1


@njit(cache=True, nogil=True, inline="always")
def _remove(masks, cell, bits, queue, tail):
    """Take ``bits`` out of an unplaced cell. Returns ``(tail, state)``: state -1 for
    an emptied cell, 1 for a change, 0 for none. A cell left with one digit is placed."""
    m = masks[cell]
    if m & PLACED or not m & bits:
        return tail, 0
    m &= ~bits
    if m == 0:
        return tail, -1
    if m & (m - _ONE) == 0:
        return place(masks, cell, m, queue, tail), 1
    masks[cell] = m
    return tail, 1


@inner_njit(cache=True, nogil=True)
def _singles(masks, peers, queue, tail):
    """Naked singles: empty the queue of placed cells into their peers. Returns the
    number of cells placed on the way, or -1 for a contradiction."""
    head = 0
    placed = 0
    while head < tail:
        cell = queue[head]
        head += 1
        placed += 1
        bit = masks[cell] & _DIGITS
        for k in range(peers.shape[1]):
            p = peers[cell, k]
            m = masks[p]
            if m & bit:
                if m & PLACED:
                    return -1
                m &= ~bit
                if m & (m - _ONE) == 0:
                    tail = place(masks, p, m, queue, tail)
                else:
                    masks[p] = m
    return placed


@inner_njit(cache=True, nogil=True)
def _hidden_singles(masks, peers, units, full, queue):
    """Hidden singles in every unit (from the boxes, unit ``2 n``, on; then the rows
    and columns), each one placed and its naked singles followed at once. Returns the
    number of cells placed, or -1 for a contradiction."""
    placed = 0
    n_units = units.shape[0]
    first_box = 2 * units.shape[1] if 2 * units.shape[1] < n_units else n_units
    for v in range(n_units):
        u = v + first_box if v + first_box < n_units else v - (n_units - first_box)
        once = np.uint64(0)
        twice = np.uint64(0)
        done = np.uint64(0)
        for k in range(units.shape[1]):
            m = masks[units[u, k]]
            if m & PLACED:
                done |= m
            else:
                twice |= once & m
                once |= m
        done &= _DIGITS
        if (once | done) != full:
            return -1
        hidden = once & ~twice & ~done
        if not hidden:
            continue
        tail = 0
        while hidden:
            bit = hidden & (~hidden + _ONE)
            hidden ^= bit
            found = False
            for k in range(units.shape[1]):
                cell = units[u, k]
                m = masks[cell]
                if m & bit and not m & PLACED:
                    tail = place(masks, cell, bit, queue, tail)
                    found = True
                    break
            if not found:
                return -1  # this unit's cell was just taken by another hidden digit
        got = _singles(masks, peers, queue, tail)
        if got < 0:
            return -1
        placed += got
    return placed


@njit(cache=True, nogil=True, inline="always")
def _locked(masks, n, box_rows, box_cols, queue, segments, axis):
    """Locked candidates (pointing and claiming) along rows (``axis`` 0) or along
    columns (``axis`` 1). Returns ``(tail, state)`` with state -1 for a contradiction,
    1 if a candidate went, 0 if none. (The axis is a run-time value, not a constant
    of the call: one compiled function serves both. Inlined into its one caller, it is
    not compiled, then linked and optimised again, as a function of its own.)"""
    # lines of one band run along rows (or columns); a band is `depth` lines deep and
    # holds `boxes` boxes, each `width` cells of a line wide; cell (line, pos) of the
    # band's lines is masks[line * line_step + pos * pos_step]
    if axis:
        depth, width, line_step, pos_step = box_cols, box_rows, 1, n
    else:
        depth, width, line_step, pos_step = box_rows, box_cols, n, 1
    boxes = n // width
    tail = 0
    changed = 0
    for band in range(n // depth):
        # segments[i * boxes + j]: candidates of line i of the band inside box j
        for i in range(depth):
            line = band * depth + i
            for j in range(boxes):
                seg = np.uint64(0)
                for t in range(width):
                    pos = j * width + t
                    cell = line * line_step + pos * pos_step
                    m = masks[cell]
                    if not m & PLACED:
                        seg |= m
                segments[i * boxes + j] = seg
        for i in range(depth):
            line = band * depth + i
            for j in range(boxes):
                seg = segments[i * boxes + j]
                if seg == 0:
                    continue
                in_box = np.uint64(0)  # the box's other lines
                for i2 in range(depth):
                    if i2 != i:
                        in_box |= segments[i2 * boxes + j]
                in_line = np.uint64(0)  # the line's other boxes
                for j2 in range(boxes):
                    if j2 != j:
                        in_line |= segments[i * boxes + j2]
                pointing = seg & ~in_box & in_line
                if pointing:
                    # the box's digit lies on this line: off the line's other boxes
                    for j2 in range(boxes):
                        if j2 == j or not segments[i * boxes + j2] & pointing:
                            continue
                        for t in range(width):
                            pos = j2 * width + t
                            cell = line * line_step + pos * pos_step
                            tail, state = _remove(masks, cell, pointing, queue, tail)
                            if state < 0:
                                return tail, -1
                            changed |= state
                        segments[i * boxes + j2] &= ~pointing
                claiming = seg & ~in_line & in_box
                if claiming:
                    # the line's digit lies in this box: off the box's other lines
                    for i2 in range(depth):
                        if i2 == i or not segments[i2 * boxes + j] & claiming:
                            continue
                        other = band * depth + i2
                        for t in range(width):
                            pos = j * width + t
                            cell = other * line_step + pos * pos_step
                            tail, state = _remove(masks, cell, claiming, queue, tail)
                            if state < 0:
                                return tail, -1
                            changed |= state
                        segments[i2 * boxes + j] &= ~claiming
    return tail, changed


@njit(cache=True, nogil=True)
def settle_singles(masks, n, peers, units, queue, tail, open_cells):
    """:func:`propagate` without locked candidates: naked and hidden singles from
    ``tail`` queued cells until neither finds more or all ``open_cells`` unplaced
    cells are placed. Returns the cells placed, or -1 for a contradiction. (Its own
    function, so that a caller without locked candidates never compiles them.)"""
    return _settle_singles(masks, n, peers, units, queue, tail, open_cells)


@njit(cache=True, nogil=True, inline="always")
def _settle_singles(masks, n, peers, units, queue, tail, open_cells):
    """The body of :func:`settle_singles`, inlined into :func:`propagate` and
    :func:`propagate_crossing`: called there as a kernel of its own, its code would be
    compiled and optimised once more for the first use of each (0.1-0.3 s of CPU)."""
    full = (_ONE << np.uint64(n)) - _ONE
    placed = 0
    while True:
        got = _singles(masks, peers, queue, tail)
        if got < 0:
            return -1
        placed += got
        if placed == open_cells:
            return placed
        got = _hidden_singles(masks, peers, units, full, queue)
        if got < 0:
            return -1
        placed += got
        if placed == open_cells or not got:
            return placed
        tail = 0


@njit(cache=True, nogil=True)
def propagate(
    masks, n, box_rows, box_cols, peers, units, queue, tail, segments, locked, open_cells
):
    """Run the rules from ``tail`` queued cells until the singles find nothing more and
    locked candidates have had one round since the last cell was placed, or until all
    ``open_cells`` unplaced cells are placed.

    Parameters
    ----------
    masks : (n*n,) uint64
        The state, changed in place: every unplaced cell has two or more candidates,
        every cell of ``queue[:tail]`` is placed (see :func:`queue_singles`).
    n, box_rows, box_cols : int
        The grid's size and box shape (the box shape is read by locked candidates only).
    peers, units : int arrays
        The unit table's (:class:`~numbadlx.sudoku.geometry.UnitTable`): ``(n*n, P)``
        peers of each cell, ``(U, n)`` cells of the rows, columns, boxes, then any
        other units (a variant's).
    queue : (n*n,) int32 or int64
        The placed cells whose digit still has to leave their peers, then scratch.
    tail : int
        How many cells ``queue`` holds.
    segments : (n*n,) uint64
        Scratch of locked candidates (may be empty when ``locked`` is False).
    locked : bool
        Whether locked candidates (pointing and claiming) run; off, the fixed point is
        that of naked and hidden singles alone.
    open_cells : int
        The cells unplaced before the queued ones were placed: once this many are
        placed the grid is full and propagation stops.

    Returns
    -------
    int
        The number of cells placed (queued ones included), or -1 for a contradiction
        (a cell or a unit's digit left without a place, or a digit twice in a unit);
        ``masks`` is then left part way.

    Examples
    --------
    A 4x4 grid whose first row holds 1, 2, 3 and an empty cell: the singles fill the
    fourth cell (naked single), then nothing more.

    >>> import numpy as np
    >>> from numbadlx.sudoku.engines import propagate, queue_singles
    >>> from numbadlx.sudoku.geometry import unit_table
    >>> table = unit_table(4)
    >>> masks = np.full(16, 0b1111, dtype=np.uint64)
    >>> masks[:3] = [0b0001, 0b0010, 0b0100]
    >>> queue = np.empty(16, dtype=np.int32)
    >>> tail, open_cells = queue_singles(masks, queue)
    >>> propagate(masks, 4, 2, 2, table.peers, table.units, queue, tail, masks[:0],
    ...           False, open_cells)
    4
    >>> [int(m) & 0b1111 for m in masks[:8]]
    [1, 2, 4, 8, 12, 12, 3, 3]
    """
    placed = 0
    # cells placed when locked candidates last ran: they run again only after the
    # singles have placed more (eliminations alone do not call for another round)
    placed_at_locked = -1
    while True:
        got = _settle_singles(masks, n, peers, units, queue, tail, open_cells - placed)
        if got < 0:
            return -1
        placed += got
        if placed == open_cells:
            return placed
        if not locked or placed == placed_at_locked:
            return placed
        placed_at_locked = placed
        # along rows, then (unless the rows placed a cell) along columns
        changed = 0
        for axis in range(2):
            tail, state = _locked(masks, n, box_rows, box_cols, queue, segments, axis)
            if state < 0:
                return -1
            changed |= state
            if tail:
                break
        if tail or changed:
            continue
        return placed


@njit(cache=True, nogil=True, inline="always")
def _cells_or(masks, crossings, pair, row):
    """The digits that one row of a crossing may hold: its cells' candidates, placed
    cells included (a cell placed by this pass still has its digit in its peers)."""
    seen = np.uint64(0)
    for k in range(crossings[pair, row, 0]):
        seen |= masks[crossings[pair, row, k + 1]]
    return seen & _DIGITS


@njit(cache=True, nogil=True, inline="always")
def _crossing(masks, crossings, queue, tail):
    """Locked candidates between every pair of units of ``crossings`` (see
    :class:`~numbadlx.sudoku.engines.CrossTable`): a digit whose places in one unit
    all lie where it crosses the other leaves the other's remaining cells. Returns
    ``(tail, state)`` as :func:`_locked` does."""
    changed = 0
    for pair in range(crossings.shape[0]):
        both = _cells_or(masks, crossings, pair, 0)
        if both == 0:
            continue
        only_a = _cells_or(masks, crossings, pair, 1)
        only_b = _cells_or(masks, crossings, pair, 2)
        for row, out in ((2, both & ~only_a & only_b), (1, both & ~only_b & only_a)):
            if not out:
                continue
            for k in range(crossings[pair, row, 0]):
                cell = crossings[pair, row, k + 1]
                tail, state = _remove(masks, cell, out, queue, tail)
                if state < 0:
                    return tail, -1
                changed |= state
    return tail, changed


@njit(cache=True, nogil=True, inline="always")
def _shared_peers(masks, units, first, peer_bits, queue, tail):
    """Eliminations by common peers, in the units from ``first`` on: a digit with two
    or three places left in a unit must go in one of them, so a cell that sees all of
    them (a peer of each, by any unit or link) cannot hold it. Along a box and a line
    this is locked candidates again; across a diagonal and the rows, columns and boxes
    its cells lie in, a jigsaw region and a line, or a unit and a link, it finds what
    no pair of crossing units does. ``peer_bits`` holds each cell's peers as a bit set
    of ``W`` words. Returns ``(tail, state)`` as :func:`_locked` does."""
    n = units.shape[1]
    words = peer_bits.shape[1]
    changed = 0
    for u in range(first, units.shape[0]):
        once = np.uint64(0)
        twice = np.uint64(0)
        thrice = np.uint64(0)
        more = np.uint64(0)
        done = np.uint64(0)
        for k in range(n):
            m = masks[units[u, k]]
            if m & PLACED:
                done |= m  # maybe placed in this pass, its digit still in its peers
                continue
            more |= thrice & m
            thrice |= twice & m
            twice |= once & m
            once |= m
        few = twice & ~more & ~done  # digits with two or three places
        while few:
            bit = few & (~few + _ONE)
            few ^= bit
            for w in range(words):
                seen = ~np.uint64(0)
                for k in range(n):
                    cell = units[u, k]
                    m = masks[cell]
                    if m & bit and not m & PLACED:
                        seen &= peer_bits[cell, w]
                while seen:
                    cell = w * 64 + trailing_zeros(seen)
                    seen &= seen - _ONE
                    tail, state = _remove(masks, cell, bit, queue, tail)
                    if state < 0:
                        return tail, -1
                    changed |= state
    return tail, changed


@njit(cache=True, nogil=True)
def propagate_crossing(
    masks,
    n,
    box_rows,
    box_cols,
    peers,
    units,
    queue,
    tail,
    segments,
    has_boxes,
    crossings,
    peer_bits,
    shared_from,
    locked,
    open_cells,
):
    """:func:`propagate` with locked candidates between any two crossing units as
    well: after the box pass (when ``has_boxes``), the pairs of ``crossings`` (a
    :class:`~numbadlx.sudoku.engines.CrossTable`'s). The "bits" engine's propagation
    for the rules that add or replace units; classic grids never compile it.

    Examples
    --------
    A 4x4 X-Sudoku: the main diagonal's 1 can only go in the top left box, on the
    diagonal, so it leaves the box's other two cells.

    >>> import numpy as np
    >>> from numbadlx.sudoku import Rules, geometry
    >>> from numbadlx.sudoku.engines import crossing_table, propagate_crossing
    >>> rules = Rules(diagonals=True).checked(4)
    >>> t = crossing_table(geometry.unit_table(4, rules=rules), rules)
    >>> masks = np.full(16, 0b1111, dtype=np.uint64)
    >>> masks[[10, 15]] = 0b1110
    >>> queue = np.empty(16, dtype=np.int32)
    >>> propagate_crossing(masks, 4, 2, 2, t.peers, t.units, queue, 0, masks[:0].copy(),
    ...                    False, t.crossings, t.peer_bits, t.shared_from, True, 16)
    0
    >>> [int(m) & 1 for m in masks[[1, 4]]]
    [0, 0]
    """
    placed = 0
    placed_at_locked = -1
    while True:
        got = _settle_singles(masks, n, peers, units, queue, tail, open_cells - placed)
        if got < 0:
            return -1
        placed += got
        if placed == open_cells:
            return placed
        if not locked or placed == placed_at_locked:
            return placed
        placed_at_locked = placed
        changed = 0
        tail = 0
        if has_boxes:
            for axis in range(2):
                tail, state = _locked(masks, n, box_rows, box_cols, queue, segments, axis)
                if state < 0:
                    return -1
                changed |= state
                if tail:
                    break
        if not tail:
            tail, state = _crossing(masks, crossings, queue, 0)
            if state < 0:
                return -1
            changed |= state
        if not tail and not changed:
            tail, state = _shared_peers(masks, units, shared_from, peer_bits, queue, 0)
            if state < 0:
                return -1
            changed |= state
        if tail or changed:
            continue
        return placed


@njit(cache=True, nogil=True)
def queue_singles(masks, queue):
    """Place and queue every unplaced cell of ``masks`` that has one candidate left,
    so that the state meets :func:`propagate`'s rule (every unplaced cell has two or
    more candidates, or is queued).

    Returns ``(tail, open_cells)``: the number of cells queued (``queue[:tail]``) and
    the number of cells that were unplaced on entry, the ``open_cells`` of
    :func:`propagate`; ``(-1, 0)`` if an unplaced cell has no candidate.

    Examples
    --------
    >>> import numpy as np
    >>> from numbadlx.sudoku.engines import PLACED, queue_singles
    >>> masks = np.array([0b01, 0b11, 0b10 | PLACED, 0b11], dtype=np.uint64)
    >>> queue = np.empty(4, dtype=np.int32)
    >>> queue_singles(masks, queue), int(queue[0]), bool(masks[0] & PLACED)
    ((1, 3), 0, True)
    """
    tail = 0
    open_cells = 0
    for cell in range(masks.shape[0]):
        m = masks[cell]
        if m & PLACED:
            continue
        open_cells += 1
        if m & (m - _ONE) == 0:
            if m == 0:
                return -1, 0
            tail = place(masks, cell, m, queue, tail)
    return tail, open_cells
