#!/bin/sh
# olden.sh: builds four Olden programs (the LLVM test-suite's sequential copy; any checkout of the
# public repository compor/olden) as static RISC-V programs for the timing model's validation
# against gem5, and their list.
#
#   sh validation/thirdparty/olden.sh SRC_DIR OUT_DIR
#
# SRC_DIR is the checkout (em3d/src/main.c ...), only read. Writes OUT_DIR/olden/ (patched copies of
# the sources, the binaries em3d, mst, tsp, perimeter) and OUT_DIR/olden.tsv, a list in
# validation/sweep.py's format: fits.NAME (the kernel's data within the 256 KiB L2 of
# machines/gem5-validation.ini) and spills.NAME (beyond it) of em3d (kernel compute_nodes), mst
# (ComputeMst), tsp (tsp) and perimeter (perimeter). They print no kernel time, so gem5's time is
# the kernel's in its commit trace (time=trace). The sizes keep a whole run (set-up included: gem5
# simulates all of it) to at most about 5 M instructions at "fits" and 30 M at "spills".
#
# Built with -O3 -g -static -DTORONTO (the sequential version, as the LLVM test-suite builds it) and,
# as PolyBench, inlining and interprocedural clones turned off (mst's ComputeMst, static and called
# once, would otherwise be inlined into main). One patch to each main.c (on the copy, checked
# to match): it calls edan_validation_flush() (flush.c) just before the kernel's call (before
# em3d's first of its two compute_nodes calls: gem5's time spans both), so the kernel starts with
# cold caches in gem5 as in edan's model.
#
# Environment: CC [riscv64-linux-gnu-gcc], NM [riscv64-linux-gnu-nm]. Errors: a message and exit
# status 2.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=validation/thirdparty/common.sh
. "$HERE/common.sh"

[ $# -eq 2 ] || die "usage: sh validation/thirdparty/olden.sh SRC_DIR OUT_DIR"
SRC=$1
for p in em3d mst tsp perimeter; do
    [ -f "$SRC/$p/src/main.c" ] || die "$SRC: not an Olden checkout (no $p/src/main.c)"
done
for f in flush.c kernel_timer.h; do
    [ -f "$HERE/$f" ] || die "$HERE/$f: missing"
done
tpa_check_cc
OUT=$(tpa_outdir "$2" olden)
O=$OUT/olden

# copy PROGRAM: the program's sources into $O/PROGRAM/src, main.c with kernel_timer.h included first.
copy() {
    mkdir -p "$O/$1/src" || die "$O/$1/src: cannot create"
    cp "$SRC/$1/src/"*.c "$SRC/$1/src/"*.h "$O/$1/src/" || die "$SRC/$1/src: cannot copy the sources"
    { echo '#include "kernel_timer.h" /* edan: validation/thirdparty/kernel_timer.h */'; cat "$SRC/$1/src/main.c"; } \
        >"$O/$1/src/main.c" || die "$O/$1/src/main.c: cannot write"
}
B='{ EDAN_KERNEL_BEGIN /* edan: flush, timer */'
E='EDAN_KERNEL_END } /* edan: the kernel'"'"'s seconds */'
copy em3d
edit "$O/em3d/src/main.c" '^  compute_nodes(graph->e_nodes\[0\]);$' "  $B\n&"
edit "$O/em3d/src/main.c" '^  compute_nodes(graph->h_nodes\[0\]);$' "&\n  $E"
copy mst
edit "$O/mst/src/main.c" '^  dist = ComputeMst(graph,NumNodes,size);$' "  $B\n&\n  $E"
copy tsp
edit "$O/tsp/src/main.c" '^  tsp(t,conquer_thresold, NumNodes);$' "  $B\n&\n  $E"
copy perimeter
# The two calls of perimeter() are the same line (#ifndef TORONTO / #else); the timer begins after
# the last statement before them that TORONTO compiles and ends before the first after them.
edit "$O/perimeter/src/main.c" '^  chatting("# of leaves is %d\\n",count);$' "&\n  $B"
edit "$O/perimeter/src/main.c" '^  chatting("perimeter is %d\\n",count);$' "  $E\n&"

# program  kernel  fits arguments  spills arguments: em3d: nodes (E and H each), degree, percentage of
# local edges; mst: vertices; tsp: points (a tree of 2^(floor(log2 N)+1)-1, 64 bytes each: 32 KiB
# and 512 KiB); perimeter: levels of the quad tree. The sizes docs/accuracy.md's results were
# measured at (edan's counts, W, D, lambda and Lambda of each kernel equal that table's), but for
# perimeter's fits size: 5 levels (85 KiB of kernel data) instead of 6 (342 KiB, beyond the L2).
PROGRAMS="em3d	compute_nodes	256 4 10	2048 4 10
mst	ComputeMst	64	256
tsp	tsp	256	4096
perimeter	perimeter	5	7"
TAB=$(printf '\t')
echo "$PROGRAMS" | while IFS=$TAB read -r p kernel fits spills; do
    # shellcheck disable=SC2086
    "$TPA_CC" $TPA_CFLAGS -DTORONTO $TPA_NOINLINE -I"$HERE" "$O/$p/src/"*.c "$HERE/flush.c" -lm -o "$O/$p/$p" ||
        die "$p: compile failed"
    tpa_has_symbol "$O/$p/$p" "$kernel"
done || exit 2
{
    echo "# Olden (validation/thirdparty/olden.sh $SRC): sequential (TORONTO) versions."
    for size in fits spills; do
        echo "$PROGRAMS" | while IFS=$TAB read -r p kernel fits spills; do
            args=$fits
            [ "$size" = spills ] && args=$spills
            printf '%s.%s\t%s\t%s\t%s\ttime=trace\n' "$size" "$p" "$O/$p/$p" "$args" "$kernel"
        done
    done
} >"$OUT/olden.tsv"
echo "olden.sh: built em3d, mst, tsp, perimeter in $O, list $OUT/olden.tsv"
