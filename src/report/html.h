/*
 * html.h - the self-contained HTML report (--html=FILE): one page that
 * holds the JSON report (schema "edan.analysis/1", docs/json-schema.md)
 * in a <script type="application/json"> block and renders it with its own
 * inline script and style sheet (src/report/html_report.js and .css,
 * embedded at build time): no network, no external script or font. The
 * JSON is the single definition of what the page shows; the page only
 * formats it (docs/json-schema.md#html-report).
 */
#ifndef EDAN_REPORT_HTML_H
#define EDAN_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "report/report.h"

/*
 * Write the page: the run's identity (src, edan's version, the time, the
 * process's command line and the program's arguments when they can be
 * told), then report_json (len bytes, one JSON object) as the page's data.
 * 0, or -1 when writing failed.
 */
int edan_report_html(FILE *f, const edan_report_source *src, const char *report_json, size_t len);

/*
 * The meta's "sources" (docs/json-schema.md#html-report): [{"file": path, "lines": [[N, "text"], ...]}, ...],
 * the lines around each "file":F,"line":N the report names, of the (at most four) readable files it names
 * most, each line cut at 400 bytes, control characters as '?'.
 */
void edan_html_sources(FILE *f, const char *report_json, size_t len);

/*
 * Copy text into a <script> element's data: every '<' (which JSON allows
 * only inside strings) becomes \u003c, so neither "</script" nor "<!--"
 * can end or alter the element, and JSON.parse gives back the same text.
 */
void edan_html_script_data(FILE *f, const char *text, size_t len);

#endif
