"""How first uses name the solver: one wording, shared by
:func:`~numbadlx.sudoku.solve` and :func:`~numbadlx.sudoku.warm_up`."""

__all__ = ["solver_label"]


def solver_label(engines: str) -> str:
    """The name under which a first use announces the solver's kernels: one name for
    a kernel wherever it compiles (the kernels serve every grid size and thread count).

    Examples
    --------
    >>> solver_label("bands"), solver_label("bits,cages")
    ('the Sudoku solver (bands engine)', 'the Sudoku solver (bits,cages engine)')
    """
    return f"the Sudoku solver ({engines} engine)"
