#!/bin/sh
# xsbench.sh: builds XSBench (public repository ANL-CESAR/XSBench; its openmp-threading version,
# compiled without OpenMP) as a static RISC-V program for the timing model's validation against
# gem5, and its list.
#
#   sh validation/thirdparty/xsbench.sh SRC_DIR OUT_DIR
#
# SRC_DIR is an XSBench checkout (openmp-threading/Main.c ...), only read. Writes OUT_DIR/xsbench/
# (the patched copy of the sources and the binary xsbench) and OUT_DIR/xsbench.tsv, a list in
# validation/sweep.py's format: fits.xsbench and spills.xsbench, event-based lookups on the nuclide
# grid of XSBench's "small" problem (68 nuclides), kernel run_event_based_simulation, at 60 grid points
# a nuclide (0.2 MB of grid, within the 256 KiB L2 of machines/gem5-validation.ini) and 500 (1.6 MB).
# XSBench prints no kernel time of its own that sweep.py reads, so gem5's time is the kernel's in
# its commit trace (time=trace); it exits with status 1 at these sizes (its checksum table only
# knows the default problems), which the list states (exit=1).
#
# Built with -std=gnu99 -O3 -g -static, without -DOPENMP (serial, no libgomp) and without XSBench's
# -flto (run_event_based_simulation keeps its symbol). One patch to the copy of Main.c (checked to
# match): it calls edan_validation_flush() (flush.c) just before XSBench starts its timer and the
# kernel, so the kernel starts with cold caches in gem5 as in edan's model.
#
# Environment: CC [riscv64-linux-gnu-gcc], NM [riscv64-linux-gnu-nm]. Errors: a message and exit
# status 2.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=validation/thirdparty/common.sh
. "$HERE/common.sh"

[ $# -eq 2 ] || die "usage: sh validation/thirdparty/xsbench.sh SRC_DIR OUT_DIR"
S=$1/openmp-threading
[ -f "$S/Main.c" ] && [ -f "$S/Simulation.c" ] ||
    die "$1: not an XSBench checkout (no openmp-threading/Main.c)"
for f in flush.c kernel_timer.h; do
    [ -f "$HERE/$f" ] || die "$HERE/$f: missing"
done
tpa_check_cc
OUT=$(tpa_outdir "$2" xsbench)
X=$OUT/xsbench
mkdir -p "$X/src" || die "$X/src: cannot create"
cp "$S"/*.c "$S"/*.h "$X/src/" || die "$S: cannot copy the sources"

M=$X/src/Main.c
edit "$M" '^#include "XSbench_header.h"$' \
    '#include "XSbench_header.h"\n#include "kernel_timer.h" /* edan: validation/thirdparty/kernel_timer.h */'
edit "$M" '^			verification = run_event_based_simulation(in, SD, mype);$' \
    '			{ EDAN_KERNEL_BEGIN /* edan: flush, timer */\n&\n			EDAN_KERNEL_END } /* edan: the kernel'"'"'s seconds */'

# shellcheck disable=SC2086
"$TPA_CC" -std=gnu99 $TPA_CFLAGS -I"$HERE" "$X"/src/*.c "$HERE/flush.c" -lm -o "$X/xsbench" ||
    die "xsbench: compile failed"
tpa_has_symbol "$X/xsbench" run_event_based_simulation
tpa_has_symbol "$X/xsbench" edan_validation_flush

# size  grid points a nuclide  lookups (1000: the kernel commits 2.2 M and 2.8 M instructions)
SIZES="fits 60 1000
spills 500 1000"
{
    echo "# XSBench (validation/thirdparty/xsbench.sh $1): event-based, nuclide grid, 68 nuclides."
    echo "$SIZES" | while read -r size g l; do
        printf '%s.xsbench\t%s\t-s small -m event -G nuclide -g %s -l %s\trun_event_based_simulation\ttime=trace\texit=1\n' \
            "$size" "$X/xsbench" "$g" "$l"
    done
} >"$OUT/xsbench.tsv"
echo "xsbench.sh: built $X/xsbench, list $OUT/xsbench.tsv"
