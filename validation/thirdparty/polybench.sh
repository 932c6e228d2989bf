#!/bin/sh
# polybench.sh: builds PolyBench/C 4.2.1's 30 kernels (the public release; any checkout of
# MatthiasJReisinger/PolyBenchC-4.2.1) as static RISC-V programs at two sizes for the timing model's
# validation against gem5, and their list.
#
#   sh validation/thirdparty/polybench.sh SRC_DIR OUT_DIR
#
# SRC_DIR is the checkout (utilities/polybench.c, linear-algebra/...), only read. Writes
# OUT_DIR/polybench/ (the patched timer file, mini/NAME and l2x/NAME) and OUT_DIR/polybench.tsv, a
# list in validation/sweep.py's format: fits.NAME (MINI, 30 kernels: each kernel's data within the
# 64 KiB L1d) and spills.NAME (L2X, 27 kernels: kernel data 1.4-3.9x the 256 KiB L2), the kernel
# function kernel_NAME, time=output (the time PolyBench's timer prints).
#
# Built with -O3 -g -static -DPOLYBENCH_TIME and inlining and interprocedural clones turned off, so
# each kernel_* function keeps its symbol for edan's --filter. Three patches to the copy of
# utilities/polybench.c (each checked to match): the timer reads clock_gettime (ns) instead of
# gettimeofday (us) and counts from its first reading; the time is printed with 9 decimals; the
# cache flush before the timer reads 1 MiB (4x the L2) instead of 32 MiB.
#
# Environment: CC [riscv64-linux-gnu-gcc], NM [riscv64-linux-gnu-nm], EXTRA_CFLAGS (more flags;
# -DPOLYBENCH_CLOCK=CLOCK_THREAD_CPUTIME_ID times the thread's CPU time: make validate-native).
# Errors: a message and exit status 2.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=validation/thirdparty/common.sh
. "$HERE/common.sh"

[ $# -eq 2 ] || die "usage: sh validation/thirdparty/polybench.sh SRC_DIR OUT_DIR"
SRC=$1
[ -f "$SRC/utilities/polybench.c" ] && [ -f "$SRC/utilities/polybench.h" ] ||
    die "$SRC: not a PolyBench/C checkout (no utilities/polybench.c)"
tpa_check_cc
OUT=$(tpa_outdir "$2" polybench)
P=$OUT/polybench
mkdir -p "$P/utilities" "$P/mini" "$P/l2x" || die "$P: cannot create"
cp "$SRC/utilities/polybench.c" "$SRC/utilities/polybench.h" "$P/utilities/" ||
    die "$SRC/utilities: cannot copy polybench.c, polybench.h"

# The timer: clock_gettime instead of gettimeofday. gem5 returns its simulated time plus 10^9 s
# ("since the epoch"), where a double's seconds are multiples of 2^-23 s (119 ns), so the time
# counts from the timer's first reading (polybench_t_base) and keeps ns resolution.
T=$P/utilities/polybench.c
edit "$T" '^double polybench_t_start, polybench_t_end;$' \
    'double polybench_t_start, polybench_t_end;\nstatic time_t polybench_t_base = -1; /* edan: seconds of the first reading */\n#ifndef POLYBENCH_CLOCK\n#define POLYBENCH_CLOCK CLOCK_MONOTONIC /* edan: -DPOLYBENCH_CLOCK=CLOCK_THREAD_CPUTIME_ID natively */\n#endif'
edit "$T" '^    struct timeval Tp;$' '    struct timespec Tp;'
edit "$T" '^    stat = gettimeofday (&Tp, NULL);$' '    stat = clock_gettime (POLYBENCH_CLOCK, \&Tp);'
edit "$T" '^      printf ("Error return from gettimeofday: %d", stat);$' \
    '      printf ("Error return from clock_gettime: %d", stat);'
edit "$T" '^    return (Tp.tv_sec + Tp.tv_usec \* 1.0e-6);$' \
    '    if (polybench_t_base == -1)\n      polybench_t_base = Tp.tv_sec;\n    return ((double) (Tp.tv_sec - polybench_t_base) + Tp.tv_nsec * 1.0e-9);'
# Printed with 9 decimals: a MINI kernel runs for microseconds.
edit "$T" '^      printf ("%0.6f\\n", polybench_t_end - polybench_t_start);$' \
    '      printf ("%0.9f\\n", polybench_t_end - polybench_t_start);'
# The flush before the timer: 1 MiB, 4x the L2 of machines/gem5-validation.ini, not 32 MiB (a gem5 run
# would spend minutes flushing).
edit "$T" '^# define POLYBENCH_CACHE_SIZE_KB 32770$' '# define POLYBENCH_CACHE_SIZE_KB 1024'

FLAGS="$TPA_CFLAGS -DPOLYBENCH_TIME $TPA_NOINLINE"

# Kernels: name, directory, and the L2X size as -D macros (a kernel's .h takes them when all its
# dimensions are defined); '-' leaves the kernel out at L2X. L2X is PolyBench's SMALL dataset with
# every spatial dimension doubled and the stencils' time steps (TSTEPS, TMAX) cut to 5, with seven
# exceptions, the sizes of the build docs/accuracy.md's results were measured on (edan's W, D, lambda
# and Lambda of every kernel here equal that table's): trmm M=160 N=200 (doubled, its arrays would
# be 1.03x the L2), syrk N=200 (1.37x), jacobi-1d 2 steps of N=40000 (two vectors: 0.01x), doitgen
# NP=30 (not 60), cholesky N=300, trisolv N=320, deriche SMALL as it is (1.5x). The kernels' data
# (the distinct lines they touch, edan run --footprint) is 1.4x (syrk, trmm) to 3.9x (heat-3d) the
# L2. durbin (vectors only), floyd-warshall and nussinov cannot spill the L2 at a size gem5
# simulates in minutes.
KERNELS="correlation	datamining/correlation	-DM=160 -DN=200
covariance	datamining/covariance	-DM=160 -DN=200
2mm	linear-algebra/kernels/2mm	-DNI=80 -DNJ=100 -DNK=140 -DNL=160
3mm	linear-algebra/kernels/3mm	-DNI=80 -DNJ=100 -DNK=120 -DNL=140 -DNM=160
atax	linear-algebra/kernels/atax	-DM=232 -DN=248
bicg	linear-algebra/kernels/bicg	-DM=232 -DN=248
doitgen	linear-algebra/kernels/doitgen	-DNQ=40 -DNR=50 -DNP=30
mvt	linear-algebra/kernels/mvt	-DN=240
gemm	linear-algebra/blas/gemm	-DNI=120 -DNJ=140 -DNK=160
gemver	linear-algebra/blas/gemver	-DN=240
gesummv	linear-algebra/blas/gesummv	-DN=180
symm	linear-algebra/blas/symm	-DM=120 -DN=160
syr2k	linear-algebra/blas/syr2k	-DM=120 -DN=160
syrk	linear-algebra/blas/syrk	-DM=120 -DN=200
trmm	linear-algebra/blas/trmm	-DM=160 -DN=200
cholesky	linear-algebra/solvers/cholesky	-DN=300
durbin	linear-algebra/solvers/durbin	-
gramschmidt	linear-algebra/solvers/gramschmidt	-DM=120 -DN=160
lu	linear-algebra/solvers/lu	-DN=240
ludcmp	linear-algebra/solvers/ludcmp	-DN=240
trisolv	linear-algebra/solvers/trisolv	-DN=320
deriche	medley/deriche	-DW=192 -DH=128
floyd-warshall	medley/floyd-warshall	-
nussinov	medley/nussinov	-
adi	stencils/adi	-DTSTEPS=5 -DN=120
fdtd-2d	stencils/fdtd-2d	-DTMAX=5 -DNX=120 -DNY=160
heat-3d	stencils/heat-3d	-DTSTEPS=5 -DN=40
jacobi-1d	stencils/jacobi-1d	-DTSTEPS=2 -DN=40000
jacobi-2d	stencils/jacobi-2d	-DTSTEPS=5 -DN=180
seidel-2d	stencils/seidel-2d	-DTSTEPS=5 -DN=240"

# build NAME DIR SIZE-FLAGS OUTPUT
build() {
    [ -f "$SRC/$2/$1.c" ] || die "$SRC/$2/$1.c: not found"
    # shellcheck disable=SC2086
    "$TPA_CC" $FLAGS $3 -I "$P/utilities" -I "$SRC/$2" "$P/utilities/polybench.c" "$SRC/$2/$1.c" \
        -lm -o "$4" || die "$1 ($3): compile failed"
    tpa_has_symbol "$4" "kernel_$(echo "$1" | tr - _)"
}

TAB=$(printf '\t')
{
    echo "# PolyBench/C 4.2.1 (validation/thirdparty/polybench.sh $SRC): fits = MINI, spills = L2X."
    echo "$KERNELS" | while IFS=$TAB read -r name dir l2x; do
        kernel=kernel_$(echo "$name" | tr - _)
        build "$name" "$dir" -DMINI_DATASET "$P/mini/$name"
        printf 'fits.%s\t%s\t%s\ttime=output\n' "$name" "$P/mini/$name" "$kernel"
    done
    echo "$KERNELS" | while IFS=$TAB read -r name dir l2x; do
        [ "$l2x" = - ] && continue
        kernel=kernel_$(echo "$name" | tr - _)
        build "$name" "$dir" "$l2x" "$P/l2x/$name"
        printf 'spills.%s\t%s\t%s\ttime=output\n' "$name" "$P/l2x/$name" "$kernel"
    done
} >"$OUT/polybench.tsv.tmp" || exit 2
mv "$OUT/polybench.tsv.tmp" "$OUT/polybench.tsv"
echo "polybench.sh: built $(grep -c '^fits' "$OUT/polybench.tsv") MINI and $(grep -c '^spills' "$OUT/polybench.tsv") L2X kernels in $P, list $OUT/polybench.tsv"
