#!/usr/bin/env bash
# Build tdoku's public benchmark program (run_benchmark) from a copy of its sources.
#
#   bash benchmarks/build_tdoku.sh SRC_DIR BUILD_DIR
#
# SRC_DIR is a checkout or export of https://github.com/t-dillon/tdoku (this repository ships
# none of its code). BUILD_DIR receives the CMake build; the program lands at
# BUILD_DIR/run_benchmark and the script prints that path on its last line.
#
# tdoku's CMakeLists.txt switches each third-party solver on with its own option. This script
# switches on every solver whose source file is present in SRC_DIR and says which are left
# out: the git submodules (fsss2, norvig, lhl_sudoku, sk_bforce2, gss, rust_sudoku) are empty
# unless they were fetched, and JCZSolve needs tdoku's other/setup_jczsolve.sh. Solvers that
# need an outside library (MiniSat, Z3, Gurobi) are never switched on.
#
# Environment: CC / CXX pick the compiler (CMake's default otherwise); TDOKU_ARCH sets
# -march (default "native": the binary is tuned for, and only runs on, this kind of CPU);
# JOBS sets make's parallelism (default 2).
#
# Note: tdoku's CMakeLists.txt writes src/build_info.h into SRC_DIR when configuring, so
# SRC_DIR must be writable.
set -euo pipefail

if [ "$#" -ne 2 ]; then
    echo "usage: bash $0 SRC_DIR BUILD_DIR" >&2
    exit 2
fi
src_dir=$(cd "$1" && pwd) || { echo "build_tdoku.sh: no such folder: $1" >&2; exit 2; }
build_dir=$2

if [ ! -f "$src_dir/CMakeLists.txt" ] || [ ! -f "$src_dir/src/run_benchmark.cc" ]; then
    echo "build_tdoku.sh: $src_dir does not look like the tdoku sources" \
        "(no CMakeLists.txt or src/run_benchmark.cc)" >&2
    exit 2
fi
for tool in cmake make; do
    command -v "$tool" >/dev/null || { echo "build_tdoku.sh: $tool not found" >&2; exit 2; }
done

# CMake option -> a source file that option compiles (relative to SRC_DIR).
solver_sources=(
    "FAST_SOLV_9R2 other/fast_solv_9r2/fast_solv_9r2.c"
    "KUDOKU other/kudoku/kudoku.c"
    "ZERODOKU other/zerodoku/zerodoku_v2.c"
    "BB_SUDOKU other/bb_sudoku/bb_sudoku_solver.cpp"
    "FSSS other/fsss/fsss.cc"
    "JSOLVE other/jsolve/JSolve.c"
    "FSSS2 other/module_fsss2/fsss2.cpp"
    "NORVIG other/module_norvig_sudoku/sudoku.en.cc"
    "LHL other/module_lhl_sudoku/Sudoku2.cpp"
    "JCZSOLVE other/jczsolve/JCZSolve.c"
    "SK_BFORCE2 other/module_sk_bforce2/sk_t.cpp"
    "GSS other/module_gss/sudoku.c"
)
cmake_flags=()
included=(tdoku)
missing=()
for entry in "${solver_sources[@]}"; do
    option=${entry%% *}
    file=${entry#* }
    if [ -f "$src_dir/$file" ]; then
        cmake_flags+=("-D$option=ON")
        included+=("$option")
    else
        cmake_flags+=("-D$option=OFF")
        missing+=("$option ($file absent)")
    fi
done

echo "build_tdoku.sh: solvers switched on: ${included[*]}"
if [ "${#missing[@]}" -gt 0 ]; then
    printf 'build_tdoku.sh: left out: %s\n' "${missing[@]}"
fi

mkdir -p "$build_dir"
cmake -S "$src_dir" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DOPT=O3 \
    -DARCH="${TDOKU_ARCH:-native}" "${cmake_flags[@]}"
make -C "$build_dir" -j "${JOBS:-2}" run_benchmark

binary="$(cd "$build_dir" && pwd)/run_benchmark"
if [ ! -x "$binary" ]; then
    echo "build_tdoku.sh: the build finished but $binary is missing" >&2
    exit 1
fi
"$binary" -h | sed -n '/^solvers:/,$p'
echo "$binary"
