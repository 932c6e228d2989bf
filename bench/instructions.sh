#!/bin/sh
# Instructions the analyzer and the trace reader execute per traced instruction,
# counted by callgrind: deterministic, so unlike wall time it is not disturbed
# by a busy machine. One thread (--threads=1): the count is the work of a pass,
# however a sweep's lanes are split among threads.
# usage: bench/instructions.sh [BUILD_DIR [TRACE...]]
#   without traces: a trace of cg 6 10 recorded here (make bench-instructions)
set -eu
B=$(cd "${1:-build}" && pwd)
[ $# -gt 0 ] && shift
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if [ $# -eq 0 ]; then
    "$B/edan" record --filter=cg_solve -o "$T/cg.edt" "$B/bench/cg" 6 10 > /dev/null
    set -- "$T/cg.edt"
fi
SWEEP=$(cd "$(dirname "$0")" && python3 -c "from benchlib import SWEEP; print(SWEEP)")
for trace in "$@"; do
    [ "$trace" = "$T/cg.edt" ] || echo "$trace"
    N=$("$B/edan" analyze "$trace" | awk '/vertices/ {print $3}')
    for cfg in none 32K "$SWEEP"; do
        valgrind --tool=callgrind --callgrind-out-file="$T/cg.out" "$B/edan" analyze --threads=1 --cache="$cfg" \
            "$trace" > /dev/null 2>&1
        callgrind_annotate "$T/cg.out" 2>/dev/null | awk -v n="$N" -v cfg="$cfg" '
            /PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
            /trace_decode.c:decode_(events|fast)/ && !/=>/ { gsub(",", "", $1); reader += $1 }
            END { printf "cache %-12.12s %6.1f instructions per traced instruction (%.1f in the trace reader)\n",
                  cfg, total / n, reader / n }'
    done
done
