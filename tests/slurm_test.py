#!/usr/bin/env python3
# The Slurm path of validation/sweep.py (issue 38): starts a single-node Slurm cluster on this machine
# (munged with a temporary key, slurmctld and slurmd in the foreground, everything in a temporary
# directory, stopped at the end whatever happens), runs a small edan-only sweep (2 programs x 2
# latencies: the lambda and model runs of each program) through it as a job array, the same sweep
# through the local path, and checks that the two results files hold the same records; then that a
# rerun through Slurm submits nothing, and that removing one record reruns exactly that one.
#
#   python3 tests/slurm_test.py BUILD_DIR
#
# Exit status 77 (ctest's SKIP_RETURN_CODE) only when the daemons cannot run here and their logs say
# the machine refused them (ENVIRONMENT_DENIALS), with the logs; any other start failure fails.
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SWEEP = os.path.join(ROOT, "validation", "sweep.py")
SKIP = 77
# What daemons print when the machine (a container without the privileges or the network they need)
# refuses them, as opposed to a mistake in this test's set-up.
ENVIRONMENT_DENIALS = ("Operation not permitted", "Permission denied", "Cannot assign requested address",
                       "Address family not supported", "Function not implemented")


def fail(msg):
    sys.stderr.write("FAIL: %s\n" % msg)
    sys.exit(1)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tail(path, n=15):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-n:])
    except OSError:
        return "(no %s)\n" % path


class Cluster:
    """munged, slurmctld and slurmd of one node, all under tmp, torn down by stop()."""

    def __init__(self, tmp):
        self.tmp, self.procs = tmp, []
        self.host = socket.gethostname().split(".")[0]
        self.sock = os.path.join(tmp, "munge.socket")
        self.conf = os.path.join(tmp, "slurm.conf")
        self.env = dict(os.environ, SLURM_CONF=self.conf)

    def start(self):
        t = self.tmp
        for d in ("state", "spool"):
            os.makedirs(os.path.join(t, d))
        key = os.path.join(t, "munge.key")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(key, 0o600)
        self.spawn("munged", ["munged", "-F", "--force", "--key-file=" + key, "--socket=" + self.sock,
                              "--pid-file=" + os.path.join(t, "munged.pid"),
                              "--seed-file=" + os.path.join(t, "munge.seed"),
                              "--log-file=" + os.path.join(t, "munged.log")])
        for _ in range(100):
            if os.path.exists(self.sock):
                break
            time.sleep(0.1)
        user = subprocess.run(["id", "-un"], stdout=subprocess.PIPE, text=True).stdout.strip()
        with open(self.conf, "w") as f:
            f.write("\n".join([
                "ClusterName=edantest", "SlurmctldHost=%s(127.0.0.1)" % self.host,
                "SlurmctldPort=%d" % free_port(), "SlurmdPort=%d" % free_port(),
                "SlurmUser=%s" % user, "SlurmdUser=%s" % user,
                "AuthType=auth/munge", "CredType=cred/munge", "AuthInfo=socket=" + self.sock,
                "StateSaveLocation=" + os.path.join(t, "state"),
                "SlurmdSpoolDir=" + os.path.join(t, "spool"),
                "SlurmctldPidFile=" + os.path.join(t, "slurmctld.pid"),
                "SlurmdPidFile=" + os.path.join(t, "slurmd.pid"),
                "SlurmctldLogFile=" + os.path.join(t, "slurmctld.log"),
                "SlurmdLogFile=" + os.path.join(t, "slurmd.log"),
                "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none",
                "SelectType=select/cons_tres", "SelectTypeParameters=CR_CPU",
                "JobAcctGatherType=jobacct_gather/none", "AccountingStorageType=accounting_storage/none",
                "MpiDefault=none", "ReturnToService=2", "SlurmdTimeout=300", "InactiveLimit=0",
                "NodeName=%s NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN" % self.host,
                "PartitionName=test Nodes=%s Default=YES MaxTime=INFINITE State=UP" % self.host, ""]))
        self.spawn("slurmctld", ["slurmctld", "-D", "-i", "-f", self.conf])
        self.spawn("slurmd", ["slurmd", "-D", "-f", self.conf, "-N", self.host])
        state = ""
        for _ in range(600):
            for name, p in self.procs:
                if p.poll() is not None:
                    return "%s exited with status %d" % (name, p.returncode)
            r = subprocess.run(["sinfo", "-h", "-o", "%T"], env=self.env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
            state = r.stdout.strip()
            if r.returncode == 0 and state.startswith("idle"):
                return None
            time.sleep(0.2)
        return "the node never became idle (sinfo: %s)" % state

    def spawn(self, name, argv):
        log = open(os.path.join(self.tmp, name + ".out"), "w")
        self.procs.append((name, subprocess.Popen(argv, env=self.env, stdout=log,
                                                  stderr=subprocess.STDOUT, start_new_session=True)))

    def diagnosis(self):
        return "".join("--- %s\n%s" % (f, tail(os.path.join(self.tmp, f)))
                       for f in ("munged.out", "munged.log", "slurmctld.out", "slurmctld.log",
                                 "slurmd.out", "slurmd.log"))

    def stop(self):
        try:  # jobs of a failed run must not outlive the cluster
            subprocess.run(["scancel", "--full", "-u", str(os.getuid())], env=self.env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            pass
        for name, p in reversed(self.procs):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
                try:
                    p.wait(20)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait()


def records(path):
    """The results file without what differs between two runs of the same thing: wall times, and the
    digest of the model's trace (a recording under Slurm is not byte for byte the local one: the
    program's environment differs)."""
    with open(path) as f:
        d = json.load(f)

    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k not in ("wall_seconds", "record_seconds", "trace")}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x
    return strip(d)


def sweep(build, tmp, results, extra, env):
    cmd = [sys.executable, SWEEP, "--no-gem5", "--edan", os.path.join(build, "edan"),
           "--latencies", "50,200", "--results", results] + extra + [os.path.join(tmp, "list.tsv")]
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        fail("%s: status %d\n%s" % (" ".join(cmd), p.returncode, p.stderr))
    return p.stderr


def run_sweeps(build, tmp, c):
    local = os.path.join(tmp, "local", "results.json")
    slurm = os.path.join(tmp, "slurm", "results.json")
    sdir = os.path.join(tmp, "array")
    out = sweep(build, tmp, slurm, ["--slurm", "--slurm-dir", sdir], c.env)
    n = len([f for f in os.listdir(sdir) if f.startswith("result-")])
    if n != 4:  # lambda and model of each program
        fail("the job array left %d results, not 4:\n%s" % (n, out))
    with open(os.path.join(sdir, "sweep.sbatch")) as f:
        if "#SBATCH --array=0-3\n" not in f.read():
            fail("the batch script is not an array of 4 tasks")
    sweep(build, tmp, local, [], c.env)
    a, b = records(local), records(slurm)
    if a != b:
        diff = ["%s %s: local %s, Slurm %s" % (kind, k, json.dumps(a[kind].get(k))[:300],
                                               json.dumps(b[kind].get(k))[:300])
                for kind in ("edan", "model", "gem5") for k in sorted(set(a[kind]) | set(b[kind]))
                if a[kind].get(k) != b[kind].get(k)]
        if a["sweep"] != b["sweep"]:
            diff.append("the sweep tables differ")
        fail("the Slurm path's results differ from the local path's:\n" + "\n".join(diff))
    for row in a["sweep"]["programs"]:
        if not row["lambda"] or not row["model"] or "by_latency" not in row["model"]:
            fail("%s: no lambda or model result: %s" % (row["name"], row))
    # a rerun submits nothing; one removed record is the one task of the next array
    out = sweep(build, tmp, slurm, ["--slurm", "--slurm-dir", sdir], c.env)
    if "Slurm job array" in out:
        fail("a complete sweep submitted again:\n%s" % out)
    with open(slurm) as f:
        d = json.load(f)
    gone = sorted(d["model"])[0]
    del d["model"][gone]
    with open(slurm, "w") as f:
        json.dump(d, f)
    out = sweep(build, tmp, slurm, ["--slurm", "--slurm-dir", sdir], c.env)
    if "1 task(s) as a Slurm job array" not in out or "[1/1] model" not in out:
        fail("the rerun did not submit the one missing run:\n%s" % out)
    if records(slurm) != a:
        fail("after the rerun the results differ from the local path's")
    print("slurm: 4 tasks through a single-node Slurm equal the local path; reruns submit only "
          "what is missing")


def main():
    if len(sys.argv) != 2:
        fail("usage: slurm_test.py BUILD_DIR")
    build = os.path.abspath(sys.argv[1])
    for tool in ("munged", "slurmctld", "slurmd", "sbatch", "sinfo", "scancel"):
        if shutil.which(tool) is None and not os.path.exists("/usr/sbin/" + tool):
            fail("%s is not installed: apt-get install slurm-wlm munge (scripts/install-deps.sh)" % tool)
    os.environ["PATH"] += ":/usr/sbin"
    tmp = tempfile.mkdtemp(prefix="edan-slurm-")
    os.chmod(tmp, 0o755)  # munged refuses a key or socket directory others may write
    with open(os.path.join(tmp, "list.tsv"), "w") as f:
        f.write("sum\t%s\t2000\tkernel\n" % os.path.join(build, "examples", "sum"))
        f.write("chase\t%s\t1000\tkernel\n" % os.path.join(build, "examples", "pointer_chase"))
    c = Cluster(tmp)
    try:
        err = c.start()
        if err:
            logs = c.diagnosis()
            # Only what the machine forbids skips; anything else (a bad slurm.conf) is a failure.
            denied = [m for m in ENVIRONMENT_DENIALS if m in logs]
            if not denied:
                fail("the Slurm daemons did not start: %s\n" % err)
            sys.stderr.write("SKIP: the Slurm daemons cannot run here (%s): %s\n%s"
                             % ("; ".join(denied), err, logs))
        else:
            run_sweeps(build, tmp, c)
        status = SKIP if err else 0
    except BaseException:
        sys.stderr.write(c.diagnosis() + "(kept for inspection: %s)\n" % tmp)
        raise
    finally:
        c.stop()
    shutil.rmtree(tmp, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
