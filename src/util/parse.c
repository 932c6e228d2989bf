#include "util/parse.h"
#include "util/files.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int edan_parse_u64(const char *s, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

static bool name_separator(const char *p, int depth)
{
    if (depth > 0)
        return false;
    if (*p == ',')
        return true;
    return *p == ':' && p[1] != ':' && !(p[-1] == ':');
}

const char *edan_names_next(const char *p, size_t *len)
{
    if (!p)
        return NULL;
    const char *start = p;
    /* skip separators (a lone ':' at the very start is one too) */
    while (*p == ',' || (*p == ':' && p[1] != ':' && (p == start || p[-1] != ':')))
        p++;
    if (!*p)
        return NULL;
    const char *begin = p;
    int depth = 0;
    for (; *p; p++) {
        if (*p == '(' || *p == '<' || *p == '[')
            depth++;
        else if ((*p == ')' || *p == '>' || *p == ']') && depth > 0)
            depth--;
        else if (p > begin && name_separator(p, depth))
            break;
    }
    *len = (size_t)(p - begin);
    return begin;
}

int edan_parse_double(const char *s, double *out)
{
    if (!s || !*s)
        return -1;
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (errno || *end || v != v || v > 1e300 || v < -1e300)
        return -1;
    *out = v;
    return 0;
}

/* "32K", "32KiB", "32kB", "1M", "65536" -> bytes. */
int edan_parse_size(const char *s, size_t len, uint64_t *out)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    errno = 0;
    char *end;
    unsigned long long v = strtoull(buf, &end, 10);
    if (end == buf || errno)
        return -1;
    uint64_t mul = 1;
    if (*end) {
        char unit = (char)toupper((unsigned char)*end++);
        if (unit == 'K')
            mul = 1ull << 10;
        else if (unit == 'M')
            mul = 1ull << 20;
        else if (unit == 'G')
            mul = 1ull << 30;
        else if (unit == 'B' && !*end)
            mul = 1;
        else
            return -1;
        if (!strcmp(end, "i") || !strcmp(end, "iB") || !strcmp(end, "B") || !strcmp(end, "b"))
            end += strlen(end);
        if (*end)
            return -1;
    }
    if (v > UINT64_MAX / mul)
        return -1;
    *out = v * mul;
    return 0;
}

int edan_kv_file_read(const char *path, const char *what, edan_kv_fn fn, void *ctx, edan_error *err)
{
    char name[80];
    snprintf(name, sizeof name, "the %s", what);
    FILE *f = edan_input_fopen(path, name, 0, err);
    if (!f)
        return -1;
    char line[1024];
    int lineno = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) {
            edan_error_set(err, "%s:%d: line too long (at most %zu characters)", path, lineno, sizeof line - 2);
            rc = -1;
            break;
        }
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *key = line + strspn(line, " \t\r\n");
        if (!*key)
            continue;
        char *end = key + strcspn(key, " \t=\r\n");
        char *value = NULL;
        if (*end) {
            char sep = *end;
            *end++ = '\0';
            value = end + (sep == '=' ? 0 : strspn(end, " \t="));
            value[strcspn(value, "\r\n")] = '\0';
            /* trailing blanks are not part of a value */
            size_t len = strlen(value);
            while (len && (value[len - 1] == ' ' || value[len - 1] == '\t'))
                value[--len] = '\0';
            if (!*value && sep != '=')
                value = NULL;
        }
        edan_error sub = {0};
        if (fn(ctx, key, value, &sub)) {
            edan_error_set(err, "%s:%d: %s", path, lineno, sub.msg);
            rc = -1;
        }
    }
    fclose(f);
    return rc;
}
