"""How results and first uses name the solver and the grid: one wording, shared by
:func:`~numbadlx.sudoku.solve`, :func:`~numbadlx.sudoku.warm_up` and the results."""

__all__ = ["box_note", "solver_label"]


def box_note(n, box) -> str:
    """`` with boxes of R rows by C columns`` where the grid size leaves a choice (a
    10x10 grid: 2x5 or 5x2); nothing for a square box or none.

    Examples
    --------
    >>> box_note(10, (2, 5)), box_note(9, (3, 3)), box_note(8, None)
    (' with boxes of 2 rows by 5 columns', '', '')
    """
    if box is None or len(box) != 2 or box[0] == box[1] or not all(box):
        return ""
    return f" with boxes of {box[0]} rows by {box[1]} columns"


def solver_label(engines: str, parallel: bool = False) -> str:
    """The name under which a first use announces the solver's kernels: one name for
    a kernel wherever it compiles (the kernels serve every grid size), the parallel
    kernel, which large inputs take, named apart from the one-thread kernel.

    Examples
    --------
    >>> solver_label("bands"), solver_label("bits,cages", parallel=True)
    ('the Sudoku solver (bands engine)', 'the Sudoku solver (bits,cages engine, parallel)')
    """
    return f"the Sudoku solver ({engines} engine{', parallel' if parallel else ''})"
