"""``numbadlx dedup``: keep the first puzzle of each class of equivalent puzzles.

Two puzzles are equivalent when the Sudoku symmetries (relabelling, row and column
moves inside bands and stacks, band and stack moves, transposing square boxes) make one
of the other; they then share a canonical form (:func:`numbadlx.sudoku.canonical`). The
file is read a chunk at a time; the canonical forms seen are kept (n*n bytes a class).
Each kept puzzle is written as one line, in input order: its text (or its canonical
form with ``--canonical``). A row that cannot be read, or whose givens clash, belongs to
no class: it is not written, and it is reported on standard error with its line and
reason. The output file is written under a temporary name and put in place once
complete; a file that holds something is replaced only with ``--overwrite`` (checked
before the work and again, under its lock, when the new file is put in place); the
input file itself is never the output.
"""

import os
import sys
import tempfile

from ..core.words import plural
from ._common import EXIT_NO_ANSWER, EXIT_OK, EXIT_USAGE, os_error_text, parse_box


def dedup_command(args):
    from .._compiling import first_use

    with first_use("the canonical forms"):
        return _dedup_command(args)


def _same_file(input, output):
    """Whether ``output`` is the file ``input`` names (through any link)."""
    try:
        return input not in (None, "-") and os.path.samefile(input, output)
    except (OSError, ValueError):  # one of them missing: not the same file
        return False


def _dedup_command(args):
    from ..jobs import check_replace, replace_file
    from ..sudoku.formats import format_line, iter_chunks
    from ..sudoku.making import canonical_chunk

    box = parse_box(args.box) if args.box else None
    if args.box and box is None:
        return EXIT_USAGE
    if args.output not in (None, "-"):
        try:
            if os.path.lexists(args.output) and not os.path.isfile(args.output):
                raise FileExistsError(
                    f"{args.output} exists and is not a regular file; dedup writes a new "
                    f"file (choose another name)"
                )
            if _same_file(args.input, args.output):
                raise FileExistsError(
                    f"the output {args.output} is the input file {args.input}: dedup would "
                    f"replace the puzzles it reads (and drop its unreadable rows); choose "
                    f"another output"
                )
            check_replace(args.output, overwrite=args.overwrite)
        except FileExistsError as error:
            print(f"numbadlx: error: {error}", file=sys.stderr)
            return EXIT_USAGE
    name = args.input
    seen = set()
    read = kept = 0
    bad = []
    out, temp = _open_output(args.output)
    try:
        chunks = iter_chunks(
            args.input, chunk_size=args.chunk_size, box=box, format=args.format,
            column=args.column,
        )  # fmt: skip
        for chunk in chunks:
            forms, _, errors = canonical_chunk(chunk, box, args.threads)
            why = dict(errors)
            lines = []
            for row in range(len(forms)):
                if row in why:
                    message = why[row]
                    if not message.startswith(name):  # clashes: the kernel's reason
                        message = f"{name}:{int(chunk.line_numbers[row])}: {message}"
                    bad.append(message)
                    continue
                key = forms[row].tobytes()
                if key in seen:
                    continue
                seen.add(key)
                text = chunk.raw[row]
                if args.canonical or "\n" in text or "," in text:
                    text = format_line(forms[row] if args.canonical else chunk.puzzles[row])
                lines.append(text)
            out.write("".join(line + "\n" for line in lines))
            read += len(forms)
            kept += len(lines)
        out.flush()
        if temp is not None:
            os.fsync(out.fileno())
            out.close()
            # refused, and the file kept, if one that holds something appeared
            replace_file(temp, args.output, overwrite=args.overwrite)
            temp = None
    except (OSError, ValueError) as error:
        print(f"numbadlx: error: {os_error_text(error)}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        if temp is not None:
            out.close()
            os.unlink(temp)
    for message in bad:
        print(message, file=sys.stderr)
    dropped = read - kept - len(bad)
    print(
        f"{name}: {plural(read, 'puzzle')} read, {kept} kept (one a class), "
        f"{dropped} equivalent dropped, {len(bad)} bad (not written)",
        file=sys.stderr,
    )
    return EXIT_NO_ANSWER if bad else EXIT_OK


def _open_output(output):
    """The stream to write, and the temporary file's name (None for standard output)."""
    if output in (None, "-"):
        return sys.stdout, None
    folder = os.path.dirname(os.path.abspath(output))
    handle, temp = tempfile.mkstemp(prefix=".dedup-", suffix=".part", dir=folder)
    return os.fdopen(handle, "w", encoding="utf-8", newline="\n"), temp
