#!/usr/bin/env python3
"""The eDAG rule (a vertex's finish time and memory depth from its predecessors') is written once, in
src/analysis/edag/edag_rule.h: no other file of src/analysis/ writes out one of its steps.

usage: edag_rule_test.py SRC_DIR   check the tree (its analysis/ folder)
       edag_rule_test.py --self-test  check the checker: every line of COPIES (the rule as the analyzer and the
                                      tracker wrote it out before it had one definition) is found, no line of
                                      CLEAN (the rule's calls, and the totals' maxima and sums beside it) is

The steps, as the patterns find them written out with the rule's operators instead of its functions:
  - ready(v) / md_in(v): a max of maxes of predecessors' states (scalar or lanes)
  - t(v): a choice of alpha by whether the vertex reaches RAM
  - F(v) = S(v) + t(v): a start, ready time or joined maximum plus a cost
  - md(v) = md_in(v) + [v counts]: a depth plus the reached-RAM flag
  - the tracker's pick: ties to the earliest vertex by comparing the vertices' by (index + 1)
Prints 'N passed, N failed' and every line found; exits 1 when the rule is written out elsewhere.
"""
import os
import re
import sys

RULE = "analysis/edag/edag_rule.h"

PATTERNS = [
    ("a join of predecessors by max of maxes", re.compile(r"max_u64\([^;]*max_u64\(|VMAX\([^;]*VMAX\(")),
    ("a join of lanes' states by VMAX", re.compile(r"VMAX\(\s*[fm]\w*\s*,")),
    ("t(v) chosen by hand", re.compile(r"\?\s*[\w>.\-\[\]]*\balpha\b|VLOAD\(alpha\b[^;]*&")),
    ("F(v) = start + cost by hand",
     re.compile(r"\b(Fin|ready|start|p\.F|pk\.F|info->ready)(\[k\])?\s*\+\s*(t\b|cost\b|info->cost\b|\(mem\b)"
                r"|\)\s*\+\s*t\s*[;,]")),
    ("md(v) = md_in + [reaches RAM] by hand",
     re.compile(r"\b(md|mdin|Md|md_in)(\[k\])?\s*\+\s*\(?\s*(to_ram|mem|reached)\b"
                r"|\)\s*\+\s*(to_ram|mem)\s*[;,]|\bmd\s*\+=\s*(to_ram|mem)\b")),
    ("the tracker's tie rule by hand", re.compile(r"\bby\s*(-\s*1\s*)?<|_by\s*\|\|\s*\w+\s*>")),
]

# Lines of the copies the rule replaced (src/analysis/edag/ and deps/ before edag_rule.h): each must be found.
COPIES = [
    "uint64_t Fin = max_u64(max_u64(regF[op.src[0]], regF[op.src[1]]), regF[op.src[2]]);",
    "uint64_t mdin = max_u64(max_u64(regMd[op.src[0]], regMd[op.src[1]]), regMd[op.src[2]]);",
    "const uint64_t t = to_ram ? L->cost.alpha : L->cost.cls[op.cls];",
    "uint64_t F = Fin + t, md = mdin + to_ram;",
    "max_u64(regF[op.src[0]], max_u64(edan_shadow_F_get(unit[0], 0, N), edan_shadow_F_get(unit[1], 0, N)));",
    "const uint64_t t = to_ram ? L->cost.alpha : L->cost.cls[op.cls], F = Fin + t, md = mdin + to_ram;",
    "md = max_u64(regMd[op.src[0]], regMd[op.src[1]]) + to_ram;",
    "const uint64_t F = Fin + t;",
    "Fin[k] = max_u64(Fin[k], max_u64(e->regF[dst + k], e->regRF[dst + k]));",
    "F[k] = Fin[k] + t;",
    "md[k] = mdin[k] + (to_ram && is_member);",
    "const lane_vec f01 = VMAX(f0, f1), m01 = VMAX(m0, m1);",
    "const lane_vec f = VMAX(f01, f2) + t;",
    "const uint64_t f = max_u64(max_u64(F0[k], F1[k]), F2[k]) + t;",
    "VSTORE(t_of + b, (VLOAD(alpha + b) & to_ram) | (VLOAD(cls_cost + b) & ~to_ram));",
    "t_of[k] = to_ram ? alpha[k] : cls_cost[k];",
    "Fd[k] = F[k] = Fin[k] + t;",
    "Md[k] = md[k] = mdin[k] + reached[k];",
    "const lane_vec f = VLOAD(Fin + b) + t, m = VLOAD(mdin + b) + to_ram;",
    "VSTORE(Fin + b, VMAX(f, VMAX(f0, f1)));",
    "VSTORE(mdin + b, VMAX(m, sm));",
    "x->cost = mem ? t->lane.cost.alpha : t->lane.cost.cls[in->cls < EDAN_CLASS_COUNT ? in->cls : 0];",
    "x->md = p.md + mem;",
    "const uint64_t addr = rec->addr, v = x->v, F = start + cost;",
    "if (by && (!p->crit || F > p->F || (F == p->F && by < p->crit))) {",
    "return by && (!bby || F > bF || (F == bF && by < bby));",
    "return F > bF || (F == bF && by - 1 < bby - 1);",
    "if (!r->F_by || F > r->F) {",
    "const uint64_t v = t->tot.vertices, md = p.md + mem;",
    "const uint64_t F = p.F + cost;",
    "const uint64_t F = p.F + (mem ? t->lane.cost.alpha : op->cost), md = p.md + mem;",
    "cost = mem ? t->lane.cost.alpha : cost;",
    "pk.md += mem;",
    "const uint64_t F = pk.F + cost;",
    "const uint64_t cost = mem  ? c->lane.cost.alpha",
]

# Lines that are not the rule, or are its calls: none may be found.
CLEAN = [
    "uint64_t Fin = edan_rule_join3(regF[op.src[0]], regF[op.src[1]], regF[op.src[2]]);",
    "uint64_t F = edan_rule_finish(Fin, t), md = edan_rule_depth(mdin, to_ram);",
    "VSTORE(Fin + b, edan_rule_join3_vec(f0, f1, f2));",
    "const lane_vec f = edan_rule_finish_vec(VLOAD(Fin + b), t),",
    "VSTORE(C + b, VLOAD(C + b) + t);",
    "VSTORE(W + b, VLOAD(W + b) + to_ram);",
    "VSTORE(Tinf + b, VMAX(tinf, f));",
    "VSTORE(D + b, VMAX(VLOAD(D + b), VLOAD(md + b) & -to_ram));",
    "L->st.Tinf = max_u64(L->st.Tinf, F);",
    "D[k] = max_u64(D[k], ram[k] ? md[k] : 0);",
    "if (edan_rule_beats(F, v + 1, r->F, r->F_by)) {",
    "uint64_t max_cost = c->alpha, bound;",
    "f->end = start + (size ? size : 2);",
]


def findings(line):
    """The patterns a line of code matches (comment lines are none)."""
    code = line.strip()
    if code.startswith(("*", "/*", "//")):
        return []
    return [name for name, rx in PATTERNS if rx.search(code)]


def check_tree(src):
    found = []
    for root, dirs, files in os.walk(os.path.join(src, "analysis")):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, src).replace(os.sep, "/")
            if rel == RULE:
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                for lineno, line in enumerate(f, 1):
                    for what in findings(line):
                        found.append(f"src/{rel}:{lineno}: {what}, outside {RULE}: {line.strip()}")
    if not os.path.exists(os.path.join(src, RULE)):
        found.append(f"src/{RULE} is missing")
    return found


def self_test():
    bad = [f"not found: {line}" for line in COPIES if not findings(line)]
    bad += [f"found in a clean line ({', '.join(findings(line))}): {line}" for line in CLEAN if findings(line)]
    return bad


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    if sys.argv[1] == "--self-test":
        bad, total = self_test(), len(COPIES) + len(CLEAN)
    else:
        bad, total = check_tree(sys.argv[1]), 1
    for b in bad:
        print(b)
    failed = len(bad) if sys.argv[1] == "--self-test" else int(bool(bad))
    print(f"{total - failed} passed, {failed} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
