"""An exact-cover problem as a SAT formula in DIMACS CNF: :func:`to_cnf`.

Variable ``k + 1`` is true when option ``k`` is chosen (Knuth's "trivial" encoding,
the one miniexact's ``-k`` writes). The clauses say what the search says:

* a primary item is covered exactly once: one clause listing its options, and at most
  one of them (with multiplicities, Algorithm M: at least ``u`` and at most ``v``);
* a secondary item is covered at most once, except that options giving it the same
  colour may share it (Algorithm C): each colour on the item gets a variable, true
  when an option of that colour is chosen, and at most one of those colour variables
  and of the uncoloured options holding the item is true;
* an option with no primary item is never chosen (Knuth's convention): a unit clause.

"At most k" of many literals uses Sinz's sequential counter (auxiliary variables
after the options' ones, so the clauses grow linearly); a few literals are compared
pairwise. The auxiliary variables are not functions of the options' variables in
general, so count models projected on variables ``1..n_options``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["to_cnf"]

# at most one of this many literals or fewer: pairwise clauses (no auxiliaries)
_PAIRWISE = 6


class _Formula:
    def __init__(self, n_variables):
        self.n = n_variables
        self.clauses = []

    def new(self):
        self.n += 1
        return self.n

    def at_most(self, literals, k):
        """At most ``k`` of ``literals`` true (Sinz's sequential counter)."""
        m = len(literals)
        if k >= m:
            return
        if k == 0:
            self.clauses.extend([-x] for x in literals)
            return
        if k == 1 and m <= _PAIRWISE:
            self.clauses.extend([-a, -b] for i, a in enumerate(literals) for b in literals[i + 1 :])
            return
        # s[i][j]: at least j + 1 of the first i + 1 literals are true
        s = [[self.new() for _ in range(k)] for _ in range(m - 1)]
        add = self.clauses.append
        add([-literals[0], s[0][0]])
        for j in range(1, k):
            add([-s[0][j]])
        for i in range(1, m - 1):
            x = literals[i]
            add([-x, s[i][0]])
            add([-s[i - 1][0], s[i][0]])
            for j in range(1, k):
                add([-x, -s[i - 1][j - 1], s[i][j]])
                add([-s[i - 1][j], s[i][j]])
            add([-x, -s[i - 1][k - 1]])
        add([-literals[m - 1], -s[m - 2][k - 1]])

    def at_least(self, literals, k):
        """At least ``k`` of ``literals`` true."""
        if k <= 0:
            return
        if k > len(literals):
            self.clauses.append([])  # the empty clause: no model
            return
        if k == 1:
            self.clauses.append(list(literals))
            return
        self.at_most([-x for x in literals], len(literals) - k)


def to_cnf(problem) -> str:
    """``problem`` (an :class:`~numbadlx.ExactCover`) as DIMACS CNF text.

    See the module for the encoding. The text starts with comment lines (``c``)
    giving the sizes, then ``p cnf V C`` and one clause a line.

    Examples
    --------
    >>> from numbadlx import ExactCover
    >>> print(to_cnf(ExactCover([[0, 1], [0], [1]])), end="")
    c numbadlx exact cover: 3 options (variables 1-3), 2 primary and 0 secondary items
    p cnf 3 4
    1 2 0
    -1 -2 0
    1 3 0
    -1 -3 0
    """
    n_options = problem.n_options
    formula = _Formula(n_options)
    indptr, indices = problem.indptr, problem.indices
    colours = problem.colours
    holders = [[] for _ in range(problem.n_items)]  # (variable, colour) per item
    for k in range(n_options):
        row = slice(indptr[k], indptr[k + 1])
        tints = colours[row] if colours is not None else np.zeros(indptr[k + 1] - indptr[k])
        for item, colour in zip(indices[row].tolist(), tints.tolist()):
            holders[item].append((k + 1, int(colour)))
    bounds = problem.bounds
    primary_rank = np.cumsum(~problem.secondary) - 1
    for item in range(problem.n_items):
        variables = [v for v, _ in holders[item]]
        if not problem.secondary[item]:
            low, high = (1, 1) if bounds is None else map(int, bounds[primary_rank[item]])
            formula.at_least(variables, low)
            formula.at_most(variables, high)
            continue
        groups = {}
        plain = []
        for v, colour in holders[item]:
            if colour:
                groups.setdefault(colour, []).append(v)
            else:
                plain.append(v)
        if len(groups) + len(plain) <= 1:
            continue  # one colour (or one option) alone on the item: nothing to exclude
        tokens = list(plain)
        for members in groups.values():
            shade = formula.new()
            formula.clauses.extend([-v, shade] for v in members)
            tokens.append(shade)
        formula.at_most(tokens, 1)
    has_primary = np.zeros(n_options, dtype=bool)
    rows = np.repeat(np.arange(n_options), np.diff(indptr))
    has_primary[rows[~problem.secondary[indices]]] = True
    formula.clauses.extend([-(k + 1)] for k in np.flatnonzero(~has_primary).tolist())
    head = (
        f"c numbadlx exact cover: {n_options} options (variables 1-{n_options}), "
        f"{problem.n_primary} primary and {problem.n_secondary} secondary items\n"
        f"p cnf {formula.n} {len(formula.clauses)}\n"
    )
    return head + "".join(" ".join(map(str, [*c, 0])) + "\n" for c in formula.clauses)
