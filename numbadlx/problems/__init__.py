"""Classic exact-cover problems with published solution counts.

Each function returns an :class:`~numbadlx.ExactCover` with item and option names.

==========================  ==================================================
problem                     published count (all solutions, no symmetry cut)
==========================  ==================================================
``n_queens(8)``             92 (OEIS A000170)
``langford(7)``             52 = 2 x 26 (OEIS A014552 counts up to reversal)
``pentominoes(6, 10)``      9356 = 4 x 2339 (2339 up to the rectangle's symmetry)
``k_per_row_and_column``    (6, 2): 67950 (OEIS A001499); (8, 1, 1): 92 (A000170)
``domino_tilings(6, 6)``    6728 (OEIS A004003)
==========================  ==================================================

Colours (Algorithm C): :func:`crossword`, :func:`word_square` on the built-in
:data:`WORDS3`. Multiplicities (Algorithm M): :func:`k_per_row_and_column`,
:func:`domino_tilings` with a number of horizontal dominoes.
"""

import numpy as np

from ..core import ExactCover

__all__ = ["n_queens", "langford", "pentominoes", "PENTOMINOES", "orientations",
           "WORDS3", "crossword", "word_square", "crossword_grid", "k_per_row_and_column",
           "domino_tilings"]


def n_queens(n):
    """N queens on an n x n board, none attacking another.

    Items: ranks ``r0..`` and files ``c0..`` (primary: one queen each), then the
    diagonals ``a0..`` (``r + c``) and anti-diagonals ``b0..`` (``r - c + n - 1``),
    secondary (at most one queen each). Option ``r * n + c`` puts a queen on ``(r, c)``.

    Examples
    --------
    >>> n_queens(8).count()
    92
    """
    if not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be a positive integer, got {n!r}")
    n = int(n)
    rows, cols = np.divmod(np.arange(n * n), n)
    options = np.stack([rows, n + cols, 2 * n + rows + cols,
                        2 * n + (2 * n - 1) + rows - cols + n - 1], axis=1)
    names = ([f"r{k}" for k in range(n)] + [f"c{k}" for k in range(n)]
             + [f"a{k}" for k in range(2 * n - 1)] + [f"b{k}" for k in range(2 * n - 1)])
    option_names = [f"r{r} c{c}" for r, c in zip(rows, cols)]
    indptr = np.arange(0, 4 * n * n + 1, 4)
    return ExactCover.from_csr(indptr, options.ravel(), n_items=len(names),
                               secondary=2 * (2 * n - 1), item_names=names,
                               option_names=option_names)


def langford(n):
    """Langford pairings: place two copies of each of 1..n in 2n slots so that the two
    copies of k have exactly k other numbers between them.

    Items: the numbers ``1..n`` then slots ``s1..s2n``. The option for ``(k, i)`` puts
    the copies of k in slots ``i`` and ``i + k + 1``. A solution and its reversal are
    both counted.

    Examples
    --------
    >>> langford(3).count()
    2
    """
    if not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be a positive integer, got {n!r}")
    n = int(n)
    options, option_names = [], []
    for k in range(1, n + 1):
        for i in range(1, 2 * n - k):
            options.append([k - 1, n + i - 1, n + i + k])
            option_names.append(f"{k} s{i} s{i + k + 1}")
    names = [str(k) for k in range(1, n + 1)] + [f"s{i}" for i in range(1, 2 * n + 1)]
    return ExactCover.from_options(options, n_items=3 * n, item_names=names,
                                   option_names=option_names)


#: The 12 pentominoes as (row, column) cells, one fixed orientation each.
PENTOMINOES = {
    "F": ((0, 1), (0, 2), (1, 0), (1, 1), (2, 1)),
    "I": ((0, 0), (1, 0), (2, 0), (3, 0), (4, 0)),
    "L": ((0, 0), (1, 0), (2, 0), (3, 0), (3, 1)),
    "N": ((0, 1), (1, 1), (2, 0), (2, 1), (3, 0)),
    "P": ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0)),
    "T": ((0, 0), (0, 1), (0, 2), (1, 1), (2, 1)),
    "U": ((0, 0), (0, 2), (1, 0), (1, 1), (1, 2)),
    "V": ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2)),
    "W": ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2)),
    "X": ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1)),
    "Y": ((0, 1), (1, 0), (1, 1), (2, 1), (3, 1)),
    "Z": ((0, 0), (0, 1), (1, 1), (2, 1), (2, 2)),
}


def orientations(cells):
    """All distinct rotations and reflections of a polyomino, each normalised to
    start at row 0 and column 0 and sorted.

    Examples
    --------
    >>> len(orientations(PENTOMINOES["F"])), len(orientations(PENTOMINOES["X"]))
    (8, 1)
    """
    base = np.asarray(cells, dtype=np.int64)
    seen = []
    for flip in (False, True):
        shape = base * np.array([1, -1]) if flip else base
        for _ in range(4):
            shape = np.stack([shape[:, 1], -shape[:, 0]], axis=1)  # quarter turn
            norm = shape - shape.min(axis=0)
            key = tuple(sorted(map(tuple, norm.tolist())))
            if key not in seen:
                seen.append(key)
    return [np.array(key, dtype=np.int64) for key in seen]


def pentominoes(rows=6, cols=10):
    """Pack the 12 pentominoes into a ``rows x cols`` rectangle (area 60).

    Items: the piece names ``F, I, ..., Z`` then the cells ``r{row}c{col}``. Every
    placement of every orientation is an option; solutions related by the rectangle's
    symmetries are all counted (6 x 10 has 9356 = 4 x 2339).

    Examples
    --------
    >>> problem = pentominoes(3, 20)
    >>> problem.count()
    8
    """
    if rows * cols != 60 or rows < 1 or cols < 1:
        raise ValueError(f"a {rows} x {cols} board has {rows * cols} cells; the 12 "
                         f"pentominoes need exactly 60")
    names = list(PENTOMINOES)
    options, option_names = [], []
    for piece_index, name in enumerate(names):
        for shape in orientations(PENTOMINOES[name]):
            height, width = shape.max(axis=0) + 1
            for top in range(rows - height + 1):
                for left in range(cols - width + 1):
                    cells = (shape[:, 0] + top) * cols + shape[:, 1] + left
                    options.append([piece_index] + (12 + cells).tolist())
                    option_names.append(name + " " + " ".join(
                        f"r{c // cols}c{c % cols}" for c in cells))
    item_names = names + [f"r{r}c{c}" for r in range(rows) for c in range(cols)]
    problem = ExactCover.from_options(options, n_items=12 + rows * cols,
                                      item_names=item_names, option_names=option_names)
    problem.board_shape = (rows, cols)
    return problem


# --------------------------------------------------------------------------------------
# Colours (Algorithm C): word squares and crossword fills
# --------------------------------------------------------------------------------------

#: A small built-in list of common three-letter English words (lower case).
WORDS3 = tuple("""
ace act add ado aft age ago aid ail aim air ale all and ant any ape apt arc are ark arm
art ash ask ate awe axe bad bag ban bar bat bay bed bee beg bet bid big bin bit boa bog
boo bow box boy bud bug bun bus but buy bye cab can cap car cat cod cog cot cow coy cry
cub cue cup cur cut dab dad dam day den dew did die dig dim din dip doe dog dot dry dub
due dug dye ear eat ebb eel egg ego elf elk elm emu end era ere eve ewe eye fan far fat
fax fed fee few fig fin fir fit fix flu fly foe fog for fox fry fun fur gag gap gas gel
gem get gin gnu god got gum gun gut guy gym had ham has hat hay hem hen her hew hid him
hip his hit hog hop hot how hub hue hug hum hut ice icy ill imp ink inn ion ire irk its
ivy jab jam jar jaw jay jet jig job jog jot joy jug keg ken key kid kin kit lab lad lag
lap law lay led leg let lid lie lip lit log lot low mad man map mat maw may men met mid
mix mob mop mow mud mug mum nab nag nap net new nil nip nit nod nor not now nun nut oak
oar oat odd ode off oft oil old one opt orb ore our out owe owl own pad pal pan par pat
paw pay pea peg pen pep per pet pew pie pig pin pit ply pod pop pot pry pub pun pup put
rag ram ran rap rat raw ray red rib rid rig rim rip rob rod roe rot row rub rug rum run
rut rye sad sag sap sat saw say sea see set sew she shy sin sip sir sit six ski sky sly
sob sod son sow soy spa spy sty sub sue sum sun tab tag tan tap tar tax tea tee ten the
tie tin tip toe ton too top tow toy try tub tug two urn use van vat vet via vie vow wad
wag war was wax way web wed wee wet who why wig win wit woe wok won woo wow yak yam yap
yaw yes yet yew you zap zed zen zip zoo
""".split())


def _word_list(words):
    cleaned = []
    seen = set()
    for word in words:
        if not isinstance(word, str) or not word.isalpha():
            raise ValueError(f"words must be strings of letters, got {word!r}")
        word = word.lower()
        if word not in seen:
            seen.add(word)
            cleaned.append(word)
    return cleaned


def crossword(pattern, words=None, *, distinct=True):
    """Fill a crossword grid from a word list (exact cover with colours).

    ``pattern`` is a list of equal-length rows: ``'#'`` a black square, ``'.'`` an
    empty one, a letter a given one. Every maximal run of two or more non-black squares
    across or down is a *slot* that must hold a word of ``words`` (default
    :data:`WORDS3`) of its length, agreeing with the given letters.

    Items: the slots ``A{r}.{c}`` / ``D{r}.{c}`` (primary), the squares ``r{r}c{c}``
    (secondary, coloured by their letter: crossing words must agree) and, with
    ``distinct``, one secondary item ``w.{word}`` per word so that no word is used
    twice. Option names are ``'{slot} {word}'``; :func:`crossword_grid` turns a solution
    back into rows of letters.

    Examples
    --------
    >>> problem = crossword(["c..", ".#.", "..t"])  # a ring of four words
    >>> problem.algorithm
    'C'
    >>> crossword_grid(problem, problem.solve())
    ['cab', 'a#a', 'net']
    """
    rows = [str(row) for row in pattern]
    if not rows or any(len(row) != len(rows[0]) for row in rows) or not rows[0]:
        raise ValueError("pattern must be a non-empty list of rows of equal length")
    height, width = len(rows), len(rows[0])
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch not in "#." and not ch.isalpha():
                raise ValueError(f"pattern row {r}, column {c}: {ch!r} is not '#', '.' or a "
                                 f"letter")
    rows = [row.lower() for row in rows]
    words = _word_list(WORDS3 if words is None else words)
    slots = []  # (name, [(r, c), ...])
    for r in range(height):
        c = 0
        while c < width:
            if rows[r][c] == "#":
                c += 1
                continue
            start = c
            while c < width and rows[r][c] != "#":
                c += 1
            if c - start >= 2:
                slots.append((f"A{r}.{start}", [(r, k) for k in range(start, c)]))
    for c in range(width):
        r = 0
        while r < height:
            if rows[r][c] == "#":
                r += 1
                continue
            start = r
            while r < height and rows[r][c] != "#":
                r += 1
            if r - start >= 2:
                slots.append((f"D{start}.{c}", [(k, c) for k in range(start, r)]))
    squares = sorted({cell for _, cells in slots for cell in cells})
    square_item = {cell: len(slots) + k for k, cell in enumerate(squares)}
    alphabet = sorted(set("".join(words)) | {ch for row in rows for ch in row if ch.isalpha()})
    letter_colour = {ch: k + 1 for k, ch in enumerate(alphabet)}
    word_item = {}
    if distinct:
        base = len(slots) + len(squares)
        word_item = {word: base + k for k, word in enumerate(words)}
    options, colours, option_names = [], [], []
    for s, (name, cells) in enumerate(slots):
        for word in words:
            if len(word) != len(cells):
                continue
            if any(rows[r][c] != "." and rows[r][c] != ch for (r, c), ch in zip(cells, word)):
                continue
            option = [s] + [square_item[cell] for cell in cells]
            colour = [0] + [letter_colour[ch] for ch in word]
            if distinct:
                option.append(word_item[word])
                colour.append(0)
            options.append(option)
            colours.append(colour)
            option_names.append(f"{name} {word}")
    names = ([name for name, _ in slots] + [f"r{r}c{c}" for r, c in squares]
             + [f"w.{word}" for word in word_item])
    n_items = len(names)
    problem = ExactCover.from_options(options, n_items=n_items,
                                      secondary=n_items - len(slots), item_names=names,
                                      option_names=option_names, colours=colours,
                                      colour_names=alphabet)
    problem.pattern = rows
    return problem


def word_square(size=3, words=None, *, distinct=True):
    """Double word squares: ``size`` words across and ``size`` down in a full
    ``size x size`` grid (:func:`crossword` on an all-empty pattern).

    With ``distinct`` (the default) all ``2 * size`` words differ, so a square and its
    transpose are two solutions and symmetric squares are excluded.

    Examples
    --------
    >>> problem = word_square(3, ["bad", "ago", "tee", "bat", "age", "doe", "ate"])
    >>> sorted(crossword_grid(problem, s) for s in problem.solutions())
    [['bad', 'ago', 'tee'], ['bat', 'age', 'doe']]
    """
    if not isinstance(size, (int, np.integer)) or size < 2:
        raise ValueError(f"size must be an integer >= 2, got {size!r}")
    words = _word_list(WORDS3 if words is None else words)
    return crossword(["." * int(size)] * int(size), [w for w in words if len(w) == size],
                     distinct=distinct)


def crossword_grid(problem, solution):
    """The rows of a filled :func:`crossword` (or :func:`word_square`) solution."""
    grid = [list(row) for row in problem.pattern]
    for k in solution:
        slot, word = problem.option_names[k].split()
        r, c = (int(v) for v in slot[1:].split("."))
        for t, ch in enumerate(word):
            if slot[0] == "A":
                grid[r][c + t] = ch
            else:
                grid[r + t][c] = ch
    return ["".join(row) for row in grid]


# --------------------------------------------------------------------------------------
# Multiplicities (Algorithm M)
# --------------------------------------------------------------------------------------

def k_per_row_and_column(n, k=2, max_per_diagonal=None):
    """Mark ``k`` squares in every row and every column of an ``n x n`` board.

    Items: rows ``r0..`` and columns ``c0..``, primary with multiplicity ``k``; with
    ``max_per_diagonal = d``, also the diagonals ``a0..`` (``r + c``) and anti-diagonals
    ``b0..`` (``r - c + n - 1``), primary with multiplicity ``0..d``. Option
    ``r * n + c`` marks ``(r, c)``.

    * ``k = 2`` without a diagonal limit counts the n x n 0/1 matrices with all row and
      column sums 2 (OEIS A001499: 1, 0, 1, 6, 90, 2040, 67950, ...);
    * ``k = 1, max_per_diagonal = 1`` is the n-queens problem (OEIS A000170).

    Examples
    --------
    >>> k_per_row_and_column(4, 2).count()
    90
    >>> k_per_row_and_column(8, 1, max_per_diagonal=1).count()
    92
    """
    for value, what in ((n, "n"), (k, "k")):
        if not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{what} must be a positive integer, got {value!r}")
    n, k = int(n), int(k)
    if k > n:
        raise ValueError(f"k = {k} marks per row do not fit on {n} columns")
    rows, cols = np.divmod(np.arange(n * n), n)
    parts = [rows, n + cols]
    names = [f"r{v}" for v in range(n)] + [f"c{v}" for v in range(n)]
    bounds = [(k, k)] * (2 * n)
    if max_per_diagonal is not None:
        d = max_per_diagonal
        if not isinstance(d, (int, np.integer)) or d < 1:
            raise ValueError(f"max_per_diagonal must be a positive integer, got {d!r}")
        parts += [2 * n + rows + cols, 2 * n + (2 * n - 1) + rows - cols + n - 1]
        names += [f"a{v}" for v in range(2 * n - 1)] + [f"b{v}" for v in range(2 * n - 1)]
        bounds += [(0, int(d))] * (2 * (2 * n - 1))
    options = np.stack(parts, axis=1)
    indptr = np.arange(0, options.size + 1, options.shape[1])
    return ExactCover.from_csr(indptr, options.ravel(), n_items=len(names),
                               item_names=names, bounds=bounds,
                               option_names=[f"r{r} c{c}" for r, c in zip(rows, cols)])


def domino_tilings(rows, cols, horizontal=None):
    """Tile a ``rows x cols`` rectangle with dominoes, optionally with a given number of
    horizontal ones.

    Items: the squares ``r{r}c{c}`` (primary) and, when ``horizontal`` is given (an
    int ``h`` or a range ``(lo, hi)``), an item ``H`` in every horizontal domino,
    primary with multiplicity ``h`` (or ``lo..hi``). Options are ``'h r c'`` (squares
    ``(r, c), (r, c + 1)``) and ``'v r c'`` (squares ``(r, c), (r + 1, c)``).

    Without ``horizontal`` the counts are the classical ones (OEIS A004003 for 2n x 2n:
    1, 2, 36, 6728, 12988816; A099390 in general).

    Examples
    --------
    >>> domino_tilings(4, 4).count()
    36
    >>> [domino_tilings(4, 4, horizontal=h).count() for h in range(0, 9, 2)]
    [1, 9, 16, 9, 1]
    """
    for value, what in ((rows, "rows"), (cols, "cols")):
        if not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{what} must be a positive integer, got {value!r}")
    rows, cols = int(rows), int(cols)
    bounds = None
    if horizontal is not None:
        if isinstance(horizontal, (int, np.integer)):
            lo = hi = int(horizontal)
        else:
            lo, hi = (int(v) for v in horizontal)
        if not 0 <= lo <= hi:
            raise ValueError(f"horizontal must be h >= 0 or (lo, hi) with 0 <= lo <= hi, "
                             f"got {horizontal!r}")
    n_squares = rows * cols
    with_h = horizontal is not None and hi > 0
    options, option_names = [], []
    for r in range(rows):
        for c in range(cols):
            here = r * cols + c
            if c + 1 < cols and (horizontal is None or hi > 0):
                options.append([here, here + 1] + ([n_squares] if with_h else []))
                option_names.append(f"h {r} {c}")
            if r + 1 < rows:
                options.append([here, here + cols])
                option_names.append(f"v {r} {c}")
    names = [f"r{r}c{c}" for r in range(rows) for c in range(cols)] + (["H"] if with_h else [])
    if with_h:  # (horizontal = 0 simply leaves the horizontal dominoes out)
        bounds = {"H": (lo, hi)}
    return ExactCover.from_options(options, n_items=len(names), item_names=names,
                                   option_names=option_names, bounds=bounds)
