/*
 * qemu_disas_check.c - QEMU TCG plugin that compares edan_rv_disas with
 * QEMU's own disassembler for every instruction QEMU translates.
 *
 * Build (without -DEDAN_QEMU_PLUGIN this file compiles to nothing, so the
 * riscv_test build can glob all of src/isa):
 *   gcc -shared -fPIC -O2 -DEDAN_QEMU_PLUGIN -I src src/isa/qemu_disas_check.c \
 *       src/isa/riscv_decode.c src/isa/riscv_disas.c src/isa/riscv_ops.c \
 *       src/isa/riscv_parse.c -o check.so
 * Run:
 *   qemu-riscv64 -plugin ./check.so[,arg=verbose] ./static_riscv_binary
 *
 * QEMU's text is normalised before comparing: its leading hex encoding and
 * " # 0x..." target comment are dropped and runs of spaces collapse to one.
 * Each distinct (pc) is compared once. At exit it prints the totals, then the
 * mismatches grouped by (QEMU mnemonic, edan mnemonic) with one example each,
 * and also checks that edan_rv_parse accepts QEMU's normalised text with the
 * same dependency fields as the decoded instruction.
 */
#ifdef EDAN_QEMU_PLUGIN

#include "isa/riscv.h"
#include "isa/riscv_ops.h"
#include "plugin/qemu_plugin_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = EDAN_QEMU_PLUGIN_VERSION;

#define SEEN_BITS 20
#define MAX_GROUPS 256

typedef struct group {
    char key[64]; /* "qemu-mnemonic -> edan-mnemonic" */
    unsigned long count;
    char example[200];
} group;

static uint64_t *seen; /* open-addressing set of pcs already compared */
static unsigned long n_insns, n_mismatch, n_parse_bad, n_illegal;
static group groups[MAX_GROUPS];
static unsigned n_groups;
static bool verbose;

static bool seen_insert(uint64_t pc)
{
    size_t mask = ((size_t)1 << SEEN_BITS) - 1;
    size_t h = (size_t)((pc * 0x9e3779b97f4a7c15ull) >> (64 - SEEN_BITS));
    uint64_t key = pc + 1; /* 0 marks an empty slot */
    for (size_t i = 0; i <= mask; i++) {
        size_t slot = (h + i) & mask;
        if (seen[slot] == key) {
            return false;
        }
        if (seen[slot] == 0) {
            seen[slot] = key;
            return true;
        }
    }
    return true; /* table full: compare again rather than drop */
}

static void normalise(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    const char *p = in;
    while (*p == ' ' || *p == '\t') {
        p++;
    }
    /* Leading hex encoding ("00c5853b          addw ..."). */
    const char *q = p;
    while ((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f')) {
        q++;
    }
    if ((q - p == 4 || q - p == 8) && (*q == ' ' || *q == '\t')) {
        p = q;
    }
    bool space = false;
    for (; *p && *p != '#' && n + 1 < cap; p++) {
        if (*p == ' ' || *p == '\t') {
            space = n > 0;
            continue;
        }
        if (space) {
            out[n++] = ' ';
            space = false;
            if (n + 1 >= cap) {
                break;
            }
        }
        out[n++] = *p;
    }
    out[n] = '\0';
}

static void mnemonic(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    while (s[n] && s[n] != ' ' && n + 1 < cap) {
        out[n] = s[n];
        n++;
    }
    out[n] = '\0';
}

static void record(const char *theirs, const char *mine, uint64_t pc, const char *why)
{
    char a[24], b[24], key[64];
    mnemonic(theirs, a, sizeof a);
    mnemonic(mine, b, sizeof b);
    snprintf(key, sizeof key, "%s%s -> %s", why, a, b);
    for (unsigned i = 0; i < n_groups; i++) {
        if (strcmp(groups[i].key, key) == 0) {
            groups[i].count++;
            return;
        }
    }
    if (n_groups < MAX_GROUPS) {
        group *g = &groups[n_groups++];
        snprintf(g->key, sizeof g->key, "%s", key);
        g->count = 1;
        snprintf(g->example, sizeof g->example, "%llx: qemu \"%s\" edan \"%s\"", (unsigned long long)pc, theirs, mine);
    }
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = qemu_plugin_insn_vaddr(insn);
        if (!seen_insert(pc)) {
            continue;
        }
        const uint8_t *bytes = qemu_plugin_insn_data(insn);
        size_t size = qemu_plugin_insn_size(insn);
        edan_insn d, p;
        if (edan_rv_decode(bytes, size, pc, &d) != EDAN_DECODE_OK) {
            n_illegal++;
        }
        char mine[128], theirs[160], err[128];
        edan_rv_disas(&d, mine, sizeof mine);
        char *raw = qemu_plugin_insn_disas(insn);
        normalise(raw ? raw : "", theirs, sizeof theirs);
        free(raw);
        n_insns++;
        if (strcmp(mine, theirs) != 0) {
            n_mismatch++;
            record(theirs, mine, pc, "");
            if (verbose) {
                fprintf(stderr, "disas %llx: qemu \"%s\" edan \"%s\"\n", (unsigned long long)pc, theirs, mine);
            }
        }
        /* The trace reader will parse QEMU's text: it must give the decoded dependencies. */
        if (edan_rv_parse(theirs, pc, &p, err, sizeof err) != 0 || p.n_src != d.n_src || p.n_dst != d.n_dst ||
            p.dst != d.dst || p.mem != d.mem || p.mem_size != d.mem_size || p.cls != d.cls || p.flow != d.flow ||
            memcmp(p.src, d.src, sizeof p.src) != 0) {
            n_parse_bad++;
            record(theirs, mine, pc, "PARSE ");
        }
    }
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
    (void)id;
    (void)udata;
    fprintf(stderr,
            "edan disas check: %lu distinct instructions, %lu text mismatches, %lu parse mismatches, "
            "%lu illegal\n",
            n_insns, n_mismatch, n_parse_bad, n_illegal);
    for (unsigned i = 0; i < n_groups; i++) {
        fprintf(stderr, "  %6lu  %-32s e.g. %s\n", groups[i].count, groups[i].key, groups[i].example);
    }
    free(seen);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "verbose") == 0 || strcmp(argv[i], "arg=verbose") == 0 ||
            strcmp(argv[i], "verbose=on") == 0) {
            verbose = true;
        }
    }
    seen = calloc((size_t)1 << SEEN_BITS, sizeof *seen);
    if (!seen) {
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}

#else
/* Not building the plugin: keep this translation unit non-empty for ISO C. */
typedef int edan_qemu_disas_check_unused;
#endif
