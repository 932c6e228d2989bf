#!/bin/sh
# hpcg.sh: builds HPCG (the public reference, hpcg-benchmark/hpcg 3.x) serial, without MPI or OpenMP,
# for bench/bench_cachegrind.py.
#
#   sh bench/hpcg.sh SRC_DIR OUT_DIR
#
# SRC_DIR is the checkout (src/main.cpp ...), only read. Writes OUT_DIR/hpcg/xhpcg, built with CXX
# [g++] -O3 -g (its own Makefile's flags, setup/Make.Linux_Serial, with -DHPCG_NO_MPI -DHPCG_NO_OPENMP)
# from every src/*.cpp. Run it in a directory of its own: it writes its report files to the current
# directory. Errors: a message and exit status 2.
set -eu
die() {
    echo "${0##*/}: $*" >&2
    exit 2
}
[ $# -eq 2 ] || die "usage: sh bench/hpcg.sh SRC_DIR OUT_DIR"
SRC=$1
CXX=${CXX:-g++}
[ -f "$SRC/src/main.cpp" ] && [ -f "$SRC/src/CG.cpp" ] || die "$SRC: not an HPCG checkout (no src/main.cpp)"
command -v "$CXX" >/dev/null 2>&1 || die "$CXX: not found (set CXX)"
mkdir -p "$2/hpcg/obj" || die "$2/hpcg: cannot create"
H=$(cd "$2/hpcg" && pwd)
for f in "$SRC"/src/*.cpp; do
    o=$H/obj/$(basename "$f" .cpp).o
    "$CXX" -O3 -g -DHPCG_NO_MPI -DHPCG_NO_OPENMP -I"$SRC/src" -c "$f" -o "$o" || die "$f: compile failed"
done
"$CXX" -O3 -g "$H"/obj/*.o -o "$H/xhpcg" || die "xhpcg: link failed"
echo "hpcg.sh: built $H/xhpcg"
