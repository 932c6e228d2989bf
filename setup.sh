#!/bin/sh
# edan's two set-up commands (see README):
#   sh setup.sh demo   install missing Debian packages, build everything, analyse a bundled example
#   sh setup.sh test   the same install and build, then every test (normal and ASan/UBSan builds)
set -eu
cd "$(dirname "$0")"
sh scripts/install-deps.sh
case "${1:-demo}" in
    demo) exec make demo ;;
    test) exec make test ;;
    *) echo "usage: sh setup.sh demo|test" >&2; exit 2 ;;
esac
