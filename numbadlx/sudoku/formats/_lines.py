"""The line format: one puzzle per line, read block by block."""

from __future__ import annotations

import numpy as np

from ._cells import _parse_line_batch
from ._reader import PuzzleChunk, _Context, _iter_blocks, _strip_comment


def _decode_many(pieces: list[bytes]) -> list[str]:
    return b"\n".join(pieces).decode("utf-8", "replace").split("\n") if pieces else []


def _line_chunks(f, pos: int, line: int, ctx: _Context, chunk_size: int):
    """Yield line-format chunks; clean blocks are split without a per-line loop."""
    raws: list[bytes] = []
    contents: list[bytes] = []
    numbers: list[np.ndarray] = []
    ends: list[np.ndarray] = []
    held = 0
    for first, start, body, pieces, terminated in _iter_blocks(f, pos, line):
        lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
        block_ends = start + np.cumsum(lengths + 1)
        if not terminated:
            block_ends[-1] -= 1
        if not any(mark in body for mark in (b"\r", b"#", b" ", b"\t")):
            keep = np.flatnonzero(lengths > 0)
            if keep.size == len(pieces):
                block_raw = pieces
            else:
                block_raw = [pieces[i] for i in keep.tolist()]
            block_content = block_raw
        else:
            kept, block_raw, block_content = [], [], []
            for i, piece in enumerate(pieces):
                if piece.endswith(b"\r"):
                    piece = piece[:-1]
                content = _strip_comment(piece)
                if content:
                    kept.append(i)
                    block_raw.append(piece)
                    block_content.append(content)
            keep = np.array(kept, dtype=np.intp)
        if not block_raw:
            continue
        raws.extend(block_raw)
        contents.extend(block_content)
        numbers.append(first + keep.astype(np.int64))
        ends.append(block_ends[keep])
        held += len(block_raw)
        if held < chunk_size:
            continue
        all_numbers = np.concatenate(numbers)
        all_ends = np.concatenate(ends)
        used = 0
        while held - used >= chunk_size:
            stop = used + chunk_size
            yield _line_chunk(
                all_numbers[used:stop],
                raws[used:stop],
                contents[used:stop],
                int(all_ends[stop - 1]),
                ctx,
            )
            used = stop
        raws, contents = raws[used:], contents[used:]
        numbers, ends = [all_numbers[used:]], [all_ends[used:]]
        held -= used
    if held:
        yield _line_chunk(
            np.concatenate(numbers), raws, contents, int(np.concatenate(ends)[-1]), ctx
        )


def _line_chunk(numbers, raws, contents, end_byte: int, ctx: _Context) -> PuzzleChunk:
    if ctx.n is None:
        ctx.infer_from_lines(
            (int(line), text.decode("utf-8", "surrogateescape"))
            for line, text in zip(numbers, contents)
        )
    puzzles, errs = _parse_line_batch(contents, ctx.n, "line", ctx.origin)
    bad = np.zeros(len(contents), dtype=bool)
    errors = []
    for i, col0, msg in errs:
        bad[i] = True
        errors.append((i, f"{ctx.at(int(numbers[i]), col0)}: {msg}"))
    return PuzzleChunk(
        puzzles=puzzles,
        bad=bad,
        errors=errors,
        line_numbers=np.asarray(numbers, dtype=np.int64),
        end_byte=end_byte,
        raw=_decode_many(raws),
    )
