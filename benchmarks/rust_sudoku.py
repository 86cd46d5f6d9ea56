"""A small timing harness around the Rust crate ``sudoku`` (Emerentius/sudoku), built by
this module from the crate's sources that you fetched yourself, outside this repository.

No code of the crate is in this repository: the harness below is a short Rust program of
our own that calls the crate's public API. :func:`build` writes it with a ``Cargo.toml``
that points at the crate's directory into a build directory, and runs ``cargo build
--release --offline`` there (``-C target-cpu=native``, the crate's ``unchecked_indexing``
feature, as tdoku's benchmark built it). The crate's dependencies (rand, crunchy,
thiserror) come from a local registry directory, for example Debian's packaged crates
(``apt-get install librust-rand-dev librust-crunchy-dev librust-thiserror-dev`` installs
them under ``/usr/share/cargo/registry``).

The harness reads one 81-character puzzle per line (``.`` or ``0`` for a blank). Like
tdoku's ``run_benchmark`` it warms up, then times whole passes over the file for at least
the given seconds, parsing each line's text inside the time, and solves on one thread:
limit 2 asks the crate for at most two solutions and keeps the first
(``Sudoku::solutions_up_to_buffer``), limit 1 for one. It prints how many puzzles had 0,
1 and 2 solutions in the last pass, so the answers can be compared with ours.
"""

import os
import shutil
import subprocess
from pathlib import Path

from tdoku import run_measured

HARNESS = r"""
use std::io::Read;
use std::time::Instant;
use sudoku::Sudoku;

fn one_pass(lines: &[&str], limit: usize, counts: &mut [u64; 3]) -> u64 {
    let mut check = 0u64;
    let mut first = [[0u8; 81]; 1];
    for line in lines {
        let found = match Sudoku::from_str_line(line) {
            Ok(grid) => grid.solutions_up_to_buffer(&mut first, limit),
            Err(_) => 0,
        };
        counts[found.min(2)] += 1;
        check = check.wrapping_add(first[0][0] as u64 + found as u64);
    }
    check
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 5 {
        eprintln!("usage: harness FILE LIMIT SECONDS WARMUP_SECONDS");
        std::process::exit(2);
    }
    let mut text = String::new();
    std::fs::File::open(&args[1]).expect("open").read_to_string(&mut text).expect("read");
    let lines: Vec<&str> = text.lines().filter(|l| l.len() >= 81).collect();
    let limit: usize = args[2].parse().expect("limit");
    let seconds: f64 = args[3].parse().expect("seconds");
    let warmup: f64 = args[4].parse().expect("warmup");
    let mut check = 0u64;
    let mut counts = [0u64; 3];
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < warmup {
        check = check.wrapping_add(one_pass(&lines, limit, &mut counts));
    }
    let mut passes = 0u64;
    let start = Instant::now();
    loop {
        counts = [0u64; 3];
        check = check.wrapping_add(one_pass(&lines, limit, &mut counts));
        passes += 1;
        if start.elapsed().as_secs_f64() >= seconds {
            break;
        }
    }
    let took = start.elapsed().as_secs_f64();
    let puzzles = (passes as f64) * (lines.len() as f64);
    println!(
        "rust_sudoku,{:.3},{:.6},{},{},{},{}",
        puzzles / took,
        took * 1e6 / puzzles,
        counts[0],
        counts[1],
        counts[2],
        check
    );
}
"""

CARGO_TOML = """[package]
name = "rust_sudoku_harness"
version = "0.1.0"
edition = "2018"

[dependencies]
sudoku = {{ path = "{crate}", features = ["unchecked_indexing"] }}

[profile.release]
opt-level = 3
lto = true
codegen-units = 1
"""

CARGO_CONFIG = """[source.crates-io]
replace-with = "local"

[source.local]
directory = "{registry}"
"""


def cargo():
    """The ``cargo`` to build with: on the PATH, else rustup's default place."""
    found = shutil.which("cargo")
    if found:
        return found
    home = Path(os.environ.get("CARGO_HOME", Path.home() / ".cargo"))
    return str(home / "bin" / "cargo")


def build(crate, build_dir, registry="/usr/share/cargo/registry"):
    """Build the harness against the crate's sources at ``crate`` in ``build_dir``; the
    path of the binary. ``registry`` is a cargo directory source holding the crate's
    dependencies."""
    crate = Path(crate).resolve()
    if not (crate / "Cargo.toml").is_file():
        raise FileNotFoundError(f"no Cargo.toml in {crate}: not the sudoku crate's sources")
    build_dir = Path(build_dir)
    (build_dir / "src").mkdir(parents=True, exist_ok=True)
    (build_dir / ".cargo").mkdir(exist_ok=True)
    (build_dir / "Cargo.toml").write_text(CARGO_TOML.format(crate=crate))
    (build_dir / ".cargo" / "config.toml").write_text(CARGO_CONFIG.format(registry=registry))
    (build_dir / "src" / "main.rs").write_text(HARNESS)
    env = dict(os.environ, RUSTFLAGS="-C target-cpu=native")
    done = subprocess.run(
        [cargo(), "build", "--release", "--offline", "--quiet"],
        cwd=build_dir,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"cargo build failed in {build_dir}:\n{done.stderr}")
    return build_dir / "target" / "release" / "rust_sudoku_harness"


def run_rust_sudoku(binary, path, *, limit=2, seconds=1, warmup=1, cpu=False):
    """``(µs per puzzle, (no solution, one, two or more))`` from one run of the harness
    over the puzzles of ``path``; with ``cpu``, µs of CPU time (the harness's wall time
    times its CPU share, see :func:`tdoku.run_measured`)."""
    command = [str(binary), str(path), str(limit), str(seconds), str(warmup)]
    code, output, share = run_measured(command)
    if code != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({code}): {output}")
    fields = output.strip().split(",")
    if len(fields) != 7 or fields[0] != "rust_sudoku":
        raise RuntimeError(f"unexpected harness output: {output!r}")
    return float(fields[2]) * (share if cpu else 1.0), tuple(int(v) for v in fields[3:6])
