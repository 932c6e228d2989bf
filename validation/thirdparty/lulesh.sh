#!/bin/sh
# lulesh.sh: builds LULESH 2.0 (public repository LLNL/LULESH) as a serial, static RISC-V program for
# the timing model's benchmarks (issue 37: bench/bench_apps.py, docs/benchmarks.md).
#
#   sh validation/thirdparty/lulesh.sh SRC_DIR OUT_DIR
#
# SRC_DIR is a LULESH checkout (lulesh.cc ...), only read. Writes OUT_DIR/lulesh/ (the patched copy of
# the sources and the binary lulesh2.0). Not a validation program (no list is written): the
# benchmarks run it small, `lulesh2.0 -s 8 -i 10 -q`.
#
# Built as its Makefile's serial suggestion (-DUSE_MPI=0, no -fopenmp: the OpenMP pragmas are
# ignored) with -O3 -g -static. One patch to the copy of lulesh.cc (checked to match):
# LagrangeLeapFrog, the time step's body, is `static inline` and called once, from main's loop, so
# -O3 inlines it into main and leaves no symbol for --filter; the patch makes it noinline. Most of
# its own callees (LagrangeNodal, LagrangeElements, CalcTimeConstraintsForElems, ...) stay inlined
# into it, as they were into main: --filter and --functions cannot name them (README.md).
#
# Environment: CXX [riscv64-linux-gnu-g++], NM [riscv64-linux-gnu-nm]. Errors: a message and exit
# status 2.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=validation/thirdparty/common.sh
. "$HERE/common.sh"

[ $# -eq 2 ] || die "usage: sh validation/thirdparty/lulesh.sh SRC_DIR OUT_DIR"
S=$1
[ -f "$S/lulesh.cc" ] && [ -f "$S/lulesh.h" ] || die "$1: not a LULESH checkout (no lulesh.cc)"
tpa_check_cxx
OUT=$(tpa_outdir "$2" lulesh)
L=$OUT/lulesh
rm -rf "$L/src"
mkdir -p "$L/src" || die "$L/src: cannot create"
cp "$S"/*.cc "$S"/*.h "$L/src/" || die "$S: cannot copy the sources"

edit "$L/src/lulesh.cc" '^void LagrangeLeapFrog(Domain& domain)$' \
    '__attribute__((noinline)) /* edan: keep a symbol for --filter */ void LagrangeLeapFrog(Domain\& domain)'

# shellcheck disable=SC2086
"$TPA_CXX" -DUSE_MPI=0 -I"$L/src" $TPA_CFLAGS "$L/src/lulesh.cc" "$L/src/lulesh-comm.cc" \
    "$L/src/lulesh-viz.cc" "$L/src/lulesh-util.cc" "$L/src/lulesh-init.cc" -o "$L/lulesh2.0" ||
    die "lulesh: compile failed"
tpa_has_cxx_symbol "$L/lulesh2.0" LagrangeLeapFrog
echo "lulesh.sh: built $L/lulesh2.0"
