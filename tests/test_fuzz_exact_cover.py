"""Fuzzing the exact-cover builders: option lists, CSR arrays and DLX text, through
Python and through ``numbadlx count`` (dense arrays are in ``test_fuzz.py``). The only
outcomes allowed are a problem that checks out or the documented ValueError (for the
CLI: exit code 0, 2 or 3 and a message); never another exception or a hang. CI runs it
again with NUMBA_BOUNDSCHECK=1.
"""

import warnings

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

from numbadlx import ExactCover
from numbadlx.cli import main
from tests.helpers import FEW, FUZZ, check_built_problem


def _to_bytes(text):
    return text.encode("utf-8", "surrogateescape")


# ------------------------------------------------------------------ builders
JUNK = st.one_of(
    st.none(),
    st.text(max_size=3),
    st.floats(),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    st.lists(st.integers(0, 3), max_size=2),
    st.just(np.int64(2)),
    st.just(np.float64(1.0)),
)


@st.composite
def option_lists(draw):
    n_items = draw(st.integers(0, 8))
    options = []
    for _ in range(draw(st.integers(0, 8))):
        items = draw(st.lists(st.integers(-1, n_items + 1), max_size=4))
        kinds = [list, tuple, np.array]
        if draw(st.integers(0, 5)) == 0:
            items = items + [draw(JUNK)]
            kinds = [list, tuple]
        option = draw(st.sampled_from(kinds))(items) if draw(st.integers(0, 6)) else draw(JUNK)
        options.append(option)
    n_given = draw(st.one_of(st.none(), st.integers(-1, 10), JUNK))
    secondary = draw(
        st.one_of(
            st.none(), st.integers(-1, 4), JUNK, st.lists(st.booleans(), max_size=9).map(np.array)
        )
    )
    return options, n_given, secondary


@FUZZ
@given(option_lists())
def test_exact_cover_from_option_lists(case):
    options, n_items, secondary = case
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. numpy on ragged or odd input
            problem = ExactCover(options, n_items=n_items, secondary=secondary, dense=False)
    except ValueError as error:
        assert str(error)
        return
    check_built_problem(problem)


@FUZZ
@given(
    st.lists(st.integers(-2, 12), max_size=12),
    st.lists(st.integers(-2, 12), max_size=12),
    st.one_of(st.none(), st.integers(-1, 12)),
)
def test_exact_cover_from_csr(indptr, indices, n_items):
    try:
        problem = ExactCover.from_csr(indptr, indices, n_items=n_items)
    except ValueError:
        return
    check_built_problem(problem)


DLX_CHARS = "abcxyz|: \t\n\r:012"


@st.composite
def dlx_texts(draw):
    if draw(st.booleans()):
        return draw(st.text(DLX_CHARS, max_size=200))
    names = draw(
        st.lists(
            st.sampled_from(["a", "b", "c", "x", "y", "2|a", "1:3|b", "0:2|c", "|", "q:r", "a"]),
            max_size=7,
        )
    )
    lines = [" ".join(names)]
    for _ in range(draw(st.integers(0, 8))):
        lines.append(
            " ".join(
                draw(
                    st.lists(
                        st.sampled_from(
                            ["a", "b", "c", "x", "y", "x:red", "y:blue", "x:", "a:red", "zz", "|"]
                        ),
                        max_size=4,
                    )
                )
            )
        )
    return "\n".join(lines) + "\n"


@FUZZ
@given(dlx_texts())
def test_exact_cover_from_dlx_text(text):
    assume("\n" in text)  # a one-line string might name a file
    try:
        problem = ExactCover.from_dlx(text)
    except ValueError as error:
        assert str(error)
        return
    total = problem.count(limit=200, max_nodes=200_000)
    listed = list(problem.solutions(limit=10, max_nodes=200_000))
    assert len(listed) == min(total, 10)
    if problem.algorithm == "X":
        assert all(problem.verify(solution) for solution in listed)
    # and it writes back to text that reads as the same problem
    again = ExactCover.from_dlx(problem.to_dlx())
    assert again.count(limit=200, max_nodes=200_000) == total


@FEW
@given(dlx_texts())
def test_cli_count_on_random_dlx(tmp_path, capsys, text):
    path = tmp_path / "p.dlx"
    path.write_bytes(_to_bytes(text))
    code = main(["count", str(path), "--limit", "50", "--max-nodes", "100000", "--show", "2"])
    captured = capsys.readouterr()
    assert code in (0, 2, 3), captured.err
    if code == 2:
        assert "numbadlx: error:" in captured.err
    elif code == 0:
        assert "solution" in captured.out
