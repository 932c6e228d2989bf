#!/bin/sh
# Install the Debian 12 packages edan needs, only those that are missing.
set -eu
PKGS="build-essential make cmake pkg-config python3 python3-jsonschema qemu-user gcc-riscv64-linux-gnu g++-riscv64-linux-gnu libc6-dev-riscv64-cross
      binutils-riscv64-linux-gnu libzstd-dev libelf-dev libdw-dev libinih-dev libiberty-dev zstd clang clang-format gnuplot-nox graphviz valgrind chromium slurm-wlm munge
      man-db groff-base libcapstone-dev gcc-aarch64-linux-gnu libc6-dev-arm64-cross libc6-dbg"
missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "edan: missing Debian packages:$missing (run as root, or: sudo apt-get install$missing)" >&2
        exit 1
    fi
    echo "edan: installing$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
