#!/bin/sh
# Build gem5 v22.1 (RISC-V, build/RISCV/gem5.opt) on Debian 12, the simulator `make validate`
# compares edan with.
#
#   sh validation/build-gem5.sh GEM5_SOURCE_DIR [JOBS]
#
# GEM5_SOURCE_DIR: a checkout of gem5 v22.1.0.0, e.g. of the repository the EDAN paper used
# (ss16118/sc23-edan-gem5, tag or branch at "misc: Merge the v22.1 release staging into stable").
# JOBS: scons jobs [nproc]. About 1.5-2 hours on 2 cores; run it once, outside the repository, and
# point make validate at the result: make validate GEM5=GEM5_SOURCE_DIR/build/RISCV/gem5.opt
# (the default GEM5 is /opt/gem5src/build/RISCV/gem5.opt).
# Stopping it: interrupt (Ctrl-C, SIGINT) rather than kill. scons records what it has built only when
# it exits (build/RISCV/gem5.build/sconsign.dblite); a killed build compiles the same objects again
# when rerun.
#
# gem5 v22.1 predates Python 3.11, Debian 12's Python; three changes make it build, each checked so
# that a different gem5 fails here rather than later:
#   1. pybind11: the bundled copy does not compile against Python 3.11; Debian's pybind11-dev is used.
#   2. PLY: Python 3.11 refuses a global (?m) flag in the middle of a regular expression, and PLY
#      joins every token's expression into one; the (?m) of three token rules is dropped and
#      MULTILINE made PLY's default flag instead (same matching).
#   3. inspect.getargspec is gone in Python 3.11: getfullargspec, whose first four fields are the same.
# Errors: a message and exit status 2. Installs missing Debian packages (needs root).
set -eu

die() {
    echo "build-gem5.sh: $*" >&2
    exit 2
}

[ $# -ge 1 ] || die "usage: sh validation/build-gem5.sh GEM5_SOURCE_DIR [JOBS]"
SRC=$1
JOBS=${2:-$(nproc)}
[ -f "$SRC/SConstruct" ] && [ -d "$SRC/src/arch/riscv" ] || die "$SRC: not a gem5 source tree (no SConstruct or src/arch/riscv)"
grep -q '22\.1' "$SRC/src/base/version.cc" 2>/dev/null || die "$SRC/src/base/version.cc: not gem5 v22.1"
# the build embeds the top-level COPYING and LICENSE (m5.info): a checkout of only src/ and friends fails
# after half an hour without them
for f in COPYING LICENSE; do
    [ -f "$SRC/$f" ] || die "$SRC/$f: missing (check out the whole tree, or at least its top-level files)"
done

PKGS="scons libprotobuf-dev protobuf-compiler libgoogle-perftools-dev python3-dev m4 zlib1g-dev libpng-dev pybind11-dev g++"
MISSING=
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || MISSING="$MISSING $p"
done
if [ -n "$MISSING" ]; then
    echo "build-gem5.sh: installing$MISSING"
    apt-get install -y $MISSING >/dev/null || die "apt-get install$MISSING failed"
fi

cd "$SRC"

# replace FILE OLD NEW: OLD must occur in FILE (or NEW already does: the change was made before)
replace() {
    python3 - "$1" "$2" "$3" <<'EOF' || exit 2
import sys
path, old, new = sys.argv[1:]
text = open(path).read()
if new in text and old not in text:
    sys.exit(0)
if old not in text:
    print(f"build-gem5.sh: {path}: expected text not found: {old!r}", file=sys.stderr)
    sys.exit(2)
open(path, "w").write(text.replace(old, new))
EOF
}

# 1. Debian's pybind11 in place of the bundled one
if [ ! -d ext/pybind11/include.bundled ]; then
    [ -d ext/pybind11/include ] || die "$SRC/ext/pybind11/include: missing"
    mv ext/pybind11/include ext/pybind11/include.bundled
    mkdir ext/pybind11/include
    ln -s /usr/include/pybind11 ext/pybind11/include/pybind11
fi
[ -f ext/pybind11/include/pybind11/pybind11.h ] || die "/usr/include/pybind11/pybind11.h: missing (pybind11-dev)"

# 2. PLY and (?m)
replace src/arch/isa_parser/isa_parser.py "r\"(?m)'([^'])+'\"" "r\"'([^'])+'\""
replace src/arch/isa_parser/isa_parser.py 'r"(?m)\{\{' 'r"\{\{'
replace src/arch/arm/fastmodel/SConscript "r'(?m)\"([^\"])*\"'" "r'\"([^\"])*\"'"
replace ext/ply/ply/lex.py "reflags=int(re.VERBOSE)," "reflags=int(re.VERBOSE | re.MULTILINE),"

# 3. getargspec
replace src/python/m5/SimObject.py "args, varargs, keywords, defaults = inspect.getargspec(func)" \
    "args, varargs, keywords, defaults, *_ = inspect.getfullargspec(func)"

# scons from Debian, with Debian's python3 (not another one first in PATH)
PATH=/usr/bin:/bin scons build/RISCV/gem5.opt -j"$JOBS" --ignore-style || die "scons failed"
[ -x build/RISCV/gem5.opt ] || die "$SRC/build/RISCV/gem5.opt: not built"
echo "build-gem5.sh: built $SRC/build/RISCV/gem5.opt"
