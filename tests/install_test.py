#!/usr/bin/env python3
"""The man page and bash completion make install puts in place (issue 40, part 5).

usage: install_test.py BUILD_DIR SOURCE_DIR

Installs the build with DESTDIR into a temporary directory, as make install does (cmake --install), then:
the installed man page renders with man -l (and groff -ww) without a warning, names every command of
edan --help, every option of edan help --option-table and every exit status the README documents; the
installed completion, sourced in bash, completes 'edan ru' to run, 'edan run --mach' to --machine= and
'edan run --machine=se' to the installed machines whose names start with 'se'.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

BUILD, SOURCE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
failures = 0


def check(ok, what):
    global failures
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures += 1


def readme_exit_codes():
    """The exit statuses README.md's 'Options and exit status' paragraph documents ('exits with 0 on', '; 2
    for', '1 when')."""
    text = open(os.path.join(SOURCE, "README.md"), encoding="utf-8").read()
    para = text[text.index("Options and exit status"):]
    para = " ".join(para[:para.index("\n\n")].split())
    codes = set(re.findall(r"exits with (\d+)", para)) | set(re.findall(r"[;.] (\d+) (?:for|when)", para))
    return sorted(codes)


def main():
    edan = os.path.join(BUILD, "edan")
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, DESTDIR=d)
        p = subprocess.run(["cmake", "--install", BUILD, "--prefix", "/usr"], env=env, capture_output=True,
                           text=True)
        check(p.returncode == 0, f"cmake --install with DESTDIR: {p.stderr.strip()}")
        page = os.path.join(d, "usr", "share", "man", "man1", "edan.1")
        comp = os.path.join(d, "usr", "share", "bash-completion", "completions", "edan")
        check(os.path.isfile(page), "share/man/man1/edan.1 is installed")
        check(os.path.isfile(comp), "share/bash-completion/completions/edan is installed")
        if failures:
            return

        # The page renders without a warning.
        if shutil.which("man"):
            r = subprocess.run(["man", "-l", page], env=dict(os.environ, MANWIDTH="80", MAN_KEEP_STDERR="1"),
                               capture_output=True, text=True)
            check(r.returncode == 0 and r.stderr == "", f"man -l renders the page with no warning: {r.stderr!r}")
            text = r.stdout
        else:
            check(False, "man is installed (man-db, scripts/install-deps.sh)")
            text = ""
        r = subprocess.run(["groff", "-ww", "-man", "-Tutf8", page], capture_output=True, text=True)
        check(r.returncode == 0 and r.stderr == "", f"groff -ww -man renders the page with no warning: {r.stderr!r}")
        # man and groff may hyphenate or draw '-' as another character: compare with both undone.
        plain = re.sub(r".\x08", "", text or r.stdout).replace("\u2010", "-").replace("\u2212", "-")
        plain = re.sub(r"-\n\s*", "-", plain)

        top = subprocess.run([edan, "--help"], capture_output=True, text=True).stdout
        cmds = re.findall(r"^  (\S+)\s", top[top.index("Commands:"):], re.M)
        check(len(cmds) >= 9, f"edan --help lists the commands: {cmds}")
        missing = [c for c in cmds if not re.search(r"^   " + re.escape(c) + r"$", plain, re.M)]
        check(not missing, f"the page has a section for each of the {len(cmds)} commands (missing: {missing})")
        rows = [json.loads(ln) for ln in subprocess.run([edan, "help", "--option-table"], capture_output=True,
                                                         text=True).stdout.splitlines() if ln.strip()]
        opts = sorted({r["option"] for r in rows if "option" in r})
        missing = [o for o in opts if not re.search(r"--" + re.escape(o) + r"\b", plain)]
        check(len(opts) > 50 and not missing,
              f"the page names each of the {len(opts)} options of the option table (missing: {missing})")
        codes = readme_exit_codes()
        section = plain[plain.index("EXIT STATUS"):plain.index("ENVIRONMENT")] if "EXIT STATUS" in plain else ""
        listed = re.findall(r"^       (\d+)\s", section, re.M)
        check(codes == ["0", "1", "2", "3", "4"] and sorted(listed) == codes,
              f"EXIT STATUS lists the README's exit codes {codes}: {listed}")
        version = subprocess.run([edan, "--version"], capture_output=True, text=True).stdout.split()[-1]
        check(("edan " + version) in plain.splitlines()[-1], f"the page's footer carries edan {version}")

        # The completion, driven through its function as bash's programmable completion calls it.
        script = f"""source {comp}
c() {{ COMP_WORDS=("$@"); COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1)); _edan; echo "${{COMPREPLY[*]}}"; }}
c edan ru
c edan run --mach
c edan run --machine = se
c edan run --machine=se
c edan convert --
c edan run --filter = kernel ./tes
complete -p edan
"""
        bindir = os.path.join(d, "usr", "bin")
        r = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], capture_output=True, text=True,
                           cwd=SOURCE, env=dict(os.environ, PATH=bindir + ":" + os.environ["PATH"],
                                                DESTDIR=""))
        out = r.stdout.split("\n")
        check(r.returncode == 0 and r.stderr == "", f"bash sources the completion and runs it: {r.stderr!r}")
        if len(out) < 7:
            check(False, f"completion output: {out}")
            return 1
        check(out[0] == "run", f"'edan ru<TAB>' completes to run: {out[0]!r}")
        check(out[1] == "--machine=", f"'edan run --mach<TAB>' completes to --machine=: {out[1]!r}")
        shipped = sorted(f[:-4] for f in os.listdir(os.path.join(SOURCE, "machines")) if f.endswith(".ini"))
        want = [n for n in shipped if n.startswith("se")]
        check(want and sorted(out[2].split()) == want,
              f"'--machine=se<TAB>' (split at '=') offers the installed machines {want}: {out[2]!r}")
        check(sorted(out[3].split()) == ["--machine=" + n for n in want],
              f"'--machine=se<TAB>' (one word) keeps the prefix: {out[3]!r}")
        check(sorted(out[4].split()) == ["--binary", "--help", "--text"],
              f"convert's options come from its usage line: {out[4]!r}")
        check(sorted(out[5].split()) == ["./tests"], f"an option's other values complete file names: {out[5]!r}")
        check("-F _edan edan" in out[6], f"the function is registered for edan: {out[6]!r}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main() or (1 if failures else 0))
