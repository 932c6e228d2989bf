/*
 * gen_corpus.c - writes the fuzzer's seed corpus: small valid binary traces
 * made by the real writer (tiny blocks, so several blocks per file) and text
 * traces in every line shape the reader accepts.
 *
 * Usage: gen_corpus OUTDIR
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace_file.h"
#include "trace/trace_text.h"

static const uint32_t encodings[] = {
    0x0007a703, /* lw a4,0(a5) */
    0x00813503, /* ld a0,8(sp) */
    0x00a13823, /* sd a0,16(sp) */
    0x00478793, /* addi a5,a5,4 */
    0x00c58533, /* add a0,a1,a2 */
    0x00b6252f, /* amoadd.w a0,a1,(a2) */
    0x100626af, /* lr.w a3,(a2) */
    0x18b626af, /* sc.w a3,a1,(a2) */
    0x41c8,     /* c.lw a0,4(a1) */
    0xc588,     /* c.sw a0,8(a1) */
    0x0505,     /* c.addi a0,1 */
    0xfef69ce3, /* bne a3,a5,-8 */
};
#define N_ENC (sizeof encodings / sizeof *encodings)

static uint64_t rng = 1;

static uint64_t rnd(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return rng >> 17;
}

static int write_bin(const char *dir, const char *name, size_t n, size_t block, int vcpus, bool objects)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    edan_insn code[N_ENC];
    uint64_t pc = 0x10000;
    for (size_t i = 0; i < N_ENC; i++) {
        uint8_t b[4] = {(uint8_t)encodings[i], (uint8_t)(encodings[i] >> 8), (uint8_t)(encodings[i] >> 16),
                        (uint8_t)(encodings[i] >> 24)};
        unsigned len = edan_rv_insn_length((uint16_t)encodings[i]);
        if (edan_rv_decode(b, len, pc, &code[i]) != EDAN_DECODE_OK) {
            fprintf(stderr, "encoding 0x%x does not decode\n", encodings[i]);
            return -1;
        }
        code[i].pc = pc;
        code[i].raw = encodings[i];
        pc += len;
    }
    edan_error err = {0};
    edan_trace_meta meta = {.binary = "./prog", .args = "1 2", .filter = "main", .filter_callees = "include"};
    /* shared objects named as the stream goes (version 6, EDAN_TRACE_FLAG_OBJECTS_AHEAD), one of them growing */
    edan_objmap map = {0};
    meta.objects = objects;
    meta.objmap = objects ? &map : NULL;
    edan_trace_writer *w = edan_trace_writer_open(path, &meta, &err);
    if (!w) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    edan_trace_writer_set_block_size(w, block);
    uint64_t base = 0x4000800000ull;
    for (size_t k = 0; k < n; k++) {
        uint32_t id = (uint32_t)(k % N_ENC);
        if (rnd() % 8 == 0)
            id = (uint32_t)(rnd() % N_ENC);
        edan_exec e = {.insn = &code[id], .id = id, .vcpu = (uint16_t)(vcpus ? rnd() % vcpus : 0)};
        e.addr = base + 8 * k;
        if (rnd() % 16 == 0)
            e.flags = EDAN_EXEC_NO_ACCESS;
        edan_trace_writer_consume(w, &e, 1);
        if (objects && k == n / 3)
            edan_objmap_add(&map, "/lib/liba.so.1", 0x7f0000000000, 0x7f0000004000, 0x7f0000000000);
        if (objects && k == 2 * n / 3) {
            edan_objmap_add(&map, "/usr/lib/libb.so", 0x7f0000100000, 0x7f0000101000, 0x7f0000100000);
            edan_objmap_add(&map, "/lib/liba.so.1", 0x7f0000004000, 0x7f0000008000, 0x7f0000000000);
        }
    }
    const int rc = edan_trace_writer_close(w, &err);
    edan_objmap_free(&map);
    if (rc != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    return 0;
}

/* Copy src to dst, cut to its first keep bytes (0: all) with byte flip_at
 * (if not SIZE_MAX) inverted: seeds that start the fuzzer on error paths. */
static int derive(const char *dir, const char *src, const char *dst, long cut, size_t flip_at)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, src);
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    uint8_t buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    if (cut < 0 && (size_t)-cut < n)
        n -= (size_t)-cut;
    if (flip_at < n)
        buf[flip_at] ^= 0xff;
    snprintf(path, sizeof path, "%s/%s", dir, dst);
    f = fopen(path, "wb");
    if (!f)
        return -1;
    fwrite(buf, 1, n, f);
    return fclose(f);
}

static int write_text(const char *dir, const char *name, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gen_corpus OUTDIR\n");
        return 2;
    }
    const char *d = argv[1];
    int bad = 0;
    bad |= write_bin(d, "bin_empty.edt", 0, 256, 0, false);
    bad |= write_bin(d, "bin_small.edt", 20, 256, 0, false);
    bad |= write_bin(d, "bin_blocks.edt", 300, 256, 2, false);
    bad |= write_bin(d, "bin_vcpus.edt", 120, 512, 4, false);
    bad |= write_bin(d, "bin_objects.edt", 150, 256, 0, true);
    bad |= derive(d, "bin_blocks.edt", "bin_no_trailer.edt", -48, SIZE_MAX);
    bad |= derive(d, "bin_blocks.edt", "bin_cut_block.edt", -100, SIZE_MAX);
    bad |= derive(d, "bin_small.edt", "bin_bad_trailer.edt", 0, 431);
    bad |= write_text(d, "text_shapes.txt",
                      "# comment\n"
                      "0;0x104be;lw a4,0(a5);0x4000800210\n"
                      "lw a4,0(a5);0x40080290\n"
                      "\n"
                      "0;ret \n"
                      "1;bne a3,a5,-6 # 0x104be\n"
                      "0;amoadd.w a0,a1,(a2);0x1000;0x1000\r\n"
                      "2;sd a0,16(sp)\n");
    bad |= write_text(d, "text_pc.txt",
                      "0;0x10078;addi sp,sp,-16\n"
                      "0;0x1007a;sd ra,8(sp);0x7ffffff8\n"
                      "0;0x1007c;ld ra,8(sp);0x7ffffff8\n"
                      "0;0x1007e;fld fa0,0(a0);0x2000\n"
                      "0;0x10080;lr.d a0,(a1);0x3000\n"
                      "0;0x10084;sc.d a2,a3,(a1)\n"
                      "0;0x10088;ret\n");
    bad |= write_text(d, "text_bad.txt", "0;lx a4,0(a5)\n0;lw a4,0(a5);0x10;0x18\n");
    return bad ? 1 : 0;
}
