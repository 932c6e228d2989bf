/*
 * fuzz_trace_reader.c - libFuzzer target: the input is read to the end by
 * both the binary and the text trace reader. Neither may crash, read out of
 * bounds or leak, whatever the bytes.
 *
 * make fuzz builds it with libFuzzer; linked with fuzz/replay_main.c it is a
 * plain program replaying the seed corpus, an ordinary test under ASan/UBSan.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "trace/trace_file.h"
#include "trace/trace_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *open_mem(const uint8_t *data, size_t size)
{
    /* fmemopen rejects a zero-sized buffer; an empty file is /dev/null. */
    if (size == 0)
        return fopen("/dev/null", "rb");
    return fmemopen((void *)data, size, "rb");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    edan_exec buf[256];
    edan_error err = {0};
    long n;

    FILE *f = open_mem(data, size);
    if (f) {
        edan_trace_reader *r = edan_trace_reader_open_file(f, "fuzz.edt", &err);
        if (r) {
            uint64_t total = 0;
            while ((n = edan_trace_reader_next(r, buf, sizeof buf / sizeof *buf, &err)) > 0) {
                /* Touch every record so a dangling insn pointer shows up. */
                for (long i = 0; i < n; i++)
                    total += buf[i].insn->pc + buf[i].insn->mem + buf[i].addr + buf[i].id;
            }
            const edan_trace_meta *m = edan_trace_reader_meta(r);
            if (m->binary)
                total += strlen(m->binary);
            if (total == 42)
                err.msg[0] = 0;
            edan_trace_reader_close(r);
        }
    }

    edan_error_clear(&err);
    f = open_mem(data, size);
    if (f) {
        edan_text_reader *t = edan_text_reader_open_file(f, "fuzz.txt", &err);
        if (t) {
            uint64_t total = 0;
            while ((n = edan_text_reader_next(t, buf, sizeof buf / sizeof *buf, &err)) > 0)
                for (long i = 0; i < n; i++)
                    total += buf[i].insn->pc + buf[i].insn->mem + buf[i].addr + buf[i].id;
            if (total == 42)
                err.msg[0] = 0;
            edan_text_reader_close(t);
        }
    }
    return 0;
}
