"""File jobs: solve, rate and make puzzle files, with checkpoints, on this machine or on Dask.

One runner serves every job that reads a puzzle file and writes a line (or a row) per
puzzle. A file is read, worked and written a piece at a time (bounded memory). Each
piece's lines go to the output in one *commit*: written, flushed and fsynced, then a
small checkpoint file (``OUTPUT.progress``) is replaced atomically to record how far the
input was read and how long the output is. So an interrupted run loses nothing:

* Ctrl-C (KeyboardInterrupt) cuts the output back to the last commit (whole lines for a
  prefix of the input); a Ctrl-C arriving during a commit is held until the commit is
  complete, so the output and the checkpoint always agree;
* a kill or a crash leaves the committed prefix plus perhaps part of one piece, which
  ``resume=True`` cuts off before carrying on; the final output is byte for byte the
  one of an uninterrupted run;
* the checkpoint also records the input's fingerprint (path, size, mtime and a SHA-256
  of the bytes already worked), the options that shape the output and a SHA-256 of
  the output bytes committed, and resuming refuses a checkpoint of another or a
  changed input, of other options, or of an output whose committed bytes changed;
* an output file is locked while a job writes it: a second job (solve, rate or
  generate) writing the same file is refused;
* a file that holds something is never replaced unless the caller says so
  (``overwrite=True``): an interrupted run's output is refused without ``resume`` or
  ``overwrite``, so a rerun cannot discard it.

The pieces:

* the jobs: :func:`solve_file` (:class:`SolveJob`, one result line per puzzle,
  :func:`result_lines`), :func:`rate_file` (:class:`RateJob`, a CSV row of ratings,
  :func:`rate_text`) and :func:`generate_file` (:class:`GenerateJob`, made puzzles, a
  block of puzzle indices at a time: it reads no input, and its options, seed
  included, are its fingerprint); :func:`save_puzzles` writes an array of puzzles
  under the same lock; :func:`run_job` runs a job object;
* the executors, which only run work units: :class:`LocalExecutor` (in this process,
  a chunk of puzzles a unit, solved while the next is read and the one before is
  written) and :class:`DaskExecutor` (byte ranges as tasks on a
  ``distributed`` cluster or a thread pool; Dask is imported only when it is used);
  a run of either kind resumes with the other;
* the output: :class:`CheckpointedOutput`, :class:`Checkpoint`, :func:`checkpoint_path`,
  :func:`write_checkpoint`, :func:`fsync_file`, :func:`output_options`, the
  :class:`FileSummary` of a run;
* the input: :func:`input_file`, :func:`check_output` and :class:`JobInput` (standard
  input or a pipe, copied to a temporary file);
* what may be replaced: an output that holds something (a regular file that is not
  empty) only with ``overwrite=True``, checked before any work and again under the
  lock (:func:`check_replace`); one with a checkpoint is named as an interrupted run,
  which ``resume=True`` carries on. :func:`replace_file` puts a finished file in place
  by the same rule.

Examples
--------
>>> import os, tempfile
>>> from numbadlx import jobs
>>> folder = tempfile.mkdtemp()
>>> source = os.path.join(folder, "in.txt")
>>> with open(source, "w") as f:
...     _ = f.write("0200004034000000\\n")
>>> jobs.solve_file(source, os.path.join(folder, "out.csv")).tally
{'UNIQUE': 1}
>>> header, row = open(os.path.join(folder, "out.csv")).read().splitlines()
>>> header, row.split(",")[:3]
('puzzle,solution,status,count,nodes,message', ['0200004034000000', '4213134234212134', 'UNIQUE'])
>>> import shutil; shutil.rmtree(folder)
"""

from ._checkpoint import Checkpoint, checkpoint_path, fsync_file, is_stream, write_checkpoint
from ._columnar import columnar_kind, spool_path
from ._executors import DEFAULT_RANGE_BYTES, DaskExecutor, LocalExecutor, Piece
from ._guard import check_replace, replace_file
from ._inputs import JobInput, check_output, input_file
from ._jobs import GenerateJob, RateJob, SolveJob, output_options
from ._lines import (
    CSV_HEADER,
    RATE_HEADER,
    count_statuses,
    csv_field,
    rate_text,
    result_lines,
    result_text,
    solutions_header,
    solutions_text,
)
from ._output import CheckpointedOutput, FileSummary
from ._runner import generate_file, rate_file, run_job, solve_file
from ._save import save_puzzles

__all__ = [
    "solve_file",
    "rate_file",
    "generate_file",
    "save_puzzles",
    "run_job",
    "SolveJob",
    "RateJob",
    "GenerateJob",
    "LocalExecutor",
    "DaskExecutor",
    "DEFAULT_RANGE_BYTES",
    "Piece",
    "FileSummary",
    "CheckpointedOutput",
    "Checkpoint",
    "checkpoint_path",
    "write_checkpoint",
    "fsync_file",
    "output_options",
    "input_file",
    "check_output",
    "JobInput",
    "check_replace",
    "is_stream",
    "replace_file",
    "CSV_HEADER",
    "RATE_HEADER",
    "result_lines",
    "result_text",
    "solutions_text",
    "solutions_header",
    "rate_text",
    "count_statuses",
    "csv_field",
    "columnar_kind",
    "spool_path",
]
