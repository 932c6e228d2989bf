#!/bin/sh
# Rewrite the golden reports (tests/golden/reports) with BUILD's edan, for a change of the reports that is
# intended; review the diff before committing it.   usage: tests/golden/update.sh [BUILD_DIR]
set -eu
SRC=$(cd "$(dirname "$0")/../.." && pwd)
python3 "$SRC/tests/golden_report_test.py" "${1:-$SRC/build}" "$SRC" --update
# and edan annotate's golden listing (tests/golden/annotate)
EDAN_UPDATE_GOLDEN=1 python3 "$SRC/tests/cli_test.py" "${1:-$SRC/build}" annotate
