# Sweeps as Slurm job arrays: sweep.py --slurm. Each missing run (program, machine, latency, tool)
# becomes one task of a job array; every task runs sweep.py's run_task (the very function the local
# path runs) and writes its record, or its error, to DIR/result-ID.json; sweep.py waits for the array
# (sbatch --wait) and gathers the files into its results file, the same records the local path stores.
#
# DIR (--slurm-dir, default WORKDIR/slurm-TIME-PID) holds tasks.json (the options each task needs and
# the list of tasks), sweep.sbatch (the batch script), task-ID.log (each task's output) and the results.
# The compute nodes must see DIR, the programs, edan and gem5 at the same paths (a shared file system).
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
import types

# What run_task reads from opts: the tasks get these and nothing else.
TASK_OPTIONS = ("gem5", "edan", "machine", "cache", "m", "latencies", "time", "timeout", "workdir")


def write_json(path, data):
    """Whole or not at all: a reader never sees half a file (a task killed mid-write leaves none)."""
    fd, tmp = tempfile.mkstemp(prefix=".tmp.", dir=os.path.dirname(path))
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def batch_script(d, n, sweep):
    """The batch script of an array of n tasks: each runs `sweep.py --slurm-task DIR ID`."""
    return ("#!/bin/sh\n"
            "#SBATCH --job-name=edan-sweep\n"
            "#SBATCH --array=0-%d\n"
            "#SBATCH --ntasks=1\n"
            "#SBATCH --output=%s\n"
            "exec %s %s --slurm-task %s \"$SLURM_ARRAY_TASK_ID\"\n"
            % (n - 1, os.path.join(d, "task-%a.log"), shlex.quote(sys.executable),
               shlex.quote(sweep), shlex.quote(d)))


def submit(opts, jobs, report, sweep):
    """Runs jobs [(kind, key, prog, lat)] as one job array and calls report(kind, prog, lat, record,
    error, seconds) for each, as the local path does. A task that left no result is a failure naming
    its log; Slurm's own errors (sbatch missing or refusing the job) are fatal."""
    d = os.path.abspath(opts.slurm_dir or os.path.join(
        opts.workdir, "slurm-%s-%d" % (time.strftime("%Y%m%d-%H%M%S"), os.getpid())))
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):  # results of an earlier array in the same directory are not this one's
        if f.startswith("result-") or f.startswith("task-"):
            os.unlink(os.path.join(d, f))
    write_json(os.path.join(d, "tasks.json"), {
        "options": {k: getattr(opts, k) for k in TASK_OPTIONS},
        "tasks": [{"kind": kind, "prog": p, "lat": lat} for kind, _, p, lat in jobs]})
    script = os.path.join(d, "sweep.sbatch")
    with open(script, "w", encoding="utf-8") as f:
        f.write(batch_script(d, len(jobs), sweep))
    cmd = [opts.sbatch, "--parsable", "--wait"] + shlex.split(opts.slurm_args or "") + [script]
    sys.stderr.write("sweep.py: %d task(s) as a Slurm job array: %s\n"
                     % (len(jobs), " ".join(map(shlex.quote, cmd))))
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           errors="replace")
    except OSError as e:
        sys.stderr.write("sweep.py: %s: %s (give --sbatch PATH)\n" % (opts.sbatch, e.strerror))
        sys.exit(2)
    job_id = p.stdout.strip().split(";")[0]
    if not job_id:
        sys.stderr.write("sweep.py: sbatch submitted nothing (status %d): %s\n"
                         % (p.returncode, p.stderr.strip()[-400:]))
        sys.exit(2)
    if p.returncode != 0:  # some task ended badly; whatever the others wrote is still gathered
        sys.stderr.write("sweep.py: Slurm job %s ended with status %d: %s\n"
                         % (job_id, p.returncode, p.stderr.strip()[-400:]))
    for i, (kind, _, prog, lat) in enumerate(jobs):
        path = os.path.join(d, "result-%d.json" % i)
        try:
            with open(path, encoding="utf-8") as f:
                r = json.load(f)
            report(kind, prog, lat, r.get("record"), r.get("error"), r.get("seconds", 0.0))
        except (OSError, ValueError) as e:
            report(kind, prog, lat, None, "Slurm task %s_%d left no result (%s; see %s)"
                   % (job_id, i, getattr(e, "strerror", None) or e,
                      os.path.join(d, "task-%d.log" % i)), 0.0)


def run_one(d, index, run_task):
    """The body of one array task: the index-th task of DIR/tasks.json through run_task."""
    try:
        with open(os.path.join(d, "tasks.json"), encoding="utf-8") as f:
            t = json.load(f)
        task = t["tasks"][int(index)]
        opts = types.SimpleNamespace(**t["options"])
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        sys.stderr.write("sweep.py --slurm-task %s %s: %s\n" % (d, index, e))
        return 2
    t0 = time.time()
    rec, err = run_task(opts, task["kind"], task["prog"], task["lat"])
    write_json(os.path.join(d, "result-%d.json" % int(index)),
               {"record": rec, "error": err, "seconds": round(time.time() - t0, 2)})
    return 0
