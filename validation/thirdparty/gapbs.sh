#!/bin/sh
# gapbs.sh: builds the GAP Benchmark Suite's kernels (public repository sbeamer/gapbs) as static
# RISC-V programs for the timing model's validation against gem5, and their list.
#
#   sh validation/thirdparty/gapbs.sh SRC_DIR OUT_DIR
#
# SRC_DIR is a GAPBS checkout (src/bfs.cc ...), only read. Writes OUT_DIR/gapbs/ (patched copies of the
# sources, the binaries, the graphs) and OUT_DIR/gapbs.tsv, a list in validation/sweep.py's format:
# fits.gapbs-K and spills.gapbs-K for the kernels bfs, pr, cc, sssp, bc and tc.
#
# The programs are built without OpenMP (serial), with riscv64-linux-gnu-g++ -O3 -g -static and
# -fno-inline-functions-called-once -fno-partial-inlining -fno-ipa-cp -fno-ipa-sra -fno-ipa-icf, so
# each kernel function (DOBFS, PageRankPullGS, Afforest, DeltaStep, Brandes, Hybrid) keeps its own
# symbol for edan's --filter. Two patches to benchmark.h (on the copy, each checked to match): it
# includes kernel_timer.h, and the trial loop's kernel call is wrapped in its EDAN_KERNEL_BEGIN/END:
# edan_validation_flush() (flush.c) just before the kernel, and the kernel's seconds (clock_gettime,
# 9 decimals) on a line of its own after it (time=output). The graphs are generated
# once by GAPBS's converter, built for the host (g++), into serialized files (.sg, .wsg for sssp)
# that the programs load with -f: generating a graph in gem5 would cost more than the kernel.
# Sizes (GRAPH-SPARSE.md): "fits" keeps each kernel's data within the 256 KiB L2 of
# machines/gem5-validation.ini, "spills" puts it 1.5-8x beyond.
#
# Environment: CXX [riscv64-linux-gnu-g++], CC [riscv64-linux-gnu-gcc] (flush.c), HOSTCXX [g++],
# EXTRA_CFLAGS (added to the flags; validation/native.py's x86-64 build gives
# -DEDAN_KERNEL_CLOCK=CLOCK_THREAD_CPUTIME_ID).
# Errors: a message and exit status 2.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=validation/thirdparty/common.sh
. "$HERE/common.sh"

[ $# -eq 2 ] || die "usage: sh validation/thirdparty/gapbs.sh SRC_DIR OUT_DIR"
SRC=$1
OUT=$2
CXX=${CXX:-riscv64-linux-gnu-g++}
CC=${CC:-riscv64-linux-gnu-gcc}
HOSTCXX=${HOSTCXX:-g++}
KERNELS="bfs pr cc sssp bc tc"

for f in $KERNELS converter; do
    [ -f "$SRC/src/$f.cc" ] || die "$SRC: not a GAPBS checkout (no src/$f.cc)"
done
for f in flush.c kernel_timer.h; do
    [ -f "$HERE/$f" ] || die "$HERE/$f: missing"
done
for t in "$CXX" "$CC" "$HOSTCXX"; do
    command -v "$t" >/dev/null 2>&1 || die "$t: not found (set CXX, CC or HOSTCXX)"
done

mkdir -p "$OUT/gapbs/src" "$OUT/gapbs/host" || die "$OUT: cannot create gapbs/"
OUT=$(cd "$OUT" && pwd)
G=$OUT/gapbs
# the list's ARGS fields are split like a shell command line: keep the graphs' paths plain
case $G in
*[!A-Za-z0-9_./+,@%=-]*) die "$G: use an OUT_DIR whose path has no spaces, quotes or other shell characters" ;;
esac
cp "$SRC"/src/*.h "$SRC"/src/*.cc "$G/src/" || die "$SRC/src: cannot copy the sources"


B=$G/src/benchmark.h
edit "$B" '^#include "writer.h"$' '#include "writer.h"\n#include "kernel_timer.h"'
edit "$B" '^    auto result = kernel(g);$' '    EDAN_KERNEL_BEGIN\n    auto result = kernel(g);\n    EDAN_KERNEL_END'

FLAGS="-std=c++11 -O3 -g -static -fno-inline-functions-called-once -fno-partial-inlining -fno-ipa-cp -fno-ipa-sra -fno-ipa-icf ${EXTRA_CFLAGS:-}"
# shellcheck disable=SC2086
"$CC" -O3 -g ${EXTRA_CFLAGS:-} -c "$HERE/flush.c" -o "$G/flush.o" || die "flush.c: compile failed"
for k in $KERNELS; do
    # shellcheck disable=SC2086
    "$CXX" $FLAGS -I"$HERE" "$G/src/$k.cc" "$G/flush.o" -o "$G/$k" || die "$k: compile failed"
done
"$HOSTCXX" -std=c++11 -O2 "$SRC/src/converter.cc" -o "$G/host/converter" || die "converter: host compile failed"

# Each kernel's graph at each size: gSCALE_kDEGREE is a Kronecker graph (Graph500 parameters, GAPBS's
# kron), uSCALE_kDEGREE a uniform random one (GAPBS's urand; tc: a Kronecker graph's hubs make
# triangle counting cost too many instructions for gem5 at a size beyond the L2), 2^SCALE vertices
# and DEGREE edges a vertex, symmetrized (-s: undirected, as tc needs and GAPBS's benchmark graphs
# are); .wsg (sssp) adds GAPBS's random weights. Arguments beside -f GRAPH -n 1 ('-' for none): pr
# runs at most -i iterations.
# name  function        fits graph, args   spills graph, args
LIST="bfs	DOBFS	g11_k8	-	g14_k8	-
pr	PageRankPullGS	g11_k8	-i 10	g13_k8	-i 5
cc	Afforest	g11_k8	-	g14_k8	-
sssp	DeltaStep	g10_k8	-	g13_k8	-
bc	Brandes	g11_k8	-	g13_k8	-
tc	Hybrid	u11_k8	-	u13_k8	-"

# graph SPEC EXT: generates $G/SPEC.EXT once (converter on the host) and prints its path
graph() {
    path=$G/$1.$2
    if [ ! -f "$path" ]; then
        kind=$(echo "$1" | sed 's/^\([gu]\)\([0-9]*\)_k\([0-9]*\)$/-\1 \2 -k \3/')
        [ "$kind" != "$1" ] || die "graph '$1': expected gSCALE_kDEGREE or uSCALE_kDEGREE"
        w=
        [ "$2" = wsg ] && w=-w
        # shellcheck disable=SC2086
        "$G/host/converter" $kind -s $w -b "$path.tmp.$2" >/dev/null || die "converter $kind $w: failed"
        mv "$path.tmp.$2" "$path"
    fi
    echo "$path"
}

rm -f "$G"/*.sg "$G"/*.wsg
{
    echo "# GAPBS (validation/thirdparty/gapbs.sh $SRC): graph kernels on serialized graphs in $G."
    for size in fits spills; do
        echo "$LIST" | while IFS='	' read -r k fn fits_graph fits_args spills_graph spills_args; do
            spec=$fits_graph args=$fits_args
            [ "$size" = spills ] && spec=$spills_graph args=$spills_args
            [ "$args" = - ] && args=
            ext=sg
            [ "$k" = sssp ] && ext=wsg
            path=$(graph "$spec" "$ext")
            printf '%s.gapbs-%s\t%s\t-f %s -n 1%s\t%s\ttime=output\n' "$size" "$k" "$G/$k" "$path" \
                "${args:+ $args}" "$fn"
        done
    done
} >"$OUT/gapbs.tsv"
echo "gapbs.sh: built $KERNELS in $G, list $OUT/gapbs.tsv"
