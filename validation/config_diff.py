#!/usr/bin/env python3
# Key-by-key difference of two gem5 config.ini files (the system gem5 instantiated), e.g. to check
# that validation/gem5_machine.py builds the same system as another configuration script:
#
#   gem5.opt -q --outdir=A validation/gem5_machine.py --machine machines/gem5-validation.ini -- BIN
#   gem5.opt -q --outdir=B validation/gem5_latency.py --latency 50 -- BIN
#   python3 validation/config_diff.py A/config.ini B/config.ini
#
# Prints one line per object or parameter present in one file only or with different values, and
# "same system" when there is none. Exit status 0 when the same, 1 when different, 2 on an error.
import configparser
import sys


def load(path):
    cp = configparser.RawConfigParser(strict=False, interpolation=None, delimiters=("=",))
    cp.optionxform = str
    try:
        with open(path, encoding="utf-8") as f:
            cp.read_file(f)
    except (OSError, configparser.Error) as e:
        sys.stderr.write("config_diff.py: %s: %s\n" % (path, e))
        sys.exit(2)
    return {s: dict(cp[s]) for s in cp.sections()}


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: config_diff.py A/config.ini B/config.ini\n")
        return 2
    a, b = load(argv[0]), load(argv[1])
    diffs = []
    for s in sorted(set(a) | set(b)):
        if s not in b:
            diffs.append("[%s] only in %s" % (s, argv[0]))
            continue
        if s not in a:
            diffs.append("[%s] only in %s" % (s, argv[1]))
            continue
        for k in sorted(set(a[s]) | set(b[s])):
            va, vb = a[s].get(k), b[s].get(k)
            if va != vb:
                diffs.append("[%s] %s: %s | %s" % (s, k, "(absent)" if va is None else va,
                                                   "(absent)" if vb is None else vb))
    print("\n".join(diffs) if diffs else "same system")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
