"""Calling from a test the compiled helpers that have no Python entry point."""

_CALLER = None


def call_inner(kernel, *args):
    """Call a kernel that has no Python entry point (``inner_njit``: only other kernels
    call it) through a small compiled caller, as the engines call it."""
    return _caller()(kernel, *args)


def _caller():
    from numba import njit

    global _CALLER
    if _CALLER is None:

        @njit
        def caller(kernel, *args):
            return kernel(*args)

        _CALLER = caller
    return _CALLER
