#!/usr/bin/env python3
# Memory-latency sweep: runs every program of a list in gem5 at each memory latency, and edan on the
# same traced region (the paper's lambda and Lambda, and the timing model's prediction when edan has
# one), and keeps every result in a JSON file so that a rerun only runs what is missing.
#
#   python3 validation/sweep.py [options] LIST
#     --gem5 PATH         gem5.opt [$GEM5 or /opt/gem5src/build/RISCV/gem5.opt]
#     --edan PATH         edan [build/edan]
#     --machine FILE      machine description [machines/gem5-validation.ini]
#     --latencies LIST    memory latencies in ns, comma or space separated [50,100,150,200,250,300]
#     -j N                gem5 and edan runs at a time [1]
#     --results FILE      results and cache [build/validation/results.json]
#     --time SOURCE       auto | output | trace | simseconds: the kernel time the program prints (a
#                         line that is just a number of seconds, PolyBench-style); the kernel's time
#                         in gem5's commit trace (from the first committed instruction of KERNEL's
#                         symbol, riscv64-linux-gnu-nm, to the last before its call's return address;
#                         slower, for programs that print no time); or gem5's simSeconds (the whole program, set-up included); auto takes
#                         the program's own when it prints one, else simSeconds [auto]
#     --m N               memory issue slots of lambda and Lambda [4]
#     --cache SPEC        edan's cache for lambda and Lambda [the machine's L1d as an edan --cache]
#     --no-gem5, --no-edan   leave that side out (its cached results are still reported: with
#                         --no-edan, edan's records for the edan binary --edan names, if it exists)
#     --model-mode LIST   the timing model's modes to run: sampled (edan's default, SMARTS
#                         sampling), exact (--exact, every instruction scheduled) or sampled,exact
#                         [sampled]; the table shows each mode that has a record for this edan.
#                         The model runs offline: the kernel's region recorded once (edan record
#                         --filter=KERNEL), the trace analysed in each mode asked (edan analyze); with
#                         sampled,exact both modes analyse the one trace, so that compare.py's check of
#                         the sampled model against --exact sees the sampling alone (two runs of a
#                         program under QEMU may differ), and a pair from two traces runs again
#     --timeout S         give up a gem5 run after S seconds [none]
#     --force             run again what is cached
#     --force-edan        run edan's side again even when cached (gem5's stays cached)
#     --slurm             run what is missing as one Slurm job array (sbatch --wait), one task a run,
#                         and gather the tasks' results into --results as the local path would; -j is
#                         then unused (Slurm decides how many run at a time)
#     --slurm-dir DIR     the array's tasks, batch script, logs and per-task results
#                         [WORKDIR/slurm-TIME-PID, WORKDIR the results file's directory + /work]
#     --slurm-args ARGS   more sbatch options, split like a shell command line ("-p batch -t 2:00:00")
#     --sbatch PATH       sbatch [$SBATCH or sbatch]
#
# LIST: one program a line, tab-separated: NAME, BINARY, ARGS..., KERNEL, and optionally last fields
# time=output, time=trace or time=simseconds for that program, and exit=N, its exit status when it
# is not 0 (a run that ends otherwise fails). ARGS are any number of fields (none for no
# arguments), each split like a shell command line. '#' starts a comment line; relative paths are
# relative to the current directory. KERNEL is the function edan traces (--filter=KERNEL); gem5
# simulates the whole program, and its time is the one the program prints around the kernel
# (or simSeconds, which then includes the program's set-up: say so when comparing).
#
# gem5 results are keyed by the binary's contents, the gem5 parameters the machine file gives
# (gem5_machine.py's plan: a key only edan's model reads changes no gem5 result), the arguments and the
# latency; edan results by the binary, the arguments, the kernel, the machine file, the latencies, the
# model's mode and edan's own binary and plugin, so rebuilding edan reruns edan and nothing else:
# after a model change, `sweep.py --no-gem5 ...` with the new edan refreshes edan's side alone. Several
# sweeps may share one results file at once (a gem5 sweep in the background, --no-gem5 in front):
# each write merges, under a lock, with the file's records. A gem5 record that gem5_from_doc.py took
# back from a table of docs/accuracy.md (it has "recovered") serves --no-gem5 sweeps; a sweep that
# runs gem5 runs it again. Errors: a message and exit status 2.
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep_slurm  # noqa: E402  (the Slurm path: one task of a job array per missing run)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SCHEMA = "edan.validation/1"
FLOAT_LINE = re.compile(r"^\s*([0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?)\s*$")
EXIT_LINE = re.compile(r"^EXIT (.*) code=(-?\d+) ticks=(\d+)$")


class Failure(Exception):
    pass


def die(msg):
    sys.stderr.write("sweep.py: %s\n" % msg)
    sys.exit(2)


def digest(path, _cache={}):
    st = os.stat(path)
    k = (os.path.realpath(path), st.st_size, st.st_mtime_ns)
    if k not in _cache:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        _cache[k] = h.hexdigest()[:16]
    return _cache[k]


def parse_latencies(text):
    out = []
    for t in re.split(r"[,\s]+", text.strip()):
        if not t:
            continue
        try:
            v = float(t)
        except ValueError:
            die("--latencies: '%s' is not a number" % t)
        if not v > 0:
            die("--latencies: %s must be positive" % t)
        out.append(int(v) if v == int(v) else v)
    if len(out) < 2:
        die("--latencies: give at least two latencies")
    return sorted(set(out))


def read_list(path):
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        die("%s: %s" % (path, e.strerror))
    progs, names = [], set()
    for no, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        f = line.split("\t")
        where = "%s:%d" % (path, no)
        time_src, status = None, 0
        while len(f) >= 4 and re.fullmatch(r"(time|exit)=.*", f[-1]):
            k, v = f.pop().split("=", 1)
            if k == "time":
                time_src = v
                if time_src not in ("output", "trace", "simseconds"):
                    die("%s: time=%s: use time=output, time=trace or time=simseconds" % (where, v))
            elif not re.fullmatch(r"\d{1,3}", v) or int(v) > 255:
                die("%s: exit=%s: give the program's exit status, 0 to 255" % (where, v))
            else:
                status = int(v)
        if len(f) < 3:
            die("%s: expected NAME<TAB>BINARY<TAB>ARGS...<TAB>KERNEL, got %d field(s)" % (where, len(f)))
        name, binary, kernel = f[0].strip(), f[1].strip(), f[-1].strip()
        try:
            args = [a for field in f[2:-1] for a in shlex.split(field)]
        except ValueError as e:
            die("%s: arguments: %s" % (where, e))
        if not name or not re.fullmatch(r"[A-Za-z0-9_.+-]+", name):
            die("%s: name '%s' must be letters, digits and _ . + -" % (where, name))
        if name in names:
            die("%s: name '%s' is listed twice" % (where, name))
        if not kernel or not re.fullmatch(r"[A-Za-z_.$][A-Za-z0-9_.$]*", kernel):
            die("%s: kernel '%s' is not a function name" % (where, kernel))
        if not os.path.isfile(binary):
            die("%s: binary %s does not exist" % (where, binary))
        names.add(name)
        progs.append({"name": name, "binary": os.path.abspath(binary), "args": args,
                      "kernel": kernel, "time": time_src, "exit": status})
    if not progs:
        die("%s: no programs" % path)
    return progs


def machine_l1d_cache(machine):
    """The machine's L1d as an edan --cache specification."""
    sys.path.insert(0, HERE)
    import gem5_machine  # the one reader of machine files on the Python side
    try:
        m = gem5_machine.read_machine(machine)
    except gem5_machine.MachineError as e:
        die(str(e))
    d = m["l1d"]
    size = d["size"]
    text = "%dK" % (size >> 10) if size % 1024 == 0 else str(size)
    return "%s,line=%d,ways=%d,write=%s,alloc=%s" % (text, d["line"], d["ways"], d["write"], d["alloc"]), m


def gem5_machine_digest(machine):
    """What gem5's results depend on: gem5_machine.py's plan for the machine (the gem5 parameters, at a
    fixed memory latency, which each run sets), not the file itself, so a key gem5 has no parameter for
    (mispredict_penalty, serialize_cycles, which edan's model reads) keeps gem5's results."""
    sys.path.insert(0, HERE)
    import gem5_machine
    try:
        p = gem5_machine.plan(gem5_machine.read_machine(machine), machine, latency_ns=0)
    except gem5_machine.MachineError as e:
        die(str(e))
    p.pop("notes", None)
    return hashlib.sha256(json.dumps(p, sort_keys=True).encode()).hexdigest()[:16]


class Results:
    """The JSON results file: {"schema", "gem5": {key: record}, "edan": {...}, "model": {...},
    "sweep": the table of the last sweep}. Written whole (to a temporary file, then renamed) under an
    exclusive lock on FILE.lock, after merging in what is on disk: several sweeps may share one file
    (a gem5 sweep in the background and an edan refresh, --no-gem5), and none loses another's
    records; each sees the others' records from its next write on (reload())."""

    KINDS = ("gem5", "edan", "model")

    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()
        self.data = {"schema": SCHEMA, "gem5": {}, "edan": {}, "model": {}, "sweep": None}
        self.mine = []  # (kind, key) this process put, re-applied over the file's records at each write
        self.data.update(self.read_disk() or {})

    def read_disk(self):
        if not os.path.exists(self.path):
            return None
        try:
            with open(self.path, encoding="utf-8") as f:
                d = json.load(f)
        except (OSError, ValueError) as e:
            die("%s: cannot read the results file: %s" % (self.path, e))
        if d.get("schema") != SCHEMA:
            die("%s: not a results file of schema %s" % (self.path, SCHEMA))
        return d

    def get(self, kind, key):
        with self.lock:
            return self.data[kind].get(key)

    def put(self, kind, key, rec):
        with self.lock:
            self.data[kind][key] = rec
            self.mine.append((kind, key))
            self.save_locked()

    def set_sweep(self, sweep):
        with self.lock:
            self.data["sweep"] = sweep
            self.save_locked(sweep=True)

    def reload(self):
        """The records other sweeps wrote since, merged under this one's."""
        with self.lock:
            self.save_locked(write=False)

    def save_locked(self, sweep=False, write=True):
        import fcntl
        d = os.path.dirname(os.path.abspath(self.path))
        os.makedirs(d, exist_ok=True)
        with open(self.path + ".lock", "a") as lk:
            fcntl.flock(lk, fcntl.LOCK_EX)
            disk = self.read_disk()
            if disk is not None:
                for kind in self.KINDS:
                    merged = disk.get(kind) or {}
                    for k, key in self.mine:
                        if k == kind:
                            merged[key] = self.data[kind][key]
                    self.data[kind] = merged
                if not sweep:
                    self.data["sweep"] = disk.get("sweep")
            if not write:
                return
            fd, tmp = tempfile.mkstemp(prefix=".results.", dir=d)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(self.data, f, indent=1, sort_keys=True)
                f.write("\n")
            os.chmod(tmp, 0o644)
            os.replace(tmp, self.path)


def section(kind):
    """The results file's section of a job kind: model-exact's records are the model's."""
    return "model" if kind.startswith("model") else kind


def key_of(*parts):
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:20]


def gem5_key(prog, binary_digest, gem5_digest, lat, time_default):
    """The key of gem5's record of prog at latency lat: the binary's contents, the arguments, the gem5
    parameters of the machine (gem5_machine_digest), the latency and, for a program timed from the
    commit trace (its time=, else time_default), the kernel. validation/gem5_from_doc.py writes its
    records under the same keys."""
    traced = (prog["time"] or time_default) == "trace"
    return key_of("gem5", binary_digest, prog["args"], gem5_digest, float(lat), prog["kernel"] if traced else None)


def parse_stats(path):
    out = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                p = line.split()
                if len(p) >= 2 and p[0] in ("simSeconds", "simTicks", "simInsts", "hostSeconds",
                                            "system.cpu.numCycles") and p[0] not in out:
                    try:
                        out[p[0]] = float(p[1])
                    except ValueError:
                        pass
    except OSError:
        pass
    return out


def kernel_range(binary, kernel):
    """[start, end) of KERNEL's symbol in BINARY (nm -S), or Failure."""
    nm = os.environ.get("NM") or "riscv64-linux-gnu-nm"
    try:
        out = subprocess.run([nm, "-S", "--defined-only", binary], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, errors="replace")
    except OSError as e:
        raise Failure("%s: %s (set NM to a RISC-V nm)" % (nm, e.strerror))
    found = []
    for line in out.stdout.splitlines():
        f = line.split()
        if len(f) == 4 and f[3] == kernel and f[2] in "tTwW":
            found.append((int(f[0], 16), int(f[0], 16) + int(f[1], 16)))
    if len(set(found)) != 1:
        raise Failure("%s: %s symbol(s) named %s with a size" % (binary, len(set(found)) or "no", kernel))
    return found[0]


def trace_kernel_time(f, lo, hi):
    """Ticks of the first and last committed instruction of the kernel's calls, and how many committed
    in them, from gem5's Exec trace lines ("TICK: system.cpu: 0xPC    : MNEMONIC ...") read from f.

    A call starts at a commit in [lo, hi) (the kernel's symbol) and takes in everything it runs until
    the commit at its return address: the instruction after the call that entered it (the commit
    before the first, 2 bytes on when gem5 names it c_*, else 4). So a function the kernel
    tail-calls, which returns to the kernel's caller (Olden tsp's last `j merge`), is the kernel's,
    as in edan's region (--filter), where the last commit in [lo, hi) left it out."""
    first = last = None
    n = 0
    ret = None  # the return address of the call in progress, None outside the kernel
    prev_pc, prev_c = None, False
    for line in f:
        i = line.find(" 0x")
        if i < 0:
            continue
        j = line.find(" ", i + 3)
        try:
            pc = int(line[i + 1:j], 16)
        except ValueError:
            continue
        if ret is not None and pc == ret:
            ret = None
        if ret is None and lo <= pc < hi:
            ret = prev_pc + (2 if prev_c else 4) if prev_pc is not None else -1
        if ret is not None:
            tick = int(line[:line.index(":")])
            if first is None:
                first = tick
            last = tick
            n += 1
        k = line.find(": ", j)
        prev_pc, prev_c = pc, k >= 0 and line[k + 2:].lstrip().startswith("c_")
    return first, last, n


def run_gem5(opts, prog, lat, traced=False):
    """One gem5 run: {'output_seconds', 'simSeconds', ...} or Failure. traced: with the commit trace,
    the kernel's time and instructions in it too."""
    work = tempfile.mkdtemp(prefix="gem5-%s-%s-" % (prog["name"], lat), dir=opts.workdir)
    trace, reader, kt = [], None, []
    if traced:
        # The commit trace goes through a FIFO (gem5 flushes every line) to a thread that keeps
        # only the kernel's first and last commit: nothing the size of the trace is stored.
        lo, hi = kernel_range(prog["binary"], prog["kernel"])
        fifo = os.path.join(work, "commit.trace")
        os.mkfifo(fifo)
        trace = ["--debug-flags=ExecEnable,ExecUser", "--debug-file=" + fifo]

        def read_trace():
            try:
                with open(fifo, encoding="utf-8", errors="replace") as f:
                    kt.append(trace_kernel_time(f, lo, hi))
            except (OSError, ValueError) as e:
                kt.append(e)
        reader = threading.Thread(target=read_trace, daemon=True)
        reader.start()
    cmd = [opts.gem5] + trace + ["-q", "--outdir=" + work, os.path.join(HERE, "gem5_machine.py"),
           "--machine", opts.machine, "--latency", str(lat), "--", prog["binary"]] + prog["args"]
    t0 = time.time()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           errors="replace", timeout=opts.timeout)
    except subprocess.TimeoutExpired:
        p = None
    finally:
        if reader is not None:
            if reader.is_alive() and not kt:
                try:  # gem5 never opened the FIFO: let the reader see an empty trace
                    os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
                except OSError:
                    pass
            reader.join(60)
    wall = time.time() - t0
    stats = parse_stats(os.path.join(work, "stats.txt"))
    shutil.rmtree(work, ignore_errors=True)
    if p is None:
        raise Failure("gem5 ran longer than %g s" % opts.timeout)
    if traced and (not kt or isinstance(kt[0], Exception)):
        raise Failure("gem5's commit trace: %s" % (kt[0] if kt else "not read"))
    kt = kt[0] if traced else None
    tail = "\n".join((p.stderr or p.stdout).strip().splitlines()[-5:])
    if p.returncode != 0:
        raise Failure("gem5 exited with status %d: %s" % (p.returncode, tail))
    lines = p.stdout.splitlines()
    ex = [m for m in map(EXIT_LINE.match, lines) if m]
    if not ex:
        raise Failure("gem5 printed no EXIT line: %s" % tail)
    if int(ex[-1].group(2)) != prog["exit"]:
        raise Failure("the program exited with status %s in gem5 (%s), not %d"
                      % (ex[-1].group(2), ex[-1].group(1), prog["exit"]))
    floats = [float(m.group(1)) for m in map(FLOAT_LINE.match, lines) if m]
    if "simSeconds" not in stats:
        raise Failure("no simSeconds in gem5's stats.txt")
    rec = {"output_seconds": floats[-1] if floats else None, "simSeconds": stats["simSeconds"],
            "simInsts": stats.get("simInsts"), "cycles": stats.get("system.cpu.numCycles"),
            "wall_seconds": round(wall, 2), "command": " ".join(map(shlex.quote, cmd[1:]))}
    if traced:
        if kt[0] is None:
            raise Failure("no instruction of %s committed in gem5" % prog["kernel"])
        # ticks are picoseconds; the region ends one cycle after its last commit
        period = stats["simSeconds"] / stats["system.cpu.numCycles"] if stats.get("system.cpu.numCycles") else 0
        rec["trace_seconds"] = (kt[1] - kt[0]) * 1e-12 + period
        rec["trace_insts"] = kt[2]
    return rec


def edan_version(edan):
    """edan --version's first line (its commit), or None."""
    try:
        p = subprocess.run([edan, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors="replace", timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return (p.stdout.strip().splitlines() or [None])[0] if p.returncode == 0 else None


def run_edan_quiet(opts, argv, what):
    """edan with argv, its output discarded; its wall time, or Failure naming what failed and its stderr."""
    t0 = time.time()
    p = subprocess.run([opts.edan] + argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True, errors="replace")
    wall = time.time() - t0
    if p.returncode != 0:
        raise Failure("%s exited with status %d: %s" % (what, p.returncode, p.stderr.strip()[-400:]))
    return wall


def run_edan_json(opts, argv):
    """edan with argv plus --output=FILE before the program; the report as JSON, and the wall time."""
    fd, out = tempfile.mkstemp(prefix="edan-", suffix=".json", dir=opts.workdir)
    os.close(fd)
    i = argv.index("--")
    full = argv[:i] + ["--output=" + out] + argv[i:]
    try:
        wall = run_edan_quiet(opts, full, "edan")
        try:
            with open(out, encoding="utf-8") as f:
                return json.load(f), wall
        except ValueError as e:
            raise Failure("edan's JSON does not parse: %s" % e)
    finally:
        os.unlink(out)


def exit_options(prog):
    """A program listed with exit=N (not 0): edan would exit with status 3 for it (its results
    complete), so it is told --ignore-exit; gem5's run checks the status."""
    return ["--ignore-exit"] if prog["exit"] else []


def run_edan_lambda(opts, prog):
    argv = ["run", "--filter=" + prog["kernel"], "--json", "--no-progress", "--cache=" + opts.cache,
            "--m=%d" % opts.m, "--no-kernel-writes"] + exit_options(prog) + ["--", prog["binary"]] + prog["args"]
    rep, wall = run_edan_json(opts, argv)
    try:
        c = rep["configurations"][0]
        pm = c["per_m"][0]
        rec = {"lambda": pm["lambda"], "Lambda": pm["Lambda"], "m": pm["m"], "W": c["W"], "D": c["D"],
               "vertices": c["vertices"], "T1": c["T1"], "Tinf": c["Tinf"], "cache": c["cache"]}
    except (KeyError, IndexError, TypeError) as e:
        raise Failure("edan's JSON lacks configurations[0].per_m[0] (%s)" % e)
    if not rec["vertices"]:
        raise Failure("edan traced no instruction: is %s the kernel's symbol?" % prog["kernel"])
    rec["wall_seconds"] = round(wall, 2)
    rec["command"] = "edan " + " ".join(map(shlex.quote, argv))
    return rec


def model_record(rep, mode):
    """The timing model's record of one mode from edan's JSON report."""
    pred = rep.get("prediction")
    if not isinstance(pred, dict):
        return {"missing": "edan's JSON has no \"prediction\" object"}
    try:
        lat, cyc, sec = pred["mem_latency_ns"], pred["cycles"], pred["seconds"]
        if not (len(lat) == len(cyc) == len(sec)):
            raise ValueError("arrays of different lengths")
        by_lat = {str(float(l)): {"cycles": c, "seconds": s} for l, c, s in zip(lat, cyc, sec)}
        rec = {"by_latency": by_lat, "slope_ns_per_ns": pred.get("slope_ns_per_ns"),
               "slowdown": pred.get("slowdown"), "mode": mode}
        smp = pred.get("sampling")
        if isinstance(smp, dict) and "cycles_low" in smp:  # the sampled schedule's 95 % interval
            rec["sampling"] = {k: smp.get(k) for k in ("exact", "measured", "scheduled", "cycles_low",
                                                       "cycles_high", "slope_half_width")}
    except (KeyError, TypeError, ValueError) as e:
        raise Failure("edan's \"prediction\" is not as documented (%s)" % e)
    return rec


def file_digest(path):
    """The sha256 of a file's contents (16 hex digits), read in blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:16]


def run_edan_models(opts, prog, modes):
    """The timing model in each of modes ("sampled", "exact") on ONE trace of the program's region:
    edan record --filter=KERNEL once, then edan analyze of that trace in each mode, so that the two
    modes differ by the sampling alone (two runs of a program under QEMU may differ: GAPBS's by up to
    0.01 %). {mode: record}; each record names the trace by its contents' digest ("trace"), and its
    command is the recording's and the analysis's."""
    lats = ",".join(str(x) for x in opts.latencies)
    fd, trace = tempfile.mkstemp(prefix="edan-", suffix=".edt", dir=opts.workdir)
    os.close(fd)
    # gem5's syscall emulation writes a read()'s bytes around its caches (a functional port): so does the model here.
    # --real-path: the program runs by the path gem5 runs it by, argv[0] that path, so that its heap is laid out
    # as in gem5 (the C library keeps the program's directory on the heap: with edan's fixed-length path every
    # malloc'd block of fits.tsp sat 0x70 bytes further than in gem5, and its tree nodes split other fields
    # across lines; docs/accuracy.md)
    rec_argv = (["record", "--filter=" + prog["kernel"], "--no-progress", "--no-kernel-writes", "--real-path"]
                + exit_options(prog)
                + ["-o", trace, "--", prog["binary"]] + prog["args"])
    rec_cmd = "edan " + " ".join(shlex.quote("TRACE" if a == trace else a) for a in rec_argv)
    try:
        rec_wall = run_edan_quiet(opts, rec_argv, "edan record")
        tid = file_digest(trace)
        out = {}
        for mode in modes:
            argv = ["analyze", "--json", "--no-progress", "--machine=" + opts.machine, "--mem-latency=" + lats,
                    "--" + mode, "--", trace]
            rep, wall = run_edan_json(opts, argv)
            rec = model_record(rep, mode)
            rec["trace"] = tid
            rec["command"] = rec_cmd + " && edan " + " ".join(shlex.quote("TRACE" if a == trace else a) for a in argv)
            if "missing" not in rec:
                rec["wall_seconds"] = round(wall, 2)
                rec["record_seconds"] = round(rec_wall, 2)
            out[mode] = rec
        return out
    finally:
        os.unlink(trace)


# The model's job kinds: one mode, or both on one trace (their records' keys in key_by_job: a pair).
MODEL_KINDS = {"model": ("sampled",), "model-exact": ("exact",), "model-pair": ("sampled", "exact")}


def run_task(opts, kind, prog, lat):
    """The one per-task command, run by the local path and by each task of a Slurm job array:
    (record, None) or (None, error message)."""
    try:
        if kind == "gem5":
            return run_gem5(opts, prog, lat, (prog["time"] or opts.time) == "trace"), None
        if kind == "edan":
            return run_edan_lambda(opts, prog), None
        recs = run_edan_models(opts, prog, MODEL_KINDS[kind])
        return (recs if kind == "model-pair" else recs[MODEL_KINDS[kind][0]]), None
    except (Failure, OSError) as e:
        return None, str(e)


def task_message(kind, rec):
    if kind == "gem5":
        msg = "simSeconds %.9g, printed %s" % (rec["simSeconds"], rec["output_seconds"])
        if "trace_seconds" in rec:
            msg += ", kernel %.9g s (%d instructions)" % (rec["trace_seconds"], rec["trace_insts"])
        return msg
    if kind == "edan":
        return "lambda %.6g Lambda %.6g" % (rec["lambda"], rec["Lambda"])
    if "missing" in rec:
        return rec["missing"]
    return "%s, slope %.6g" % (rec.get("mode", "sampled"), rec["slope_ns_per_ns"] or 0)


def main(argv):
    import argparse
    if argv[:1] == ["--slurm-task"]:  # one task of a job array sweep_slurm.submit made
        if len(argv) != 3:
            die("--slurm-task DIR ID")
        return sweep_slurm.run_one(argv[1], argv[2], run_task)
    ap = argparse.ArgumentParser(description="memory-latency sweep in gem5 and edan (see the header)")
    ap.add_argument("list")
    ap.add_argument("--gem5", default=os.environ.get("GEM5") or "/opt/gem5src/build/RISCV/gem5.opt")
    ap.add_argument("--edan", default=os.path.join(ROOT, "build", "edan"))
    ap.add_argument("--machine", default=os.path.join(ROOT, "machines", "gem5-validation.ini"))
    ap.add_argument("--latencies", default="50,100,150,200,250,300")
    ap.add_argument("-j", type=int, default=1, dest="jobs")
    ap.add_argument("--results", default=os.path.join(ROOT, "build", "validation", "results.json"))
    ap.add_argument("--time", choices=["auto", "output", "trace", "simseconds"], default="auto")
    ap.add_argument("--m", type=int, default=4)
    ap.add_argument("--cache", default=None)
    ap.add_argument("--no-gem5", action="store_true")
    ap.add_argument("--no-edan", action="store_true")
    ap.add_argument("--timeout", type=float, default=None)
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--force-edan", action="store_true")
    ap.add_argument("--model-mode", default="sampled")
    ap.add_argument("--slurm", action="store_true")
    ap.add_argument("--slurm-dir", default=None)
    ap.add_argument("--slurm-args", default="")
    ap.add_argument("--sbatch", default=os.environ.get("SBATCH") or "sbatch")
    opts = ap.parse_args(argv)
    if opts.jobs < 1:
        die("-j must be at least 1")
    if opts.m < 1:
        die("--m must be at least 1")
    opts.latencies = parse_latencies(opts.latencies)
    opts.model_modes = [m for m in re.split(r"[,\s]+", opts.model_mode.strip()) if m]
    if not opts.model_modes or any(m not in ("sampled", "exact") for m in opts.model_modes):
        die("--model-mode: '%s': give sampled, exact or sampled,exact" % opts.model_mode)
    opts.machine = os.path.abspath(opts.machine)
    l1d, _ = machine_l1d_cache(opts.machine)
    opts.cache = opts.cache or l1d
    progs = read_list(opts.list)
    if not opts.no_gem5 and not (os.path.isfile(opts.gem5) and os.access(opts.gem5, os.X_OK)):
        die("gem5 not found at %s: set GEM5 or --gem5 (build it with validation/build-gem5.sh), "
            "or give --no-gem5" % opts.gem5)
    model_supported = False
    # With --no-edan, an edan binary that exists still names the records the table shows.
    edan_lookup = not opts.no_edan or os.access(opts.edan, os.X_OK)
    if edan_lookup:
        if not os.access(opts.edan, os.X_OK):
            die("edan not found at %s (make build)" % opts.edan)
        h = subprocess.run([opts.edan, "run", "--help"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, errors="replace").stdout
        model_supported = "--machine" in h and "--mem-latency" in h
        plugin = os.path.join(os.path.dirname(os.path.abspath(opts.edan)), "libedan_plugin.so")
        edan_id = digest(opts.edan) + (digest(plugin) if os.path.exists(plugin) else "")
    results = Results(opts.results)
    opts.workdir = os.path.join(os.path.dirname(os.path.abspath(opts.results)), "work")
    os.makedirs(opts.workdir, exist_ok=True)
    mdig = digest(opts.machine)
    gdig = gem5_machine_digest(opts.machine)

    gem5_keys, lambda_keys, model_keys, jobs = {}, {}, {}, []
    force_edan = opts.force or opts.force_edan
    for p in progs:
        bd = digest(p["binary"])
        traced = (p["time"] or opts.time) == "trace"
        if traced and not opts.no_gem5:
            try:
                kernel_range(p["binary"], p["kernel"])
            except Failure as e:
                die("%s: time=trace: %s" % (p["name"], e))
        for lat in opts.latencies:
            k = gem5_key(p, bd, gdig, lat, opts.time)
            gem5_keys[(p["name"], lat)] = k
            # a record taken back from a table (gem5_from_doc.py) stands in until gem5 runs
            rec = results.get("gem5", k)
            if not opts.no_gem5 and (opts.force or rec is None or "recovered" in rec):
                jobs.append(("gem5", k, p, lat))
        if edan_lookup:
            k = key_of("lambda", bd, p["args"], p["kernel"], opts.cache, opts.m, edan_id)
            lambda_keys[p["name"]] = k
            if not opts.no_edan and (force_edan or results.get("edan", k) is None):
                jobs.append(("edan", k, p, None))
        # The model in each mode, both kept whatever --model-mode asks, so the table shows both
        # when both were run with this edan (kind "model" is sampled, "model-exact" exact). Both
        # asked: one job records the region once and analyses that trace in both modes
        # ("model-pair"), run again when the two records are not of one trace.
        want = []
        for mode in ("sampled", "exact") if model_supported else ():
            k = key_of("model", bd, p["args"], p["kernel"], mdig, opts.latencies, edan_id, mode, "real-path")
            model_keys[(p["name"], mode)] = k
            if not opts.no_edan and mode in opts.model_modes:
                want.append((mode, k))
        have = [results.get("model", k) for _, k in want]
        if len(want) == 2:
            if force_edan or None in have or have[0].get("trace") is None or have[0].get("trace") != have[1].get("trace"):
                jobs.append(("model-pair", (want[0][1], want[1][1]), p, None))
        elif want and (force_edan or have[0] is None):
            jobs.append(("model" if want[0][0] == "sampled" else "model-exact", want[0][1], p, None))
    # edan first: it takes seconds where gem5 takes minutes, and shows a wrong kernel name early.
    jobs.sort(key=lambda j: j[0] == "gem5")
    failures = {}
    done = [0]

    def report(kind, p, lat, rec, err, seconds):
        if err is not None:
            failures[(kind, p["name"], lat)] = err
            msg = "FAILED: %s" % err
        else:
            key = key_by_job[(kind, p["name"], lat)]
            if kind == "model-pair":  # both modes' records, of one trace
                for mode, k in zip(MODEL_KINDS[kind], key):
                    results.put("model", k, rec[mode])
                msg = "; ".join(task_message(kind, rec[mode]) for mode in MODEL_KINDS[kind])
            else:
                results.put(section(kind), key, rec)
                msg = task_message(kind, rec)
        with results.lock:
            done[0] += 1
            sys.stderr.write("[%d/%d] %s %s%s: %s (%.1f s)\n" % (
                done[0], len(jobs), kind, p["name"], " @%sns" % lat if lat is not None else "",
                msg, seconds))

    key_by_job = {(kind, p["name"], lat): k for kind, k, p, lat in jobs}
    if opts.slurm and jobs:
        sweep_slurm.submit(opts, jobs, report, os.path.abspath(__file__))
    else:
        def work(job):
            kind, _, p, lat = job
            t0 = time.time()
            rec, err = run_task(opts, kind, p, lat)
            report(kind, p, lat, rec, err, time.time() - t0)

        with concurrent.futures.ThreadPoolExecutor(max_workers=opts.jobs) as ex:
            list(ex.map(work, jobs))

    # The table of this sweep, from the cache (with what other sweeps of the file wrote meanwhile).
    results.reload()
    rows = []
    for p in progs:
        row = {"name": p["name"], "binary": p["binary"], "args": p["args"], "kernel": p["kernel"],
               "gem5": {}, "time_source": None, "lambda": None, "model": None, "notes": []}
        want = p["time"] or opts.time
        srcs = set()
        for lat in opts.latencies:
            r = results.get("gem5", gem5_keys[(p["name"], lat)])
            if r is None:
                continue
            if want == "trace":
                t, src = r["trace_seconds"], "trace"
            elif want == "output" or (want == "auto" and r["output_seconds"] is not None):
                if r["output_seconds"] is None:
                    row["notes"].append("@%sns: the program printed no time" % lat)
                    continue
                t, src = r["output_seconds"], "output"
            else:
                t, src = r["simSeconds"], "simseconds"
            srcs.add(src)
            row["gem5"][str(float(lat))] = {"seconds": t, "simSeconds": r["simSeconds"],
                                            "simInsts": r["simInsts"], "wall_seconds": r["wall_seconds"],
                                            "kernel_insts": r.get("trace_insts")}
        if len(srcs) > 1:
            row["notes"].append("mixed time sources %s" % sorted(srcs))
        row["time_source"] = "+".join(sorted(srcs)) or None
        if p["name"] in lambda_keys:
            row["lambda"] = results.get("edan", lambda_keys[p["name"]])
        if (p["name"], "sampled") in model_keys:
            row["model"] = results.get("model", model_keys[(p["name"], "sampled")])
            row["model_exact"] = results.get("model", model_keys[(p["name"], "exact")])
        elif edan_lookup:
            row["notes"].append("model: edan has no --machine/--mem-latency yet")
        rows.append(row)
    results.set_sweep({"list": os.path.abspath(opts.list), "machine": opts.machine,
                       "latencies": opts.latencies, "cache": opts.cache, "m": opts.m,
                       "gem5": None if opts.no_gem5 else opts.gem5,
                       "edan": os.path.abspath(opts.edan) if edan_lookup else None,
                       "edan_version": edan_version(opts.edan) if edan_lookup else None,
                       "model_supported": model_supported, "model_modes": opts.model_modes,
                       "time": opts.time,
                       "programs": rows, "failures": ["%s %s%s: %s" % (k[0], k[1], "" if k[2] is None
                                                      else " @%sns" % k[2], v)
                                                      for k, v in sorted(failures.items(), key=str)]})
    if failures:
        sys.stderr.write("sweep.py: %d run(s) failed; results so far are in %s\n"
                         % (len(failures), opts.results))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
