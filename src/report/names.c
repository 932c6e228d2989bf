#include "report/names.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ============================================================ columns */

static size_t columns(const char *s)
{
    size_t n = 0;
    for (const unsigned char *c = (const unsigned char *)s; *c; c++)
        n += (*c & 0xc0) != 0x80; /* UTF-8 continuation bytes take no column */
    return n;
}

static const char ELLIPSIS[] = "\xe2\x80\xa6"; /* "…", one column */

/* dst = the first n bytes of a, then b, as much as fits */
static void join(char *dst, size_t cap, const char *a, size_t n, const char *b)
{
    size_t k = 0;
    for (size_t i = 0; i < n && a[i] && k + 1 < cap; i++)
        dst[k++] = a[i];
    for (; *b && k + 1 < cap; b++)
        dst[k++] = *b;
    dst[k] = '\0';
}

/* ============================================================ the steps */

/* c is a symbol of an operator's name, not a group: "operator<", "operator<<", "operator->", "operator()",
 * "operator<=>" */
static bool after_operator(const char *src, const char *c)
{
    const size_t at = (size_t)(c - src);
    if (at >= 8 && !strncmp(c - 8, "operator", 8))
        return true;
    if (at >= 9 && !strncmp(c - 9, "operator", 8) &&
        ((c[-1] == '<' && *c == '<') || (c[-1] == '>' && *c == '>') || (c[-1] == '-' && *c == '>') ||
         (c[-1] == '(' && *c == ')')))
        return true;
    return at >= 10 && !strncmp(c - 10, "operator<=", 10) && *c == '>';
}

/*
 * Copy src into dst with the contents of every parameter list (open right
 * after a name: a word character, a template's '>' or an operator's
 * symbols) replaced by "…": "f(int, double)" -> "f(…)", "v<int>" -> "v<…>".
 * Other groups, "(3)" or "(CalcElemVolume(Domain&))", are copied and their
 * insides shortened. An unclosed list (a name cut by someone else) is
 * closed. "operator<" and its kin are names, not lists.
 */
static void collapse(const char *src, char open, char close, char *dst, size_t cap)
{
    size_t n = 0;
    for (const char *c = src; *c && n + 5 < cap; c++) {
        const unsigned char prev = c > src ? (unsigned char)c[-1] : ' ';
        const bool list = *c == open && !after_operator(src, c) &&
                          (isalnum(prev) || prev == '_' || prev == '>' || (c > src && after_operator(src, c - 1)));
        dst[n++] = *c;
        if (!list)
            continue;
        int depth = 1;
        const char *end = c + 1;
        for (; *end && depth; end++)
            depth += *end == open ? 1 : *end == close ? -1 : 0;
        if (end > c + 1 && end[-1] == close && !depth && end == c + 2) { /* "f()" stays "f()" */
            dst[n++] = close;
            c = end - 1;
            continue;
        }
        memcpy(dst + n, ELLIPSIS, 3);
        n += 3;
        dst[n++] = close; /* closed again: "f(Domain&, do" -> "f(…)" */
        c = end - 1;
    }
    dst[n] = '\0';
}

/*
 * The qualifiers of the last qualified name go: "a::b::c(…)" -> "…::c(…)",
 * "x.cc:3 ns::f(…) (1)" -> "x.cc:3 …::f(…) (1)" (what precedes the name,
 * a file and line or a return type, stays).
 */
static void drop_qualifiers(const char *src, char *dst, size_t cap)
{
    const char *last = NULL;
    int depth = 0;
    for (const char *c = src; *c; c++) {
        depth += *c == '(' || *c == '<' ? 1 : *c == ')' || *c == '>' ? -1 : 0;
        if (!depth && c[0] == ':' && c[1] == ':')
            last = c;
    }
    if (!last) {
        join(dst, cap, src, strlen(src), "");
        return;
    }
    /* back over the qualifiers: words, "::" and template lists */
    const char *start = last;
    for (int d = 0; start > src; start--) {
        const unsigned char p = (unsigned char)start[-1];
        d += p == '>' ? 1 : p == '<' ? -1 : 0;
        if (!d && !(isalnum(p) || p == '_' || p == ':' || p == '>' || p == '<' || p >= 0x80))
            break;
    }
    char head[1024];
    join(head, sizeof head, src, (size_t)(start - src), ELLIPSIS);
    join(dst, cap, head, sizeof head, last);
}

static bool word_char(unsigned char c)
{
    return isalnum(c) || c == '_' || c >= 0x80;
}

/* ============================================================ the rule */

size_t edan_name_shorten(const char *name, size_t width, char *buf, size_t cap)
{
    if (!cap)
        return 0;
    char a[1024], b[1024];
    join(a, sizeof a, name ? name : "", SIZE_MAX, "");
    if (columns(a) > width) {
        collapse(a, '(', ')', b, sizeof b);
        join(a, sizeof a, b, sizeof b, "");
    }
    if (columns(a) > width) {
        collapse(a, '<', '>', b, sizeof b);
        join(a, sizeof a, b, sizeof b, "");
    }
    if (columns(a) > width) {
        drop_qualifiers(a, b, sizeof b);
        join(a, sizeof a, b, sizeof b, "");
    }
    if (columns(a) > width && width) {
        /* the longest prefix of width - 1 columns, ending at a word's end if one does */
        size_t cols = 0, cut = 0, end = 0;
        for (size_t i = 0; a[i]; i++) {
            const unsigned char c = (unsigned char)a[i], next = (unsigned char)a[i + 1];
            if ((c & 0xc0) != 0x80 && cols++ == width - 1)
                break;
            if ((next & 0xc0) == 0x80)
                continue; /* inside a character */
            end = i + 1;
            if (!word_char(c) || !word_char(next))
                cut = i + 1;
        }
        size_t keep = cut ? cut : end;
        /* no dangling opener or separator before the "…": "f(…" reads as a cut list */
        for (bool again = true; again;) {
            again = false;
            while (keep > 1 && strchr(" (<:,", a[keep - 1]))
                keep--, again = true;
            if (keep > 3 && !memcmp(a + keep - 3, ELLIPSIS, 3))
                keep -= 3, again = true;
        }
        join(b, sizeof b, a, keep, ELLIPSIS);
        join(a, sizeof a, b, sizeof b, "");
    }
    join(buf, cap, a, sizeof a, "");
    return columns(buf);
}

void edan_name_field(FILE *f, const char *name, size_t width, bool wide)
{
    char buf[1024];
    if (wide)
        join(buf, sizeof buf, name ? name : "", SIZE_MAX, "");
    else
        edan_name_shorten(name, width, buf, sizeof buf);
    fputs(buf, f);
    for (size_t c = columns(buf); c < width; c++)
        fputc(' ', f);
}
