/*
 * trace_source.c - format detection and one reading interface over binary
 * and text traces, so the command line need not care which it was given.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "memgaze/mg_trace.h"
#include "trace/mg_exec.h"
#include "trace/trace_file.h"
#include "trace/trace_format.h"
#include "trace/trace_text.h"
#include "util/files.h"

int edan_trace_detect(const char *path, edan_error *err)
{
    /* a stream cannot be peeked at without consuming it: edan_trace_source_format() tells its format */
    if (strcmp(path, "-") == 0)
        return EDAN_TRACE_TEXT;
    FILE *f = edan_input_fopen(path, "the trace", 0, err);
    if (!f)
        return -1;
    char m[8];
    size_t got = fread(m, 1, sizeof m, f);
    int bad = ferror(f);
    int e = errno;
    fclose(f);
    if (bad) {
        edan_error_set(err, "%s: read error: %s", path, strerror(e));
        return -1;
    }
    /* Matching all but the version digit lets the binary reader explain a
     * version mismatch instead of the text reader choking on binary data. */
    if (got >= 7 && memcmp(m, EDAN_TRACE_MAGIC, 7) == 0)
        return EDAN_TRACE_BINARY;
    return EDAN_TRACE_TEXT;
}

struct edan_trace_source {
    int format;
    edan_trace_reader *bin;
    edan_text_reader *text;
    edan_mg_exec *mg;
    edan_trace_meta empty;
    void *peek; /* the stream's state, owned by the reader's FILE (kept here so leak checkers see it in use) */
};

/*
 * A stream read once: the bytes detection looked at (pre) are handed out
 * again before the rest, so a pipe, a FIFO or standard input is read from
 * its start, exactly once (fopencookie: glibc).
 */
typedef struct peeked {
    FILE *f;
    bool own;
    unsigned char pre[256]; /* the first line of a MemGaze trace tells it from edan's text format */
    size_t n, pos;
} peeked;

static ssize_t peeked_read(void *cookie, char *buf, size_t size)
{
    peeked *p = cookie;
    if (p->pos < p->n) {
        size_t k = p->n - p->pos < size ? p->n - p->pos : size;
        memcpy(buf, p->pre + p->pos, k);
        p->pos += k;
        return (ssize_t)k;
    }
    size_t got = fread(buf, 1, size, p->f);
    return got == 0 && ferror(p->f) ? -1 : (ssize_t)got;
}

static int peeked_close(void *cookie)
{
    peeked *p = cookie;
    int rc = p->own ? fclose(p->f) : 0;
    free(p);
    return rc;
}

edan_trace_source *edan_trace_source_open(const char *path, edan_error *err)
{
    const bool is_stdin = strcmp(path, "-") == 0;
    const char *name = is_stdin ? "<stdin>" : path;
    peeked *p = calloc(1, sizeof *p);
    edan_trace_source *s = calloc(1, sizeof *s);
    if (!p || !s) {
        free(p);
        free(s);
        edan_error_set(err, "%s: out of memory", name);
        return NULL;
    }
    p->f = is_stdin ? stdin : edan_input_fopen(path, "the trace", EDAN_INPUT_STREAM, err);
    p->own = !is_stdin;
    if (!p->f) {
        free(p);
        free(s);
        return NULL;
    }
    p->n = fread(p->pre, 1, sizeof p->pre, p->f);
    if (ferror(p->f)) {
        edan_error_set(err, "%s: read error: %s", name, strerror(errno));
        peeked_close(p);
        free(s);
        return NULL;
    }
    /* Matching all but the version digit lets the binary reader explain a
     * version mismatch instead of the text reader choking on binary data. */
    s->format = p->n >= 7 && memcmp(p->pre, EDAN_TRACE_MAGIC, 7) == 0 ? EDAN_TRACE_BINARY
                : edan_mg_trace_sniff((const char *)p->pre, p->n)     ? EDAN_TRACE_MEMGAZE
                                                                      : EDAN_TRACE_TEXT;
    s->peek = p;
    FILE *f = fopencookie(p, "rb", (cookie_io_functions_t){peeked_read, NULL, NULL, peeked_close});
    if (!f) {
        edan_error_set(err, "%s: out of memory", name);
        peeked_close(p);
        free(s);
        return NULL;
    }
    /* the readers own f from here, and close it (and so p) on failure too */
    if (s->format == EDAN_TRACE_BINARY)
        s->bin = edan_trace_reader_open_file(f, name, err);
    else if (s->format == EDAN_TRACE_MEMGAZE)
        s->mg = edan_mg_exec_open_file(f, name, err);
    else
        s->text = edan_text_reader_open_file(f, name, err);
    if (!s->bin && !s->text && !s->mg) {
        free(s);
        return NULL;
    }
    return s;
}

int edan_trace_source_format(const edan_trace_source *s)
{
    return s->format;
}

const edan_trace_meta *edan_trace_source_meta(const edan_trace_source *s)
{
    return s->bin ? edan_trace_reader_meta(s->bin) : &s->empty;
}

uint64_t edan_trace_source_count(const edan_trace_source *s)
{
    return s->bin ? edan_trace_reader_header_count(s->bin) : 0;
}

long edan_trace_source_next(edan_trace_source *s, edan_exec *out, size_t cap, edan_error *err)
{
    return s->bin  ? edan_trace_reader_next(s->bin, out, cap, err)
           : s->mg ? edan_mg_exec_next(s->mg, out, cap, err)
                   : edan_text_reader_next(s->text, out, cap, err);
}

bool edan_trace_source_last_counts(const edan_trace_source *s, size_t *warm, size_t *kernel)
{
    if (!s->bin)
        return false;
    edan_trace_reader_last_counts(s->bin, warm, kernel);
    return true;
}

const edan_code_table *edan_trace_source_code(const edan_trace_source *s)
{
    return s->bin ? edan_trace_reader_code(s->bin) : s->mg ? edan_mg_exec_code(s->mg) : edan_text_reader_code(s->text);
}

const edan_objmap *edan_trace_source_objects(const edan_trace_source *s)
{
    return s->bin ? edan_trace_reader_objects(s->bin) : NULL;
}

const char *edan_trace_source_warning(const edan_trace_source *s)
{
    return s->text ? edan_text_reader_warning(s->text) : NULL;
}

void edan_trace_source_close(edan_trace_source *s)
{
    if (!s)
        return;
    edan_trace_reader_close(s->bin);
    edan_text_reader_close(s->text);
    edan_mg_exec_close(s->mg);
    free(s);
}

int edan_trace_source_run(edan_trace_source *s, const edan_consumer *c, edan_error *err)
{
    enum { BATCH = 1024 };
    edan_exec *buf = malloc(BATCH * sizeof *buf);
    if (!buf) {
        edan_error_set(err, "out of memory");
        if (c->finish)
            c->finish(c->ctx);
        return -1;
    }
    long n;
    for (;;) {
        size_t cap = BATCH;
        edan_exec *into = edan_consumer_buffer(c, buf, &cap);
        if ((n = edan_trace_source_next(s, into, cap, err)) <= 0)
            break;
        c->consume(c->ctx, into, (size_t)n);
    }
    free(buf);
    int frc = c->finish ? c->finish(c->ctx) : 0;
    if (n < 0)
        return -1;
    if (frc != 0) {
        edan_error_set(err, "the trace consumer failed");
        return -1;
    }
    return 0;
}
