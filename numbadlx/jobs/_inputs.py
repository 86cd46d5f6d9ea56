"""The input and output of a file job, checked before anything is written: a puzzle
file, or standard input and pipes spooled to a temporary file."""

from __future__ import annotations

import os
import sys

from ..core.textfile import check_file

#: The live copies of standard input and pipes, and the label each stands for: a job
#: handed such a copy (the command line spools standard input itself) names the input
#: by its label, never by the temporary path.
_COPIES: dict[str, str] = {}


def input_file(input: str | os.PathLike) -> str:
    """``input`` as a path string, checked to be a readable file (ValueError naming it
    otherwise: no such file, a directory, unreadable): what the file solvers do before
    they touch anything. The first checks are those of every text reader
    (:func:`numbadlx.core.textfile.check_file`), as ValueError."""
    try:
        path = check_file(input)
    except OSError as error:  # a directory, no such file
        raise ValueError(str(error)) from None
    if not os.path.isfile(path):
        raise ValueError(f"{path} is not a regular file (a pipe or a device cannot be resumed)")
    if not os.access(path, os.R_OK):
        raise ValueError(f"cannot read {path}: permission denied")
    return path


def check_output(input: str, output: str | None) -> None:
    """Refuse (ValueError) an output that would destroy the input, or that is not text;
    ``output`` None is standard output, refused when it is the input file (as with
    ``numbadlx solve in.txt >> in.txt``, which would read its own results forever)."""
    if output is None:
        try:
            out, source = os.fstat(sys.stdout.fileno()), os.stat(input)
        except (OSError, ValueError, AttributeError):
            return  # no real standard output (a test's capture): nothing to compare
        if (out.st_dev, out.st_ino) == (source.st_dev, source.st_ino):
            raise ValueError(
                f"standard output is the input file {input}: writing it would read the "
                f"results back as puzzles; write elsewhere"
            )
        return
    if os.path.exists(output) and os.path.samefile(input, output):
        raise ValueError(
            f"the output {output} is the input file {input}: writing it would destroy the "
            f"puzzles; choose another output"
        )
    if output.lower().endswith(".npy"):
        raise ValueError(
            f"cannot write {output}: file solves write text or CSV lines, not .npy; name "
            f"the output .txt or .csv, or use numbadlx.sudoku.solve and numpy.save"
        )


class JobInput:
    """``with JobInput(name) as path``: the file a job reads. A regular file is checked
    (:func:`input_file`) and used as it is; ``"-"`` (standard input) or a pipe such as
    ``<(zcat puzzles.gz)`` is first copied to a temporary file, which the job can read
    twice (to detect the format) and measure, and which Dask workers on this machine can
    open; the copy is removed afterwards. ``label`` names the input in messages
    (``<stdin>`` for standard input); :meth:`relabel` puts it in an error's text in
    place of the copy's path. ``resume`` refuses a copy (it would be another input each
    time). A live copy of another :class:`JobInput`, given as a path, keeps that one's
    label."""

    def __init__(self, name: str | os.PathLike, resume: bool = False):
        self.name = name if name == "-" else os.fspath(name)
        if name == "-":
            self.label = "<stdin>"
        else:
            self.label = _COPIES.get(self.name, self.name)
        self.resume = resume
        self.copy = None

    def __enter__(self) -> str:
        import stat

        name = self.name
        if name != "-":
            try:
                mode = os.stat(name).st_mode
            except OSError:
                mode = None  # input_file says what is wrong
            if mode is None or stat.S_ISREG(mode) or stat.S_ISDIR(mode):
                return input_file(name)
        if self.resume:
            what = "standard input" if name == "-" else f"{name}, a pipe or a device"
            raise ValueError(
                f"--resume needs an input file, not {what} (its copy would be another "
                f"input each time)"
            )
        self.copy = _spool(name)
        _COPIES[self.copy] = self.label
        return self.copy

    def relabel(self, error: BaseException) -> BaseException:
        """``error`` with the copy's path in its text replaced by :attr:`label`, as a
        ValueError; ``error`` itself when the input is named by its own path."""
        path = self.copy if self.copy is not None else self.name
        if self.label == path:
            return error
        text = str(error)
        if isinstance(error, OSError) and error.filename is not None and error.strerror:
            text = f"{error.strerror.lower()}: {error.filename}"
        return ValueError(text.replace(path, self.label))

    def __exit__(self, *exc):
        if self.copy is not None:
            _COPIES.pop(self.copy, None)
            os.remove(self.copy)
            self.copy = None
        return False


def _spool(name):
    """Copy standard input (``"-"``) or the pipe ``name`` to a temporary file; its path."""
    import shutil
    import tempfile

    with tempfile.NamedTemporaryFile(prefix="numbadlx-input-", delete=False) as copy:
        try:
            if name == "-":
                shutil.copyfileobj(sys.stdin.buffer, copy)
            else:
                with open(name, "rb") as pipe:
                    shutil.copyfileobj(pipe, copy)
        except BaseException:  # Ctrl-C too: leave no copy behind
            copy.close()
            os.remove(copy.name)
            raise
    return copy.name
