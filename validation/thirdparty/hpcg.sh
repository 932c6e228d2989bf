#!/bin/sh
# hpcg.sh: builds HPCG 3.1 (public repository hpcg-benchmark/hpcg) as a serial, static RISC-V
# program for the timing model's benchmarks (issue 37: bench/bench_apps.py, docs/benchmarks.md).
#
#   sh validation/thirdparty/hpcg.sh SRC_DIR OUT_DIR
#
# SRC_DIR is an HPCG checkout (src/main.cpp ...), only read. Writes OUT_DIR/hpcg/ (a copy of the
# sources and the binary xhpcg). Not a validation program: a run of `xhpcg 16 16 16` (the smallest
# problem HPCG accepts; with three arguments its run time is 0, its quick path) commits about 1.07 G
# instructions, more than gem5 simulates in a sweep's time, so no list is written.
#
# Built as setup/Make.Linux_Serial configures it (-DHPCG_NO_MPI -DHPCG_NO_OPENMP: no MPI, no OpenMP)
# with -O3 -g -static. No patch: every kernel has a translation unit of its own and there is no
# link-time optimisation, so CG, ComputeSPMV_ref, ComputeSYMGS_ref, ComputeWAXPBY_ref,
# ComputeDotProduct_ref and ComputeMG_ref keep their symbols and their calls (checked below).
# xhpcg writes its reports (hpcg*.txt, HPCG-Benchmark_*.txt) into the directory it runs in.
#
# Environment: CXX [riscv64-linux-gnu-g++], NM [riscv64-linux-gnu-nm]. Errors: a message and exit
# status 2.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=validation/thirdparty/common.sh
. "$HERE/common.sh"

[ $# -eq 2 ] || die "usage: sh validation/thirdparty/hpcg.sh SRC_DIR OUT_DIR"
S=$1/src
[ -f "$S/main.cpp" ] && [ -f "$S/ComputeSPMV_ref.cpp" ] || die "$1: not an HPCG checkout (no src/main.cpp)"
tpa_check_cxx
OUT=$(tpa_outdir "$2" hpcg)
H=$OUT/hpcg
rm -rf "$H/src" "$H/obj"
mkdir -p "$H/src" "$H/obj" || die "$H: cannot create"
cp "$S"/*.cpp "$S"/*.hpp "$H/src/" || die "$S: cannot copy the sources"

# One object a source, two compilers at a time (a whole-program compile takes minutes on one core).
# shellcheck disable=SC2086
(cd "$H/src" && ls ./*.cpp) | sed 's|^\./||; s|\.cpp$||' |
    xargs -P 2 -I{} "$TPA_CXX" -DHPCG_NO_MPI -DHPCG_NO_OPENMP -I"$H/src" $TPA_CFLAGS -c "$H/src/{}.cpp" \
        -o "$H/obj/{}.o" || die "hpcg: compile failed"
# shellcheck disable=SC2086
"$TPA_CXX" $TPA_CFLAGS "$H"/obj/*.o -o "$H/xhpcg" || die "hpcg: link failed"
for f in CG ComputeSPMV_ref ComputeSYMGS_ref ComputeWAXPBY_ref ComputeDotProduct_ref ComputeMG_ref; do
    tpa_has_cxx_symbol "$H/xhpcg" "$f"
done
echo "hpcg.sh: built $H/xhpcg"
