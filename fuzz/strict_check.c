/*
 * strict_check.c - strict JSON and CSV validators (strict_check.h).
 */
#include "strict_check.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 256

typedef struct parser {
    const unsigned char *s;
    size_t n, i;
    char *why;
    size_t cap;
    bool failed;
} parser;

static int fail(parser *p, const char *what)
{
    if (!p->failed) {
        p->failed = true;
        size_t from = p->i > 20 ? p->i - 20 : 0, len = p->n - from < 40 ? p->n - from : 40;
        char ctx[48];
        size_t k = 0;
        for (size_t j = 0; j < len && k < sizeof ctx - 1; j++) {
            unsigned char c = p->s[from + j];
            ctx[k++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
        }
        ctx[k] = '\0';
        snprintf(p->why, p->cap, "byte %zu: %s (near '%s')", p->i, what, ctx);
    }
    return -1;
}

/* The length of the well-formed UTF-8 sequence at s[i] (RFC 3629), or 0. */
static int utf8_at(const unsigned char *s, size_t n, size_t i)
{
    const unsigned char c = s[i];
    if (c < 0x80)
        return 1;
    int len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (!len || i + (size_t)len > n)
        return 0;
    for (int k = 1; k < len; k++)
        if ((s[i + (size_t)k] & 0xc0) != 0x80)
            return 0;
    const unsigned char d = s[i + 1];
    if ((c == 0xe0 && d < 0xa0) || (c == 0xed && d > 0x9f) || (c == 0xf0 && d < 0x90) || (c == 0xf4 && d > 0x8f))
        return 0;
    return len;
}

static void skip_ws(parser *p)
{
    while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' || p->s[p->i] == '\r'))
        p->i++;
}

static int hex4(parser *p, unsigned *v)
{
    if (p->n - p->i < 4)
        return fail(p, "a short \\u escape");
    *v = 0;
    for (int k = 0; k < 4; k++) {
        unsigned char c = p->s[p->i++];
        unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                            : 16u;
        if (d == 16)
            return fail(p, "a bad hex digit in a \\u escape");
        *v = *v << 4 | d;
    }
    return 0;
}

/* A string at p->i ('"'); its decoded bytes go to out (NULL: not kept). */
static int string(parser *p, char **out, size_t *out_len)
{
    size_t cap = 0, len = 0;
    char *b = NULL;
#define PUT(ch)                                                                                                        \
    do {                                                                                                               \
        if (out) {                                                                                                     \
            if (len == cap) {                                                                                          \
                char *nb = realloc(b, cap = cap ? cap * 2 : 32);                                                       \
                if (!nb) {                                                                                             \
                    free(b);                                                                                           \
                    return fail(p, "out of memory");                                                                   \
                }                                                                                                      \
                b = nb;                                                                                                \
            }                                                                                                          \
            b[len++] = (char)(ch);                                                                                     \
        }                                                                                                              \
    } while (0)
    p->i++; /* the opening quote */
    for (;;) {
        if (p->i >= p->n) {
            free(b);
            return fail(p, "an unterminated string");
        }
        unsigned char c = p->s[p->i];
        if (c == '"') {
            p->i++;
            break;
        }
        if (c < 0x20) {
            free(b);
            return fail(p, "a raw control character in a string");
        }
        if (c == '\\') {
            p->i++;
            if (p->i >= p->n) {
                free(b);
                return fail(p, "an unterminated escape");
            }
            c = p->s[p->i++];
            const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
            const char *at = c ? strchr(from, c) : NULL;
            if (at) {
                PUT(to[at - from]);
                continue;
            }
            if (c != 'u') {
                p->i--;
                free(b);
                return fail(p, "an unknown escape");
            }
            unsigned v, lo;
            if (hex4(p, &v)) {
                free(b);
                return -1;
            }
            if (v >= 0xdc00 && v <= 0xdfff) {
                free(b);
                return fail(p, "a lone low surrogate");
            }
            if (v >= 0xd800 && v <= 0xdbff) {
                if (p->n - p->i < 2 || p->s[p->i] != '\\' || p->s[p->i + 1] != 'u') {
                    free(b);
                    return fail(p, "a high surrogate without its low one");
                }
                p->i += 2;
                if (hex4(p, &lo)) {
                    free(b);
                    return -1;
                }
                if (lo < 0xdc00 || lo > 0xdfff) {
                    free(b);
                    return fail(p, "a high surrogate without its low one");
                }
                v = 0x10000 + ((v - 0xd800) << 10) + (lo - 0xdc00);
            }
            /* UTF-8 of v, for comparing keys */
            if (v < 0x80) {
                PUT(v);
            } else if (v < 0x800) {
                PUT(0xc0 | v >> 6);
                PUT(0x80 | (v & 0x3f));
            } else if (v < 0x10000) {
                PUT(0xe0 | v >> 12);
                PUT(0x80 | (v >> 6 & 0x3f));
                PUT(0x80 | (v & 0x3f));
            } else {
                PUT(0xf0 | v >> 18);
                PUT(0x80 | (v >> 12 & 0x3f));
                PUT(0x80 | (v >> 6 & 0x3f));
                PUT(0x80 | (v & 0x3f));
            }
            continue;
        }
        int k = utf8_at(p->s, p->n, p->i);
        if (!k) {
            free(b);
            return fail(p, "a byte that is not UTF-8 in a string");
        }
        for (int j = 0; j < k; j++)
            PUT(p->s[p->i + (size_t)j]);
        p->i += (size_t)k;
    }
#undef PUT
    if (out) {
        *out = b;
        *out_len = len;
    }
    return 0;
}

static bool digit(parser *p)
{
    return p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9';
}

static int number(parser *p)
{
    if (p->s[p->i] == '-')
        p->i++;
    if (!digit(p))
        return fail(p, "a number without digits");
    if (p->s[p->i] == '0') {
        p->i++;
        if (digit(p))
            return fail(p, "a number with a leading zero");
    } else {
        while (digit(p))
            p->i++;
    }
    if (p->i < p->n && p->s[p->i] == '.') {
        p->i++;
        if (!digit(p))
            return fail(p, "no digit after a decimal point");
        while (digit(p))
            p->i++;
    }
    if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
        p->i++;
        if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-'))
            p->i++;
        if (!digit(p))
            return fail(p, "no digit in an exponent");
        while (digit(p))
            p->i++;
    }
    return 0;
}

static int value(parser *p, int depth);

static int object(parser *p, int depth)
{
    p->i++;
    char **keys = NULL;
    size_t *lens = NULL, nk = 0;
    int rc = 0;
    skip_ws(p);
    if (p->i < p->n && p->s[p->i] == '}') {
        p->i++;
        return 0;
    }
    for (;;) {
        skip_ws(p);
        if (p->i >= p->n || p->s[p->i] != '"') {
            rc = fail(p, "an object member without a string key");
            break;
        }
        char *key = NULL;
        size_t kl = 0;
        size_t at = p->i;
        if ((rc = string(p, &key, &kl)))
            break;
        for (size_t j = 0; j < nk; j++)
            if (lens[j] == kl && (kl == 0 || memcmp(keys[j], key, kl) == 0)) {
                p->i = at;
                rc = fail(p, "a key twice in one object");
            }
        char **nkeys = realloc(keys, (nk + 1) * sizeof *keys);
        size_t *nlens = nkeys ? realloc(lens, (nk + 1) * sizeof *lens) : NULL;
        if (nkeys)
            keys = nkeys;
        if (nlens)
            lens = nlens;
        if (!nkeys || !nlens) {
            free(key);
            rc = fail(p, "out of memory");
            break;
        }
        keys[nk] = key;
        lens[nk++] = kl;
        if (rc)
            break;
        skip_ws(p);
        if (p->i >= p->n || p->s[p->i] != ':') {
            rc = fail(p, "no ':' after an object key");
            break;
        }
        p->i++;
        if ((rc = value(p, depth + 1)))
            break;
        skip_ws(p);
        if (p->i < p->n && p->s[p->i] == ',') {
            p->i++;
            continue;
        }
        if (p->i < p->n && p->s[p->i] == '}') {
            p->i++;
            break;
        }
        rc = fail(p, "no ',' or '}' after an object member");
        break;
    }
    for (size_t j = 0; j < nk; j++)
        free(keys[j]);
    free(keys);
    free(lens);
    return rc;
}

static int array(parser *p, int depth)
{
    p->i++;
    skip_ws(p);
    if (p->i < p->n && p->s[p->i] == ']') {
        p->i++;
        return 0;
    }
    for (;;) {
        if (value(p, depth + 1))
            return -1;
        skip_ws(p);
        if (p->i < p->n && p->s[p->i] == ',') {
            p->i++;
            continue;
        }
        if (p->i < p->n && p->s[p->i] == ']') {
            p->i++;
            return 0;
        }
        return fail(p, "no ',' or ']' after an array element");
    }
}

static int value(parser *p, int depth)
{
    if (depth > MAX_DEPTH)
        return fail(p, "nested deeper than 256 levels");
    skip_ws(p);
    if (p->i >= p->n)
        return fail(p, "a value is missing");
    const unsigned char c = p->s[p->i];
    if (c == '{')
        return object(p, depth);
    if (c == '[')
        return array(p, depth);
    if (c == '"')
        return string(p, NULL, NULL);
    if (c == '-' || (c >= '0' && c <= '9'))
        return number(p);
    static const char *const words[] = {"true", "false", "null"};
    for (int k = 0; k < 3; k++) {
        size_t len = strlen(words[k]);
        if (p->n - p->i >= len && memcmp(p->s + p->i, words[k], len) == 0) {
            p->i += len;
            return 0;
        }
    }
    return fail(p, "not a JSON value (NaN, an infinity, a bare word?)");
}

int strict_json(const char *s, size_t n, char *why, size_t cap)
{
    parser p = {(const unsigned char *)s, n, 0, why, cap, false};
    if (value(&p, 0))
        return -1;
    skip_ws(&p);
    if (p.i != n)
        return fail(&p, "more after the value");
    return 0;
}

int strict_csv(const char *s, size_t n, char *why, size_t cap)
{
    parser p = {(const unsigned char *)s, n, 0, why, cap, false};
    long header_fields = -1, row = 0;
    if (n == 0)
        return fail(&p, "no header row");
    while (p.i < n) {
        long fields = 0;
        row++;
        for (;;) {
            fields++;
            if (p.i < n && p.s[p.i] == '"') {
                p.i++;
                for (;;) {
                    if (p.i >= n)
                        return fail(&p, "an unterminated quoted field");
                    if (p.s[p.i] == '"') {
                        if (p.i + 1 < n && p.s[p.i + 1] == '"') {
                            p.i += 2;
                            continue;
                        }
                        p.i++;
                        break;
                    }
                    int k = utf8_at(p.s, n, p.i);
                    if (!k)
                        return fail(&p, "a byte that is not UTF-8");
                    p.i += (size_t)k;
                }
            } else {
                while (p.i < n && p.s[p.i] != ',' && p.s[p.i] != '\n' && p.s[p.i] != '\r') {
                    if (p.s[p.i] == '"')
                        return fail(&p, "a '\"' in a field that is not quoted");
                    int k = utf8_at(p.s, n, p.i);
                    if (!k)
                        return fail(&p, "a byte that is not UTF-8");
                    p.i += (size_t)k;
                }
            }
            if (p.i >= n)
                return fail(&p, "the last row has no line break");
            if (p.s[p.i] == ',') {
                p.i++;
                continue;
            }
            if (p.s[p.i] == '\r') {
                if (p.i + 1 >= n || p.s[p.i + 1] != '\n')
                    return fail(&p, "a CR that is not part of CRLF outside quotes");
                p.i++;
            }
            if (p.s[p.i] != '\n')
                return fail(&p, "text after a closing quote");
            p.i++;
            break;
        }
        if (header_fields < 0)
            header_fields = fields;
        else if (fields != header_fields) {
            char what[96];
            snprintf(what, sizeof what, "row %ld has %ld fields, the header %ld", row, fields, header_fields);
            return fail(&p, what);
        }
    }
    return 0;
}
