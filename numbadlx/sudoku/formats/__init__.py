"""Reading and writing Sudoku puzzles: line, grid, CSV and ``.npy`` formats.

A puzzle of size ``n`` is an ``n x n`` grid split into boxes of ``r`` rows
and ``c`` columns, with ``n == r * c`` and ``4 <= n <= 36``.  Cell values are
``0`` for a blank and ``1..n`` for a given.  In memory a batch of puzzles is
a ``(N, n*n)`` array of ``uint8`` in row-major order.

Text alphabet
-------------
One character per cell (usable for ``n <= 35``): ``0`` or ``.`` is a blank,
``1``-``9`` are 1-9 and ``A``-``Z`` (either case) are 10-35, i.e. the
``int(ch, 36)`` digits.  For any size, and necessarily for ``n == 36``, a
puzzle may instead be written as integers separated by whitespace or commas
(``0`` or ``.`` is a blank).

Formats
-------
``'lines'``
    One puzzle per line.  Blank lines, ``#`` comments (a whole line or the
    rest of a line), a UTF-8 byte order mark, CR line ends and trailing
    whitespace are ignored.  ``n`` comes from the first line whose cell
    count is ``n*n`` for a supported ``n``; every puzzle line must then have
    that many cells.
``'grid'``
    ``n`` lines of ``n`` cells per puzzle.  Cells may be separated by
    spaces; the box-drawing characters ``|``, ``+`` and ``-`` are ignored and
    lines made only of them are skipped.  Puzzles may follow each other
    directly or be separated by blank lines, but a blank line inside a
    puzzle is an error.
``'csv'``
    A header row, then one puzzle per row.  The puzzle column is the first
    of ``quizzes``, ``quiz``, ``puzzle``, ``puzzles`` present (any case) and
    the optional solution column the first of ``solutions``, ``solution``.
``'npy'``
    A NumPy ``.npy`` file holding an integer (or whole-number float) array
    in any of the shapes :func:`parse` accepts for arrays.

Format auto-detection (``format=None``)
---------------------------------------
1. A file name ending in ``.npy`` or ``.csv`` selects that format; so does
   the ``.npy`` magic number at the start of the data.
2. Otherwise the first data line (not blank, not a comment) decides:

   * it is a CSV header if one of its comma-separated fields is a puzzle
     column name listed above;
   * it is grid format if it contains ``|`` or ``+`` or consists only of
     box-drawing characters;
   * if ``n`` was given: grid format if the line has ``n`` cells, else line
     format;
   * a cell count equal to ``k*k`` for ``4 <= k <= 36`` means line format,
     except for the ambiguous counts 16 and 36 (``4*4`` and ``6*6`` puzzles,
     or rows of ``16x16`` and ``36x36`` grids): these are rows of a grid
     when some value on the line is too large for a ``4x4`` (resp. ``6x6``)
     puzzle and the text has at least 16 (resp. 36) data lines, and puzzle
     lines otherwise;
   * any other count from 4 to 36 means grid format, and everything else
     line format (which then reports the bad line).

   Pass ``format`` or ``n`` to override the guess.

Cells of one line
-----------------
Runs of characters other than whitespace and commas are *tokens*.  If there
are several tokens, at least one is longer than one character, all are
decimal integers (or ``.``) and their number is the expected cell count,
each token is one cell -- unless some number is too large for the size and
reading every character as a cell gives the expected count instead.
Otherwise every character of every token is one cell, so the grid row
``"530 070 000"`` has nine cells, and a line of nine 9-digit groups is one
``9x9`` puzzle.

Errors
------
Malformed input raises :class:`ValueError` with a message of the form
``name:line:column: what is wrong``, where ``name`` is the file name (or
``<string>``, ``<bytes>``, ``<list>``) and line and column are 1-based.
Arrays are reported as ``name[index]: row r, column c: ...``.  Clashing
givens are *not* parse errors.
"""

# Layout: each module imports only from the ones above it; names with a leading
# underscore (modules included) are private to this package.
#   _cells   the alphabet lookup table, tokens, the cells of one line, cell error texts
#   _reader  PuzzleChunk, the parse context, start checks, block/record iteration,
#            count_newlines, line_ranges
#   _lines, _grid, _csv  the chunk readers of the text formats (_csv: PUZZLE_COLUMNS, ...)
#   _arrays  arrays to (N, n*n) and their value checks
#   write    format_lines, format_line, format_grid
#   _npy     .npy loading and chunks (its raw text comes from format_lines)
#   detect   FORMATS, format detection, file_format
#   _api     parse, read_csv, iter_chunks and the dispatch to the chunk readers
from ._api import iter_chunks, parse, read_csv
from ._csv import PUZZLE_COLUMNS, SOLUTION_COLUMNS
from ._reader import PuzzleChunk, line_ranges
from .detect import FORMATS, file_format
from .write import format_grid, format_line, format_lines

__all__ = [
    "FORMATS",
    "PUZZLE_COLUMNS",
    "SOLUTION_COLUMNS",
    "PuzzleChunk",
    "file_format",
    "format_grid",
    "format_line",
    "format_lines",
    "iter_chunks",
    "line_ranges",
    "parse",
    "read_csv",
]
