/*
 * fuzz_trace_reader.c - libFuzzer target: the input is read to the end by
 * both the binary and the text trace reader. Neither may crash, read out of
 * bounds or leak, whatever the bytes.
 *
 *   clang -std=c17 -D_GNU_SOURCE -I src -g -O1 -fsanitize=fuzzer,address,undefined \
 *       fuzz/fuzz_trace_reader.c src/trace/{code_table,trace_file,trace_text}.c \
 *       src/isa/riscv_{decode,disas,ops,parse}.c src/util/{error,thread}.c -lzstd
 *   ./a.out -max_total_time=600 fuzz/corpus_work fuzz/corpus
 *
 * Built with -DEDAN_FUZZ_MAIN (and without -fsanitize=fuzzer) it is a plain
 * program replaying the files or directories given on the command line, so
 * the seed corpus runs as an ordinary test under ASan/UBSan.
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

#ifdef EDAN_FUZZ_MAIN
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 1 << 16, len = 0;
    uint8_t *b = malloc(cap);
    size_t k;
    while (b && (k = fread(b + len, 1, cap - len, f)) > 0) {
        len += k;
        if (len == cap) {
            uint8_t *nb = realloc(b, cap *= 2);
            if (!nb)
                free(b);
            b = nb;
        }
    }
    fclose(f);
    if (!b)
        return -1;
    LLVMFuzzerTestOneInput(b, len);
    free(b);
    return 0;
}

int main(int argc, char **argv)
{
    int files = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            DIR *d = opendir(argv[i]);
            struct dirent *e;
            while (d && (e = readdir(d))) {
                if (e->d_name[0] == '.')
                    continue;
                char p[4096];
                snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
                bad += run_file(p) != 0;
                files++;
            }
            if (d)
                closedir(d);
        } else {
            bad += run_file(argv[i]) != 0;
            files++;
        }
    }
    printf("replayed %d inputs, %d unreadable\n", files, bad);
    return bad ? 1 : 0;
}
#endif
