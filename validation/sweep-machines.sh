#!/bin/sh
# gem5's side of issue 38's four-machine validation, in the order that gives usable tables soonest:
# the 58 programs without PolyBench L2X (DIR/core.tsv) on each machine at 50 and 300 ns, then all 85
# (DIR/all.tsv: core.tsv's, then the L2X kernels) on each, then 100 and 200 ns on the validation
# machine. Both lists are validation/thirdparty/build.sh's (it writes them beside programs.tsv). Each step is one validation/sweep.py --no-edan run into
# DIR/results-MACHINE.json; a rerun runs only what is missing (results are keyed by the binaries'
# digests), so the script can be stopped and started again at any time.
#
#   sh validation/sweep-machines.sh DIR GEM5
#
# DIR: build.sh's output directory; results-MACHINE.json and sweep.log go there (a log line "=== HH:MM MACHINE LIST LATENCIES" per
# step). GEM5: gem5.opt; while validation/build-gem5.sh is still building it, the script waits.
# Meant to run detached and niced: setsid nohup nice -n 19 sh validation/sweep-machines.sh ... &
# Under Linux's autogroup scheduling (/proc/sys/kernel/sched_autogroup_enabled = 1) setsid makes a new
# group that competes with every other as an equal whatever its nice value, so a sweep niced 19 still
# takes half the CPUs from a benchmark run beside it; the script lowers its own group to nice 19
# (/proc/self/autogroup, inherited by gem5) where the kernel has one.
# Errors (missing arguments or lists): a message and exit status 2.
set -u
die() {
    echo "sweep-machines.sh: $*" >&2
    exit 2
}
[ $# -eq 2 ] || die "usage: sh validation/sweep-machines.sh DIR GEM5"
DIR=$1 GEM5=$2
CORE=$DIR/core.tsv ALL=$DIR/all.tsv
for l in "$CORE" "$ALL"; do
    [ -f "$l" ] || die "$l: no program list (validation/thirdparty/build.sh DIR writes it)"
done
HERE=$(cd "$(dirname "$0")" && pwd)
if [ -w /proc/self/autogroup ]; then echo 19 >/proc/self/autogroup 2>/dev/null || true; fi
MACHINES="gem5-validation gem5-validation-stride gem5-validation-narrow gem5-validation-ddr4"

while [ ! -x "$GEM5" ] || pgrep -f build-gem5.sh >/dev/null; do sleep 60; done

step() { # MACHINE LIST LATENCIES
    echo "=== $(date -u +%H:%M) $1 $2 $3" >>"$DIR/sweep.log"
    python3 "$HERE/sweep.py" --gem5 "$GEM5" --no-edan -j 2 --timeout 7200 --machine "$HERE/../machines/$1.ini" \
        --latencies "$3" --results "$DIR/results-$1.json" "$2" >>"$DIR/sweep.log" 2>&1
}
for m in $MACHINES; do step "$m" "$CORE" 50,300; done
for m in $MACHINES; do step "$m" "$ALL" 50,300; done
step gem5-validation "$ALL" 100,200
echo "=== $(date -u +%H:%M) done" >>"$DIR/sweep.log"
