"""How first uses name the solver: one wording, shared by
:func:`~numbadlx.sudoku.solve` and :func:`~numbadlx.sudoku.warm_up`."""

__all__ = ["solver_label"]


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
