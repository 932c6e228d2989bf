#!/usr/bin/env python3
"""Write edan's man page (roff, man(7) macros) from the built edan's own output.

usage: gen-man.py EDAN OUT.1 [--prefix=PREFIX]

Everything a user could see drift comes from the binary: the version (edan --version), the commands and
their one-line summaries (edan --help), each command's synopsis and options (edan CMD --help, kept as the
binary prints it) and the index of every option with the commands that accept it (the hidden
edan help --option-table). Only the exit statuses, documented in the README, are written here; the
install test checks that every one of them is listed.
"""
import json
import re
import subprocess
import sys

# README.md, "Options and exit status".
EXIT_STATUS = [
    ("0", "success."),
    ("1", "something outside edan failed: QEMU missing or killed, a write to a full disk or to a closed "
          "standard output."),
    ("2", "bad input or options, with one line naming the file and the line or offset; also when the input "
          "needs more than there is (out of memory, a total past 2^64 \u2212 1)."),
    ("3", "the traced program exited with a non-zero status; edan's results are complete (with "
          "--ignore-exit, 0)."),
    ("4", "the traced program was killed by a signal; edan's results, up to the signal, are complete (with "
          "--ignore-exit, 0)."),
]
EXIT_NOTE = ("The JSON report records how the traced program ended and whether --ignore-exit was given "
             "(source.program_exit: status, signal, ignore_exit); the HTML report shows it in its Run table.")


def run(edan, *args):
    p = subprocess.run([edan, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        sys.exit(f"gen-man.py: {edan} {' '.join(args)} exited with {p.returncode}:\n{p.stdout}")
    return p.stdout


def esc(text):
    """Text safe in roff: backslashes and hyphens escaped (\\- is the ASCII hyphen-minus a user types),
    a line that would start with a control character ('.' or ') preceded by the zero-width \\&, and
    any other non-ASCII character as \\[uXXXX] so that groff reads the page without preconv."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    text = text.replace("\u2212", "\\-")
    text = "".join(c if ord(c) < 128 else "\\[u%04X]" % ord(c) for c in text)
    return "\n".join("\\&" + ln if ln.startswith((".", "'")) else ln for ln in text.split("\n"))


def commands(top_help):
    """(name, summary) of each command in the Commands: block of edan --help."""
    out, inside = [], False
    for line in top_help.splitlines():
        if line.strip() == "Commands:":
            inside = True
            continue
        if inside:
            if not line.startswith("  "):
                break
            name, _, summary = line.strip().partition(" ")
            out.append((name, summary.strip()))
    return out


def split_help(text):
    """(usage lines without 'usage: ', the rest) of a command's --help."""
    lines = text.rstrip("\n").split("\n")
    usage = []
    while lines and (lines[0].startswith("usage: ") or (usage and lines[0].startswith("       edan"))):
        usage.append(lines.pop(0)[len("usage: "):].strip())
    return usage, "\n".join(lines)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__.strip().split("\n\n")[1])
    edan, out_path = argv[1], argv[2]
    prefix = "/usr/local"
    for a in argv[3:]:
        if a.startswith("--prefix="):
            prefix = a[len("--prefix="):]
    version = run(edan, "--version").split()[-1]
    top = run(edan, "--help")
    cmds = commands(top)
    if not cmds:
        sys.exit("gen-man.py: no Commands: block in edan --help")
    table = [json.loads(ln) for ln in run(edan, "help", "--option-table").splitlines() if ln.strip()]
    options = {}
    for row in table:
        if "option" in row:
            options.setdefault(row["option"], {"kind": row["kind"], "commands": []})
            for c in row["commands"]:
                if c not in options[row["option"]]["commands"]:
                    options[row["option"]]["commands"].append(c)
    intro = top.split("\n\n")[1] if "\n\n" in top else ""

    r = []
    r.append(f'.TH EDAN 1 "" "edan {esc(version)}" "User Commands"')
    r.append(".SH NAME")
    r.append("edan \\- trace RISC\\-V programs under QEMU and compute their eDAG metrics, timing and locality")
    r.append(".SH SYNOPSIS")
    for name, _ in cmds:
        r.append(f".B edan {esc(name)}")
        r.append(".RI [ options ] \\ ...")
        r.append(".br")
    r.append(".B edan")
    r.append(".RB [ \\-\\-help | \\-\\-version ]")
    r.append(".SH DESCRIPTION")
    r.append(esc(" ".join(intro.split())))
    r.append(".PP")
    r.append("The timing model (\\fB\\-\\-machine\\fR), the locality analyses (\\fB\\-\\-reuse\\fR, "
             "\\fB\\-\\-classes\\fR, \\fB\\-\\-zoom\\fR), the projection (\\fB\\-\\-projection\\fR) and the "
             "annotated source (\\fBannotate\\fR) are options and commands below. "
             "\\fBedan\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR prints the section of this page about "
             "\\fICOMMAND\\fR.")
    r.append(".SH COMMANDS")
    for name, summary in cmds:
        usage, body = split_help(run(edan, name, "--help"))
        r.append(f".SS {esc(name)}")
        r.append(esc(summary) + ".")
        r.append(".PP")
        for u in usage:
            r.append(".B " + esc(u))
            r.append(".br")
        r.append(".PP")
        r.append(".nf")
        r.append(".in +2")
        r.append(esc(body.strip("\n")).replace("\n\n", "\n\\&\n"))
        r.append(".in")
        r.append(".fi")
    r.append(".SH OPTION INDEX")
    r.append("Every option and the commands that accept it (from \\fBedan help \\-\\-option\\-table\\fR).")
    for opt, info in options.items():
        arg = "" if info["kind"] == "flag" else "=\\fI" + esc(info["kind"].upper()) + "\\fR"
        r.append(".TP")
        r.append(f"\\fB\\-\\-{esc(opt)}\\fR{arg}")
        r.append(esc(", ".join(info["commands"])))
    r.append(".SH EXIT STATUS")
    for code, text in EXIT_STATUS:
        r.append(".TP")
        r.append(".B " + code)
        r.append(esc(text))
    r.append(".PP")
    r.append(esc(EXIT_NOTE))
    r.append(".SH ENVIRONMENT")
    r.append(".TP")
    r.append(".B EDAN_QEMU")
    r.append("the QEMU user\\-mode emulator when \\fB\\-\\-qemu\\fR is not given [qemu\\-riscv64 on PATH].")
    r.append(".TP")
    r.append(".B EDAN_PLUGIN")
    r.append("edan's TCG plugin when \\fB\\-\\-plugin\\fR is not given.")
    r.append(".SH FILES")
    r.append(".TP")
    r.append(".I " + esc(prefix.rstrip("/") + "/share/edan/machines/*.ini"))
    r.append("the machine descriptions \\fB\\-\\-machine\\fR=\\fINAME\\fR finds by name; "
             "\\fBedan machines\\fR lists them.")
    r.append(".TP")
    r.append(".I " + esc(prefix.rstrip("/") + "/lib/edan/libedan_plugin.so"))
    r.append("edan's TCG plugin, found from \\fIbin/../lib/edan\\fR.")
    r.append(".SH SEE ALSO")
    r.append(".BR qemu\\-riscv64 (1),")
    r.append(".BR gnuplot (1),")
    r.append(".BR dot (1);")
    r.append("the README and \\fIdocs/\\fR of the edan source tree.")
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("\n".join(r) + "\n")


if __name__ == "__main__":
    main(sys.argv)
