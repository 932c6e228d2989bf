#!/bin/sh
# Reports of two builds on the same inputs, byte for byte: 5 traces x 12 option sets of edan analyze, 3 traces x 5
# of the timing model and 3 examples x 5 option sets of edan run (90 commands), each run with a fixed environment.
# Prints the commands whose report or message differs, then a count.   usage: bench/compare_reports.sh BUILD_A BUILD_B
set -eu
A=$(cd "$1" && pwd)
B=$(cd "$2" && pwd)
SRC=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
run() { env -i PATH=/usr/bin:/bin "$@"; }
# the traces, recorded once by BUILD_A (the trace format is the same for both)
run "$A/edan" record --filter=kernel -o "$T/sum.edt" "$A/examples/sum" 4 > /dev/null
run "$A/edan" record --filter=kernel -o "$T/spmv.edt" "$A/examples/spmv" 300 > /dev/null
run "$A/edan" record -o "$T/chase.edt" "$A/examples/pointer_chase" 200 > /dev/null
cp "$SRC/tests/golden/figure6.txt" "$SRC/tests/golden/summation.txt" "$T/"
i=0 same=0 diff=0
compare() { # one command's arguments, run with both builds
    i=$((i + 1))
    run "$A/edan" "$@" > "$T/a.out" 2> "$T/a.err" || true
    run "$B/edan" "$@" > "$T/b.out" 2> "$T/b.err" || true
    if cmp -s "$T/a.out" "$T/b.out" && cmp -s "$T/a.err" "$T/b.err"; then
        same=$((same + 1))
    else
        diff=$((diff + 1))
        echo "differs: edan $*"
    fi
}
cd "$T" # traces by their names: reports name no temporary directory
for tr in sum.edt spmv.edt chase.edt figure6.txt summation.txt; do
    for opts in "" "--json" "--cache=none;32K --m=1,4,8" "--false-deps --json" "--critical-path" \
        "--critical-path --json --false-deps" "--per-function" "--per-function --json" \
        "--functions=kernel,main --json" "--table --cache=none;32K;64K" \
        "--bytes=line --cache=32K,ways=8,write=back,alloc=yes --json --alpha=100,300" "--tau=1,16 --json"; do
        # shellcheck disable=SC2086
        compare analyze $opts "$tr"
    done
done
# the timing model (--machine): sampled with forced skips (functional warming), sampled by default, exact; a
# machine with prefetchers; several latencies; its per-function and JSON views
M="$SRC/machines"
for tr in sum.edt spmv.edt chase.edt; do
    for opts in "--machine=$M/gem5-validation.ini --mem-latency=50,100,200,300" \
        "--machine=$M/gem5-validation.ini --mem-latency=50,300 --sample-timing=200,100,2000,0 --json" \
        "--machine=$M/gem5-validation.ini --mem-latency=50 --exact --per-function" \
        "--machine=$M/gem5-validation-stride.ini --mem-latency=80,160 --sample-timing=300,0,4000,0" \
        "--machine=$M/zen4-prefetch.ini --mem-latency=100,200,300,400,500,600 --sample-timing=500,200,3000,2"; do
        # shellcheck disable=SC2086
        compare analyze $opts "$tr"
    done
done
for prog in "sum 4" "spmv 300" "pointer_chase 200"; do
    for opts in "" "--json" "--critical-path --json" "--per-function --json" "--cache=none;32K --false-deps"; do
        # shellcheck disable=SC2086
        compare run --filter=kernel $opts "$A/examples/"$prog
    done
done
echo "$same of $i reports identical, $diff differ"
