/*
 * riscv_test.c - tests for the RISC-V ISA module.
 *
 *   riscv_test [cross-gcc [cross-objdump]]
 *
 * 1. golden decode cases (bytes -> fields -> QEMU-style text);
 * 2. golden parse cases, including malformed input;
 * 3. exhaustive/random encoding sweeps: every legal decode must survive
 *    edan_rv_parse(edan_rv_disas()) with the same semantic fields;
 * 4. cross-check against GNU objdump: C programs (kept below as strings) are
 *    compiled with the cross compiler at test time; every instruction objdump
 *    lists (with -M no-aliases, and once with GNU's default alias output) is
 *    decoded from its bytes and parsed from objdump's text, and the two must
 *    agree; each decoded instruction is also round-tripped.
 * Exits non-zero on any failure; the last line is "N passed, N failed".
 */
#define _POSIX_C_SOURCE 200809L

#include "isa/riscv.h"
#include "isa/riscv_ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "isa/riscv_parse_internal.h"
#include "riscv_test.h"

unsigned n_pass, n_fail;

void check(bool ok, const char *what)
{
    if (ok) {
        n_pass++;
    } else {
        n_fail++;
        printf("FAIL: %s\n", what);
    }
}

/* ---- semantic comparison ---- */

static unsigned src_mask_lo(const edan_insn *in, uint64_t *mask)
{
    *mask = 0;
    for (unsigned i = 0; i < in->n_src && i < EDAN_MAX_SRC; i++) {
        *mask |= 1ull << (in->src[i] & 63);
    }
    return in->n_src;
}

/* Returns NULL if equal, else the name of the first differing field. */
const char *sem_diff(const edan_insn *a, const edan_insn *b, bool cmp_imm)
{
    uint64_t ma, mb;
    unsigned na = src_mask_lo(a, &ma), nb = src_mask_lo(b, &mb);
    if (a->op != b->op) {
        return "op";
    }
    if (na != nb || ma != mb) {
        return "src";
    }
    if (a->n_dst != b->n_dst || (a->n_dst && a->dst != b->dst)) {
        return "dst";
    }
    if (a->mem != b->mem) {
        return "mem";
    }
    if (a->mem_size != b->mem_size) {
        return "mem_size";
    }
    if (a->cls != b->cls) {
        return "cls";
    }
    if (a->flow != b->flow) {
        return "flow";
    }
    if (a->size != b->size) {
        return "size";
    }
    if (cmp_imm && a->imm != b->imm) {
        return "imm";
    }
    return NULL;
}

/* Round trip: disas then parse must give back the same fields (and csr/rm where printed). */
const char *round_trip(const edan_insn *d, char *text, size_t cap, char *err, size_t errcap)
{
    edan_insn p;
    edan_rv_disas(d, text, cap);
    if (edan_rv_parse(text, d->pc, &p, err, errcap) != 0) {
        return "parse error";
    }
    /* Our text never carries the c. prefix: compare size as 4. */
    p.size = d->size;
    /* QEMU prints "ret" for jalr zero,N(ra) whatever N is: only then is imm lost. */
    bool lossy_imm = d->op == EDAN_OP_JALR && d->rd == 0 && d->rs1 == 1;
    const char *diff = sem_diff(d, &p, !lossy_imm);
    if (diff) {
        return diff;
    }
    if (d->fmt == EDAN_FMT_CSR || d->fmt == EDAN_FMT_CSRI) {
        if (d->csr != p.csr) {
            return "csr";
        }
    }
    if ((edan_rv_ops[d->op].flags & (EDAN_RV_HAS_RM | EDAN_RV_AQRL)) || d->op == EDAN_OP_FENCE) {
        if (d->rm != p.rm) {
            return "rm";
        }
    }
    return NULL;
}

/* ---- 1. golden decode cases ---- */

typedef struct golden {
    uint32_t raw;
    uint16_t op;
    uint8_t srcs[3]; /* expected src set, 0-terminated (x0 is never a source) */
    int dst;         /* -1: none */
    uint8_t mem, mem_size, cls, flow;
    int64_t imm;
    const char *text;
} golden;

#define XR(n) (n)
#define FR(n) (32 + (n))

static const golden goldens[] = {
    {0x415c, EDAN_OP_LW, {XR(10)}, XR(15), EDAN_MEM_LOAD, 4, EDAN_CLASS_LOAD, 0, 4, "lw a5,4(a0)"},
    {0x1575, EDAN_OP_ADDI, {XR(10)}, XR(10), 0, 0, EDAN_CLASS_INT, 0, -3, "addi a0,a0,-3"},
    {0x00c5853b, EDAN_OP_ADDW, {XR(11), XR(12)}, XR(10), 0, 0, EDAN_CLASS_INT, 0, 0, "addw a0,a1,a2"},
    {0x6ac5f543,
     EDAN_OP_FMADD_D,
     {FR(11), FR(12), FR(13)},
     FR(10),
     0,
     0,
     EDAN_CLASS_FFMA,
     0,
     0,
     "fmadd.d dyn,fa0,fa1,fa2,fa3"},
    {0x04b6252f,
     EDAN_OP_AMOADD_W,
     {XR(12), XR(11)},
     XR(10),
     EDAN_MEM_AMO,
     4,
     EDAN_CLASS_ATOMIC,
     0,
     0,
     "amoadd.w.aq a0,a1,(a2)"},
    {0x18b6352f, EDAN_OP_SC_D, {XR(12), XR(11)}, XR(10), EDAN_MEM_STORE, 8, EDAN_CLASS_STORE, 0, 0, "sc.d a0,a1,(a2)"},
    {0x000780e7, EDAN_OP_JALR, {XR(15)}, XR(1), 0, 0, EDAN_CLASS_BRANCH, EDAN_FLOW_CALL, 0, "jalr ra,a5,0"},
    {0x8082, EDAN_OP_JALR, {XR(1)}, -1, 0, 0, EDAN_CLASS_BRANCH, EDAN_FLOW_RETURN, 0, "ret"},
    {0x00008067, EDAN_OP_JALR, {XR(1)}, -1, 0, 0, EDAN_CLASS_BRANCH, EDAN_FLOW_RETURN, 0, "ret"},
    {0x9782, EDAN_OP_JALR, {XR(15)}, XR(1), 0, 0, EDAN_CLASS_BRANCH, EDAN_FLOW_CALL, 0, "jalr ra,a5,0"},
    {0x001000ef, EDAN_OP_JAL, {0}, XR(1), 0, 0, EDAN_CLASS_BRANCH, EDAN_FLOW_CALL, 2048, "jal ra,2048"},
    {0xfef68de3, EDAN_OP_BEQ, {XR(13), XR(15)}, -1, 0, 0, EDAN_CLASS_BRANCH, EDAN_FLOW_BRANCH, -6, "beq a3,a5,-6"},
    {0x60a6, EDAN_OP_LD, {XR(2)}, XR(1), EDAN_MEM_LOAD, 8, EDAN_CLASS_LOAD, 0, 72, "ld ra,72(sp)"},
    {0xf922, EDAN_OP_SD, {XR(2), XR(8)}, -1, EDAN_MEM_STORE, 8, EDAN_CLASS_STORE, 0, 176, "sd s0,176(sp)"},
    {0x757d, EDAN_OP_LUI, {0}, XR(10), 0, 0, EDAN_CLASS_INT, 0, -4096, "lui a0,-4096"},
    {0x00067197, EDAN_OP_AUIPC, {0}, XR(3), 0, 0, EDAN_CLASS_INT, 0, 0x67000, "auipc gp,421888"},
    {0xff013787, EDAN_OP_FLD, {XR(2)}, FR(15), EDAN_MEM_LOAD, 8, EDAN_CLASS_LOAD, 0, -16, "fld fa5,-16(sp)"},
    {0xa500, EDAN_OP_FSD, {XR(10), FR(8)}, -1, EDAN_MEM_STORE, 8, EDAN_CLASS_STORE, 0, 8, "fsd fs0,8(a0)"},
    {0x00102573, EDAN_OP_CSRRS, {0}, XR(10), 0, 0, EDAN_CLASS_INT, 0, 0, "frflags a0"},
    {0x0021d073, EDAN_OP_CSRRWI, {0}, -1, 0, 0, EDAN_CLASS_INT, 0, 3, "fsrmi zero,3"},
    {0x7c059573, EDAN_OP_CSRRW, {XR(11)}, XR(10), 0, 0, EDAN_CLASS_INT, 0, 0, "csrrw a0,0x7c0,a1"},
    {0xc0102573, EDAN_OP_CSRRS, {0}, XR(10), 0, 0, EDAN_CLASS_INT, 0, 0, "rdtime a0"},
    {0x100427af, EDAN_OP_LR_W, {XR(8)}, XR(15), EDAN_MEM_LOAD, 4, EDAN_CLASS_LOAD, 0, 0, "lr.w a5,(s0)"},
    {0xc2059553, EDAN_OP_FCVT_W_D, {FR(11)}, XR(10), 0, 0, EDAN_CLASS_FADD, 0, 0, "fcvt.w.d rtz,a0,fa1"},
    {0xa2c5a553, EDAN_OP_FEQ_D, {FR(11), FR(12)}, XR(10), 0, 0, EDAN_CLASS_FADD, 0, 0, "feq.d a0,fa1,fa2"},
    {0xe0058553, EDAN_OP_FMV_X_W, {FR(11)}, XR(10), 0, 0, EDAN_CLASS_FADD, 0, 0, "fmv.x.s a0,fa1"},
    {0x02c5d533, EDAN_OP_DIVU, {XR(11), XR(12)}, XR(10), 0, 0, EDAN_CLASS_DIV, 0, 0, "divu a0,a1,a2"},
    {0x4681, EDAN_OP_ADDI, {0}, XR(13), 0, 0, EDAN_CLASS_INT, 0, 0, "mv a3,zero"},
    {0x84a2, EDAN_OP_ADDI, {XR(8)}, XR(9), 0, 0, EDAN_CLASS_INT, 0, 0, "mv s1,s0"},
    {0xfef5, EDAN_OP_BNE, {XR(13)}, -1, 0, 0, EDAN_CLASS_BRANCH, EDAN_FLOW_BRANCH, -4, "bnez a3,-4"},
    {0x00028067, EDAN_OP_JALR, {XR(5)}, -1, 0, 0, EDAN_CLASS_BRANCH, EDAN_FLOW_RETURN, 0, "jr t0"},
    {0x010002ef, EDAN_OP_JAL, {0}, XR(5), 0, 0, EDAN_CLASS_BRANCH, EDAN_FLOW_CALL, 16, "jal t0,16"},
    {0x5a0477d3, EDAN_OP_FSQRT_D, {FR(8)}, FR(15), 0, 0, EDAN_CLASS_FSQRT, 0, 0, "fsqrt.d dyn,fa5,fs0"},
    {0x18c5f553, EDAN_OP_FDIV_S, {FR(11), FR(12)}, FR(10), 0, 0, EDAN_CLASS_FDIV, 0, 0, "fdiv.s dyn,fa0,fa1,fa2"},
    {0x12c5f553, EDAN_OP_FMUL_D, {FR(11), FR(12)}, FR(10), 0, 0, EDAN_CLASS_FMUL, 0, 0, "fmul.d dyn,fa0,fa1,fa2"},
    {0x0f50000f, EDAN_OP_FENCE, {0}, -1, 0, 0, EDAN_CLASS_INT, 0, 0, "fence iorw,ow"},
    {0x00000073, EDAN_OP_ECALL, {0}, -1, 0, 0, EDAN_CLASS_INT, 0, 0, "ecall"},
    {0x7159, EDAN_OP_ADDI, {XR(2)}, XR(2), 0, 0, EDAN_CLASS_INT, 0, -112, "addi sp,sp,-112"},
    {0xbc22, EDAN_OP_FSD, {XR(2), FR(8)}, -1, EDAN_MEM_STORE, 8, EDAN_CLASS_STORE, 0, 56, "fsd fs0,56(sp)"},
    {0x0ef7302f,
     EDAN_OP_AMOSWAP_D,
     {XR(14), XR(15)},
     -1,
     EDAN_MEM_AMO,
     8,
     EDAN_CLASS_ATOMIC,
     0,
     0,
     "amoswap.d.aq.rl zero,a5,(a4)"},
    {0x40b00533, EDAN_OP_SUB, {XR(11)}, XR(10), 0, 0, EDAN_CLASS_INT, 0, 0, "neg a0,a1"},
    {0x3c844783, EDAN_OP_LBU, {XR(8)}, XR(15), EDAN_MEM_LOAD, 1, EDAN_CLASS_LOAD, 0, 968, "lbu a5,968(s0)"},
    {0x00b54463, EDAN_OP_BLT, {XR(10), XR(11)}, -1, 0, 0, EDAN_CLASS_BRANCH, EDAN_FLOW_BRANCH, 8, "bgt a1,a0,8"},
    {0x00b57463, EDAN_OP_BGEU, {XR(10), XR(11)}, -1, 0, 0, EDAN_CLASS_BRANCH, EDAN_FLOW_BRANCH, 8, "bleu a1,a0,8"},
    {0x00a05463, EDAN_OP_BGE, {XR(10)}, -1, 0, 0, EDAN_CLASS_BRANCH, EDAN_FLOW_BRANCH, 8, "blez a0,8"},
    {0x22f7a7d3, EDAN_OP_FSGNJX_D, {FR(15)}, FR(15), 0, 0, EDAN_CLASS_FADD, 0, 0, "fabs.d a5,a5"},
    {0x0001, EDAN_OP_ADDI, {0}, -1, 0, 0, EDAN_CLASS_INT, 0, 0, "nop"},
    {0x00b02533, EDAN_OP_SLT, {XR(11)}, XR(10), 0, 0, EDAN_CLASS_INT, 0, 0, "sgtz a0,a1"},
};

static void test_goldens(void)
{
    char msg[1024], text[128], err[128];
    for (size_t i = 0; i < sizeof goldens / sizeof goldens[0]; i++) {
        const golden *g = &goldens[i];
        uint8_t b[4] = {(uint8_t)g->raw, (uint8_t)(g->raw >> 8), (uint8_t)(g->raw >> 16), (uint8_t)(g->raw >> 24)};
        edan_insn d;
        edan_decode_status st = edan_rv_decode(b, 4, 0x10000, &d);
        edan_insn e;
        edan_insn_clear(&e);
        e.op = g->op;
        e.size = (g->raw & 3) == 3 ? 4 : 2;
        for (unsigned k = 0; k < 3 && g->srcs[k]; k++) {
            e.src[e.n_src++] = g->srcs[k];
        }
        e.n_dst = g->dst >= 0;
        e.dst = (uint8_t)(g->dst >= 0 ? g->dst : 0);
        e.mem = g->mem;
        e.mem_size = g->mem_size;
        e.cls = g->cls;
        e.flow = g->flow;
        e.imm = g->imm;
        const char *diff = st != EDAN_DECODE_OK ? "status" : sem_diff(&e, &d, true);
        edan_rv_disas(&d, text, sizeof text);
        if (!diff && strcmp(text, g->text) != 0) {
            diff = "text";
        }
        const char *rt = diff ? NULL : round_trip(&d, text, sizeof text, err, sizeof err);
        snprintf(msg, sizeof msg, "golden %08x (%s): %s differs (got \"%s\")%s%s", (unsigned)g->raw, g->text,
                 diff ? diff
                 : rt ? rt
                      : "",
                 text, rt ? " round trip: " : "", rt ? err : "");
        check(!diff && !rt, msg);
    }

    /* Illegal encodings. */
    static const uint32_t bad[] = {0x0000,    0xffffffff, 0x0000007f, 0x8002 /* c.jr x0 */, 0x6001 /* c.lui x0,0 */,
                                   0x02c5d053 /* fadd.d rm=5 */};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t b[4] = {(uint8_t)bad[i], (uint8_t)(bad[i] >> 8), (uint8_t)(bad[i] >> 16), (uint8_t)(bad[i] >> 24)};
        edan_insn d;
        edan_decode_status st = edan_rv_decode(b, 4, 0, &d);
        snprintf(msg, sizeof msg, "illegal %08x decodes as illegal", (unsigned)bad[i]);
        check(st == EDAN_DECODE_ILLEGAL && d.op == EDAN_OP_ILLEGAL && d.n_src == 0 && d.n_dst == 0 &&
                  d.cls == EDAN_CLASS_INT,
              msg);
    }
    /* Truncated input. */
    {
        uint8_t b[4] = {0x33, 0x05, 0xb5, 0x00};
        edan_insn d;
        check(edan_rv_decode(b, 2, 0, &d) == EDAN_DECODE_ILLEGAL, "truncated 32-bit insn is illegal");
        check(edan_rv_decode(b, 1, 0, &d) == EDAN_DECODE_ILLEGAL, "1 byte is illegal");
    }
    /* Small output buffers: snprintf semantics. */
    {
        uint8_t b[4] = {0x3b, 0x85, 0xc5, 0x00};
        edan_insn d;
        char small[5];
        edan_rv_decode(b, 4, 0, &d);
        int n = edan_rv_disas(&d, small, sizeof small);
        check(n == (int)strlen("addw a0,a1,a2") && strcmp(small, "addw") == 0, "disas truncates like snprintf");
    }
}

/* ---- 2. golden parse cases ---- */

typedef struct pgolden {
    const char *text;
    uint64_t pc;
    uint16_t op;
    uint8_t srcs[3];
    int dst;
    uint8_t flow;
    int64_t imm;
    uint8_t size;
} pgolden;

static const pgolden pgoldens[] = {
    {"lw a4,0(a5)", 0, EDAN_OP_LW, {XR(15)}, XR(14), 0, 0, 4},
    {"  \tlw\t a4 , 0( a5 )   # load", 0, EDAN_OP_LW, {XR(15)}, XR(14), 0, 0, 4},
    {"bne a3,a5,-6", 0, EDAN_OP_BNE, {XR(13), XR(15)}, -1, EDAN_FLOW_BRANCH, -6, 4},
    {"fef69de3          bne                     a3,a5,-6                # 0x295c2",
     0,
     EDAN_OP_BNE,
     {XR(13), XR(15)},
     -1,
     EDAN_FLOW_BRANCH,
     -6,
     4},
    {"beq a5,s2,1047c <abort+0x44>", 0x10438, EDAN_OP_BEQ, {XR(15), XR(18)}, -1, EDAN_FLOW_BRANCH, 0x44, 4},
    {"jal ra,1ef04 <foo<int, long>>", 0x1ef00, EDAN_OP_JAL, {0}, XR(1), EDAN_FLOW_CALL, 4, 4},
    {"c.addi\tsp,-16", 0, EDAN_OP_ADDI, {XR(2)}, XR(2), 0, -16, 2},
    {"c.jr ra", 0, EDAN_OP_JALR, {XR(1)}, -1, EDAN_FLOW_RETURN, 0, 2},
    {"c.jalr a5", 0, EDAN_OP_JALR, {XR(15)}, XR(1), EDAN_FLOW_CALL, 0, 2},
    {"c.lui a3,0xfffff", 0, EDAN_OP_LUI, {0}, XR(13), 0, -4096, 2},
    {"lui a0,0x77", 0, EDAN_OP_LUI, {0}, XR(10), 0, 0x77000, 4},
    {"lui a0,487424", 0, EDAN_OP_LUI, {0}, XR(10), 0, 0x77000, 4},
    {"slli a3,a4,0x3", 0, EDAN_OP_SLLI, {XR(14)}, XR(13), 0, 3, 4},
    {"fadd.d fa5,fa4,fa5,rtz", 0, EDAN_OP_FADD_D, {FR(14), FR(15)}, FR(15), 0, 0, 4},
    {"fcvt.w.d rtz,a0,fa1", 0, EDAN_OP_FCVT_W_D, {FR(11)}, XR(10), 0, 0, 4},
    {"fabs.d a5,a5", 0, EDAN_OP_FSGNJX_D, {FR(15)}, FR(15), 0, 0, 4},
    {"fmv.d fa0,fs0", 0, EDAN_OP_FSGNJ_D, {FR(8)}, FR(10), 0, 0, 4},
    {"mv a0,zero", 0, EDAN_OP_ADDI, {0}, XR(10), 0, 0, 4},
    {"li a0,-5", 0, EDAN_OP_ADDI, {0}, XR(10), 0, -5, 4},
    {"ret", 0, EDAN_OP_JALR, {XR(1)}, -1, EDAN_FLOW_RETURN, 0, 4},
    {"ret   ", 0, EDAN_OP_JALR, {XR(1)}, -1, EDAN_FLOW_RETURN, 0, 4},
    {"jr t0", 0, EDAN_OP_JALR, {XR(5)}, -1, EDAN_FLOW_RETURN, 0, 4},
    {"jr a5", 0, EDAN_OP_JALR, {XR(15)}, -1, EDAN_FLOW_JUMP, 0, 4},
    {"jalr a5", 0, EDAN_OP_JALR, {XR(15)}, XR(1), EDAN_FLOW_CALL, 0, 4},
    {"jalr ra,0(a5)", 0, EDAN_OP_JALR, {XR(15)}, XR(1), EDAN_FLOW_CALL, 0, 4},
    {"j -520", 0, EDAN_OP_JAL, {0}, -1, EDAN_FLOW_JUMP, -520, 4},
    {"amoadd.d.aq zero,a0,(a1)", 0, EDAN_OP_AMOADD_D, {XR(11), XR(10)}, -1, 0, 0, 4},
    {"sc.w.aqrl a3,a4,(s0)", 0, EDAN_OP_SC_W, {XR(8), XR(14)}, XR(13), 0, 0, 4},
    {"frflags a0", 0, EDAN_OP_CSRRS, {0}, XR(10), 0, 0, 4},
    {"fsflags zero,a0", 0, EDAN_OP_CSRRW, {XR(10)}, -1, 0, 0, 4},
    {"fsflags a0", 0, EDAN_OP_CSRRW, {XR(10)}, -1, 0, 0, 4},
    {"csrr a0,0xc00", 0, EDAN_OP_CSRRS, {0}, XR(10), 0, 0, 4},
    {"csrrsi zero,fflags,16", 0, EDAN_OP_CSRRSI, {0}, -1, 0, 16, 4},
    {"fence", 0, EDAN_OP_FENCE, {0}, -1, 0, 0, 4},
    {"fence.tso", 0, EDAN_OP_FENCE, {0}, -1, 0, 0, 4},
    {"ADDI A0,a0,1", 0, EDAN_OP_ILLEGAL, {0}, -1, 0, 0, 0}, /* registers are case-sensitive */
    {"fmv.x.s a0,fa1", 0, EDAN_OP_FMV_X_W, {FR(11)}, XR(10), 0, 0, 4},
    {"fmv.w.x fa0,a1", 0, EDAN_OP_FMV_W_X, {XR(11)}, FR(10), 0, 0, 4},
    {"bgt a1,a0,8", 0, EDAN_OP_BLT, {XR(10), XR(11)}, -1, EDAN_FLOW_BRANCH, 8, 4},
    {"c.nop", 0, EDAN_OP_ADDI, {0}, -1, 0, 0, 2},
    {"c.addi zero,0", 0, EDAN_OP_ADDI, {0}, -1, 0, 0, 2},
    {"fmadd.d fa5,fa3,ft0,fs0", 0, EDAN_OP_FMADD_D, {FR(13), FR(0), FR(8)}, FR(15), 0, 0, 4},
    {"add s0,x8,fp", 0, EDAN_OP_ADD, {XR(8)}, XR(8), 0, 0, 4},
};

static const char *const pbad[] = {
    "",
    "   ",
    "# only a comment",
    "foo a0,a1",
    "add a0,a1",
    "add a0,a1,fa2",
    "addi a0,a1,a2",
    "addi a0,a1,zz",
    "lw a0,4(a9)",
    "lw a0,4a5",
    "lw a0,(",
    "fadd.d a0,fa1,fa2",
    "add a0,,a1",
    "add a0,a1,a2,a3,a4,a5,a6,a7",
    "csrrw a0,nosuchcsr,a1",
    "amoadd.w.rl.aq a0,a1,(a2)",
    "add.aq a0,a1,a2",
    "c.",
    ",",
    "(",
    "<",
    "beq a0,a1,",
    "beq a0,a1,<x>",
    "lui a0,0x",
    "csrrwi a0,fflags,32",
    "x0 a0",
    "s12",
    "a0",
    "addi a0,a0,123456789012345678901234567890",
};

static void test_parse_goldens(void)
{
    char msg[1024], err[128];
    const char *bad;
    size_t n = edan_rv_parse_table_check(&bad);
    snprintf(msg, sizeof msg, "parse table sorted (out of order at '%s')", bad ? bad : "");
    check(n > 0, msg);
    /* Every op must be reachable through its own canonical name. */
    for (uint16_t op = 1; op < EDAN_OP_COUNT; op++) {
        edan_insn p;
        const char *form = edan_rv_ops[op].form;
        /* Build a syntactically valid operand list for the op's own form. */
        char text[96];
        size_t len = (size_t)snprintf(text, sizeof text, "%s ", edan_rv_op_name(op));
        for (size_t i = 0; form[i] && len < sizeof text - 16; i++) {
            static const struct {
                char f;
                const char *s;
            } sample[] = {{'d', "a0"},    {'s', "a1"},   {'t', "a2"},     {'D', "fa0"},  {'S', "fa1"},
                          {'T', "fa2"},   {'R', "fa3"},  {'i', "3"},      {'u', "4096"}, {'o', "8"},
                          {'L', "8(a1)"}, {'A', "(a1)"}, {'c', "fflags"}, {'z', "1"},    {'f', "rw"}};
            for (size_t k = 0; k < sizeof sample / sizeof sample[0]; k++) {
                if (sample[k].f == form[i]) {
                    len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", i ? "," : "", sample[k].s);
                }
            }
        }
        int rc = edan_rv_parse(text, 0, &p, err, sizeof err);
        snprintf(msg, sizeof msg, "parse own name \"%s\": %s", text, rc ? err : "wrong op");
        check(rc == 0 && p.op == op, msg);
    }
    for (size_t i = 0; i < sizeof pgoldens / sizeof pgoldens[0]; i++) {
        const pgolden *g = &pgoldens[i];
        edan_insn p, e;
        int rc = edan_rv_parse(g->text, g->pc, &p, err, sizeof err);
        if (g->op == EDAN_OP_ILLEGAL) {
            snprintf(msg, sizeof msg, "parse \"%s\" must fail", g->text);
            check(rc != 0 && err[0] != '\0', msg);
            continue;
        }
        edan_insn_clear(&e);
        e.op = g->op;
        for (unsigned k = 0; k < 3 && g->srcs[k]; k++) {
            e.src[e.n_src++] = g->srcs[k];
        }
        e.n_dst = g->dst >= 0;
        e.dst = (uint8_t)(g->dst >= 0 ? g->dst : 0);
        e.mem = edan_rv_ops[g->op].mem;
        e.mem_size = edan_rv_ops[g->op].mem_size;
        e.cls = edan_rv_ops[g->op].cls;
        e.flow = g->flow;
        e.imm = g->imm;
        e.size = g->size;
        const char *diff = rc ? err : sem_diff(&e, &p, true);
        snprintf(msg, sizeof msg, "parse \"%s\": %s", g->text, diff ? diff : "");
        check(!diff, msg);
    }
    for (size_t i = 0; i < sizeof pbad / sizeof pbad[0]; i++) {
        edan_insn p;
        err[0] = '\0';
        int rc = edan_rv_parse(pbad[i], 0, &p, err, sizeof err);
        snprintf(msg, sizeof msg, "parse \"%s\" must fail with a message (got rc %d, '%s')", pbad[i], rc, err);
        check(rc == -1 && err[0] != '\0', msg);
    }
    /* Error buffer of size 1 and NULL must be safe. */
    {
        edan_insn p;
        char one[1];
        check(edan_rv_parse("bogus", 0, &p, one, 1) == -1 && one[0] == '\0', "1-byte error buffer");
        check(edan_rv_parse("bogus", 0, &p, NULL, 0) == -1, "NULL error buffer");
        check(edan_rv_parse(NULL, 0, &p, NULL, 0) == -1, "NULL text");
    }
}

/* ---- 3. encoding sweeps and parser fuzzing ---- */

int main(int argc, char **argv)
{
    const char *gcc = argc > 1 ? argv[1] : "riscv64-linux-gnu-gcc";
    const char *objdump = argc > 2 ? argv[2] : "riscv64-linux-gnu-objdump";

    test_goldens();
    test_parse_goldens();
    test_sweeps();
    test_cross(gcc, objdump);

    printf("%u passed, %u failed\n", n_pass, n_fail);
    return n_fail == 0 ? 0 : 1;
}
