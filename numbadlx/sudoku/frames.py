"""pandas, Polars and Arrow in and out for the Sudoku layer: :func:`numbadlx.sudoku.solve`
reads a Series of puzzle strings (or a DataFrame column) of pandas or Polars, or an Arrow
array or table, and :meth:`~numbadlx.sudoku.SudokuResult.to_pandas` and
:meth:`~numbadlx.sudoku.SudokuResult.to_arrow` give the results as a DataFrame or an
Arrow table (``polars.from_arrow`` makes the latter a Polars DataFrame).

pandas, Polars and pyarrow stay optional: nothing here imports them until such an object
is given or asked for, and their objects are recognised by their type's module.

Examples
--------
>>> import pandas as pd
>>> from numbadlx import sudoku
>>> puzzles = pd.Series(["1..." "..1." ".3.." "...4"], index=["p1"])  # one 4x4 puzzle
>>> frame = sudoku.solve(puzzles).to_pandas()
>>> frame.loc["p1", "solution"], frame.loc["p1", "status"]
('1243341243212134', 'UNIQUE')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "PandasSource",
    "is_pandas",
    "puzzles_from_pandas",
    "result_frame",
    "is_columnar",
    "result_arrow",
]


@dataclass(frozen=True)
class PandasSource:
    """Where pandas input came from: its index, its column name and its blank
    character (``'.'`` if any puzzle used dots, else ``'0'``), so that
    :func:`result_frame` answers in the same form.

    Examples
    --------
    >>> PandasSource(index=None, name="puzzle", blank=".").blank
    '.'
    """

    index: Any
    name: Any
    blank: str


def is_pandas(obj: Any) -> bool:
    """True for a pandas Series or DataFrame (checked without importing pandas).

    Examples
    --------
    >>> is_pandas([1, 2]), is_pandas("text")
    (False, False)
    """
    kind = type(obj)
    return kind.__module__.startswith("pandas") and kind.__name__ in ("Series", "DataFrame")


def puzzles_from_pandas(obj: Any, column: Any = None) -> tuple[list[str], PandasSource]:
    """The puzzle strings of a Series, or of ``obj[column]`` for a DataFrame.

    Parameters
    ----------
    obj : pandas.Series or pandas.DataFrame
        One puzzle string per row (any one-line form :func:`numbadlx.sudoku.parse`
        reads: ``'0'`` or ``'.'`` blanks).
    column : hashable, optional
        The DataFrame's column that holds the puzzles (required for a DataFrame,
        refused for a Series).

    Returns
    -------
    (list of str, PandasSource)

    Raises
    ------
    ValueError
        A DataFrame without ``column``, a missing column, or ``column`` with a Series.
    TypeError
        A row that is not a string (a missing value, say), naming its column and index
        label; for a number (``pd.read_csv`` without ``dtype=str``), saying so.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"id": [7], "quiz": ["1..." "..1." ".3.." "...4"]})
    >>> lines, source = puzzles_from_pandas(frame, column="quiz")
    >>> lines, source.blank, source.name
    (['1.....1..3.....4'], '.', 'quiz')
    """
    if type(obj).__name__ == "DataFrame":
        if column is None:
            raise ValueError(
                f"a DataFrame needs column=... naming the column of puzzle strings "
                f"(it has {list(obj.columns)})"
            )
        if column not in obj.columns:
            raise ValueError(f"column {column!r} is not in the DataFrame ({list(obj.columns)})")
        series = obj[column]
    elif type(obj).__name__ == "Series":
        if column is not None:
            raise ValueError(
                f"column={column!r} is for a DataFrame; a Series holds the puzzles itself"
            )
        series = obj
    else:
        raise TypeError(f"expected a pandas Series or DataFrame, got {type(obj).__name__}")
    lines = []
    for label, value in zip(series.index, series.tolist()):
        if not isinstance(value, str):
            raise TypeError(_not_a_string(series.name, label, value))
        lines.append(value)
    blank = "." if any("." in line for line in lines) else "0"
    return lines, PandasSource(index=series.index, name=series.name, blank=blank)


def _not_a_string(name: Any, label: Any, value: Any) -> str:
    """Why a pandas row is not a puzzle string, with the fix for a column of numbers."""
    where = f"column {name!r}" if name is not None else "the Series"
    kind = type(value).__name__
    why = f"{where}: puzzle at index {label!r} is {value!r} ({kind}), not a string of cells"
    number = isinstance(value, int) or (isinstance(value, float) and value == value)
    if number and not isinstance(value, bool):  # not a missing value (NaN)
        why += (
            "; pandas read the puzzles as numbers, which drops their leading zeros: "
            "read the file with pd.read_csv(..., dtype=str)"
        )
    return why


def result_frame(result: Any, blank: str | None = None) -> Any:
    """A :class:`~numbadlx.sudoku.SudokuResult` as a pandas DataFrame.

    Columns ``puzzle`` and ``solution`` (strings, in the input's form: blanks as the
    input wrote them, ``'0'`` for array input, the input text itself for a row that
    could not be read; the solution is missing where none was found), ``status`` (its
    name), ``count``, ``nodes`` and, when the engine counted them, ``guesses``. The
    index is the input Series' or DataFrame's index (one row per input row), else
    ``0..N-1``.

    Parameters
    ----------
    result : SudokuResult
    blank : {'0', '.'}, optional
        Blank character for the puzzle strings (default: the input's).

    Raises
    ------
    ImportError
        When pandas is not installed.

    Examples
    --------
    >>> import numpy as np
    >>> from numbadlx import sudoku
    >>> result = sudoku.solve(np.zeros((1, 16), dtype=np.uint8), limit=1)
    >>> result_frame(result).columns.tolist()
    ['puzzle', 'solution', 'status', 'count', 'nodes', 'guesses']
    """
    try:
        import pandas as pd
    except ImportError as error:
        raise ImportError(
            "SudokuResult.to_pandas needs pandas: pip install pandas "
            "(or the package's jupyter extra)"
        ) from error
    from .formats import format_lines

    source = getattr(result, "source", None)
    if blank is None:
        blank = source.blank if source is not None else "0"
    solved = result.counts > 0
    solutions = format_lines(result.solutions) if len(result) else []
    puzzles = list(format_lines(result.puzzles, blank=blank)) if len(result) else []
    for row, text in getattr(result, "texts", {}).items():
        puzzles[row] = text  # an unreadable row shows what it was, not an empty grid
    columns = {
        "puzzle": pd.array(puzzles, dtype="string"),
        "solution": pd.array(
            [text if ok else None for text, ok in zip(solutions, solved.tolist())],
            dtype="string",
        ),
        "status": pd.array(result.status_names().tolist(), dtype="string"),
        "count": result.counts,
        "nodes": result.nodes,
    }
    if result.guesses is not None:
        columns["guesses"] = result.guesses
    # one result per input row, always: pandas refuses an index of another length
    index = source.index if source is not None else None
    return pd.DataFrame(columns, index=index)


_ARROW_KINDS = ("Array", "ChunkedArray", "Table", "RecordBatch")


def is_columnar(obj: Any) -> bool:
    """True for a Polars Series or DataFrame, or a pyarrow array, chunked array, table
    or record batch (checked without importing either).

    Examples
    --------
    >>> is_columnar([1, 2]), is_columnar("text")
    (False, False)
    """
    kind = type(obj)
    module = kind.__module__
    if module.startswith("polars"):
        return kind.__name__ in ("Series", "DataFrame")
    return module.startswith("pyarrow") and (
        kind.__name__ in _ARROW_KINDS or kind.__name__.endswith("Array")
    )


def result_arrow(result: Any) -> Any:
    """A :class:`~numbadlx.sudoku.SudokuResult` as a pyarrow Table: ``puzzle``,
    ``solution`` (null where none was found), ``status``, ``count``, ``nodes``,
    ``guesses`` and ``message`` (null where there is none), one row per puzzle in input
    order.

    Examples
    --------
    >>> import numpy as np
    >>> from numbadlx import sudoku
    >>> table = result_arrow(sudoku.solve(np.zeros((1, 16), dtype=np.uint8), limit=1))
    >>> table.column_names
    ['puzzle', 'solution', 'status', 'count', 'nodes', 'guesses', 'message']
    """
    from .formats import format_lines, require_pyarrow

    pa = require_pyarrow("SudokuResult.to_arrow")
    size = len(result)
    solutions = format_lines(result.solutions) if size else []
    puzzles = list(format_lines(result.puzzles)) if size else []
    for row, text in getattr(result, "texts", {}).items():
        puzzles[row] = text
    solved = (result.counts > 0).tolist()
    guesses = result.guesses if result.guesses is not None else np.zeros(size, np.int64)
    messages = [result.messages.get(k) for k in range(size)]
    return pa.table(
        {
            "puzzle": pa.array(puzzles, pa.string()),
            "solution": pa.array(
                [t if ok else None for t, ok in zip(solutions, solved)], pa.string()
            ),
            "status": pa.array(result.status_names().tolist(), pa.string()),
            "count": pa.array(result.counts, pa.int64()),
            "nodes": pa.array(result.nodes, pa.int64()),
            "guesses": pa.array(guesses, pa.int64()),
            "message": pa.array(messages, pa.string()),
        }
    )
