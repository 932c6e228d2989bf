/*
 * html_sources.c - the source text the HTML report's annotated hot source
 * shows (html.h): the lines around every source line the JSON report
 * names, of the files it names most, read when the page is written (the
 * page must open anywhere, without the sources beside it).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/json.h"
#include "util/files.h"

/* Bounds: the page stays small whatever the report names (10^5 lines of 977 files in the budget test). */
#define MAX_FILES 4        /* files whose text is embedded, those the report names most */
#define CONTEXT 3          /* lines around each named line */
#define MAX_LINES 3000     /* lines embedded per file */
#define MAX_LINE_BYTES 400 /* a longer line is cut */
#define MAX_SOURCE (16u << 20)

/* One (file, line) the report names: the file's name as it stands in the JSON text (escaped). */
typedef struct named_line {
    const char *file;
    size_t file_len;
    unsigned line;
} named_line;

static int by_file_line(const void *a, const void *b)
{
    const named_line *x = a, *y = b;
    const size_t n = x->file_len < y->file_len ? x->file_len : y->file_len;
    const int c = memcmp(x->file, y->file, n);
    if (c || x->file_len != y->file_len)
        return c ? c : x->file_len < y->file_len ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* One file's run of named lines in the sorted list. */
typedef struct file_run {
    size_t from, n;
} file_run;

static int by_count(const void *a, const void *b)
{
    const file_run *x = a, *y = b;
    return x->n != y->n ? (x->n > y->n ? -1 : 1) : (x->from < y->from ? -1 : 1);
}

/*
 * Every "file":"NAME","line":N of the report (the order in which edan's
 * writers put the two members of a line), into *out; the count.
 */
static size_t named_lines(const char *json, size_t len, named_line **out)
{
    static const char key[] = "\"file\":\"";
    size_t n = 0, cap = 0;
    named_line *v = NULL;
    const char *end = json + len;
    for (const char *p = json; (p = memmem(p, (size_t)(end - p), key, sizeof key - 1)) != NULL;) {
        const char *name = p + sizeof key - 1, *q = name;
        while (q < end && *q != '"')
            q += *q == '\\' && q + 1 < end ? 2 : 1;
        p = q;
        static const char line_key[] = "\",\"line\":";
        if ((size_t)(end - q) < sizeof line_key || memcmp(q, line_key, sizeof line_key - 1))
            continue;
        const unsigned long line = strtoul(q + sizeof line_key - 1, NULL, 10);
        if (!line || line > 100000000ul)
            continue;
        if (n == cap) {
            named_line *g = realloc(v, (cap = cap ? 2 * cap : 256) * sizeof *v);
            if (!g)
                break;
            v = g;
        }
        v[n++] = (named_line){name, (size_t)(q - name), (unsigned)line};
    }
    *out = v;
    return n;
}

/* The file's name from its JSON text (escapes \\ \" \/ only; NULL for others, or too long). */
static char *unescape(const char *s, size_t n)
{
    char *out = malloc(n + 1), *o = out;
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\') {
            if (++i >= n || (s[i] != '\\' && s[i] != '"' && s[i] != '/')) {
                free(out);
                return NULL;
            }
        }
        *o++ = s[i];
    }
    *o = '\0';
    return out;
}

/* The whole text of a regular source file, NULL when it cannot be read (a FIFO or device is not opened). */
static char *read_text(const char *path, size_t *len)
{
    edan_error why = {0};
    return edan_input_read_all(path, "a source file", MAX_SOURCE, len, &why);
}

/* [[N,"text"],...]: the lines of text within CONTEXT of one of the named lines v[0 .. n) (sorted). */
static void write_lines(FILE *f, const char *text, size_t len, const named_line *v, size_t n)
{
    char cut[MAX_LINE_BYTES + 1];
    size_t k = 0, written = 0;
    unsigned no = 1;
    fputc('[', f);
    for (const char *p = text; p < text + len && written < MAX_LINES; no++) {
        const char *nl = memchr(p, '\n', (size_t)(text + len - p));
        const size_t l = nl ? (size_t)(nl - p) : (size_t)(text + len - p);
        while (k < n && v[k].line + CONTEXT < no)
            k++;
        if (k < n && v[k].line <= no + CONTEXT) {
            size_t m = l < MAX_LINE_BYTES ? l : MAX_LINE_BYTES;
            memcpy(cut, p, m);
            if (m && cut[m - 1] == '\r')
                m--;
            cut[m] = '\0';
            for (size_t i = 0; i < m; i++) /* a NUL or control character: '?', as annotate shows it */
                if (((unsigned char)cut[i] < 0x20 && cut[i] != '\t') || cut[i] == 0x7f)
                    cut[i] = '?';
            fprintf(f, "%s[%u,", written++ ? "," : "", no);
            edan_json_str(f, cut);
            fputc(']', f);
        }
        if (!nl)
            break;
        p = nl + 1;
    }
    fputc(']', f);
}

void edan_html_sources(FILE *f, const char *report_json, size_t len)
{
    named_line *v = NULL;
    const size_t n = named_lines(report_json, len, &v);
    file_run *runs = n ? malloc(n * sizeof *runs) : NULL;
    fputs("[", f);
    if (!runs) {
        free(v);
        fputs("]", f);
        return;
    }
    qsort(v, n, sizeof *v, by_file_line);
    size_t n_runs = 0;
    for (size_t i = 0; i < n; i++) {
        if (!n_runs || by_file_line(&(named_line){v[i].file, v[i].file_len, 0},
                                    &(named_line){v[runs[n_runs - 1].from].file, v[runs[n_runs - 1].from].file_len, 0}))
            runs[n_runs++] = (file_run){i, 0};
        runs[n_runs - 1].n++;
    }
    qsort(runs, n_runs, sizeof *runs, by_count);
    for (size_t r = 0, shown = 0; r < n_runs && shown < MAX_FILES; r++) {
        char *path = unescape(v[runs[r].from].file, v[runs[r].from].file_len);
        size_t text_len = 0;
        char *text = path ? read_text(path, &text_len) : NULL;
        if (text) {
            fputs(shown++ ? ",{\"file\":" : "{\"file\":", f);
            edan_json_str(f, path);
            fputs(",\"lines\":", f);
            write_lines(f, text, text_len, v + runs[r].from, runs[r].n);
            fputc('}', f);
        }
        free(text);
        free(path);
    }
    fputs("]", f);
    free(runs);
    free(v);
}
