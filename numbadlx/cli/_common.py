"""What every command shares: exit codes, the progress bar, notes on stderr and the
small argument checks."""

import argparse
import sys

#: Every puzzle got an answer (UNIQUE, SOLVED or MULTIPLE); the count finished.
EXIT_OK = 0
#: Some puzzle got no answer: INVALID or NO_SOLUTION.
EXIT_NO_ANSWER = 1
#: Bad usage or input: an unknown option, a missing or unreadable file, bad DLX text.
EXIT_USAGE = 2
#: A budget (--max-nodes, --timeout) stopped some puzzle (BUDGET) or the count.
EXIT_UNFINISHED = 3
#: Ctrl-C: the output holds whole lines for a prefix of the input (see --resume).
EXIT_INTERRUPTED = 130
#: The reader of standard output went away (``numbadlx solve big.txt | head``).
EXIT_BROKEN_PIPE = 141

_USAGE = "  2    usage or input error (bad option, missing or unreadable file{})\n"
#: Exit code 2 also when -o names a file that holds something (nothing is written then).
_REFUSED = "       or -o names a file that holds something, without --overwrite{}\n"
_RESUMABLE = _REFUSED.format(" (or --resume,\n       for an interrupted run)")
_INTERRUPTED = "  130  interrupted (Ctrl-C){}\n"

#: The exit codes each command can give, as its help lists them.
EXIT_CODES = {
    "numbadlx": (
        "exit codes (each command's --help lists its own):\n"
        "  0    done: every puzzle got an answer, the count finished\n"
        "  1    some puzzle got no answer (solve) or could not be read (rate)\n"
        + _USAGE.format(", bad DLX text")
        + _REFUSED.format("")
        + "  3    a budget (--max-nodes, --timeout) stopped a puzzle or the count\n"
        + _INTERRUPTED.format("")
    ),
    "solve": (
        "exit codes:\n"
        "  0    every puzzle got an answer (UNIQUE, SOLVED or MULTIPLE)\n"
        "  1    some puzzle is INVALID or has NO_SOLUTION\n"
        + _USAGE.format("")
        + _RESUMABLE
        + "  3    a budget (--max-nodes, --timeout) stopped some puzzle (BUDGET)\n"
        + _INTERRUPTED.format("; run again with --resume to carry on")
    ),
    "count": (
        "exit codes:\n"
        "  0    the count finished\n"
        + _USAGE.format(", bad DLX text")
        + "  3    a budget (--max-nodes, --timeout) stopped the count\n"
        + _INTERRUPTED.format("")
    ),
    "generate": (
        "exit codes:\n"
        "  0    every puzzle was made\n"
        + _USAGE.format("")
        + "       or no puzzle met --clues/--rating within --attempts\n"
        + _RESUMABLE
        + _INTERRUPTED.format("; run again with --resume to carry on")
    ),
    "dedup": (
        "exit codes:\n"
        "  0    every row was read and the classes written\n"
        "  1    some row could not be read or its givens clash (listed on stderr)\n"
        + _USAGE.format("")
        + _REFUSED.format("")
        + _INTERRUPTED.format("; nothing is written to OUTPUT")
    ),
    "rate": (
        "exit codes:\n"
        "  0    every puzzle was rated\n"
        "  1    some puzzle could not be read (its reason is in the CSV)\n"
        + _USAGE.format("")
        + _RESUMABLE
        + _INTERRUPTED.format("; run again with --resume to carry on")
    ),
}


class ProgressBar:
    """A tqdm bar on stderr counting puzzles, with rate and ETA, as a
    ``progress(end_byte, puzzles)`` callback of the file solvers; nothing when disabled
    (or tqdm is missing). The total is estimated from the input's size and the bytes
    each puzzle took so far, so it settles after the first chunk."""

    def __init__(self, input_bytes, enabled, desc):
        self.bar = None
        self.input_bytes = input_bytes
        if not enabled:
            return
        try:
            from tqdm import tqdm
        except ImportError:  # tqdm comes with numbadlx[cli]
            print(
                "numbadlx: (no progress bar without tqdm: pip install 'numbadlx[cli]')",
                file=sys.stderr,
            )
            return
        self.bar = tqdm(total=None, unit=" puzzles", file=sys.stderr, desc=desc, dynamic_ncols=True)

    def __call__(self, end_byte, puzzles):
        if self.bar is None:
            return
        if end_byte > 0:
            self.bar.total = max(puzzles, round(puzzles * self.input_bytes / end_byte))
        self.bar.update(puzzles - self.bar.n)

    def note(self, message):
        """Print ``numbadlx: message`` on stderr (above the bar while it shows)."""
        note(message, self.bar)

    def close(self):
        if self.bar is not None:
            self.bar.close()


def note(message, bar=None):
    if bar is not None:
        bar.write(f"numbadlx: {message}", file=sys.stderr)
    else:
        print(f"numbadlx: {message}", file=sys.stderr)


def parse_box(text):
    """``--box RxC`` as ``(rows, cols)``, or None after saying what is wrong."""
    try:
        rows, cols = (int(v) for v in text.lower().split("x"))
    except ValueError:
        rows = cols = 0
    if rows < 2 or cols < 2:
        print(
            f"numbadlx: error: --box must be ROWSxCOLS with both at least 2 (such as 2x3), "
            f"got {text!r}",
            file=sys.stderr,
        )
        return None
    return rows, cols


def solve_exit_code(tally):
    """0 when every puzzle got an answer, else EXIT_NO_ANSWER or EXIT_UNFINISHED."""
    if tally.get("INVALID") or tally.get("NO_SOLUTION"):
        return EXIT_NO_ANSWER
    if tally.get("BUDGET"):
        return EXIT_UNFINISHED
    return EXIT_OK


def os_error_text(error):
    """An OSError as 'what: file' (its strerror and filename), else its message."""
    if isinstance(error, OSError) and error.filename is not None and error.strerror:
        return f"{error.strerror.lower()}: {error.filename}"
    return str(error)


def parse_pair(text, kind, option):
    """``LO,HI`` (or ``LO:HI``) as a tuple, None when not given, False after an error."""
    if text is None:
        return None
    try:
        lo, hi = (kind(v) for v in text.replace(":", ",").split(","))
    except ValueError:
        print(f"numbadlx: error: {option} must be LO,HI, got {text!r}", file=sys.stderr)
        return False
    return lo, hi


def show_progress(args):
    """A progress bar when asked (--progress), or when stderr is a terminal and
    --no-progress is not given."""
    return (not args.no_progress and sys.stderr.isatty()) or args.progress


def bad_timeout(args):
    """Check ``args.timeout`` with the library's own rule (core.validate.check_timeout):
    say so on stderr and return True when it is negative or NaN; infinity becomes None
    (no deadline)."""
    from ..core.validate import check_timeout

    try:
        args.timeout = check_timeout(args.timeout)
    except ValueError as error:
        print(f"numbadlx: error: --{error}", file=sys.stderr)
        return True
    return False


def positive(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not positive")
    return value
