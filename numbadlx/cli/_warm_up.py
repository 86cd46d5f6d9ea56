"""``numbadlx warm-up``: compile (or load) the kernels ahead, one named group at a time."""

import sys
import threading
import time

from ._common import EXIT_OK

# Small problems in Knuth's DLX text: plain, with colours, with a multiplicity.
_PLAIN = "a b c\na b\nc\na\nb c\n"
_COLOURED = "p q | x\np x:red\nq x:red\nq x:blue\n"
_MULTIPLE = "2|p q | x\np x:red\np q x:red\nq\n"


def _variant(sudoku, rows, threads, rules, engine="auto"):
    """Solve ``rows`` empty 4x4 grids under ``rules`` (a 4x4 rule set that ``sudoku``'s
    Rules builds from its arguments): the tables and kernels of that rule kind."""
    import numpy as np

    kind, arguments = rules
    made = sudoku.Rules.killer(*arguments) if kind == "killer" else sudoku.Rules(**arguments)
    grid = np.zeros((rows, 16), dtype=np.uint8)
    return sudoku.solve(grid, rules=made, engine=engine, threads=threads, limit=2)


# 4x4 rule sets whose solving compiles what a file of their kind needs: a Killer
# Sudoku (cage tables with innies and outies, the "cages" engine) and a grid with an
# extra unit and extra peers (the rule tables of "bits" and "dlx").
_KILLER = ("killer", ("aabbcddecfgehfgg", [3, 7, 5, 5, 5, 4, 7, 4]))
_X_KNIGHT = ("rules", {"diagonals": True, "anti_knight": True})


def _priced_text():
    """DLX text long enough for the compiled scanner, with costs."""
    options = "".join(f"{item} |{k}\n" for k in range(1500) for item in "ab")
    return "a b\n" + options


def _groups(everything):
    """``(name, function)`` for each group of kernels, the common paths first."""
    from .. import sudoku
    from ..core import ExactCover

    sample = sudoku.parse(sudoku.default_sample_path())[:300]

    def cover(text):
        return ExactCover.from_dlx(text)

    def both(call):
        """A call of one puzzle and one of more, on more threads."""
        return lambda: (call(1, 1), call(300, None))

    def compiled_rater(k, threads):
        """A large call's compiled ladder (a first call of moderate work runs the
        stepwise one until this is in the cache)."""
        from ..sudoku.making import compiled_ladder

        with compiled_ladder():
            return sudoku.rate(sample[:k], threads=threads)

    groups = [
        ("Sudoku solver, 9x9 (bands engine)", lambda: sudoku.warm_up(("bands",))),
        (
            "Sudoku rater (logic ladder and tries)",
            both(lambda k, threads: sudoku.rate(sample[:k], threads=threads)),
        ),
        # (more threads run the same compiled functions: one call compiles them)
        ("Sudoku generator", lambda: sudoku.generate(2, 4, seed=0, threads=1)),
        ("exact cover: links and Algorithm X", lambda: cover(_PLAIN).count()),
        ("exact cover: Algorithm C (colours)", lambda: cover(_COLOURED).count()),
    ]
    if everything:
        groups += [
            (
                "Sudoku rater, compiled ladder (large calls)",
                lambda: compiled_rater(300, None),
            ),
            ("Sudoku solver, every size (bits engine)", lambda: sudoku.warm_up(("bits",))),
            ("Sudoku solver, every size (dlx engine)", lambda: sudoku.warm_up(("dlx",))),
            (
                "Sudoku variants: cages, thermos, pairs (cages engine and its tables)",
                lambda: _variant(sudoku, 1, 1, _KILLER),
            ),
            (
                "Sudoku variants: regions and peers (rule tables of bits and dlx)",
                lambda: [_variant(sudoku, 1, 1, _X_KNIGHT, engine) for engine in ("bits", "dlx")],
            ),
            (
                "Sudoku generator with a rating bound",
                lambda: sudoku.generate(2, 4, seed=0, rating=(0, 20), threads=1),
            ),
            ("random grids and isomorphs", lambda: sudoku.transform(sudoku.random_grids(1, 4))),
            ("exact cover: Algorithm M (multiplicities)", lambda: cover(_MULTIPLE).count()),
            (
                "exact cover: memoised count and ZDD",
                lambda: (cover(_PLAIN).count(method="memo"), cover(_COLOURED).zdd().sample(1)),
            ),
            ("exact cover: threaded count", lambda: cover(_PLAIN).count(threads=2)),
            (
                "exact cover: large DLX text and the cheapest cover",
                lambda: cover(_priced_text()).cheapest(),
            ),
        ]
    return groups


#: Roughly how long a run takes on an empty Numba cache, said before it starts: the
#: common groups took 18 CPU s, --all 94 CPU s on a two-core machine (compiling runs
#: on one thread, so on an idle machine wall time is about CPU time). A cache that
#: holds the kernels makes it seconds; a busy machine, longer.
ABOUT_MINUTES = {False: "0.5-1", True: "1.5-2"}


class _Showing:
    """One group's line on standard error: on a terminal ``[k/N] name |`` with a spinner
    and the seconds so far, redrawn until the group is done; elsewhere the line once, as
    the group starts. :meth:`done` ends it with what the group took."""

    FRAMES = "|/-\\"

    def __init__(self, head, stream, live):
        self.head, self.stream, self.live = head, stream, live
        self.begin = time.perf_counter()
        self.stop = threading.Event()
        self.thread = None
        if live:
            self.thread = threading.Thread(target=self._spin, daemon=True)
            self.thread.start()
        else:
            self._write(f"{head} ...\n")

    def _write(self, text):
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            pass

    def _spin(self):
        frame = 0
        while not self.stop.wait(0.1 if frame else 0.0):
            seconds = time.perf_counter() - self.begin
            self._write(f"\r{self.head} {self.FRAMES[frame % 4]} {seconds:.0f} s")
            frame += 1

    def done(self, how):
        """End the line: ``how`` ("compiled", ...) and the seconds; the seconds."""
        seconds = time.perf_counter() - self.begin
        if self.thread is not None:
            self.stop.set()
            self.thread.join()
            self._write("\r\x1b[K")  # the spinner's line cleared
        self._write(f"{self.head}: {how} in {seconds:.1f} s\n")
        return seconds


def warm_up_command(args):
    """Run every group, saying what each took: compiled, or loaded from the cache; on a
    terminal a spinner shows while a group runs."""
    from .._compiling import compile_seconds, first_use, interactive, quiet

    groups = _groups(args.all)
    stream = sys.stderr
    live = interactive(stream) and not quiet()
    others = "" if args.all else f"; --all, every engine and kernel, {ABOUT_MINUTES[True]}"
    print(
        f"numbadlx: warming up {len(groups)} kernel groups: about {ABOUT_MINUTES[args.all]} "
        f"minutes on an empty cache, seconds once they are cached (an idle machine{others})",
        file=stream,
    )
    started = time.perf_counter()
    for number, (name, run) in enumerate(groups, 1):
        compiled = compile_seconds()
        showing = _Showing(f"[{number}/{len(groups)}] {name}", stream, live)
        try:
            with first_use(name, say_done=False, spin=False):
                run()
        except BaseException:
            showing.done("stopped")
            raise
        showing.done("compiled" if compile_seconds() - compiled > 0 else "loaded from the cache")
    print(
        f"numbadlx: {len(groups)} kernel groups ready in {time.perf_counter() - started:.1f} s"
        f"{'' if args.all else ' (--all: every engine and kernel)'}",
        file=stream,
    )
    return EXIT_OK
