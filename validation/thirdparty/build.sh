#!/bin/sh
# build.sh: builds the third-party programs of the timing model's validation against gem5
# (docs/accuracy.md, "Programs") and writes their list for `make validate VALIDATION_LIST=...`.
#
#   POLYBENCH=DIR XSBENCH=DIR OLDEN=DIR GAPBS=DIR NPB=DIR [HPCG=DIR] [LULESH=DIR] \
#       sh validation/thirdparty/build.sh OUT_DIR
#
# Each variable names the checkout of one suite (only read); a suite whose variable is unset or empty
# is skipped, with a line saying so. Each suite's script (SUITE.sh SRC_DIR OUT_DIR, in this
# directory) builds its programs under OUT_DIR/SUITE/ and writes OUT_DIR/SUITE.tsv; build.sh then
# writes OUT_DIR/programs.tsv, the lists of the suites built by this run after a comment header, and
# from it the four-machine validation's two lists (docs/accuracy.md): OUT_DIR/core.tsv, its programs
# without PolyBench's L2X kernels, and OUT_DIR/all.tsv, core.tsv's then the L2X kernels.
# HPCG and LULESH (hpcg.sh, lulesh.sh: OUT_DIR/hpcg/xhpcg, OUT_DIR/lulesh/lulesh2.0) are the timing
# model's benchmarks (bench/bench_apps.py), too long for gem5: built when named, never listed.
# Errors (a suite's build failed, no suite given): a message and exit status 2.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=validation/thirdparty/common.sh
. "$HERE/common.sh"


[ $# -eq 1 ] || die "usage: [POLYBENCH=DIR] [XSBENCH=DIR] [OLDEN=DIR] [GAPBS=DIR] [NPB=DIR] [HPCG=DIR] [LULESH=DIR] sh validation/thirdparty/build.sh OUT_DIR"
mkdir -p "$1" || die "$1: cannot create"
OUT=$(cd "$1" && pwd) || die "$1: cannot enter"

built=
for suite in polybench xsbench olden gapbs npb; do
    var=$(echo "$suite" | tr "[:lower:]" "[:upper:]")
    eval "src=\${$var:-}"
    if [ -z "$src" ]; then
        echo "build.sh: $suite skipped ($var is not set)"
        continue
    fi
    if [ ! -f "$HERE/$suite.sh" ]; then
        echo "build.sh: $suite skipped (no $HERE/$suite.sh)"
        continue
    fi
    echo "build.sh: building $suite from $src"
    rm -f "$OUT/$suite.tsv"
    sh "$HERE/$suite.sh" "$src" "$OUT" || die "$suite: $suite.sh $src $OUT failed"
    [ -f "$OUT/$suite.tsv" ] || die "$suite: $suite.sh wrote no $OUT/$suite.tsv"
    built="$built $suite"
done
apps=
for app in hpcg lulesh; do
    var=$(echo "$app" | tr "[:lower:]" "[:upper:]")
    eval "src=\${$var:-}"
    [ -n "$src" ] || continue
    echo "build.sh: building $app from $src"
    sh "$HERE/$app.sh" "$src" "$OUT" || die "$app: $app.sh $src $OUT failed"
    apps="$apps $app"
done
if [ -z "$built" ]; then
    [ -n "$apps" ] || die "no suite built: set at least one of POLYBENCH, XSBENCH, OLDEN, GAPBS, NPB, HPCG, LULESH"
    echo "build.sh: built$apps; no validation suite, so no $OUT/programs.tsv"
    exit 0
fi

{
    echo "# Third-party programs for validation/sweep.py, built by validation/thirdparty/build.sh"
    echo "# (suites:$built). Names: fits.NAME keeps the kernel's data within the 256 KiB L2 of"
    echo "# machines/gem5-validation.ini, spills.NAME puts it beyond. Binaries are absolute paths."
    for suite in $built; do
        cat "$OUT/$suite.tsv"
    done
} >"$OUT/programs.tsv.tmp" || die "$OUT/programs.tsv: cannot write"
mv "$OUT/programs.tsv.tmp" "$OUT/programs.tsv" || die "$OUT/programs.tsv: cannot write"
echo "build.sh: $(grep -vc '^#' "$OUT/programs.tsv") programs ($built ) in $OUT/programs.tsv"
# the four-machine validation's lists (validation/sweep-machines.sh, docs/accuracy.md)
grep -v '/polybench/l2x/' "$OUT/programs.tsv" >"$OUT/core.tsv" || die "$OUT/core.tsv: cannot write"
{ cat "$OUT/core.tsv" && grep '/polybench/l2x/' "$OUT/programs.tsv" || true; } >"$OUT/all.tsv" ||
    die "$OUT/all.tsv: cannot write"
echo "build.sh: $(grep -vc '^#' "$OUT/core.tsv") of them in $OUT/core.tsv, $(grep -vc '^#' "$OUT/all.tsv") in $OUT/all.tsv"
