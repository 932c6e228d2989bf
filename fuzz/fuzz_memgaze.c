/*
 * fuzz_memgaze.c - libFuzzer target for MemGaze's formats: the input is read
 * as a load trace, as a load-class file and as an HPCToolkit structure file
 * (function ranges), and its first bytes are told a trace or not (as the
 * trace source does). Whatever the bytes, nothing may
 * crash, overflow, hang or leak; a refusal names the file; a trace that is
 * read to its end makes a footprint table (with a fixed class file), equal
 * to the one of MemGaze's own algorithm (tests/mg_reference.c) whenever the
 * trace is small enough for it.
 *
 * make fuzz-memgaze runs it with libFuzzer; linked with fuzz/replay_main.c it
 * replays fuzz/corpus_memgaze as an ordinary test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/mg_reference.h"
#include "memgaze/mg_classes.h"
#include "memgaze/mg_struct.h"
#include "memgaze/mg_table.h"
#include "memgaze/mg_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *open_mem(const uint8_t *data, size_t size)
{
    /* fmemopen rejects a zero-sized buffer; an empty file is /dev/null */
    return size ? fmemopen((void *)data, size, "rb") : fopen("/dev/null", "rb");
}

/* Classes for the instructions a corpus uses: strided, irregular, constant skipping loads, a store. */
static const char CLASSES[] = "0x400000 1 0x0 0x1 0x0\n"
                              "0x400004 2 0x0 0x4 0x0\n"
                              "0x400008 0 0x0 0x0 0x3\n"
                              "0x40000c 1 0x8 0x1 0x2\n"
                              "0x400010 90 0x0 0x1 0x0\n"
                              "0x1 0 0x0 0x0 0x0\n"
                              "0x2 1 0x0 0x0 0x1\n";

enum { MAX_REFERENCE = 2000 };

static void refused(const edan_error *err, const char *name)
{
    if (!err->set || !strstr(err->msg, name))
        abort(); /* a refusal names the file */
}

static void trace_and_table(const uint8_t *data, size_t size)
{
    edan_error err = {0};
    edan_mg_classes *c = edan_mg_classes_load_file(fmemopen((void *)CLASSES, sizeof CLASSES - 1, "rb"), "c", &err);
    if (!c)
        abort();
    edan_mg_table *t = edan_mg_table_new(c, 1000, &err);
    static edan_mg_load loads[MAX_REFERENCE];
    size_t kept = 0;
    bool ok = t != NULL;
    for (int pass = 1; ok && pass <= 2; pass++) {
        edan_mg_trace *tr = edan_mg_trace_open_file(open_mem(data, size), "fuzz.trace", &err);
        ok = tr && edan_mg_table_begin(t, pass, &err) == 0;
        edan_mg_load buf[64];
        long n = 0;
        while (ok && (n = edan_mg_trace_next(tr, buf, 64, &err)) > 0) {
            ok = edan_mg_table_add(t, buf, (size_t)n, &err) == 0;
            for (long i = 0; pass == 1 && i < n; i++, kept++)
                if (kept < MAX_REFERENCE)
                    loads[kept] = buf[i];
        }
        if (n < 0)
            refused(&err, "fuzz.trace");
        ok = ok && n == 0 && edan_mg_table_end(t, &err) == 0;
        edan_mg_trace_close(tr);
    }
    if (ok) {
        char *got;
        size_t len;
        FILE *f = open_memstream(&got, &len);
        if (edan_mg_table_write(t, f))
            abort();
        fclose(f);
        if (kept <= MAX_REFERENCE) {
            char *want = mg_reference_table(loads, kept, c, 1000);
            if (!want || strcmp(got, want))
                abort(); /* the streaming table and MemGaze's algorithm disagree */
            free(want);
        }
        free(got);
    }
    edan_mg_table_free(t);
    edan_mg_classes_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trace_and_table(data, size);
    (void)edan_mg_trace_sniff((const char *)data, size < 256 ? size : 256);
    edan_error err = {0};
    edan_mg_classes *c = edan_mg_classes_load_file(open_mem(data, size), "fuzz.binanlys", &err);
    if (!c)
        refused(&err, "fuzz.binanlys");
    else if (edan_mg_classes_count(c) == 0)
        abort(); /* an accepted file lists something */
    edan_mg_classes_free(c);
    edan_error_clear(&err);
    edan_mg_struct *st = edan_mg_struct_load_file(open_mem(data, size), "fuzz.hpcstruct", &err);
    if (!st) {
        refused(&err, "fuzz.hpcstruct");
    } else {
        /* accepted: functions in ascending order, each found at its own start unless it is the last */
        size_t n = edan_mg_struct_count(st);
        for (size_t i = 0; i < n; i++)
            if ((i && edan_mg_struct_start(st, i - 1) >= edan_mg_struct_start(st, i)) ||
                (i + 1 < n && edan_mg_struct_find(st, edan_mg_struct_start(st, i)) != (long)i))
                abort();
    }
    edan_mg_struct_free(st);
    return 0;
}
