#include "util/parse.h"
#include "util/files.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ===================================================================== */
/* Numbers: one grammar for every option, cost and machine file           */
/* ===================================================================== */

/*
 * The one number scanner. A number is plain decimal: digits, and for a real
 * number an optional sign, '.' fraction and e exponent. Nothing else that
 * strtod or strtoull would take: no blanks, no '+' or '-' on an integer,
 * no hexadecimal ("0x10"), no "inf" or "nan". Returns the length of the
 * longest such prefix of s[0..len) (0: none), integer or real as asked.
 */
static size_t scan_decimal(const char *s, size_t len, bool real)
{
    size_t i = 0;
    if (real && i < len && (s[i] == '-' || s[i] == '+'))
        i++;
    size_t digits = 0;
    while (i < len && s[i] >= '0' && s[i] <= '9')
        i++, digits++;
    if (!real)
        return digits ? i : 0;
    if (i < len && s[i] == '.') {
        i++;
        while (i < len && s[i] >= '0' && s[i] <= '9')
            i++, digits++;
    }
    if (!digits)
        return 0;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < len && (s[j] == '-' || s[j] == '+'))
            j++;
        size_t exp = 0;
        while (j < len && s[j] >= '0' && s[j] <= '9')
            j++, exp++;
        if (exp)
            i = j;
    }
    return i;
}

/* The integer of s[0..n), n > 0 and all digits; -1 when it does not fit in 64 bits. */
static int digits_u64(const char *s, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, (uint64_t)(s[i] - '0'), &v))
            return -1;
    *out = v;
    return 0;
}

int edan_parse_u64_n(const char *s, size_t len, uint64_t *out)
{
    size_t n = s ? scan_decimal(s, len, false) : 0;
    return n && n == len ? digits_u64(s, n, out) : -1;
}

int edan_parse_u64(const char *s, uint64_t *out)
{
    return s ? edan_parse_u64_n(s, strlen(s), out) : -1;
}

int edan_parse_double_n(const char *s, size_t len, double *out)
{
    if (!s || !len || scan_decimal(s, len, true) != len)
        return -1;
    /* strtod reads a copy: past len it could read on (a "0x" the scanner stopped before) */
    char small[128], *copy = len < sizeof small ? small : malloc(len + 1);
    if (!copy)
        return -1;
    memcpy(copy, s, len);
    copy[len] = '\0';
    errno = 0;
    char *end;
    const double v = strtod(copy, &end); /* on a string the scanner took whole: decimal only */
    /* too large, or so small that it underflowed (ERANGE): not the number written */
    const bool bad = errno || *end || v != v || v > 1e300 || v < -1e300;
    if (copy != small)
        free(copy);
    if (bad)
        return -1;
    *out = v;
    return 0;
}

int edan_parse_double(const char *s, double *out)
{
    return s ? edan_parse_double_n(s, strlen(s), out) : -1;
}

int edan_list_next(const char **p, const char *seps, const char **elem, size_t *len)
{
    if (!*p)
        return 0;
    const char *s = *p;
    const size_t n = strcspn(s, seps);
    *elem = s;
    *len = n;
    *p = s[n] ? s + n + 1 : NULL;
    return n ? 1 : -1;
}

static bool name_separator(const char *p, int depth)
{
    if (depth > 0)
        return false;
    if (*p == ',')
        return true;
    return *p == ':' && p[1] != ':' && !(p[-1] == ':');
}

/* [begin, end) names a shared library ("libm.so", "libm.so.6"): a lone ':' after it is LIB:NAME's, no separator. */
static bool names_library(const char *begin, const char *end)
{
    for (const char *q = begin; q + 3 <= end; q++)
        if (q[0] == '.' && q[1] == 's' && q[2] == 'o' && (q + 3 == end || q[3] == '.'))
            return true;
    return false;
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
        else if (p > begin && name_separator(p, depth) && !(*p == ':' && names_library(begin, p)))
            break;
    }
    *len = (size_t)(p - begin);
    return begin;
}

/* "32K", "32KiB", "32kB", "1M", "65536" -> bytes. */
int edan_parse_size(const char *s, size_t len, uint64_t *out)
{
    const size_t n = scan_decimal(s, len, false);
    uint64_t v;
    if (!n || digits_u64(s, n, &v))
        return -1;
    const char *end = s + n, *stop = s + len;
    uint64_t mul = 1;
    if (end < stop) {
        char unit = (char)toupper((unsigned char)*end++);
        if (unit == 'K')
            mul = 1ull << 10;
        else if (unit == 'M')
            mul = 1ull << 20;
        else if (unit == 'G')
            mul = 1ull << 30;
        else if (unit == 'B' && end == stop)
            mul = 1;
        else
            return -1;
        /* the rest: nothing, "i", "iB", "B" or "b" */
        const size_t rest = (size_t)(stop - end);
        if (!(rest == 0 || (rest == 1 && (*end == 'i' || *end == 'B' || *end == 'b')) ||
              (rest == 2 && end[0] == 'i' && end[1] == 'B')))
            return -1;
    }
    if (__builtin_mul_overflow(v, mul, out))
        return -1;
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
