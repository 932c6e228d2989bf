#!/bin/sh
# npb.sh: builds three NAS Parallel Benchmarks 3.0 kernels from the OpenMP C port (public repository
# edeiana/NPB3.0-omp-C), compiled without OpenMP, as static RISC-V programs for the timing model's
# validation against gem5, and their list.
#
#   sh validation/thirdparty/npb.sh SRC_DIR OUT_DIR
#
# SRC_DIR is the port's checkout (CG/cg.c, IS/is.c, MG/mg.c, common/), only read. Writes OUT_DIR/npb/
# (patched copies of the sources, one binary per program and size: NPB fixes its sizes at compile
# time) and OUT_DIR/npb.tsv, a list in validation/sweep.py's format: fits.npb-K and spills.npb-K for
# CG (sparse conjugate gradient, kernel conj_grad), IS (integer bucket sort, rank) and MG (multigrid
# V-cycle, mg3P).
#
# Built with riscv64-linux-gnu-gcc -O3 -g -static and inlining and interprocedural clones turned off
# (the PolyBench build's flags), so each kernel keeps its symbol for edan's --filter. npbparams.h is
# written here (NPB's setparams knows only the classes S..C, all far beyond gem5's budget) with
# small sizes and one timed iteration; the programs then report their class as U and skip or fail
# their verification (they still exit with status 0). Patches (on the copies, each checked to
# match one line): the untimed warm-up call of the kernel is removed (edan's --filter would trace
# it too), and the timed call is wrapped in kernel_timer.h's EDAN_KERNEL_BEGIN/END: flush.c's
# edan_validation_flush() just before the kernel, and the kernel's seconds (clock_gettime, 9
# decimals) on a line of its own after it (time=output).
# Sizes (GRAPH-SPARSE.md): "fits" keeps the kernel's data within the 256 KiB L2 of
# machines/gem5-validation.ini, "spills" puts it 1.5-8x beyond.
#
# Environment: CC [riscv64-linux-gnu-gcc], EXTRA_CFLAGS (added to the flags; validation/native.py's
# x86-64 build gives -DEDAN_KERNEL_CLOCK=CLOCK_THREAD_CPUTIME_ID). Errors: a message and exit status 2.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=validation/thirdparty/common.sh
. "$HERE/common.sh"

[ $# -eq 2 ] || die "usage: sh validation/thirdparty/npb.sh SRC_DIR OUT_DIR"
SRC=$1
OUT=$2
CC=${CC:-riscv64-linux-gnu-gcc}

for f in CG/cg.c IS/is.c MG/mg.c MG/globals.h common/npb-C.h common/c_print_results.c \
    common/c_randdp.c common/c_timers.c common/wtime.c common/wtime.h; do
    [ -f "$SRC/$f" ] || die "$SRC: not an NPB 3.0 OpenMP C checkout (no $f)"
done
for f in flush.c kernel_timer.h; do
    [ -f "$HERE/$f" ] || die "$HERE/$f: missing"
done
command -v "$CC" >/dev/null 2>&1 || die "$CC: not found (set CC)"

mkdir -p "$OUT/npb" || die "$OUT: cannot create npb/"
OUT=$(cd "$OUT" && pwd)
N=$OUT/npb
rm -rf "$N/src"
mkdir -p "$N/src" "$N/obj"
for d in CG IS MG common; do
    cp -R "$SRC/$d" "$N/src/$d" || die "$SRC/$d: cannot copy"
done



# CG: the first, untimed conj_grad call (a loop of one iteration) is skipped; the timed one wrapped.
F=$N/src/CG/cg.c
edit "$F" '^#include "npbparams.h"$' '&\n#include "kernel_timer.h"'
edit "$F" '^    for (it = 1; it <= 1; it++) {$' '    for (it = 1; it <= 0; it++) { /* edan: no untimed warm-up */'
edit "$F" '^	conj_grad(colidx, rowstr, x, z, a, p, q, r/\*, w\*/, &rnorm);$' \
    '	{ EDAN_KERNEL_BEGIN\n&\n	EDAN_KERNEL_END }'
# IS: one timed iteration (MAX_ITERATIONS), no untimed rank(1) before it; the timed call wrapped.
F=$N/src/IS/is.c
edit "$F" '^#include "npbparams.h"$' '&\n#include "kernel_timer.h"'
edit "$F" '^#define  MAX_ITERATIONS      10$' '#define  MAX_ITERATIONS      1'
edit "$F" '^    rank( 1 ); *$' '    /* edan: no untimed warm-up rank( 1 ) */'
edit "$F" '^        rank( iteration );$' '        { EDAN_KERNEL_BEGIN\n&\n        EDAN_KERNEL_END }'
# MG: the start-up mg3P (before the timed region's re-initialisation) removed; the timed one wrapped.
F=$N/src/MG/mg.c
edit "$F" '^#include "globals.h"$' '&\n#include "kernel_timer.h"'
edit "$F" '^    mg3P(u,v,r,a,c,n1,n2,n3,lt);$' '    /* edan: no untimed start-up mg3P */'
edit "$F" '^	mg3P(u,v,r,a,c,n1,n2,n3,lt);$' '	{ EDAN_KERNEL_BEGIN\n&\n	EDAN_KERNEL_END }'

FLAGS="-O3 -g -fno-inline-functions -fno-inline-small-functions -fno-inline-functions-called-once -fno-ipa-cp -fno-ipa-sra -fno-ipa-icf ${EXTRA_CFLAGS:-}"
# shellcheck disable=SC2086
"$CC" $FLAGS -c "$HERE/flush.c" -o "$N/obj/flush.o" || die "flush.c: compile failed"
for c in c_print_results c_randdp c_timers wtime; do
    # shellcheck disable=SC2086
    "$CC" $FLAGS -w -c "$N/src/common/$c.c" -o "$N/obj/$c.o" || die "common/$c.c: compile failed"
done

COMMON_PARAMS='#define COMPILETIME "edan validation"
#define NPBVERSION "3.0 structured"
#define CONVERTDOUBLE FALSE
#define CS1 "'$CC'"
#define CS2 "'$CC'"
#define CS3 "-lm"
#define CS4 ""
#define CS5 "'$FLAGS'"
#define CS6 "-static"
#define CS7 "randdp"
#define CC CS1
#define CLINK CS2
#define C_LIB CS3
#define C_INC CS4
#define CFLAGS CS5
#define CLINKFLAGS CS6'

# params BENCH SIZE: npbparams.h's sizes (GRAPH-SPARSE.md gives the data bytes they come to)
params() {
    case $1.$2 in
    cg.fits) echo '#define NA 400
#define NONZER 4' ;;
    cg.spills) echo '#define NA 1000
#define NONZER 6' ;;
    is.fits) echo '#define TOTAL_KEYS_LOG_2 14
#define MAX_KEY_LOG_2 12' ;;
    is.spills) echo '#define TOTAL_KEYS_LOG_2 16
#define MAX_KEY_LOG_2 15' ;;
    mg.fits) echo '#define NX_DEFAULT 16
#define LM 4' ;;
    mg.spills) echo '#define NX_DEFAULT 32
#define LM 5' ;;
    *) die "no sizes for $1.$2" ;;
    esac
    case $1 in
    cg) echo '#define NITER 1
#define SHIFT 10.0
#define RCOND 1.0e-1' ;;
    is) echo "#define CLASS 'U'
#define NUM_BUCKETS_LOG_2 9" ;;
    mg) echo '#define NY_DEFAULT NX_DEFAULT
#define NZ_DEFAULT NX_DEFAULT
#define NIT_DEFAULT 1
#define LT_DEFAULT LM
#define DEBUG_DEFAULT 0
#define NDIM1 LM
#define NDIM2 LM
#define NDIM3 LM' ;;
    esac
}

: >"$OUT/npb.tsv.tmp"
echo "# NAS Parallel Benchmarks 3.0 C (validation/thirdparty/npb.sh $SRC), binaries in $N." >>"$OUT/npb.tsv.tmp"
for size in fits spills; do
    for b in cg is mg; do
        B=$(echo "$b" | tr '[:lower:]' '[:upper:]')
        dir=$N/$size/$B
        mkdir -p "$dir"
        {
            echo "/* npbparams.h written by validation/thirdparty/npb.sh ($size) */"
            params "$b" "$size"
            echo "$COMMON_PARAMS"
        } >"$dir/npbparams.h"
        objs="$N/obj/c_print_results.o $N/obj/c_timers.o $N/obj/wtime.o $N/obj/flush.o"
        [ "$b" = is ] || objs="$objs $N/obj/c_randdp.o"
        # shellcheck disable=SC2086
        "$CC" $FLAGS -w -static -I"$dir" -I"$HERE" -I"$N/src/common" -I"$N/src/$B" "$N/src/$B/$b.c" $objs -lm \
            -o "$N/$size/$b" || die "$B ($size): compile failed"
        case $b in
        cg) kernel=conj_grad ;;
        is) kernel=rank ;;
        mg) kernel=mg3P ;;
        esac
        printf '%s.npb-%s\t%s\t%s\ttime=output\n' "$size" "$b" "$N/$size/$b" "$kernel" >>"$OUT/npb.tsv.tmp"
    done
done
mv "$OUT/npb.tsv.tmp" "$OUT/npb.tsv"
echo "npb.sh: built CG, IS and MG in $N, list $OUT/npb.tsv"
