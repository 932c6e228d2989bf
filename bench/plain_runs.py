#!/usr/bin/env python3
"""Lengths of the runs of instructions without memory access in a text trace
(`edan convert TRACE.edt TRACE.txt`): a run ends at a memory access or at a
branch, jump or return, which ends its block. It tells what summarising such
runs once (a max-plus map from the registers they read to those they write)
could save per record.

usage: plain_runs.py TEXT_TRACE [MAX_RECORDS]
"""
import collections
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else None
    runs, cur, plain, total = collections.Counter(), 0, 0, 0
    with open(sys.argv[1]) as f:
        for line in f:
            fields = line.rstrip("\n").split(";")
            if len(fields) < 2:
                continue
            total += 1
            op = fields[1].split()[0]
            if len(fields) > 2:  # an address: a memory access
                if cur:
                    runs[cur] += 1
                cur = 0
            else:
                plain += 1
                cur += 1
                if op[0] == "b" or op.startswith("j") or op == "ret":
                    runs[cur] += 1
                    cur = 0
            if limit and total >= limit:
                break
    if cur:
        runs[cur] += 1
    n = sum(runs.values())
    in_runs = sum(k * v for k, v in runs.items())
    print(f"{total} records, {plain} without memory access, {n} runs of mean length {in_runs / max(n, 1):.2f}; "
          f"records in runs of 2 or more: {sum(k * v for k, v in runs.items() if k >= 2) / max(total, 1):.2f}")


if __name__ == "__main__":
    main()
