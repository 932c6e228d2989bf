#!/bin/sh
# The locality tools' reports of two builds on the same inputs, byte for byte: `edan analyze` with --reuse,
# --footprint, --classes and --zoom (text, JSON and every CSV table, several streams, blocks and samples) and
# `edan locality` on traces of six examples and four benchmark kernels, and `edan run` with them on three
# examples. Prints the commands whose output differs, then a count.
#   usage: bench/compare_locality.sh BUILD_A BUILD_B
set -eu
A=$(cd "$1" && pwd)
B=$(cd "$2" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
run() { env -i PATH=/usr/bin:/bin "$@"; }
# the traces, recorded once by BUILD_A (the trace format is the same for both)
run "$A/edan" record -o "$T/spmv.edt" "$A/examples/spmv" 2000 > /dev/null
run "$A/edan" record -o "$T/chase.edt" "$A/examples/pointer_chase" 3000 > /dev/null
run "$A/edan" record -o "$T/list.edt" "$A/examples/linked_list" 3000 > /dev/null
run "$A/edan" record -o "$T/matmul.edt" "$A/examples/matmul" 24 > /dev/null
run "$A/edan" record -o "$T/stream.edt" "$A/examples/stream" 5000 > /dev/null
run "$A/edan" record -o "$T/trmm.edt" "$A/examples/trmm" 40 > /dev/null
run "$A/edan" record --filter=cg_solve -o "$T/cg.edt" "$A/bench/cg" 8 3 > /dev/null
run "$A/edan" record --filter=hydro_step_loop -o "$T/hydro.edt" "$A/bench/hydro" 8 2 > /dev/null
run "$A/edan" record --filter=chase -o "$T/bchase.edt" "$A/bench/chase" 65536 300000 > /dev/null
run "$A/edan" record --filter=triad -o "$T/bstream.edt" "$A/bench/stream" 20000 3 > /dev/null
i=0 same=0 diff=0
compare() { # one command's arguments, run with both builds in directories of their own (CSV files land there)
    i=$((i + 1))
    for side in a b; do
        rm -rf "$T/$side" && mkdir "$T/$side"
        exe=$A/edan && [ $side = b ] && exe=$B/edan
        (cd "$T/$side" && run "$exe" "$@" > out 2> err) || true
    done
    if diff -r "$T/a" "$T/b" > /dev/null; then
        same=$((same + 1))
    else
        diff=$((diff + 1))
        echo "differs: edan $*"
    fi
}
for tr in spmv chase list matmul stream trmm cg hydro bchase bstream; do
    for opts in "--reuse --footprint --classes --zoom" "--json --reuse --footprint --classes --zoom --csv-dir=." \
        "--json --reuse --reuse-stream=loads --reuse-sample=0.1 --footprint" \
        "--json --reuse --reuse-stream=all --reuse-block=4096 --reuse-sizes=4K,64K" \
        "--json --reuse --reuse-block=1 --zoom --heap-end=0x3000000000" "--json --reuse --reuse-block=8 --classes"; do
        # shellcheck disable=SC2086
        compare analyze $opts "$T/$tr.edt"
    done
    compare locality --json "$T/$tr.edt"
    compare locality "$T/$tr.edt"
done
for prog in "spmv 500" "pointer_chase 500" "matmul 12"; do
    # shellcheck disable=SC2086
    compare run --json --reuse --footprint --classes --zoom "$A/examples/"$prog
    # shellcheck disable=SC2086
    compare run --json --filter=kernel --reuse --footprint --classes "$A/examples/"$prog
done
echo "$same of $i reports identical, $diff differ"
