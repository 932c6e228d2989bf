#!/usr/bin/env python3
"""Memory system calls write (docs/model.md, "Memory the kernel writes"): tests/read_sum.c read()s a file into a
256 KiB buffer (larger than the 32 KiB L1 below, within its 1 MiB L2), readv()s 340 more bytes into two small
buffers, then sums the big one in kernel(). Under the real QEMU with the real plugin, built for RISC-V, x86-64 and
AArch64 (whose system call numbers are the generic table's, as RISC-V's):

- the kernel's loads find the buffer in the L2, as the kernel's copy left it: warm (the default), --filter=kernel's
  L2 misses are 0 and its L1 misses one per line (the sum evicts the L1's lines before it reaches them); --cold,
  which the caches of edan before the kernel's writes were modelled equal for this program (nothing else touches the
  buffer), misses the L2 once per line;
- source.kernel_lines equals a naive count of the 64-byte lines each call wrote, from the buffers and byte counts
  the program prints, and the memory access counts stay the program's own (equal with --cold);
- --no-kernel-writes (as gem5's syscall emulation, which writes around its caches) leaves them out;
- a recorded trace (format version 5) holds the kernel's writes: analyze equals the online run, and record --cold
  (version 3) holds none.

The plugin's other system calls, from the same table of numbers (src/plugin/plugin_syscall.c), on each ISA:
clock_gettime and gettimeofday read edan's clock (examples/clock.c prints it, the same on every ISA), and
exit_group's status is the report's source.program_exit.

usage: syscall_test.py BUILD_DIR CATEGORY   (categories: riscv, x86, aarch64, traces)
"""
import json
import os
import subprocess
import tempfile

from realrun_lib import EDAN, check, edan, run_category

HERE = os.path.dirname(os.path.abspath(__file__))
KIB = 256
CACHE = "--cache=32K,ways=8,write=back,alloc=yes+1M,ways=16,write=back,alloc=yes"
LINES = KIB * 1024 // 64


def build(tmp, cc):
    exe = os.path.join(tmp, "read_sum_" + cc.split("-")[0])
    p = subprocess.run([cc, "-std=c17", "-O2", "-static", "-o", exe, os.path.join(HERE, "read_sum.c")],
                       capture_output=True, text=True)
    check(p.returncode == 0, f"building read_sum.c with {cc}: {p.stderr}")
    data = os.path.join(tmp, "data.bin")
    with open(data, "wb") as f:
        f.write(bytes((i * 7) & 0xFF for i in range(KIB * 1024 + 4096)))
    return exe, data


def naive_lines(output):
    """The 64-byte lines the kernel wrote: each call's [addr, addr + len), counted per call (a line two calls
    write is written twice), from the program's 'write ADDR LEN' lines."""
    n = 0
    for line in output.splitlines():
        if line.startswith("write "):
            _, a, k = line.split()
            a, k = int(a, 16), int(k)
            n += (a + k - 1) // 64 - a // 64 + 1
    return n


def report(*args):
    p = edan(*args)
    check(p.returncode == 0, f"edan {args}: exit {p.returncode}: {p.stderr[-500:]}")
    return json.loads(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 else None, p


def levels(rep):
    return rep["configurations"][0]["cache_levels"]


def kernel_cases(cc):
    with tempfile.TemporaryDirectory() as tmp:
        exe, data = build(tmp, cc)
        run = [exe, data, str(KIB)]
        # the whole program: the lines the kernel wrote, counted apart from the program's accesses
        whole, p = report("run", "--json", CACHE, *run)
        cold, _ = report("run", "--json", "--cold", CACHE, *run)
        if not whole or not cold:
            return
        want = naive_lines(p.stderr + p.stdout)
        got = whole["source"].get("kernel_lines")
        check(want >= LINES and got == want, f"{cc}: source.kernel_lines {got}, a naive count {want}")
        check("kernel_lines" not in cold["source"], f"{cc}: --cold takes no kernel writes: {cold['source']}")
        cw, cc_ = whole["configurations"][0], cold["configurations"][0]
        nocache, _ = report("run", "--json", *run)
        cn = nocache["configurations"][0] if nocache else {}
        check(cw["loads"] == cc_["loads"] == cn.get("loads") and cw["stores"] == cc_["stores"] == cn.get("stores") and
              cn.get("W") == cn.get("loads", -1) + cn.get("stores", -1) + cn.get("atomics", -1) and cw["W"] < cc_["W"],
              f"{cc}: the program's own loads and stores only: {cw['loads']} {cw['stores']} W {cw['W']}, cold "
              f"{cc_['loads']} {cc_['stores']} W {cc_['W']}, no cache {cn}")
        # the kernel's loads: in the L2 as the copy left them, warm; from memory, cold
        warm_k, _ = report("run", "--json", "--filter=kernel", CACHE, *run)
        cold_k, _ = report("run", "--json", "--filter=kernel", "--cold", CACHE, *run)
        if not warm_k or not cold_k:
            return
        wl, cl = levels(warm_k), levels(cold_k)
        # the sum's loads (x86-64: and ret's, a load of the stack, whose line the sum evicts from the L1, and which
        # the L2 holds warm)
        ret = 1 if cc == "gcc" else 0
        loads = warm_k["configurations"][0]["loads"]
        check(loads == LINES * 8 + ret, f"{cc}: kernel's loads {loads}, expected {LINES * 8 + ret}")
        check(wl[0]["misses"] == LINES + ret and wl[1]["misses"] == 0,
              f"{cc}: warm kernel: L1 misses {wl[0]['misses']} (want {LINES + ret}), L2 misses {wl[1]['misses']} "
              "(want 0)")
        check(cl[0]["misses"] == LINES + ret and cl[1]["misses"] == LINES + ret,
              f"{cc}: cold kernel: L1 misses {cl[0]['misses']}, L2 misses {cl[1]['misses']} (want {LINES + ret} each)")
        # --no-kernel-writes (gem5's syscall emulation): the buffer from memory (the stack still warm)
        off_k, _ = report("run", "--json", "--filter=kernel", "--no-kernel-writes", CACHE, *run)
        if off_k:
            ol = levels(off_k)
            check(off_k["source"].get("kernel_lines") == 0 and ol[1]["misses"] == LINES,
                  f"{cc}: --no-kernel-writes: {off_k['source']}, L2 misses {ol[1]['misses']} (want {LINES})")
        check(warm_k["source"].get("kernel_lines") == want,
              f"{cc}: the filtered run took the writes outside the region too: {warm_k['source']}")
        # the text report says it
        t = edan("run", CACHE, *run)
        check(f"kernel      {want} lines written by system calls" in t.stdout, f"{cc}: text header: {t.stdout[:600]}")


EXIT_C = "#include <stdlib.h>\nint main(int argc, char **argv) { (void)argv; exit(argc + 40); }\n"


def table_cases(cc):
    """clock_gettime, gettimeofday and exit_group on cc's ISA: edan's clock, and the program's exit status."""
    with tempfile.TemporaryDirectory() as tmp:
        clock, ex = os.path.join(tmp, "clock"), os.path.join(tmp, "exit")
        with open(ex + ".c", "w") as f:
            f.write(EXIT_C)
        for src, exe in ((os.path.join(HERE, "..", "examples", "clock.c"), clock), (ex + ".c", ex)):
            p = subprocess.run([cc, "-std=c17", "-O2", "-static", "-o", exe, src], capture_output=True, text=True)
            check(p.returncode == 0, f"building {src} with {cc}: {p.stderr}")
            if p.returncode:
                return
        p = edan("run", "--filter=kernel", "--no-progress", clock, "40")
        check(p.returncode == 0 and p.stdout.startswith(
            "monotonic 1000000000.001000000 gettimeofday 1000000000.002000 realtime 1000000000.003000000\n"),
            f"{cc}: edan's clock: exit {p.returncode}, {p.stdout[:200]!r}, {p.stderr[-300:]!r}")
        r, _ = report("run", "--json", "--ignore-exit", ex, "a", "b")
        got = r["source"].get("program_exit") if r else None
        check(got == {"status": 43, "signal": None, "ignore_exit": True}, f"{cc}: exit_group: program_exit {got}")


def riscv():
    kernel_cases("riscv64-linux-gnu-gcc")
    table_cases("riscv64-linux-gnu-gcc")


def x86():
    kernel_cases("gcc")
    table_cases("gcc")


def aarch64():
    kernel_cases("aarch64-linux-gnu-gcc")
    table_cases("aarch64-linux-gnu-gcc")


def traces():
    with tempfile.TemporaryDirectory() as tmp:
        exe, data = build(tmp, "riscv64-linux-gnu-gcc")
        run = [exe, data, str(KIB)]
        for filt in ([], ["--filter=kernel"]):
            edt = os.path.join(tmp, "t.edt")
            check(edan("record", *filt, "-o", edt, *run).returncode == 0, f"record {filt}")
            with open(edt, "rb") as f:
                version = int.from_bytes(f.read(12)[8:12], "little")
            check(version == 5, f"record {filt}: format version {version}, expected 5")
            online, _ = report("run", "--json", *filt, CACHE, *run)
            offline, _ = report("analyze", "--json", CACHE, edt)
            if online and offline:
                check(offline["source"].get("kernel_lines") == online["source"].get("kernel_lines") > 0 and
                      offline["configurations"] == online["configurations"],
                      f"record {filt}: analyze {offline['source']} vs run {online['source']}")
        cold = os.path.join(tmp, "cold.edt")
        check(edan("record", "--cold", "-o", cold, *run).returncode == 0, "record --cold")
        with open(cold, "rb") as f:
            version = int.from_bytes(f.read(12)[8:12], "little")
        rep, _ = report("analyze", "--json", CACHE, cold)
        check(version == 3 and rep and "kernel_lines" not in rep["source"],
              f"record --cold: version {version}, source {rep and rep['source']}")


run_category({"riscv": riscv, "x86": x86, "aarch64": aarch64, "traces": traces})
