"""``numbadlx count``: count (show, sample) the solutions of a DLX-format problem."""

import sys

from ..core.words import plural
from ._common import EXIT_OK, EXIT_UNFINISHED, EXIT_USAGE, bad_timeout, os_error_text


def count_command(args):
    from .._compiling import first_use

    with first_use("the exact-cover kernels"):
        return _count_command(args)


def _count_command(args):
    import time
    from pathlib import Path

    from ..core import BudgetExceeded, ExactCover, SearchStats

    if bad_timeout(args):
        return EXIT_USAGE
    # "-" is standard input; anything else is a file name, passed on as a Path so that
    # it is never read as DLX text (a missing file, a directory or a binary file is an
    # error naming it).
    try:
        # stdin as bytes, so that the same UTF-8 and binary checks as for a file apply
        problem = ExactCover.from_dlx(sys.stdin.buffer if args.file == "-" else Path(args.file))
    except (OSError, ValueError) as error:
        print(f"numbadlx: error: {os_error_text(error)}", file=sys.stderr)
        return EXIT_USAGE
    print(
        f"{'<stdin>' if args.file == '-' else args.file}: {plural(problem.n_options, 'option')}, "
        f"{problem.n_primary} primary and {plural(problem.n_secondary, 'secondary item')}",
        file=sys.stderr,
    )
    if args.reduce:
        problem, _ = problem.reduced()
        report = problem.reduction
        print(
            f"reduced: {plural(len(report.options), 'option')} and "
            f"{plural(len(report.items), 'item')} removed, "
            f"{plural(problem.n_options, 'option')} left",
            file=sys.stderr,
        )
    problem.engine = args.engine
    if args.estimate:
        return _estimate_command(args, problem)
    if args.cheapest:
        return _cheapest_command(args, problem)
    # --timeout is one deadline for all the searching the command does, --max-nodes one
    # node budget: the count after --show gets only what the shown solutions left.
    start = time.perf_counter()
    shown = 0
    show_nodes = 0
    if args.sample:
        return _sample_command(args, problem)
    try:
        if args.show:
            for solution in problem.solutions(
                limit=args.show, max_nodes=args.max_nodes, timeout=args.timeout
            ):
                shown += 1
                print(f"solution {shown}:")
                for k in solution:
                    print("  " + _option_text(problem, k))
            show_nodes = problem.stats.nodes
            if shown < args.show:
                # Fewer solutions than asked for: that search ran to the end, so it
                # has counted them all (exactly, whatever --limit says) and a second
                # one would only repeat it.
                return _count_report(args, shown, problem.stats, exact=True)
        max_nodes = None if args.max_nodes is None else args.max_nodes - show_nodes
        timeout = None if args.timeout is None else args.timeout - (time.perf_counter() - start)
        if (max_nodes is not None and max_nodes < 1) or (timeout is not None and timeout <= 0):
            raise BudgetExceeded("nothing left for the count", 0, SearchStats(status="budget"))
        report = _progress_line() if args.progress or sys.stderr.isatty() else None
        total = problem.count(
            args.limit,
            max_nodes=max_nodes,
            timeout=timeout,
            method=args.method,
            threads=args.threads,
            progress=report if args.method == "dlx" and args.threads == 1 else None,
        )
        if report is not None:
            report.finish()
    except ValueError as error:  # --method memo with --limit or multiplicities
        print(f"numbadlx: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except BudgetExceeded as stop:
        # The count starts again from scratch, so the solutions shown are a lower bound
        # too; the nodes are those of both searches.
        print(
            f"at least {plural(max(stop.found, shown), 'solution')} (stopped at the "
            f"budget: {plural(show_nodes + stop.stats.nodes, 'node')}, "
            f"{time.perf_counter() - start:.2f} s)"
        )
        return EXIT_UNFINISHED
    return _count_report(args, total, problem.stats)


class _progress_line:
    """``count``'s progress on standard error: the share of the search tree done (as
    estimated from the search's path), nodes and solutions, on one line rewritten at
    most 4 times a second."""

    def __init__(self):
        import time

        self.clock = time.monotonic
        self.last = 0.0
        self.shown = False

    def __call__(self, fraction, nodes, solutions):
        now = self.clock()
        if now - self.last < 0.25:
            return
        self.last = now
        share = "" if fraction is None else f"about {100 * fraction:.1f}% of the tree, "
        print(
            f"\r{share}{plural(nodes, 'node')}, {plural(solutions, 'solution')}  ",
            end="",
            file=sys.stderr,
            flush=True,
        )
        self.shown = True

    def finish(self):
        if self.shown:
            print(file=sys.stderr)


def _cheapest_command(args, problem):
    """``count --cheapest K``: the K cheapest solutions, cheapest first, with costs."""
    from ..core import BudgetExceeded

    if args.show or args.sample or args.estimate or args.limit is not None:
        print(
            "numbadlx: error: --cheapest goes with none of --show, --sample, --estimate "
            "and --limit",
            file=sys.stderr,
        )
        return EXIT_USAGE
    try:
        best = problem.cheapest(args.cheapest, max_nodes=args.max_nodes, timeout=args.timeout)
        code = EXIT_OK
    except ValueError as error:  # multiplicities
        print(f"numbadlx: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except BudgetExceeded as stop:
        best = stop.best
        print("stopped at the budget: the cheapest found so far, not proved", file=sys.stderr)
        code = EXIT_UNFINISHED
    for rank, (cost, solution) in enumerate(best, 1):
        print(f"solution {rank}: cost {cost}")
        for k in solution:
            print("  " + _option_text(problem, k))
    if not best:
        print("0 solutions")
    stats = problem.stats
    print(f"{plural(stats.nodes, 'node')}, {stats.seconds:.3f} s", file=sys.stderr)
    return code


def _estimate_command(args, problem):
    """``count --estimate K``: Knuth's estimates from K random paths, no count."""
    if args.show or args.sample or args.limit is not None:
        print(
            "numbadlx: error: --estimate goes with none of --show, --sample and --limit",
            file=sys.stderr,
        )
        return EXIT_USAGE
    try:
        guess = problem.estimate(args.estimate, seed=args.seed, timeout=args.timeout)
    except ValueError as error:  # multiplicities
        print(f"numbadlx: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    print(
        f"estimated {guess.nodes:.4g} nodes (standard error {guess.nodes_error:.2g}) and "
        f"{guess.solutions:.4g} solutions (standard error {guess.solutions_error:.2g}) "
        f"from {plural(guess.samples, 'random path')}"
    )
    return EXIT_OK


def _sample_command(args, problem):
    """``count --sample K``: build the memoised diagram, print K uniform samples and the
    exact count."""
    from ..core import BudgetExceeded

    if args.show or args.limit is not None:
        print("numbadlx: error: --sample goes with neither --show nor --limit", file=sys.stderr)
        return EXIT_USAGE
    try:
        zdd = problem.zdd(max_nodes=args.max_nodes, timeout=args.timeout)
        if zdd.count() == 0:
            print("0 solutions")
            return EXIT_OK
        for number, solution in enumerate(zdd.sample(args.sample, seed=args.seed), 1):
            print(f"sample {number}:")
            for k in solution:
                print("  " + _option_text(problem, k))
    except ValueError as error:  # multiplicities: the memoised search does not do M
        print(f"numbadlx: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except BudgetExceeded as stop:
        print(f"no count: the memoised search stopped at its budget ({stop})")
        return EXIT_UNFINISHED
    return _count_report(args, zdd.count(), problem.stats)


def _option_text(problem, k):
    """Option ``k`` as its line in the DLX file: item names, ``x:colour`` for colours."""
    names = problem.item_names
    colours = problem.option_colours(k)
    labels = problem.colour_names
    words = []
    for item, colour in zip(problem.option(k), colours):
        word = names[item]
        if colour:
            word += ":" + (labels[colour - 1] if labels is not None else str(colour))
        words.append(word)
    return " ".join(words)


def _count_report(args, total, stats, exact=False):
    # Below the limit the count is exact; at the limit there may be more.
    if not exact and args.limit is not None and total >= args.limit:
        print(f"at least {plural(total, 'solution')} (stopped at --limit {args.limit})")
    else:
        print(plural(total, "solution"))
    print(
        f"{plural(stats.nodes, 'node')}, {plural(stats.updates, 'update')}, {stats.seconds:.3f} s",
        file=sys.stderr,
    )
    return EXIT_OK
