"""Reading and writing Sudoku puzzles: line, grid, CSV and ``.npy`` formats.

A puzzle of size ``n`` is an ``n x n`` grid split into boxes of ``r`` rows
and ``c`` columns, with ``n == r * c`` and ``4 <= n <= 36``; a grid without
boxes (the readers' ``rules=`` a Latin square or a jigsaw) has any size from 2
to 36, primes too.  Cell values are
``0`` for a blank and ``1..n`` for a given.  In memory a batch of puzzles is
a ``(N, n*n)`` array of ``uint8`` in row-major order.

Text alphabet
-------------
One character per cell (usable for ``n <= 35``): ``0``, ``.``, ``_``, ``*`` or
``-`` is a blank (``-`` only in line format: in grid format it draws box
borders), ``1``-``9`` are 1-9 and ``A``-``Z`` (either case) are 10-35, i.e.
the ``int(ch, 36)`` digits.  For any size, and necessarily for ``n == 36``, a
puzzle may instead be written as integers separated by whitespace or commas
(``0`` or ``.`` is a blank).

Formats
-------
``'lines'``
    One puzzle per line.  Blank lines, ``#`` comments (a whole line or the
    rest of a line), a UTF-8 byte order mark, CR line ends and trailing
    whitespace are ignored.  A puzzle line is its ``n*n`` cells, then
    optionally a *trailing field*: whitespace or one of ``;`` ``,`` ``|``
    ``#`` ``//``, and anything after it (a rating such as ``11.9`` or
    ``ED=11.9/11.9/11.3``, a comment), which is ignored.  A line that is not
    that is read by "Cells of one line" below, and anything else is an error
    with ``name:line:column``.  ``n`` is the size most of the first 64 puzzle
    lines have (their cell count is ``n*n``; on a tie the earlier one), so one
    mistyped line does not set the size of a whole file; every puzzle line
    must then have that many cells.
``'grid'``
    ``n`` lines of ``n`` cells per puzzle.  Cells may be separated by
    spaces; the box-drawing characters ``|``, ``+`` and ``-`` are ignored and
    lines made only of them are skipped.  Puzzles may follow each other
    directly or be separated by blank lines, but a blank line inside a
    puzzle is an error.  :func:`format_grid_rows` writes this shape.
``'csv'``
    One puzzle per row, with or without a header row.  With a header the
    puzzle column is the first of :data:`PUZZLE_COLUMNS` present (any case),
    or the one named by ``column=`` (a name, or a 0-based index), and the
    optional solution column the first of :data:`SOLUTION_COLUMNS`
    (``quizzes,solutions`` as in Kaggle's sets, ``puzzle,solution``,
    ``unsolved,solved``, ``question,answer``, ...).  The first row is data,
    not a header, when one of its fields reads as a puzzle: the puzzle column
    is then the first such field (or ``column``) and the solution column the
    next field that reads as a puzzle of the same size.  The solution column
    is read (:func:`read_csv`) and checked by
    :func:`~numbadlx.sudoku.solve` (``SudokuResult.messages``); a solution
    field that cannot be read does not make its puzzle unreadable.

Contest files
-------------
A first data line that is a lone whole number, followed by a line of another
length, is the number of puzzles that follow (as in programming-contest
inputs: ``3``, then three grids of ``9`` lines of ``9`` digits, separated by
spaces or not, with or without blank lines between them, box-drawn or
not: lines of ``+``, ``-`` and ``|`` after the count are passed over when
comparing).  It is skipped in line and grid format; the number itself is
not checked.
``'npy'``
    A NumPy ``.npy`` file holding an integer (or whole-number float) array
    in any of the shapes :func:`parse` accepts for arrays.
``'fpuzzles'``
    f-puzzles puzzles (:func:`read_fpuzzles`): a file that is one JSON object
    is one puzzle; otherwise each line is one, as its lz-string packing, an
    f-puzzles link or one-line JSON. Each row's rules go into the chunk's
    ``rules``. In a file of one object anything wrong (a rule numbadlx lacks
    included) raises :class:`ValueError`; in a file of lines such a line is a
    row that cannot be read, with its message.

``'parquet'`` and ``'arrow'``
    Parquet and Arrow IPC files (with pyarrow installed): one puzzle per row of
    a column of strings or integer lists, chosen as in CSV; a null is a row that
    cannot be read. Read a row group (Parquet, in batches of a chunk) or a
    record batch (Arrow) at a time; chosen by the file name (``.parquet``,
    ``.pq``; ``.arrow``, ``.feather``, ``.ipc``, ``.arrows``) or the first bytes.

Format auto-detection (``format=None``)
---------------------------------------
1. A file name ending in ``.npy`` or ``.csv`` selects that format, and
   ``.json`` selects ``'fpuzzles'``; so does the ``.npy`` magic number at
   the start of the data.
2. Otherwise the data lines (not blank, not a comment, not a contest
   file's count line) decide:

   * f-puzzles if the first line starts a JSON object (``{``), holds an
     f-puzzles link (``?load=``) or is lz-string packed JSON (``N4Ig...``);
   * CSV if one of the comma-separated fields of the first line is a puzzle
     column name listed above;
   * line format if the first line is a puzzle line with a trailing field;
   * grid format if the first line contains ``|`` or ``+`` or consists only
     of box-drawing characters;
   * otherwise the cell count most of the first 64 lines have decides: if
     ``n`` was given, grid format if it is ``n``, else line format;
   * a count equal to ``k*k`` for ``4 <= k <= 36`` means line format,
     except for the ambiguous counts 16 and 36 (``4*4`` and ``6*6`` puzzles,
     or rows of ``16x16`` and ``36x36`` grids): these are rows of a grid
     when at least half of the first 64 lines hold a value too large for a
     ``4x4`` (resp. ``6x6``) puzzle and the text has at least 16 (resp. 36)
     data lines, and puzzle lines otherwise;
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

Arrays
------
A 2-D array is ``(N, n*n)``: ``N`` puzzles.  A square ``(k, k)`` array is one
``k x k`` grid (``(9, 9)``, ``(25, 25)``, ...), except ``(16, 16)`` and
``(36, 36)``: these are read as 16 (36) puzzles of ``4x4`` (``6x6``), the
``(N, n*n)`` layout :func:`parse` returns, so that reading its own output
changes nothing.  For one ``16x16`` or ``36x36`` grid pass ``n`` (or ``box``
of that size) or a ``(1, k, k)`` array.

Lists of strings
----------------
In a list (or array, or pandas Series) of strings every item is one puzzle:
an item that is blank, only a comment, or several puzzles is a row that
cannot be read, so the rows stay the items.  Blank and comment lines are
skipped only in a file or a single text string.

Errors
------
Malformed input raises :class:`ValueError` with a message of the form
``name:line:column: what is wrong``, where ``name`` is the file name (or
``<string>``, ``<bytes>``, ``<list>``) and line and column are 1-based.
Arrays are reported as ``name[index]: row r, column c: ...``.  Clashing
givens are *not* parse errors.  :func:`parse_chunk` and :func:`iter_chunks`
flag a bad puzzle and go on instead of raising.  A directory, a missing file
and a binary file (a control byte such as NUL in its first 64 KiB) are named
as such (:func:`numbadlx.core.textfile.check_text_file`).
"""

# Layout: each module imports only from the ones above it; names with a leading
# underscore (modules included) are private to this package.
#   _cells   the alphabet lookup table, tokens, the cells of one line, cell error texts
#   _reader  PuzzleChunk, the parse context, start checks, block/record iteration,
#            count_newlines, line_ranges
#   _lines, _grid, _csv  the chunk readers of the text formats (_csv: PUZZLE_COLUMNS, ...)
#   _arrays  arrays to (N, n*n) and their value checks
#   write    format_lines, format_line, format_grid, format_grid_rows
#   _npy     .npy loading and chunks (its raw text comes from format_lines)
#   detect   FORMATS, format detection, file_format
#   _items   lists of strings: one row per item (a blank or comment item is a bad row)
#   _lzstring, _fpuzzles  f-puzzles JSON (lz-string packed or plain) to a puzzle and Rules
#   _fpuzzles_file  f-puzzles files (one JSON object, or a puzzle per line) as chunks
#   _api     parse, parse_chunk, read_csv, iter_chunks and the dispatch to the chunk readers
from ._api import iter_chunks, parse, parse_chunk, read_csv
from ._columnar import columnar_chunk, require_pyarrow
from ._csv import PUZZLE_COLUMNS, SOLUTION_COLUMNS
from ._fpuzzles import read_fpuzzles
from ._reader import PuzzleChunk, line_ranges
from .detect import FORMATS, file_format
from .write import format_grid, format_grid_rows, format_line, format_lines

__all__ = [
    "FORMATS",
    "PUZZLE_COLUMNS",
    "SOLUTION_COLUMNS",
    "PuzzleChunk",
    "file_format",
    "format_grid",
    "format_grid_rows",
    "format_line",
    "format_lines",
    "iter_chunks",
    "line_ranges",
    "parse",
    "parse_chunk",
    "read_csv",
    "read_fpuzzles",
    "columnar_chunk",
    "require_pyarrow",
]
