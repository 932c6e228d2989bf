/*
 * csv.c - tables as CSV files (csv.h).
 */
#include "report/csv.h"

#include "report/json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A separator before every field of a row but its first. */
static void sep(edan_csv *c)
{
    if (c->fields++)
        fputc(',', c->f);
}

int edan_csv_open(edan_csv *c, const char *dir, const char *name, const char *table, const char *header,
                  edan_error *err)
{
    memset(c, 0, sizeof *c);
    if (mkdir(dir, 0755) && errno != EEXIST) {
        edan_error_set(err, "%s: cannot create the CSV directory: %s", dir, strerror(errno));
        return -1;
    }
    snprintf(c->path, sizeof c->path, "%s/%s-%s.csv", dir, name, table);
    if (edan_output_open(&c->out, c->path, "a CSV table", err))
        return -1;
    if (!(c->f = edan_output_stream(&c->out, err))) {
        edan_output_abort(&c->out);
        return -1;
    }
    fprintf(c->f, "%s\n", header);
    return 0;
}

int edan_csv_open_path(edan_csv *c, const char *path, const char *what, const char *header, edan_error *err)
{
    memset(c, 0, sizeof *c);
    snprintf(c->path, sizeof c->path, "%s", path);
    if (!(c->f = edan_output_fopen(&c->out, path, what, err)))
        return -1;
    fprintf(c->f, "%s\n", header);
    return 0;
}

void edan_csv_str(edan_csv *c, const char *s)
{
    sep(c);
    edan_csv_text(c->f, s);
}

static void text(FILE *f, const char *s, bool always)
{
    if (!s)
        return;
    const bool quote = always || strpbrk(s, ",\"\r\n") != NULL;
    if (quote)
        fputc('"', f);
    /* UTF-8 as the JSON report is: a byte that is not (a name can hold any) becomes U+FFFD */
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        const int n = edan_utf8_len(p);
        if (!n) {
            fputs("\xef\xbf\xbd", f);
            p++;
            continue;
        }
        if (*p == '"')
            fputc('"', f);
        fwrite(p, 1, (size_t)n, f);
        p += n;
    }
    if (quote)
        fputc('"', f);
}

void edan_csv_text(FILE *f, const char *s)
{
    text(f, s, false);
}

void edan_csv_quoted(edan_csv *c, const char *s)
{
    sep(c);
    text(c->f, s, true);
}

void edan_csv_u64(edan_csv *c, uint64_t v)
{
    sep(c);
    fprintf(c->f, "%" PRIu64, v);
}

void edan_csv_num(edan_csv *c, double v)
{
    sep(c);
    if (isfinite(v))
        fprintf(c->f, "%.10g", v);
}

void edan_csv_end_row(edan_csv *c)
{
    fputc('\n', c->f);
    c->fields = 0;
}

int edan_csv_close(edan_csv *c, edan_error *err)
{
    c->f = NULL; /* the output's stream: closed by the commit */
    return edan_output_commit(&c->out, err);
}
