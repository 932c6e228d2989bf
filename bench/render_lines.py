#!/usr/bin/env python3
"""render_lines.py - the lines of the tools' rendering code at a commit (issue 36's target).

usage: python3 bench/render_lines.py [COMMIT ...]   (default HEAD; run inside the repository)
       python3 bench/render_lines.py --functions COMMIT   (also list each counted function)

What counts, read from the commit's tree with git (no build):
- Files: the tools' sections and outputs, every .c file under src/tool/ (any depth), and
  src/report/report.c and src/report/critpath_report.c (the eDAG's and the critical path's sections,
  which lived there before the tools wrote them).
- Rendering code: the lines of every top-level function in those files that writes text, JSON or
  CSV or fills a result table, that is whose body calls one of RENDER_CALLS below (an output
  statement, a JSON or CSV writer, a name field, or a row, cell or rendering call of report/table.h,
  a tool's results rendered together, edan_results_*, and the memory tools' row fillers of
  tool/memory/loop_table.h included).
- Text made for a report (TEXT_CALLS: snprintf): a function that composes a string that a report,
  a table or a CSV file shows (a label, a row's sentence, a percentage in parentheses) is rendering
  as much as one that prints it, wherever the string is then written. Not counted are the functions
  of NOT_TEXT, whose snprintf makes no report text (an option's value, a path, an error, a plot's
  title or label, an identifier the tool's results hold as data); each has its reason there.
  A function counts whole, from its signature to its closing brace, without blank lines and lines
  that are only a comment; a function that only computes (no such call) does not count. Counted
  apart within it: "printing", the functions with an output statement or a JSON or CSV writer
  (PRINT_CALLS), "text", those that only compose text (TEXT_CALLS, no other call of RENDER_CALLS),
  and "filling", those that fill or render declared tables.
- Declarations, counted apart (not rendering code): the column and table declarations of
  report/table.h (`edan_column` and `edan_table_decl` arrays, from their first line to `};`), the
  text forms of edan_table_form() (`const char NAME_form[] = ...;`) and the column-index enums of
  the tools' *_tables.h.
- The shared renderer, counted apart: src/report/table*.c (table.c, table_results.c, table_form.c:
  the one renderer of every declared table).
"""
import re
import subprocess
import sys

RENDER_CALLS = re.compile(
    r"\b(fprintf|printf|fputs|puts|fputc|putc|putchar|fwrite|vfprintf"
    r"|edan_json_\w+|edan_csv_\w+|edan_name_field"
    r"|edan_table_(?:row|row_of|rows_of|of|text|json|json_member|json_object|form|form_row|csv\w*|str|init|init_cols)"
    r"|edan_results_\w+|edan_loop_(?:row|cells)|edan_insn_cells)\s*\(")
PRINT_CALLS = re.compile(
    r"\b(fprintf|printf|fputs|puts|fputc|putc|putchar|fwrite|vfprintf|edan_json_\w+|edan_csv_\w+|edan_name_field)\s*\(")
TEXT_CALLS = re.compile(r"\bsnprintf\s*\(")
# Functions whose snprintf makes no text of a report, with the reason (keyed "file:function"; a
# function of the same name elsewhere still counts). Checked at every commit counted: a key that
# names no function calling snprintf is reported, so the list cannot hide a new function.
NOT_TEXT = {
    "src/tool/base/base.c:edan_session_source_name": "a file's name (the trace's or program's base name)",
    "src/tool/base/base.c:edan_session_plot_ident": "the identification line of a plot's image",
    "src/tool/session.c:declare_output": "an option's name for an error about its path",
    "src/tool/graph/projection_tool.c:create": "options' paths copied into the tool",
    "src/tool/graph/projection_whatif.c:proj_whatif_new": "--what-if-csv's path copied",
    "src/tool/graph/timing_tool.c:create": "--machine's path copied",
    "src/tool/graph/timing_tool.c:parse_window": "an option's value split at its comma",
    "src/tool/graph/projection_sweep.c:plot_roofline": "a plot's labels",
    "src/tool/graph/projection_whatif_view.c:proj_whatif_plot": "a plot's series names",
    "src/tool/memory/zoom_tool.c:region_map": "a plot's labels",
    "src/tool/memory/zoom_tool.c:add_region": "a region's identifier (data: JSON's id)",
    "src/tool/memory/zoom_tool.c:zoom": "the regions' identifiers (data: JSON's id)",
    "src/tool/memory/zoom_memgaze.c:children": "the tree's node identifiers (data: JSON's id)",
    "src/tool/memory/zoom_memgaze.c:zoom_mg_build": "the root's identifier (data: JSON's id)",
}
DECL_START = re.compile(r"^(static\s+)?const\s+edan_(column|table_decl)\s+\w+\s*\[")
FORM_START = re.compile(r"^(static\s+)?const\s+char\s+\w*form\w*\s*\[\]\s*=")


def git(*args):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def files(commit):
    names = git("ls-tree", "-r", "--name-only", commit, "src/tool", "src/report").split()
    tool = [n for n in names if n.startswith("src/tool/") and n.endswith(".c")]
    sections = [n for n in names if n in ("src/report/report.c", "src/report/critpath_report.c")]
    tables_h = [n for n in names if n.startswith("src/tool/") and n.endswith("_tables.h")]
    return tool + sections, tables_h, [n for n in names if re.fullmatch(r"src/report/table\w*\.c", n)]


def code_lines(lines):
    """The lines that are neither blank nor only a comment."""
    n, in_comment = 0, False
    for line in lines:
        s = line.strip()
        if in_comment:
            if "*/" in s:
                in_comment = False
                s = s.split("*/", 1)[1].strip()
            else:
                continue
        if s.startswith("/*"):
            if "*/" not in s:
                in_comment = True
                continue
            s = s.split("*/", 1)[1].strip()
        if s and not s.startswith("//"):
            n += 1
    return n


def functions(text):
    """(name, lines of the function, its body) of each top-level function: a '{' alone at column 0
    after its signature, a '}' alone at column 0 at its end (the committed .clang-format's layout)."""
    lines = text.split("\n")
    out = []
    i = 0
    while i < len(lines):
        if lines[i] == "{":
            start = i
            while start > 0:
                prev = lines[start - 1]
                if (not prev.strip() or prev.startswith("#") or prev.rstrip().endswith((";", "}", "*/"))
                        or prev.startswith(("/*", " *"))):
                    break
                start -= 1
            end = i
            while end < len(lines) and lines[end] != "}":
                end += 1
            sig = " ".join(lines[start:i])
            m = re.search(r"(\w+)\s*\(", sig)
            out.append((m.group(1) if m else "?", lines[start:end + 1], "\n".join(lines[i:end + 1])))
            i = end + 1
        else:
            i += 1
    return out


def declarations(text):
    lines = text.split("\n")
    n, i = 0, 0
    while i < len(lines):
        if DECL_START.match(lines[i]):
            j = i
            while j < len(lines) and not lines[j].startswith("}"):
                j += 1
            n += code_lines(lines[i:j + 1])
            i = j + 1
        elif FORM_START.match(lines[i]):  # a text form (edan_table_form), up to its ';'
            j = i
            while j < len(lines) and not lines[j].rstrip().endswith(";"):
                j += 1
            n += code_lines(lines[i:j + 1])
            i = j + 1
        else:
            i += 1
    return n


def enums(text):
    lines = text.split("\n")
    n, i = 0, 0
    while i < len(lines):
        if lines[i].startswith("enum"):
            j = i
            while j < len(lines) and "}" not in lines[j]:
                j += 1
            n += code_lines(lines[i:j + 1])
            i = j + 1
        else:
            i += 1
    return n


def count(commit, listing=False):
    sources, tables_h, renderer = files(commit)
    render = decl = printing = text_only = 0
    per_file = []
    seen = set()
    for name in sources:
        text = git("show", f"{commit}:{name}")
        here = 0
        for fname, flines, body in functions(text):
            key = f"{name}:{fname}"
            composes = bool(TEXT_CALLS.search(body))
            if composes and key in NOT_TEXT:
                seen.add(key)
                composes = False
            if RENDER_CALLS.search(body) or composes:
                k = code_lines(flines)
                here += k
                printing += k if PRINT_CALLS.search(body) else 0
                text_only += k if composes and not RENDER_CALLS.search(body) else 0
                if listing:
                    print(f"    {key} {k}")
        render += here
        decl += declarations(text)
        if here:
            per_file.append((name, here))
    for name in tables_h:
        decl += enums(git("show", f"{commit}:{name}"))
    shared = sum(code_lines(git("show", f"{commit}:{n}").split("\n")) for n in renderer)
    return render, printing, text_only, decl, shared, per_file, seen


def main(argv):
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__.split("\n\n")[1])
        return 0
    listing = "--functions" in argv
    commits = [a for a in argv if a != "--functions"] or ["HEAD"]
    for commit in commits:
        if commit.startswith("-"):
            print(f"render_lines.py: unknown option {commit} (usage: [--functions] [COMMIT ...])", file=sys.stderr)
            return 2
        try:
            short = git("rev-parse", "--short", "--verify", "--quiet", commit + "^{commit}").strip()
        except subprocess.CalledProcessError:
            print(f"render_lines.py: {commit}: not a commit of this repository", file=sys.stderr)
            return 2
        render, printing, text_only, decl, shared, per_file, seen = count(commit, listing)
        if listing:
            for name, k in per_file:
                print(f"  {name} {k}")
            for key in sorted(set(NOT_TEXT) - seen):
                print(f"  (not at {short}: NOT_TEXT's {key})")
        print(f"{short} rendering {render} (printing {printing}, text {text_only}, "
              f"filling {render - printing - text_only}) declarations {decl} shared-renderer {shared}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
