"""Reading and writing Sudoku puzzles: line, grid, CSV and ``.npy`` formats."""

from ._io import (FORMATS, PUZZLE_COLUMNS, SOLUTION_COLUMNS, PuzzleChunk, file_format,
                  format_grid, format_line, format_lines, iter_chunks, line_ranges, parse,
                  read_csv)

__all__ = ["FORMATS", "PUZZLE_COLUMNS", "SOLUTION_COLUMNS", "PuzzleChunk", "file_format",
           "format_grid", "format_line", "format_lines", "iter_chunks", "line_ranges",
           "parse", "read_csv"]
