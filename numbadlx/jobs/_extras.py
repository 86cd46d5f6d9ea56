"""The extra columns a solve can add to its CSV, Parquet or Arrow rows: each puzzle's
canonical form, its candidate masks after a level of logic, and its backtrack rating.

They are computed on the chunk the job has just solved, through the Sudoku layer's
public names (:func:`numbadlx.sudoku.canonical_chunk`, :func:`numbadlx.sudoku.candidates`,
the result's ``guesses``), and laid out as one value per row, in input order; a row
without a value (unreadable, clashing givens, nothing to rate) has None there, and its
status and message say why. A row whose canonical form cannot be found while its
puzzle is otherwise fine (the search's memory bound) keeps its status and gets the
reason as its message.
"""

from __future__ import annotations

import numpy as np

from .. import sudoku as _sudoku

#: The extra columns, in the order they are written (after the solve's own).
EXTRA_COLUMNS = ("canonical", "candidates", "backtracks")

_UNRATED = tuple(int(_sudoku.Status[name]) for name in ("INVALID", "NO_SOLUTION", "BUDGET"))
_INVALID = int(_sudoku.Status.INVALID)


def extra_names(canonical=False, candidates=None, backtracks=False):
    """The names of the extra columns asked for, in their order."""
    asked = {"canonical": canonical, "candidates": candidates, "backtracks": backtracks}
    return tuple(name for name in EXTRA_COLUMNS if asked[name])


def check_candidates_level(logic):
    """``logic`` if it is a level :func:`numbadlx.sudoku.candidates` takes, else
    ValueError."""
    if logic is not None and logic not in _sudoku.LOGIC_LEVELS:
        raise ValueError(
            f"candidates: the logic level must be one of {', '.join(_sudoku.LOGIC_LEVELS)}; "
            f"got {logic!r}"
        )
    return logic


def extra_values(chunk, result, names, *, candidates=None, box=None, threads=None):
    """The extra columns ``names`` of ``chunk`` solved as ``result``: ``(values, notes)``,
    ``values`` a dict name -> list of one value a row (a canonical form as its text, the
    candidate masks as an (n*n,) int array, a backtrack count as an int; None where
    there is none) and ``notes`` ``{row: message}`` for the rows a column could not be
    computed for (their statuses stay)."""
    values, notes = {}, {}
    size = len(chunk)
    status = np.asarray(result.status)
    if "canonical" in names:
        column = [None] * size
        if size:
            forms, _, errors = _sudoku.canonical_chunk(chunk, box, threads)
            failed = dict(errors)
            texts = _sudoku.format_lines(forms)
            for k in range(size):
                if k in failed:
                    if status[k] != _INVALID:
                        notes[k] = f"no canonical form: {failed[k]}"
                else:
                    column[k] = texts[k]
        values["canonical"] = column
    if "candidates" in names:
        column = [None] * size
        if size:
            if chunk.n is not None and chunk.n > 32:
                raise ValueError("the candidates column takes grids up to 32x32")
            masks = _sudoku.candidates(chunk, logic=candidates, box=box, threads=threads)
            masks = masks.astype(np.uint32)
            for k in range(size):
                if status[k] != _INVALID and not chunk.bad[k]:
                    column[k] = masks[k]
        values["candidates"] = column
    if "backtracks" in names:
        guesses = result.guesses if result.guesses is not None else np.zeros(size, np.int64)
        rated = ~np.isin(status, _UNRATED)
        values["backtracks"] = [int(g) if ok else None for g, ok in zip(guesses, rated)]
    return values, notes


def csv_cells(values, names, size):
    """The extra CSV fields of each row, joined and led by a comma (``""`` when there
    are no extra columns): a form as its text, masks as decimal numbers separated by
    spaces, an empty field where there is no value."""
    if not names:
        return [""] * size
    rows = [[] for _ in range(size)]
    for name in names:
        for k, value in enumerate(values[name]):
            if value is None:
                rows[k].append("")
            elif name == "candidates":
                rows[k].append(" ".join(map(str, value.tolist())))
            else:
                rows[k].append(str(value))
    return ["," + ",".join(row) for row in rows]
