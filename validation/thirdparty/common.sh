# common.sh: shell functions shared by the suite scripts of validation/thirdparty/ (sourced, not run).
# Sets TPA_CC, TPA_CXX and TPA_NM (riscv64-linux-gnu-gcc, -g++ and -nm unless CC, CXX and NM say
# otherwise), TPA_CFLAGS
# (the flags every validation program is built with, and EXTRA_CFLAGS) and TPA_NOINLINE (PolyBench's and Olden's).

# shellcheck disable=SC2034 # used by the scripts that source this file
TPA_CC=${CC:-riscv64-linux-gnu-gcc}
TPA_CXX=${CXX:-riscv64-linux-gnu-g++}
TPA_CFLAGS="-O3 -g -static ${EXTRA_CFLAGS:-}"
TPA_NM=${NM:-riscv64-linux-gnu-nm}
# Inlining and interprocedural clones off, so a kernel and the functions it calls keep their own
# symbols (edan's --filter, gem5's commit trace) and their own code.
TPA_NOINLINE="-fno-inline-functions -fno-inline-small-functions -fno-inline-functions-called-once
 -fno-ipa-cp -fno-ipa-sra -fno-ipa-icf"

# die MESSAGE: the message, prefixed with the script's name, on stderr; exit status 2.
die() {
    echo "${0##*/}: $*" >&2
    exit 2
}

# tpa_check_cc: the compiler and nm exist.
tpa_check_cc() {
    command -v "$TPA_CC" >/dev/null 2>&1 || die "$TPA_CC: not found (install gcc-riscv64-linux-gnu or set CC)"
    command -v "$TPA_NM" >/dev/null 2>&1 || die "$TPA_NM: not found (binutils-riscv64-linux-gnu, or set NM)"
}

# tpa_check_cxx: the C++ compiler and nm exist (HPCG, LULESH).
tpa_check_cxx() {
    command -v "$TPA_CXX" >/dev/null 2>&1 || die "$TPA_CXX: not found (install g++-riscv64-linux-gnu or set CXX)"
    command -v "$TPA_NM" >/dev/null 2>&1 || die "$TPA_NM: not found (binutils-riscv64-linux-gnu, or set NM)"
}

# tpa_outdir DIR SUITE: creates DIR/SUITE and prints DIR as an absolute path (the lists name absolute
# binaries, so they work from any directory).
tpa_outdir() {
    mkdir -p "$1/$2" || die "$1/$2: cannot create"
    (cd "$1" && pwd) || die "$1: cannot enter"
}

# edit FILE PATTERN REPLACEMENT: sed 's|PATTERN|REPLACEMENT|' on FILE (a copy in the output
# directory, never the checkout). PATTERN must match exactly one line: a different upstream version
# fails here, loudly, instead of building an unpatched program.
edit() {
    n=$(grep -c -- "$2" "$1" || true)
    [ "$n" = 1 ] || die "$1: '$2' matches $n lines, expected 1 (a different upstream version?)"
    sed "s|$2|$3|" "$1" >"$1.tmp" && mv "$1.tmp" "$1" || die "$1: sed failed"
}

# tpa_has_symbol BINARY FUNCTION: BINARY defines FUNCTION (local or global), so edan's --filter and
# the gem5 commit trace find it; a kernel the compiler inlined fails here.
tpa_has_symbol() {
    "$TPA_NM" "$1" 2>/dev/null | grep -q " [Tt] $2\$" || die "$1: no function $2 (inlined?)"
}

# tpa_has_cxx_symbol BINARY FUNCTION: as tpa_has_symbol for a C++ function, by its plain name (the
# name edan's --filter takes), whatever its parameters.
tpa_has_cxx_symbol() {
    "$TPA_NM" -C "$1" 2>/dev/null | grep -q " [Tt] $2(" || die "$1: no function $2 (inlined?)"
}
