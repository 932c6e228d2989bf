# gem5 with its debug output into a FIFO, read as gem5 runs: the one runner of validation/pipeview.py (O3PipeView)
# and validation/pftrace.py (HWPrefetch, SyscallBase). A debug trace of a whole run is far larger than the part a
# script keeps, so it never reaches the disk: gem5 writes it into a FIFO (--debug-file) that consume() reads.
import os
import shutil
import signal
import subprocess
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))


class Gem5Missing(Exception):
    """gem5 could not be started (the message names the path tried)."""


def command(gem5, flags, outdir, machine, latency, cmd):
    """gem5's command line: flags, then validation/gem5_machine.py with machine, latency (None: the file's) and cmd."""
    return [gem5] + flags + ["-q", "--outdir=" + outdir, os.path.join(HERE, "gem5_machine.py"), "--machine",
                             machine] + (["--latency", str(latency)] if latency is not None else []) + ["--"] + cmd


def run(gem5, flags, machine, latency, cmd, consume, stop_early, prefix="gem5-fifo-"):
    """Run gem5 with flags and --debug-file=FIFO; consume(f) reads the FIFO, opened as text, as gem5 writes it.

    When consume raises, or returns before gem5 ends and stop_early is set (it has what it wants), gem5 is stopped
    (SIGTERM to its session); else gem5 runs to its end. If gem5 ends without opening the FIFO, consume sees an empty file. Returns (gem5's exit status,
    its standard error, the OSError or other exception consume raised or None); raises Gem5Missing if gem5 cannot be
    started. The temporary directory (gem5's outdir and the FIFO) is removed.
    """
    work = tempfile.mkdtemp(prefix=prefix)
    fifo = os.path.join(work, "debug.fifo")
    os.mkfifo(fifo)
    state = {"error": None}

    def reader():
        try:
            with open(fifo, encoding="utf-8", errors="replace") as f:
                consume(f)
        except Exception as e:  # noqa: BLE001  (handed back to the caller, which names it)
            state["error"] = e
    try:
        proc = subprocess.Popen(command(gem5, flags + ["--debug-file=" + fifo], work, machine, latency, cmd),
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace",
                                start_new_session=True)
    except OSError as e:
        shutil.rmtree(work, ignore_errors=True)
        raise Gem5Missing("%s: %s (--gem5 or GEM5 names gem5.opt)" % (gem5, e.strerror))
    th = threading.Thread(target=reader, daemon=True)
    th.start()
    # stderr is read as gem5 runs (a full pipe would stop it)
    err_text = []
    err_th = threading.Thread(target=lambda: err_text.append(proc.stderr.read()), daemon=True)
    err_th.start()
    while th.is_alive():
        th.join(1)
        if th.is_alive() and proc.poll() is not None:
            try:  # gem5 ended without opening the FIFO: let the reader see an empty file
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
            th.join(10)
            break
    if proc.poll() is None and (stop_early or state["error"] is not None):
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    proc.wait()
    err_th.join(10)
    shutil.rmtree(work, ignore_errors=True)
    return proc.returncode, (err_text[0] if err_text else ""), state["error"]
