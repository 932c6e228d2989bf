/*
 * html_page.c - the HTML report's writer (report/html.h) on a JSON report
 * read from a file: html_page REPORT.json PAGE.html. The HTML test
 * (tests/html_report_test.py) makes a real report many rows longer than a
 * run gives, to hold the page to its size and load-time budget.
 */
#include <stdio.h>
#include <stdlib.h>

#include "report/html.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: html_page REPORT.json PAGE.html\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "rb");
    if (!in) {
        perror(argv[1]);
        return 2;
    }
    size_t cap = 1 << 20, len = 0;
    char *buf = malloc(cap);
    for (size_t n; buf && (n = fread(buf + len, 1, cap - len, in)) > 0;) {
        len += n;
        if (len == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(in);
    FILE *out = fopen(argv[2], "w");
    if (!buf || !out) {
        fprintf(stderr, "%s: cannot write\n", argv[2]);
        return 2;
    }
    const edan_report_source src = {"trace", argv[1], "many_lines", "kernel", false, {0}, false, 0, NULL, false};
    int rc = edan_report_html(out, &src, buf, len);
    free(buf);
    return fclose(out) || rc ? 1 : 0;
}
