"""Making, rating and transforming puzzles, in bulk.

* :func:`random_grids` makes random full grids and :func:`generate` unique puzzles
  (minimal, symmetric, bounded in clues or rating, classic or under variant
  :class:`~numbadlx.sudoku.Rules`); :func:`generate_killer` makes Killer Sudokus;
  :func:`random_grid` and :func:`random_puzzles` are the older pattern-based makers;
* :func:`rate` rates puzzles two ways: ``tries`` (search effort over random isomorphs)
  and ``logic`` (the hardest step on a ladder of human techniques, :data:`TECHNIQUES`);
  :func:`solving_path` lists the ladder's steps for one puzzle;
* :func:`transform` makes random isomorphs;
* :func:`candidates` gives every puzzle's candidate masks after a level of logic;
* :func:`canonical` gives canonical forms (:func:`equivalence_classes` numbers the
  classes of equivalent puzzles, :func:`apply_transform` moves puzzles).

Every call draws puzzle ``k``'s randomness from ``(seed, k)`` only, so results do not
depend on the number of threads.

The kernels are private modules, one job each: candidate masks (``_masks``), the
random generator (``_random``), the search behind uniqueness, ``tries`` and random grids
(``_search``), the logic ladder (``_techniques``, ``_chains``, ``_ladder``), isomorphs
(``_isomorphs``), canonical forms (``_canonical``) and the bulk loops over puzzles
(``_loops``).

Examples
--------
>>> from numbadlx.sudoku import making
>>> puzzles = making.generate(2, 4, seed=0)
>>> making.rate(puzzles).logic.tolist()
[1.2, 1.2]
"""

from ._candidates import LOGIC_LEVELS, candidates
from ._equivalence import (
    Transform,
    apply_transform,
    canonical,
    canonical_chunk,
    equivalence_classes,
    invert_transform,
)
from ._generate import SYMMETRIES, generate, random_grid, random_grids, random_puzzles
from ._killer import Killers, generate_killer
from ._rate import TECHNIQUES, Ratings, Step, Technique, rate, solving_path
from ._rate import compiled_ladder as compiled_ladder  # for numbadlx warm-up; not in __all__
from ._transform import transform

__all__ = [
    "random_grid",
    "random_grids",
    "random_puzzles",
    "generate",
    "SYMMETRIES",
    "generate_killer",
    "Killers",
    "rate",
    "Ratings",
    "solving_path",
    "Step",
    "Technique",
    "TECHNIQUES",
    "transform",
    "candidates",
    "LOGIC_LEVELS",
    "canonical",
    "canonical_chunk",
    "equivalence_classes",
    "Transform",
    "apply_transform",
    "invert_transform",
]
