"""Word puzzles with colours (Algorithm C): crossword fills and word squares."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..core import ExactCover
from ..core.validate import is_integer

__all__ = ["WORDS3", "crossword", "word_square", "crossword_grid"]

WORDS3 = tuple(
    """
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
""".split()
)


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


def crossword(
    pattern: Sequence[str], words: Iterable[str] | None = None, *, distinct: bool = True
) -> ExactCover:
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
                raise ValueError(f"pattern row {r}, column {c}: {ch!r} is not '#', '.' or a letter")
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
    names = (
        [name for name, _ in slots]
        + [f"r{r}c{c}" for r, c in squares]
        + [f"w.{word}" for word in word_item]
    )
    n_items = len(names)
    problem = ExactCover.from_options(
        options,
        n_items=n_items,
        secondary=n_items - len(slots),
        item_names=names,
        option_names=option_names,
        colours=colours,
        colour_names=alphabet,
    )
    problem.pattern = rows
    return problem


def word_square(
    size: int = 3, words: Iterable[str] | None = None, *, distinct: bool = True
) -> ExactCover:
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
    if not is_integer(size) or size < 2:
        raise ValueError(f"size must be an integer >= 2, got {size!r}")
    words = _word_list(WORDS3 if words is None else words)
    return crossword(
        ["." * int(size)] * int(size), [w for w in words if len(w) == size], distinct=distinct
    )


def crossword_grid(problem: ExactCover, solution: Sequence[int]) -> list[str]:
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
