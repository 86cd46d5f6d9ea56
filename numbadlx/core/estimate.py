"""How big is the search? Knuth's random-path estimates: :func:`estimate`.

Before a count that may run for a day, a few thousand random paths from the root to
a leaf of the DLX search tree (the kernel is :mod:`numbadlx.core.kernels.estimate`)
give unbiased estimates of the nodes the full search will enter and of the solutions it
will find, with their standard errors. The estimates are of the dancing-links search
(``engine="dlx"``: minimum remaining values, the first of equals); Algorithms X and C.
The spread of such estimates is often large (a few paths carry most of the weight):
the standard error says how far to trust them.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from .._compiling import first_use
from .links import LINK_DTYPE
from .validate import check_count, check_timeout

__all__ = ["Estimate", "estimate"]

# paths walked by one kernel call (Ctrl-C and the clock are looked at between calls)
_BATCH = 256


@dataclass(frozen=True)
class Estimate:
    """Knuth's estimates of a full search, from random paths.

    Attributes
    ----------
    nodes, solutions : float
        The means over the paths: unbiased estimates of the nodes the search enters
        (``problem.stats.nodes`` after a full count) and of the solutions.
    nodes_error, solutions_error : float
        Their standard errors (the paths' standard deviation over ``sqrt(samples)``).
    samples : int
        Paths walked.
    depth : float
        Mean depth of the paths (levels below the root).
    """

    nodes: float
    solutions: float
    nodes_error: float
    solutions_error: float
    samples: int
    depth: float

    def __repr__(self):
        return (
            f"Estimate(nodes={self.nodes:.4g} ± {self.nodes_error:.2g}, "
            f"solutions={self.solutions:.4g} ± {self.solutions_error:.2g}, "
            f"samples={self.samples})"
        )


class _Moments:
    """Running mean and sum of squared deviations (Chan et al.'s pairwise update), so
    any number of paths takes memory for one batch only."""

    def __init__(self):
        self.n = 0
        self.mean = 0.0
        self.m2 = 0.0

    def add(self, values):
        n, mean = values.size, float(values.mean())
        m2 = float(((values - mean) ** 2).sum())
        total = self.n + n
        delta = mean - self.mean
        self.mean += delta * n / total
        self.m2 += m2 + delta * delta * self.n * n / total
        self.n = total

    def error(self):
        if self.n < 2:
            return math.inf
        return math.sqrt(self.m2 / (self.n - 1) / self.n)


def estimate(problem, samples: int = 1000, *, seed: int | None = None, timeout=None) -> Estimate:
    """Knuth's estimates of the size of ``problem``'s search (see the module).

    Parameters
    ----------
    problem : ExactCover
        Without multiplicities (Algorithm M raises ValueError).
    samples : int
        Random paths to walk (at least 1).
    seed : int, optional
        Seeds the paths: the same seed gives the same estimate.
    timeout : float, optional
        Seconds: stop early and estimate from the paths walked by then.

    Examples
    --------
    >>> from numbadlx import problems
    >>> guess = problems.n_queens(6).estimate(2000, seed=1)
    >>> round(guess.solutions), guess.samples
    (4, 2000)
    """
    samples = check_count(samples, "samples")
    timeout = check_timeout(timeout)
    if problem.bounds is not None:
        raise ValueError(
            "estimate: random paths follow Algorithms X and C; this problem has "
            "multiplicities (Algorithm M)"
        )
    from .kernels.estimate import random_paths

    nodes = problem._nodes.copy()
    items = problem._items.copy()
    choice = np.zeros(problem.n_primary + 1, dtype=LINK_DTYPE)
    coloured = problem.colours is not None
    node_estimates = np.zeros(_BATCH)
    solution_estimates = np.zeros(_BATCH)
    depths = np.zeros(_BATCH, dtype=np.int64)
    moments = (_Moments(), _Moments(), _Moments())
    seeds = np.random.SeedSequence(seed)
    deadline = None if timeout is None else time.perf_counter() + timeout
    done = 0
    while done < samples:
        if deadline is not None and done and time.perf_counter() >= deadline:
            break
        size = min(_BATCH, samples - done)
        batch_seed = int(seeds.spawn(1)[0].generate_state(1)[0])
        with first_use("the random-path estimate"):
            random_paths(
                nodes,
                items,
                choice,
                batch_seed,
                node_estimates[:size],
                solution_estimates[:size],
                depths[:size],
                coloured,
            )
        for moment, values in zip(moments, (node_estimates, solution_estimates, depths)):
            moment.add(values[:size].astype(np.float64))
        done += size
    return Estimate(
        nodes=moments[0].mean,
        solutions=moments[1].mean,
        nodes_error=moments[0].error(),
        solutions_error=moments[1].error(),
        samples=done,
        depth=moments[2].mean,
    )
