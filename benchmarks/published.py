"""Published variant puzzles for the variants benchmark: setters' puzzles with their
published solutions, solved one at a time.

The puzzles are the tests' material (``tests/sudoku/variants/fpuzzles/published.json``,
its README names the setters and sources): f-puzzles links, f-puzzles files and
f-puzzles JSON, each with its published solution. Each puzzle that
:func:`numbadlx.sudoku.read_fpuzzles` reads is solved by ``sudoku.solve(puzzle,
rules=rules, threads=1)`` (limit 2, ``engine="auto"``, no timeout: a timeout solves by
iterative deepening, which repeats the search with doubling node budgets); the first
call, which may compile or load kernels, is not timed, and the CPU time is the median
of the rounds. Each must come out UNIQUE and equal to its published solution, within
:data:`TARGET_SECONDS` of CPU time. The puzzles it refuses (a rule numbadlx does not
have) are named below the table.
"""

import json
import statistics
import time
from pathlib import Path

from numbadlx import sudoku

HERE = Path(__file__).resolve().parent
FOLDER = HERE.parent / "tests" / "sudoku" / "variants" / "fpuzzles"
TARGET_SECONDS = 2.0


def entries():
    """The entries of ``published.json`` (title, size, solution, puzzle source, and the
    rule kinds read or the key refused)."""
    return json.loads((FOLDER / "published.json").read_text())


def source(entry):
    """What :func:`~numbadlx.sudoku.read_fpuzzles` takes for an entry: its f-puzzles
    JSON text, file path or packed link text."""
    if "json" in entry:
        return json.dumps(entry["json"])
    return FOLDER / entry["file"] if "file" in entry else entry["packed"]


def solved_as_published(entry, result):
    """Whether ``result`` (one puzzle's) is UNIQUE with the entry's published solution
    (digits one after another; on grids over 9 the numbers in decimal, unseparated)."""
    if result.status_names()[0] != "UNIQUE":
        return False
    return "".join(map(str, result.solutions[0].tolist())) == entry["solution"]


def published_rows(rounds, titles=None):
    """The published-puzzles table (see the module docstring), printed; ``titles``
    limits it to those puzzles. Returns whether every puzzle met the target."""
    print(
        "\nPublished puzzles: each one read with read_fpuzzles and solved by "
        "sudoku.solve(puzzle, rules=rules, threads=1) (engine 'auto', limit 2, no timeout); "
        f"CPU seconds the median of {rounds} calls (the first call, which may compile, "
        "not counted)\n"
    )
    print("| puzzle | size | rules | engine | status | nodes | CPU s | as published | target |")
    print("|---|---:|---|---|---|---:|---:|---|---|")
    all_met = True
    refused = []
    for entry in entries():
        if titles and entry["title"] not in titles:
            continue
        if "refused" in entry:
            refused.append(f"{entry['title']} ({entry['refused']})")
            continue
        puzzle, rules = sudoku.read_fpuzzles(source(entry))

        def call(puzzle=puzzle, rules=rules):
            return sudoku.solve(puzzle, rules=rules, threads=1)

        call()
        times = []
        result = None
        for _ in range(rounds):
            start = time.process_time()
            result = call()
            times.append(time.process_time() - start)
        seconds = statistics.median(times)
        right = solved_as_published(entry, result)
        met = right and seconds <= TARGET_SECONDS
        all_met &= met
        print(
            f"| {entry['title']} | {entry['size']} | {', '.join(sorted(rules.kinds))} "
            f"| {result.engine} | {result.status_names()[0]} | {int(result.nodes[0]):,} "
            f"| {seconds:.3f} | {'yes' if right else 'NO'} "
            f"| {'met' if met else 'MISSED'} |"
        )
    if refused:
        print(f"\nNot read (a rule numbadlx does not have): {'; '.join(refused)}.")
    verdict = "met for every puzzle" if all_met else "MISSED for some puzzle"
    print(
        f"\ntarget: every published puzzle UNIQUE, as published, within {TARGET_SECONDS:g} "
        f"CPU s on one thread: {verdict}"
    )
    return all_met
