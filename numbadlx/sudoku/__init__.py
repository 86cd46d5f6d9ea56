"""Sudoku on top of the exact-cover engine: bulk solving of puzzle arrays.

The layer's data path, one module a stage:

* :mod:`~numbadlx.sudoku.formats` parses text, CSV and ``.npy`` puzzles into
  ``(N, n*n)`` uint8 arrays (and writes them back); :mod:`~numbadlx.sudoku.shape`
  knows the sizes and box shapes;
* :mod:`~numbadlx.sudoku.geometry` says which cells form each row, column and box,
  as the unit table every engine takes (:mod:`~numbadlx.sudoku.cover` builds the
  generic exact cover from it);
* :mod:`~numbadlx.sudoku.engines` holds the engines behind one kernel signature and
  one bulk loop: "dlx" (pruned exact-cover options searched by a specialised
  Algorithm X), "bits" (candidate bit masks with singles and locked candidates, then a
  search on a stack of mask copies) and "bands" (9x9 only, per-digit band masks),
  and the registry ``engine="auto"`` reads;
* :mod:`~numbadlx.sudoku.bulk` is the public face (:func:`solve`,
  :class:`SudokuResult`, :class:`Status`) and decodes the results;
* :mod:`~numbadlx.sudoku.variants` holds the :class:`Rules` of variant grids (jigsaw,
  X, windoku, killer, thermometers...), which :func:`solve` takes as ``rules=``;
* :mod:`~numbadlx.sudoku.grid` shows one grid;
* :mod:`~numbadlx.sudoku.making` makes random full grids and unique (minimal,
  symmetric, bounded) puzzles, rates puzzles (search tries and a logic ladder) and
  makes isomorphs.

Examples
--------
>>> from numbadlx import sudoku
>>> result = sudoku.solve(["0200" "0040" "3400" "0000"])
>>> result.status_counts(), sudoku.format_line(result.solutions[0])
({'UNIQUE': 1}, '4213134234212134')
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_names

# the public names: _lazy reads these imports and runs each on the name's first use
if TYPE_CHECKING:
    from .all_solutions import Solutions, solutions
    from .bulk import (
        DEFAULT_CHUNK,
        ENGINES,
        Status,
        SudokuResult,
        decode_cover,
        default_sample_path,
        pick_engine,
        solve,
        to_exact_cover,
        warm_up,
    )
    from .formats import (
        FORMATS,
        PuzzleChunk,
        file_format,
        format_grid,
        format_grid_rows,
        format_line,
        format_lines,
        iter_chunks,
        parse,
        parse_chunk,
        read_csv,
        read_fpuzzles,
    )
    from .grid import Grid
    from .guess_counts import backtracks
    from .making import (
        LOGIC_LEVELS,
        SYMMETRIES,
        TECHNIQUES,
        Killers,
        Ratings,
        Step,
        Technique,
        Transform,
        apply_transform,
        candidates,
        canonical,
        canonical_chunk,
        equivalence_classes,
        generate,
        generate_killer,
        invert_transform,
        random_grid,
        random_grids,
        random_puzzles,
        rate,
        solving_path,
        transform,
    )
    from .shape import MAX_SIZE, MIN_SIZE, box_shape
    from .single import check_grid, count_solutions, solve_one
    from .variants import Rules

__all__ = [
    "Status",
    "SudokuResult",
    "solve",
    "solve_one",
    "solutions",
    "Solutions",
    "count_solutions",
    "warm_up",
    "to_exact_cover",
    "decode_cover",
    "check_grid",
    "default_sample_path",
    "DEFAULT_CHUNK",
    "ENGINES",
    "pick_engine",
    "parse",
    "parse_chunk",
    "read_csv",
    "read_fpuzzles",
    "iter_chunks",
    "file_format",
    "PuzzleChunk",
    "FORMATS",
    "format_line",
    "format_lines",
    "format_grid",
    "format_grid_rows",
    "box_shape",
    "MIN_SIZE",
    "MAX_SIZE",
    "Grid",
    "random_grid",
    "random_puzzles",
    "random_grids",
    "generate",
    "generate_killer",
    "Killers",
    "SYMMETRIES",
    "rate",
    "backtracks",
    "Ratings",
    "solving_path",
    "Step",
    "Technique",
    "TECHNIQUES",
    "transform",
    "candidates",
    "LOGIC_LEVELS",
    "canonical",
    "canonical_chunk",
    "equivalence_classes",
    "Transform",
    "apply_transform",
    "invert_transform",
    "Rules",
]

__getattr__, __dir__ = lazy_names(__name__, __file__, __all__)
