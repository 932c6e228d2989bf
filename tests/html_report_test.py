#!/usr/bin/env python3
"""The HTML report (--html=FILE, issue 40) in a real browser.

usage: html_report_test.py BUILD_DIR SOURCE_DIR

1. `edan run --html` on the SpMV example (a machine, three memory latencies, the critical path, annotate):
   the page holds exactly the run's --json report; no external reference; in headless Chromium it loads
   with no console message and no network request (both detectors are first shown to catch a page made
   to fail them), a click on a header sorts the whole table, and a screenshot is drawn (pixel variety,
   read with a PNG decoder in pure Python). The critical path (and the data eDAG's, --critical-path=data)
   lists what carries each line's links, and the annotated hot source shows spmv.c's lines with the model's
   cycles and the path's carriers in the margin. `edan analyze --html` of a recorded trace gives a page too.
2. That report with 10^5 source lines (names holding '</script>' and '<!--'), written by the same writer
   (tests/html_page.c): under SIZE_BUDGET bytes, drawn within LOAD_BUDGET_MS, sorted over all rows, and
   its hot source (some rows name spmv.c) drawn.
"""
import html.parser
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

ROWS = 100_000
SIZE_BUDGET = 25 * 1024 * 1024  # bytes of the 10^5-row page
LOAD_BUDGET_MS = 8000  # navigation to drawn page, 10^5 rows (a loaded 2-core machine; typically < 1 s)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-default-apps",
         "--disable-extensions", "--enable-logging=stderr", "--v=0", "--window-size=1200,1600"]
failures = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        failures.append(what)


class Tables(html.parser.HTMLParser):
    """The DOM's data tables: id -> {"keys": header data-keys, "rows": [[(text, data-v)]]}, and the info lines."""

    def __init__(self):
        super().__init__()
        self.tables, self.cur, self.cell, self.ready, self.infos, self.in_info = {}, None, None, None, [], False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body" and "data-ready" in a:
            self.ready = int(a["data-ready"])
        if tag == "table" and (a.get("id") or "").startswith("t-"):
            self.cur = self.tables.setdefault(a["id"][2:], {"keys": [], "rows": []})
        elif self.cur is not None and tag == "th" and "data-key" in a:
            self.cur["keys"].append(a["data-key"])
        elif self.cur is not None and tag == "tr" and self.cur["keys"]:
            self.cur["rows"].append([])
        elif self.cur is not None and tag == "td":
            self.cell = ["", a.get("data-v")]
        elif tag == "span" and a.get("class") == "info":
            self.in_info = True
            self.infos.append("")

    def handle_endtag(self, tag):
        if tag == "table":
            self.cur = None
        elif tag == "td" and self.cell is not None:
            self.cur["rows"][-1].append(tuple(self.cell))
            self.cell = None
        elif tag == "span":
            self.in_info = False

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[0] += data
        if self.in_info:
            self.infos[-1] += data


def chromium(page, tmp, frag="", shot=None):
    """Load page (+#frag); the parsed DOM, the console lines and the page's own network requests."""
    net = os.path.join(tmp, "net.json")
    args = ["chromium"] + FLAGS + ["--log-net-log=" + net]
    args += ["--screenshot=" + shot] if shot else ["--dump-dom"]
    r = subprocess.run(args + ["file://" + page + frag], capture_output=True, text=True, timeout=90, cwd=tmp)
    console = [l for l in r.stderr.splitlines() if ":CONSOLE" in l]
    requests = []
    try:
        with open(net) as f:
            log = json.load(f)
        start = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
        for e in log["events"]:
            p = e.get("params", {})
            # the browser's own background requests have no origin; the page's have its (null for file:)
            if e["type"] == start and "url" in p and p.get("initiator") != "not an origin" and \
                    not p.get("url", "").startswith(("file:", "data:")):
                requests.append(p.get("url"))
    except (OSError, ValueError, KeyError) as e:
        requests.append("no network log: %s" % e)
    dom = Tables()
    dom.feed(r.stdout)
    dom.raw = r.stdout
    return dom, console, requests


def png_pixels(path):
    """(width, height, rows of bytes, bytes per pixel) of an 8-bit RGB(A) non-interlaced PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and not interlace, "PNG kind %d/%d" % (depth, ctype)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, rows, bpp


def column(dom, table, key):
    t = dom.tables.get(table, {"keys": [], "rows": []})
    if key not in t["keys"]:
        return []
    i = t["keys"].index(key)
    return [float(r[i][1]) if r[i][1] is not None else None for r in t["rows"] if len(r) > i]


def main():
    build, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    edan, spmv = os.path.join(build, "edan"), os.path.join(build, "examples", "spmv")
    machine = os.path.join(source, "machines", "gem5-validation.ini")
    tmp = tempfile.mkdtemp(prefix="edan-html-")
    try:
        page = os.path.join(tmp, "spmv.html")
        # cold: warm, spmv 400's data is in the caches and the memory chain has no access
        r = subprocess.run([edan, "run", "--filter=kernel", "--cold", "--machine=" + machine, "--mem-latency=50,150,300",
                            "--critical-path=data", "--annotate", "--json", "--html=" + page, spmv, "400"],
                           capture_output=True, text=True, timeout=120)
        check(r.returncode == 0 and os.path.exists(page), "edan run --html exits 0 and writes the page")
        text = open(page, encoding="utf-8").read()
        report = json.loads(r.stdout)
        m = re.search(r'<script type="application/json" id="edan-data">(.*?)</script>', text, re.S)
        data = json.loads(m.group(1)) if m else {}
        check(data.get("report") == report, "the page's data is the run's --json report")
        meta = data.get("meta", {})
        check(meta.get("arguments") == ["400"] and meta.get("edan_version"),
              "the page names the arguments, version: %s" % meta.get("arguments"))
        check(not re.search(r'(src|href|action)\s*=\s*["\']?\s*(https?:)?//', text, re.I) and "<link" not in text
              and "@import" not in text and "url(" not in text, "no external reference in the page")
        check(text.count("</script>") == 2, "the data cannot end its script element early")

        # the detectors first catch a page made to fail them
        bad = os.path.join(tmp, "bad.html")
        with open(bad, "w") as f:
            f.write(re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", text).replace(
                "<main", '<img src="http://127.0.0.1:9/x.png"><script>console.error("edan-bad")</script><main'))
        _, console, requests = chromium(bad, tmp)
        check(any("edan-bad" in l for l in console) and requests, "the detectors catch a console error and a request")

        dom, console, requests = chromium(page, tmp)
        check(dom.ready is not None, "the page drew itself (data-ready)")
        check(not console, "no console message: %s" % console[:3])
        check(not requests, "no network request: %s" % requests[:3])
        check("<th>program exit</th><td>exit status 0</td>" in dom.raw and
              report["source"]["program_exit"] == {"status": 0, "signal": None, "ignore_exit": False},
              "the Run table and the report say how the program ended")
        for t in ("latency", "pred-functions", "pred-lines", "configurations", "critical_path", "memory_chain",
                  "data_critical_path", "data_memory_chain", "annotate", "source-0"):
            check(len(dom.tables.get(t, {"rows": []})["rows"]) > 0, "table %s has rows" % t)
        # the critical path names what carries each line's links, as the JSON report does
        cp = dom.tables.get("critical_path", {"keys": [], "rows": []})
        vias = [r[cp["keys"].index("via")][0] for r in cp["rows"]] if "via" in cp["keys"] else []
        check(sorted(vias) == sorted(l["via"] for l in report["critical_path"]["lines"][:100]) and
              any(v not in ("-", "") for v in vias), "the critical path's via column: %s" % vias[:5])
        # the annotated hot source: spmv.c's text, the model's cycles and the critical path beside its lines
        src = dom.tables.get("source-0", {"keys": [], "rows": []})
        k = src["keys"]
        body = {int(r[0][0]): r for r in src["rows"] if r and r[0][0].isdigit()}
        kernel_text = open(os.path.join(source, "examples", "spmv.c")).read().splitlines()
        hot = max(report["prediction"]["lines"], key=lambda l: l["cycles"][0])
        row = body.get(hot["line"])
        check(row is not None and "text" in k and row[k.index("text")][0] == kernel_text[hot["line"] - 1]
              and "cycles" in k and row[k.index("cycles")][1] == str(hot["cycles"][0]),
              "the hot source shows line %d's text and its %d model cycles" % (hot["line"], hot["cycles"][0]))
        on_path = {l["line"]: l["via"] for l in report["critical_path"]["lines"] if l["file"].endswith("spmv.c")}
        check(on_path and all(body.get(n) and body[n][k.index("via")][0] == v for n, v in on_path.items()),
              "the hot source's via column holds the critical path's carriers: %s" % on_path)
        lines = report["annotate"]["lines"]
        dom, console, _ = chromium(page, tmp, "#click=annotate.instructions")
        col = column(dom, "annotate", "instructions")
        want = sorted((l["instructions"] for l in lines), reverse=True)[:100]
        check(col == want and not console, "a click on 'instructions' sorts all lines, most first")
        dom, _, _ = chromium(page, tmp, "#sort=pred-functions.cycles.asc")
        col = column(dom, "pred-functions", "cycles")
        want = sorted(f["cycles"][0] for f in report["prediction"]["functions"])[:100]
        check(col == want, "#sort=pred-functions.cycles.asc sorts ascending")

        shot = os.path.join(tmp, "shot.png")
        chromium(page, tmp, shot=shot)
        w, h, rows, bpp = png_pixels(shot)
        colours, ink = set(), 0
        for y in range(0, h, 4):
            for x in range(0, w, 4):
                px = rows[y][x * bpp:x * bpp + 3]
                colours.add(px)
                ink += px != b"\xff\xff\xff"
        check(len(colours) > 50 and ink > 0.03 * (w // 4) * (h // 4),
              "the screenshot is drawn (%d colours, %d of %d samples not white)" % (len(colours), ink,
                                                                                  (w // 4) * (h // 4)))

        # analyze: a recorded trace's page
        trace, page2 = os.path.join(tmp, "spmv.edt"), os.path.join(tmp, "analyze.html")
        r1 = subprocess.run([edan, "record", "--filter=kernel", "-o", trace, spmv, "200"], capture_output=True,
                            timeout=120)
        r2 = subprocess.run([edan, "analyze", "--critical-path", "--html=" + page2, trace], capture_output=True,
                            timeout=120)
        dom, console, requests = chromium(page2, tmp)
        check(r1.returncode == 0 and r2.returncode == 0 and dom.ready is not None and not console and not requests
              and dom.tables.get("configurations", {"rows": []})["rows"], "edan analyze --html draws its page")
        page3 = os.path.join(tmp, "rank.html")
        r4 = subprocess.run([edan, "rank", "--cache=32K", "--html=" + page3, trace, os.path.join(source, "tests",
                             "golden", "figure6.txt")], capture_output=True, timeout=120)
        dom, console, requests = chromium(page3, tmp, "#sort=rank-by_lambda.lambda.asc") if r4.returncode == 0 \
            else (Tables(), ["not run"], [])
        col = column(dom, "rank-by_lambda", "lambda")
        check(not console and not requests and len(col) == 2 and col == sorted(col),
              "edan rank --html draws its programs, sorted: %s" % col)
        r3 = subprocess.run([edan, "analyze", "--html=" + trace, trace], capture_output=True, timeout=60)
        check(r3.returncode == 2 and os.path.getsize(trace) > 0, "--html naming the input trace is refused")

        # annotate (with the timing model's lines) and locality: their sections' tables
        for cmd, extra, want in (("annotate", ["--machine=" + machine, "--mem-latency=50,300"],
                                  ("annotate", "pred-lines", "critical_path")),
                                 ("locality", [], ("footprint-loops", "reuse-loops", "load_classes-loads"))):
            p = os.path.join(tmp, cmd + ".html")
            r = subprocess.run([edan, cmd, "--filter=kernel", "--html=" + p] + extra + [spmv, "300"],
                               capture_output=True, timeout=120)
            dom, console, requests = chromium(p, tmp) if r.returncode == 0 else (Tables(), ["not run"], [])
            check(dom.ready is not None and not console and not requests
                  and all(dom.tables.get(t, {"rows": []})["rows"] for t in want),
                  "edan %s --html draws %s" % (cmd, ", ".join(want)))

        # 10^5 rows, names that try to end the script element
        rnd = random.Random(40)
        big = dict(report)
        big["annotate"] = dict(report["annotate"])
        spmv_c = os.path.join(source, "examples", "spmv.c")
        big["annotate"]["lines"] = [{"file": spmv_c if i % 977 == 0 else "src/f%d.c" % (i % 977),
                                     "line": i % 50 + 1 if i % 977 == 0 else i + 1,
                                     "function": "k</script><!--%d" % (i % 13) if i % 1000 == 0 else "fn%d" % (i % 5003),
                                     "instructions": rnd.randrange(1, 10**7), "mem": rnd.randrange(0, 10**6),
                                     "span_cycles": rnd.randrange(0, 10**5), "chain_accesses": rnd.randrange(0, 100)}
                                    for i in range(ROWS)]
        bigjson, bigpage = os.path.join(tmp, "big.json"), os.path.join(tmp, "big.html")
        with open(bigjson, "w") as f:
            json.dump(big, f, separators=(",", ":"))
        subprocess.run([os.path.join(build, "html_page"), bigjson, bigpage], check=True, timeout=60)
        size = os.path.getsize(bigpage)
        check(size < SIZE_BUDGET, "10^5 rows: %d bytes < %d" % (size, SIZE_BUDGET))
        t0 = time.time()
        dom, console, requests = chromium(bigpage, tmp, "#sort=annotate.mem.desc")
        wall = time.time() - t0
        col = column(dom, "annotate", "mem")
        want = sorted((l["mem"] for l in big["annotate"]["lines"]), reverse=True)[:100]
        check(dom.ready is not None and dom.ready < LOAD_BUDGET_MS,
              "10^5 rows drawn and sorted in %s ms < %d ms (browser %.1f s)" % (dom.ready, LOAD_BUDGET_MS, wall))
        check(col == want and not console and not requests, "10^5 rows: sorted over all rows, one page drawn, clean")
        check(any("of 100,000" in i for i in dom.infos), "10^5 rows: the pager counts them all")
        check(len(dom.tables.get("source-0", {"rows": []})["rows"]) > 0, "10^5 rows: the hot source is drawn")
        m = re.search(r'<script type="application/json" id="edan-data">(.*?)</script>', open(bigpage).read(), re.S)
        check(m and json.loads(m.group(1))["report"] == big, "10^5 rows: names with '</script>' survive intact")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
