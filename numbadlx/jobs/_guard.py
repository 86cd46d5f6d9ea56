"""What a writer may replace: a regular file that holds something is never replaced
unless the caller says so (``overwrite``), and one that holds an interrupted run (it has
a checkpoint) is named as such, with both ways on (resume it, or start afresh)."""

from __future__ import annotations

import os

from ._checkpoint import (
    check_locked,
    is_locked,
    is_stream,
    locked_error,
    open_locked,
    refusal,
)
from ._columnar import columnar_kind, spool_path


def _size(path):
    """The size of the regular file ``path``; 0 when there is none (or a stream)."""
    if path is None or is_stream(path) or not os.path.isfile(path):
        return 0
    return os.path.getsize(path)


def check_replace(
    output: str | os.PathLike | None, *, resume: bool = False, overwrite: bool = False
) -> None:
    """Refuse (FileExistsError) to start a file job that would replace what ``output``
    holds: a regular file that is not empty, unless ``overwrite``; one with a checkpoint
    (an interrupted run) is named as such, and ``resume`` carries it on; one that
    another run is writing (it holds the lock) is refused as such (ValueError). A Parquet or
    Arrow output is checked with its spool (:func:`~numbadlx.jobs.spool_path`), and
    refused when it names a directory, a pipe or anything else but a regular file or a
    device (it is written whole once the run ends). None, ``"-"``, a missing or empty
    file and a device (a name under /dev or /proc) pass.

    The file jobs (:func:`~numbadlx.jobs.solve_file`, :func:`~numbadlx.jobs.rate_file`,
    :func:`~numbadlx.jobs.generate_file`, :func:`~numbadlx.jobs.save_puzzles`) check
    this before any work and again once they hold the output's lock; this function
    lets a caller check it before its own work (reading standard input, say).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "out.txt")
    >>> check_replace(path)  # no such file: nothing to lose
    >>> _ = open(path, "w").write("kept\\n")
    >>> check_replace(path)
    Traceback (most recent call last):
    ...
    FileExistsError: ... exists (5 bytes); run again with --overwrite to replace it, ...
    >>> check_replace(path, overwrite=True)
    """
    if output is None or os.fspath(output) == "-":
        return
    name = os.fspath(output)
    places = [name]
    if columnar_kind(name) is not None:
        # written once the run is done, as a whole file: a directory, a pipe or a
        # socket of that name would fail only then, after all the work
        if os.path.exists(name) and not os.path.isfile(name) and not is_stream(name):
            raise FileExistsError(
                f"{name} exists and is not a regular file; a Parquet or Arrow output is "
                f"written as a new file: choose another name"
            )
        places.append(spool_path(name))
    for place in places:
        # the written-out Parquet or Arrow file has no checkpoint: only overwrite
        # replaces it, resumed or not
        carry_on = resume and (place != name or len(places) == 1)
        why = refusal(place, _size(place), resume=carry_on, overwrite=overwrite)
        if why is not None:
            if is_locked(place):  # a run in progress, not a finished or interrupted one
                raise locked_error(place)
            if resume and not carry_on:  # a written-out file beside a run to resume
                why += " (with --resume: the run is carried on, then written over it)"
            raise FileExistsError(why)


def replace_file(temp: str, output: str, *, overwrite: bool = False) -> None:
    """Put the finished file ``temp`` in place as ``output``: a new name is linked (and
    fails if a file appeared meanwhile); an existing regular file is replaced only when
    it is empty or ``overwrite``, and only while no job holds its lock (it is taken for
    the swap). ``temp`` is gone afterwards, except when this raises.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> temp, out = os.path.join(folder, "t"), os.path.join(folder, "out.txt")
    >>> _ = open(temp, "w").write("new\\n")
    >>> replace_file(temp, out)
    >>> open(out).read(), os.path.exists(temp)
    ('new\\n', False)
    """
    if not os.path.lexists(output):
        os.link(temp, output)  # fails, and keeps the file, if one appeared
        os.unlink(temp)
        return
    if not os.path.isfile(output):
        raise FileExistsError(f"{output} exists and is not a regular file; choose another name")
    with open_locked(output) as handle:
        check_locked(handle, output, overwrite=overwrite)
        os.replace(temp, output)
