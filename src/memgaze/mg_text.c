/*
 * mg_text.c - line reader and field parsers for MemGaze's text files (see
 * mg_text.h).
 */
#include "memgaze/mg_text.h"
#include "util/files.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Bytes read at a time: large reads keep a multi-GB trace at disk speed. */
#define READ_CHUNK (1u << 20)

/* ---- line reader ------------------------------------------------------------- */

int edan_mg_lines_open(edan_mg_lines *l, const char *path, size_t max_line, edan_error *err)
{
    memset(l, 0, sizeof *l);
    if (!strcmp(path, "-")) {
        edan_error_set(err, "-: MemGaze's files are read from a file, not standard input");
        return -1;
    }
    FILE *f = edan_input_fopen(path, "a MemGaze input", 0, err);
    if (!f)
        return -1;
    return edan_mg_lines_open_file(l, f, path, max_line, err);
}

int edan_mg_lines_open_file(edan_mg_lines *l, FILE *f, const char *name, size_t max_line, edan_error *err)
{
    memset(l, 0, sizeof *l);
    snprintf(l->name, sizeof l->name, "%s", name);
    l->max_line = max_line;
    /* room for a whole chunk behind the longest unfinished line */
    l->cap = READ_CHUNK + max_line + 2;
    l->buf = malloc(l->cap);
    if (!l->buf) {
        fclose(f);
        edan_error_set(err, "%s: out of memory", name);
        return -1;
    }
    l->f = f;
    return 0;
}

void edan_mg_lines_fail(const edan_mg_lines *l, edan_error *err, const char *fmt, ...)
{
    char msg[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    edan_error_set(err, "%s:%" PRIu64 ": %s", l->name, l->line, msg);
}

int edan_mg_lines_next(edan_mg_lines *l, char **line, size_t *len, edan_error *err)
{
    for (;;) {
        char *start = l->buf + l->pos;
        size_t avail = l->len - l->pos;
        char *nl = memchr(start, '\n', avail);
        if (nl) {
            l->line++;
            size_t n = (size_t)(nl - start);
            l->pos += n + 1;
            if (n > l->max_line) {
                edan_mg_lines_fail(l, err, "a line longer than %zu bytes", l->max_line);
                return -1;
            }
            if (n && start[n - 1] == '\r')
                n--;
            start[n] = '\0';
            if (memchr(start, '\0', n)) {
                edan_mg_lines_fail(l, err, "a NUL byte: not a text file");
                return -1;
            }
            *line = start;
            *len = n;
            return 1;
        }
        if (avail > l->max_line) {
            l->line++;
            edan_mg_lines_fail(l, err, "a line longer than %zu bytes", l->max_line);
            return -1;
        }
        if (l->eof) {
            if (avail == 0)
                return 0;
            l->line++;
            edan_mg_lines_fail(l, err, "the last line has no newline: the file was cut off in the middle of a line");
            return -1;
        }
        memmove(l->buf, start, avail);
        l->len = avail;
        l->pos = 0;
        size_t got = fread(l->buf + l->len, 1, l->cap - l->len - 1, l->f);
        if (got == 0) {
            if (ferror(l->f)) {
                edan_error_set(err, "%s: read error: %s", l->name, strerror(errno));
                return -1;
            }
            l->eof = true;
        }
        l->len += got;
    }
}

void edan_mg_lines_close(edan_mg_lines *l)
{
    if (l->f)
        fclose(l->f);
    free(l->buf);
    l->f = NULL;
    l->buf = NULL;
}

/* ---- fields ------------------------------------------------------------------ */

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

int edan_mg_split(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        while (is_blank(*p))
            p++;
        if (!*p)
            return n;
        if (n == max)
            return max + 1;
        fields[n++] = p;
        while (*p && !is_blank(*p))
            p++;
        if (!*p)
            return n;
        *p++ = '\0';
    }
}

/* One more than the value of a hexadecimal digit; 0 for any other byte. */
static const uint8_t HEX1[256] = {
    ['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,  ['6'] = 7,  ['7'] = 8,
    ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
    ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

int edan_mg_parse_hex(const char *s, uint64_t *out)
{
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    if (!*s)
        return -1;
    uint64_t v = 0;
    for (; *s; s++) {
        unsigned d = HEX1[(unsigned char)*s];
        if (!d)
            return -1;
        if (v >> 60)
            return -1; /* a 17th significant digit: over 64 bits */
        v = v << 4 | (d - 1);
    }
    *out = v;
    return 0;
}

int edan_mg_parse_dec(const char *s, uint64_t max, uint64_t *out)
{
    if (!*s)
        return -1;
    uint64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        unsigned d = (unsigned)(*s - '0');
        if (d > max || v > (max - d) / 10)
            return -1; /* v * 10 + d would pass max */
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

const char *edan_mg_quote(const char *s, char buf[48])
{
    size_t n = strlen(s);
    if (n <= 40)
        return s;
    memcpy(buf, s, 40);
    memcpy(buf + 40, "...", 4);
    return buf;
}
