"""Sudoku variants: the :class:`Rules` of a grid beyond rows, columns and boxes.

A :class:`Rules` names the extra constraints (jigsaw regions, diagonals, windoku,
disjoint groups, anti-knight and anti-king, non-consecutive neighbours, killer cages,
thermometers, dots, X/V pairs, odd and even cells); :func:`~numbadlx.sudoku.solve`
takes it as ``rules=``.

Examples
--------
>>> from numbadlx.sudoku import Rules
>>> Rules.killer("aabb" "ccdd" "eeff" "gghh", [3, 7, 4, 6, 5, 5, 4, 6]).kinds
frozenset({'cages'})
"""

from ._killer_rows import KillerRows
from ._rules import CONSTRAINT_RULES, PEER_RULES, RULE_KINDS, UNIT_RULES, Rules, reading_box
from ._sized import whisper_gap

__all__ = [
    "Rules",
    "KillerRows",
    "RULE_KINDS",
    "UNIT_RULES",
    "PEER_RULES",
    "CONSTRAINT_RULES",
    "reading_box",
    "whisper_gap",
]
