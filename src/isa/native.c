/*
 * native.c - x86-64 and AArch64 decoding with Capstone (native.h says what
 * is modelled and why).
 */
#include "isa/native.h"
#include "isa/native_lse.h"

#include <capstone/capstone.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- register slots ---------------------------------------------------- */

/* A Capstone register: its slot (0: none) and whether writing it keeps the rest of the slot (a merge). */
typedef struct reg_map {
    uint8_t slot, merges;
} reg_map;

#define MAX_CS_REGS 512

typedef struct handle {
    csh cs;
    cs_insn *insn;
    reg_map map[MAX_CS_REGS];
    bool open, failed;
} handle;

static handle handles[EDAN_ISA_COUNT];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const x86_q[16] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                      "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
static const char *const x86_d[16] = {"eax", "ecx", "edx",  "ebx",  "esp",  "ebp",  "esi",  "edi",
                                      "r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d"};
static const char *const x86_w[16] = {"ax",  "cx",  "dx",   "bx",   "sp",   "bp",   "si",   "di",
                                      "r8w", "r9w", "r10w", "r11w", "r12w", "r13w", "r14w", "r15w"};
static const char *const x86_b[16] = {"al",  "cl",  "dl",   "bl",   "spl",  "bpl",  "sil",  "dil",
                                      "r8b", "r9b", "r10b", "r11b", "r12b", "r13b", "r14b", "r15b"};
static const char *const x86_h[4] = {"ah", "ch", "dh", "bh"};

static int index_of(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], s))
            return i;
    return -1;
}

/* A number 0..31 after prefix (the whole rest of s), else -1. */
static int numbered(const char *s, const char *prefix)
{
    const size_t n = strlen(prefix);
    if (strncmp(s, prefix, n) || !s[n])
        return -1;
    int v = 0;
    for (const char *p = s + n; *p; p++) {
        if (*p < '0' || *p > '9' || v > 31)
            return -1;
        v = v * 10 + (*p - '0');
    }
    return v <= 31 ? v : -1;
}

static reg_map x86_slot(const char *s)
{
    int i;
    if ((i = index_of(x86_q, 16, s)) >= 0 || (i = index_of(x86_d, 16, s)) >= 0)
        return (reg_map){EDAN_X86_GPR(i), 0};
    if ((i = index_of(x86_w, 16, s)) >= 0 || (i = index_of(x86_b, 16, s)) >= 0)
        return (reg_map){EDAN_X86_GPR(i), 1};
    if ((i = index_of(x86_h, 4, s)) >= 0)
        return (reg_map){EDAN_X86_GPR(i), 1};
    if (!strcmp(s, "rflags") || !strcmp(s, "eflags") || !strcmp(s, "flags"))
        return (reg_map){EDAN_X86_FLAGS, 0};
    if ((i = numbered(s, "xmm")) >= 0 || (i = numbered(s, "ymm")) >= 0 || (i = numbered(s, "zmm")) >= 0)
        return (reg_map){EDAN_X86_VEC(i), 0};
    if ((i = numbered(s, "k")) >= 0 && i < 8)
        return (reg_map){EDAN_X86_K(i), 0};
    if (!strncmp(s, "st", 2) || !strncmp(s, "mm", 2) || !strcmp(s, "fpsw") || !strncmp(s, "fp", 2))
        return (reg_map){EDAN_X86_X87, 0};
    return (reg_map){0, 0}; /* rip, segments, control, debug, mxcsr, riz */
}

static reg_map a64_slot(const char *s)
{
    int i;
    if ((i = numbered(s, "x")) >= 0 || (i = numbered(s, "w")) >= 0)
        return (reg_map){i <= 30 ? EDAN_A64_X(i) : 0, 0};
    if (!strcmp(s, "fp") || !strcmp(s, "x29"))
        return (reg_map){EDAN_A64_X(29), 0};
    if (!strcmp(s, "lr"))
        return (reg_map){EDAN_A64_X(30), 0};
    if (!strcmp(s, "sp") || !strcmp(s, "wsp"))
        return (reg_map){EDAN_A64_SP, 0};
    if (!strcmp(s, "nzcv"))
        return (reg_map){EDAN_A64_NZCV, 0};
    static const char *const vec[] = {"b", "h", "s", "d", "q", "v"};
    for (size_t k = 0; k < sizeof vec / sizeof vec[0]; k++)
        if ((i = numbered(s, vec[k])) >= 0)
            return (reg_map){EDAN_A64_V(i), 0};
    return (reg_map){0, 0}; /* xzr, wzr, system registers */
}

/* The handle of isa, opened the first time; NULL when Capstone cannot (the lock is held). */
static handle *handle_of(int isa)
{
    handle *h = &handles[isa];
    if (h->open || h->failed)
        return h->open ? h : NULL;
    const cs_arch arch = isa == EDAN_ISA_X86_64 ? CS_ARCH_X86 : CS_ARCH_ARM64;
    const cs_mode mode = isa == EDAN_ISA_X86_64 ? CS_MODE_64 : CS_MODE_ARM;
    if (cs_open(arch, mode, &h->cs) != CS_ERR_OK) {
        h->failed = true;
        return NULL;
    }
    cs_option(h->cs, CS_OPT_DETAIL, CS_OPT_ON);
    h->insn = cs_malloc(h->cs);
    if (!h->insn) {
        cs_close(&h->cs);
        h->failed = true;
        return NULL;
    }
    for (unsigned r = 1; r < MAX_CS_REGS; r++) {
        const char *name = cs_reg_name(h->cs, r);
        if (name)
            h->map[r] = isa == EDAN_ISA_X86_64 ? x86_slot(name) : a64_slot(name);
    }
    h->open = true;
    return h;
}

/* ---- building the record ------------------------------------------------ */

typedef struct regset {
    uint8_t r[2 * EDAN_MAX_MORE + 4];
    int n;
} regset;

static void add_reg(regset *s, uint8_t slot)
{
    if (!slot)
        return;
    for (int i = 0; i < s->n; i++)
        if (s->r[i] == slot)
            return;
    if (s->n < (int)sizeof s->r)
        s->r[s->n++] = slot;
}

static void del_reg(regset *s, uint8_t slot)
{
    for (int i = 0; i < s->n; i++)
        if (s->r[i] == slot) {
            s->r[i] = s->r[--s->n];
            return;
        }
}

/* Sources and destinations into the record: src[], dst, then more[], and which destinations are in ad (address
 * updates); false when they do not fit. */
static bool put_regs(edan_insn *out, const regset *rd, const regset *wr, const regset *ad)
{
    const int n_src = rd->n < EDAN_MAX_SRC ? rd->n : EDAN_MAX_SRC;
    const int more_src = rd->n - n_src, more_dst = wr->n > 1 ? wr->n - 1 : 0;
    if (more_src + more_dst > EDAN_MAX_MORE)
        return false;
    out->n_src = (uint8_t)n_src;
    memcpy(out->src, rd->r, (size_t)n_src);
    out->n_more_src = (uint8_t)more_src;
    memcpy(out->more, rd->r + n_src, (size_t)more_src);
    if (wr->n) {
        out->n_dst = 1;
        out->dst = wr->r[0];
        out->n_more_dst = (uint8_t)more_dst;
        memcpy(out->more + more_src, wr->r + 1, (size_t)more_dst);
    }
    for (int i = 0; i < wr->n; i++)
        for (int j = 0; j < ad->n; j++)
            if (wr->r[i] == ad->r[j])
                out->addr_dst |= (uint16_t)(1u << i);
    return true;
}

static bool starts(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

static bool has_group(const cs_detail *d, uint8_t g)
{
    for (int i = 0; i < d->groups_count; i++)
        if (d->groups[i] == g)
            return true;
    return false;
}

/* An SSE/AVX or x87 floating-point mnemonic's cost class; -1 when it is none. */
static int x86_fp_class(const char *m)
{
    const size_t n = strlen(m);
    const bool packed_or_scalar =
        n > 2 && (!strcmp(m + n - 2, "ps") || !strcmp(m + n - 2, "pd") || !strcmp(m + n - 2, "ss") ||
                  !strcmp(m + n - 2, "sd") || !strcmp(m + n - 2, "sh"));
    const char *b = m[0] == 'v' ? m + 1 : m;
    if (starts(m, "vfmadd") || starts(m, "vfmsub") || starts(m, "vfnmadd") || starts(m, "vfnmsub"))
        return EDAN_CLASS_FFMA;
    if (packed_or_scalar) {
        if (starts(b, "sqrt"))
            return EDAN_CLASS_FSQRT;
        if (starts(b, "div"))
            return EDAN_CLASS_FDIV;
        if (starts(b, "mul"))
            return EDAN_CLASS_FMUL;
        if (starts(b, "add") || starts(b, "sub") || starts(b, "min") || starts(b, "max") || starts(b, "cmp") ||
            starts(b, "cvt") || starts(b, "hadd") || starts(b, "hsub") || starts(b, "ucomi") || starts(b, "comi") ||
            starts(b, "round") || starts(b, "dp"))
            return EDAN_CLASS_FADD;
        return -1; /* moves, logic, shuffles: integer-like */
    }
    if (m[0] == 'f' && strcmp(m, "fwait") && strcmp(m, "fnop")) { /* x87 */
        if (starts(m, "fsqrt"))
            return EDAN_CLASS_FSQRT;
        if (starts(m, "fdiv") || starts(m, "fidiv"))
            return EDAN_CLASS_FDIV;
        if (starts(m, "fmul") || starts(m, "fimul"))
            return EDAN_CLASS_FMUL;
        return EDAN_CLASS_FADD;
    }
    return -1;
}

/* Whether an FP class mnemonic is an add or subtract (a flop, opmix.h). */
static bool fp_add(const char *m)
{
    const char *b = m[0] == 'v' ? m + 1 : m;
    return starts(b, "add") || starts(b, "sub") || starts(b, "fadd") || starts(b, "fsub") || starts(b, "fiadd") ||
           starts(b, "fisub");
}

/* The second access of an instruction that accesses two places (EDAN_NATIVE_TWO_PLACES), in QEMU's order. */
typedef struct second_access {
    uint8_t mem, size;
} second_access;

/* Capstone's explicit and implicit registers of the instruction: its reads into rd, its writes (the count)
 * into w_ids, for the caller to map (an x86 write may merge); none when Capstone cannot tell. */
static uint8_t regs_access(handle *h, regset *rd, cs_regs w_ids)
{
    cs_regs r_ids;
    uint8_t n_r = 0, n_w = 0;
    if (cs_regs_access(h->cs, h->insn, r_ids, &n_r, w_ids, &n_w) != CS_ERR_OK)
        return 0;
    for (int i = 0; i < n_r; i++)
        add_reg(rd, r_ids[i] < MAX_CS_REGS ? h->map[r_ids[i]].slot : 0);
    return n_w;
}

/*
 * The timing model's micro-operations of an x86 instruction (edan_insn.uops), once per static instruction: a load
 * with an operation (add rax, [m]; addsd xmm0, [m]; cmp [m], 1) is a load and the operation, a read-modify-write
 * (add [m], rax) a load, the operation and a store, a computed store (setc [m], pextrd [m], ...) the operation and
 * a store. Moves, string instructions, the stack's, atomics and branches stay one (as does what accesses two
 * places: two vertices already). The operation's class goes to op_cls.
 */
static void x86_uops(edan_insn *out, const char *m, bool stack)
{
    const uint8_t index = out->mem_index;
    out->mem_index = 0; /* kept only for the timing model's load micro-operation */
    const char *b = m[0] == 'v' ? m + 1 : m;
    const bool move = starts(b, "mov") || starts(b, "broadcast") || starts(b, "pbroadcast") || starts(b, "lddqu") ||
                      starts(b, "maskmov") || starts(b, "pmaskmov") || starts(m, "fld") || starts(m, "fild") ||
                      starts(m, "fst") || starts(m, "fist") || starts(m, "stos") || starts(m, "lods");
    if (stack || move || out->flow != EDAN_FLOW_NONE || out->cls == EDAN_CLASS_ATOMIC || out->mem == EDAN_MEM_NONE ||
        (out->native & (EDAN_NATIVE_TWO_PLACES | EDAN_NATIVE_UNDECODED)))
        return;
    out->uops = (uint8_t)(EDAN_UOP_OP | (out->mem != EDAN_MEM_STORE ? EDAN_UOP_LOAD : 0) |
                          (out->mem != EDAN_MEM_LOAD ? EDAN_UOP_STORE : 0));
    out->mem_index = index;
    if (out->op_cls == EDAN_CLASS_LOAD || out->op_cls == EDAN_CLASS_STORE)
        out->op_cls = (uint8_t)(!strcmp(m, "div") || !strcmp(m, "idiv")                         ? EDAN_CLASS_DIV
                                : !strcmp(m, "mul") || !strcmp(m, "imul") || !strcmp(m, "mulx") ? EDAN_CLASS_MUL
                                                                                                : EDAN_CLASS_INT);
}

/*
 * How x86 instruction m accesses its memory operand i, Capstone's `access` corrected: Capstone 4.0.2 marks most
 * vector and x87 stores' destination read (movups, movq, pextrq, fst, stmxcsr...: loads to edan, never written in
 * the shadow nor dirty in the cache), test's written, cmpxchg's not written (it always is). These families' memory
 * first operand (Intel order: the destination) is only written.
 */
static int x86_mem_access(const char *m, int i, int access)
{
    static const char *const stores[] = {"mov",      "pmov",    "pextr",    "extract",   "cvtps2ph", "maskmov",
                                         "pmaskmov", "stmxcsr", "compress", "pcompress", "fst",      "fist",
                                         "fnst",     "fsave",   "fnsave",   "fxsave",    "xsave"};
    const char *b = m[0] == 'v' ? m + 1 : m; /* the AVX form's too */
    if (!strcmp(m, "test") || starts(m, "cmpxchg"))
        return m[0] == 'c' ? CS_AC_READ | CS_AC_WRITE : CS_AC_READ;
    for (size_t k = 0; i == 0 && k < sizeof stores / sizeof *stores; k++)
        if (starts(b, stores[k]))
            return CS_AC_WRITE;
    return access ? access : CS_AC_READ;
}

static void decode_x86(handle *h, edan_insn *out, regset *rd, regset *wr, regset *ad, second_access *second)
{
    const cs_insn *ci = h->insn;
    const cs_detail *d = ci->detail;
    const cs_x86 *x = &d->x86;
    const char *m = ci->mnemonic;
    /* what reads and writes a merging write implies */
    cs_regs w_ids;
    const uint8_t n_w = regs_access(h, rd, w_ids);
    for (int i = 0; i < n_w; i++) {
        const reg_map rm = w_ids[i] < MAX_CS_REGS ? h->map[w_ids[i]] : (reg_map){0, 0};
        add_reg(wr, rm.slot);
        if (rm.merges)
            add_reg(rd, rm.slot);
    }
    /* string instructions read the direction flag, which no status flag write changes (cld, std do, and the ABI
     * keeps it clear): not the flags slot, or every one would depend on the last compare */
    const uint8_t opc = x->opcode[0];
    if (x->opcode[1] == 0 && ((opc >= 0xa4 && opc <= 0xa7) || (opc >= 0xaa && opc <= 0xaf))) {
        del_reg(rd, EDAN_X86_FLAGS);
        add_reg(ad, EDAN_X86_GPR(7)); /* rdi, rsi, rcx: addresses and a count, not what was loaded */
        add_reg(ad, EDAN_X86_GPR(6));
        add_reg(ad, EDAN_X86_GPR(1));
        if (x->prefix[0] == X86_PREFIX_REP || x->prefix[0] == X86_PREFIX_REPNE) /* REPE is REP's byte */
            out->native |= EDAN_NATIVE_REP;
    }
    /* vzeroupper, vzeroall: dependency-breaking (cores rename them away), and more registers than a record holds */
    if (!strcmp(m, "vzeroupper") || !strcmp(m, "vzeroall"))
        rd->n = wr->n = 0;
    /* zero idioms: the same register twice as the sources of xor, sub, pxor, xorps... */
    const char *b = m[0] == 'v' ? m + 1 : m;
    if ((!strcmp(m, "xor") || !strcmp(m, "sub") || !strcmp(b, "pxor") || !strcmp(b, "xorps") || !strcmp(b, "xorpd") ||
         !strcmp(b, "pxord") || !strcmp(b, "pxorq") || !strcmp(b, "psubb") || !strcmp(b, "psubd") ||
         !strcmp(b, "psubq")) &&
        x->op_count >= 2 && x->operands[x->op_count - 1].type == X86_OP_REG &&
        x->operands[x->op_count - 2].type == X86_OP_REG &&
        x->operands[x->op_count - 1].reg == x->operands[x->op_count - 2].reg) {
        const uint8_t z = h->map[x->operands[x->op_count - 1].reg].slot;
        if (x->op_count == 2 || h->map[x->operands[0].reg].slot == z)
            del_reg(rd, z);
    }
    /* memory: explicit operands, and the stack of push, pop, call, ret, leave */
    int n_mem = 0, first_access = 0, size = 0, any_write = 0, last_size = 0;
    bool no_access = starts(m, "lea") || starts(m, "nop") || starts(m, "prefetch") || starts(m, "clflush") ||
                     starts(m, "clwb") || starts(m, "cldemote");
    for (int i = 0; !no_access && i < x->op_count; i++) {
        const cs_x86_op *op = &x->operands[i];
        if (op->type != X86_OP_MEM)
            continue;
        const int access = x86_mem_access(m, i, op->access);
        any_write |= access & CS_AC_WRITE;
        last_size = op->size ? op->size : 8;
        if (!n_mem++) {
            first_access = access;
            size = op->size ? op->size : 8;
            out->rs1 = op->mem.base < MAX_CS_REGS ? h->map[op->mem.base].slot : 0;
            out->mem_index = op->mem.index < MAX_CS_REGS ? h->map[op->mem.index].slot : 0;
            out->imm = op->mem.disp;
        }
    }
    const bool pushes = starts(m, "push") || starts(m, "call"),
               pops = starts(m, "pop") || starts(m, "ret") || !strcmp(m, "leave") || starts(m, "iret");
    if (pushes || pops || !strcmp(m, "enter"))
        add_reg(ad, EDAN_X86_SP); /* the stack pointer moves by a constant: not what was loaded */
    if (!strcmp(m, "leave"))
        out->addr_from = EDAN_X86_GPR(5); /* rsp = rbp + 8 */
    if (!no_access && (pushes || pops)) {
        if (n_mem++) {
            /* push [m], call [m]: the operand is read first; pop [m]: the stack is */
            if (pops) {
                first_access = CS_AC_READ;
                size = 8;
            }
        } else {
            first_access = pushes ? CS_AC_WRITE : CS_AC_READ;
            size = 8;
            out->rs1 = EDAN_X86_SP;
        }
    }
    if (n_mem > 1) {
        /* movs: [rsi] then [rdi] written; cmps: two reads; push [m], call [m]: m then the stack written; pop [m]: the
         * stack then m written */
        out->native |= EDAN_NATIVE_TWO_PLACES;
        second->mem = pushes || any_write || pops ? EDAN_MEM_STORE : EDAN_MEM_LOAD;
        second->size = (uint8_t)(pushes ? 8 : last_size > 255 ? 255 : last_size);
    }
    if (n_mem == 1)
        out->mem = (uint8_t)((first_access & CS_AC_READ) && (first_access & CS_AC_WRITE) ? EDAN_MEM_AMO
                             : first_access & CS_AC_WRITE                                ? EDAN_MEM_STORE
                                                                                         : EDAN_MEM_LOAD);
    else if (n_mem > 1) /* movs, cmps, push [m], call [m], pop [m]: QEMU reads first */
        out->mem = EDAN_MEM_LOAD;
    if (n_mem)
        out->mem_size = (uint8_t)(size > 255 ? 255 : size);
    /* control flow */
    if (has_group(d, CS_GRP_CALL))
        out->flow = EDAN_FLOW_CALL;
    else if (has_group(d, CS_GRP_RET))
        out->flow = EDAN_FLOW_RETURN;
    else if (has_group(d, CS_GRP_JUMP))
        out->flow = !strcmp(m, "jmp") ? EDAN_FLOW_JUMP : EDAN_FLOW_BRANCH;
    if (out->flow != EDAN_FLOW_NONE && out->flow != EDAN_FLOW_RETURN && x->op_count == 1 &&
        x->operands[0].type == X86_OP_IMM) {
        out->imm = (int64_t)((uint64_t)x->operands[0].imm - out->pc);
        out->native |= EDAN_NATIVE_DIRECT;
    }
    /* cost class */
    const int fp = x86_fp_class(m);
    if (out->flow != EDAN_FLOW_NONE)
        out->cls = EDAN_CLASS_BRANCH;
    else if (out->mem == EDAN_MEM_AMO && x->prefix[0] == X86_PREFIX_LOCK)
        out->cls = EDAN_CLASS_ATOMIC;
    else if (out->mem == EDAN_MEM_LOAD)
        out->cls = EDAN_CLASS_LOAD;
    else if (out->mem == EDAN_MEM_STORE || out->mem == EDAN_MEM_AMO)
        out->cls = EDAN_CLASS_STORE;
    else if (!strcmp(m, "div") || !strcmp(m, "idiv"))
        out->cls = EDAN_CLASS_DIV;
    else if (!strcmp(m, "mul") || !strcmp(m, "imul") || !strcmp(m, "mulx"))
        out->cls = EDAN_CLASS_MUL;
    else if (fp >= 0)
        out->cls = (uint8_t)fp;
    if (fp == EDAN_CLASS_FADD && fp_add(m))
        out->native |= EDAN_NATIVE_FLOP_ADD;
    out->op_cls = (uint8_t)(fp >= 0 ? fp : out->cls);
    x86_uops(out, m, pushes || pops || !strcmp(m, "enter") || !strcmp(m, "xchg"));
}

/* The bytes one AArch64 register operand of a load or store moves. */
static int a64_reg_bytes(const handle *h, const cs_arm64_op *op)
{
    const char *s = cs_reg_name(h->cs, op->reg);
    if (!s)
        return 0;
    if (op->vector_index >= 0 || op->vas == ARM64_VAS_INVALID) {
        switch (op->vess ? op->vess : op->vas) {
        case ARM64_VESS_B:
            return 1;
        case ARM64_VESS_H:
            return 2;
        case ARM64_VESS_S:
            return 4;
        case ARM64_VESS_D:
            return 8;
        default:
            break;
        }
    }
    switch (op->vas) {
    case ARM64_VAS_8B:
    case ARM64_VAS_4H:
    case ARM64_VAS_2S:
    case ARM64_VAS_1D:
        return 8;
    case ARM64_VAS_16B:
    case ARM64_VAS_8H:
    case ARM64_VAS_4S:
    case ARM64_VAS_2D:
    case ARM64_VAS_1Q:
        return 16;
    default:
        break;
    }
    switch (s[0]) {
    case 'x':
    case 'd':
        return 8;
    case 'w':
    case 's':
        return 4;
    case 'h':
        return 2;
    case 'b':
        return 1;
    case 'q':
    case 'v':
        return 16;
    default:
        return 8;
    }
}

static void decode_a64(handle *h, edan_insn *out, regset *rd, regset *wr, regset *ad)
{
    const cs_insn *ci = h->insn;
    const cs_detail *d = ci->detail;
    const cs_arm64 *a = &d->arm64;
    const char *m = ci->mnemonic;
    cs_regs w_ids;
    const uint8_t n_w = regs_access(h, rd, w_ids);
    /*
     * Capstone 4.0.2 marks the first operand of the compare aliases (cmp, cmn, tst: subs, adds, ands into the
     * zero register) written, not read: "cmp x2, #0" would make x2 a value of its own, and the loads that
     * follow independent of the one that gave it.
     */
    const bool compare = !strcmp(m, "cmp") || !strcmp(m, "cmn") || !strcmp(m, "tst");
    const unsigned compared = compare && a->op_count && a->operands[0].type == ARM64_OP_REG ? a->operands[0].reg : 0;
    for (int i = 0; i < n_w; i++)
        if (!compared || w_ids[i] != compared)
            add_reg(wr, w_ids[i] < MAX_CS_REGS ? h->map[w_ids[i]].slot : 0);
    if (compared)
        add_reg(rd, compared < MAX_CS_REGS ? h->map[compared].slot : 0);
    if (!strcmp(m, "ret") && a->op_count == 0)
        add_reg(rd, EDAN_A64_X(30));
    /* memory: a load or store moves its transfer registers' bytes at its one memory operand */
    int mem_op = -1, bytes = 0;
    for (int i = 0; i < a->op_count; i++) {
        if (a->operands[i].type == ARM64_OP_MEM && mem_op < 0)
            mem_op = i;
        else if (a->operands[i].type == ARM64_OP_REG && mem_op < 0)
            bytes += a64_reg_bytes(h, &a->operands[i]);
    }
    const bool atomic = starts(m, "ldadd") || starts(m, "ldclr") || starts(m, "ldeor") || starts(m, "ldset") ||
                        starts(m, "ldsmax") || starts(m, "ldsmin") || starts(m, "ldumax") || starts(m, "ldumin") ||
                        starts(m, "swp") || starts(m, "cas") || starts(m, "stadd") || starts(m, "stclr") ||
                        starts(m, "steor") || starts(m, "stset");
    if (mem_op >= 0 && !starts(m, "prfm") && !starts(m, "prfum")) {
        const cs_arm64_op *op = &a->operands[mem_op];
        out->rs1 = op->mem.base < MAX_CS_REGS ? h->map[op->mem.base].slot : 0;
        if (a->writeback)
            add_reg(ad, out->rs1); /* pre- and post-index: the base moves by a constant */
        out->imm = op->mem.disp;
        if (atomic)
            out->mem = EDAN_MEM_AMO;
        else if (m[0] == 'l')
            out->mem = EDAN_MEM_LOAD;
        else if (m[0] == 's')
            out->mem = EDAN_MEM_STORE;
        if (out->mem != EDAN_MEM_NONE) {
            /* the store-exclusive's status register is no data */
            if (starts(m, "stxr") || starts(m, "stlxr") || starts(m, "stxp") || starts(m, "stlxp"))
                bytes -= 4;
            const size_t n = strlen(m);
            const char last = m[n - 1];
            if ((starts(m, "ldr") || starts(m, "str") || starts(m, "ldur") || starts(m, "stur") || starts(m, "ldar") ||
                 starts(m, "stlr") || starts(m, "ldxr") || starts(m, "stxr") || starts(m, "ldaxr") ||
                 starts(m, "stlxr") || starts(m, "ldtr") || starts(m, "sttr")) &&
                (last == 'b' || last == 'h'))
                bytes = last == 'b' ? 1 : 2;
            else if (last == 'w' && (starts(m, "ldrs") || starts(m, "ldurs") || starts(m, "ldpsw")))
                bytes = starts(m, "ldpsw") ? 8 : 4;
            if (atomic)
                bytes = bytes / 2 ? bytes / 2 : bytes; /* ldadd ws, wt: one register's width */
            out->mem_size = (uint8_t)(bytes <= 0 ? 8 : bytes > 255 ? 255 : bytes);
        }
    }
    /* control flow and cost class */
    if (!strcmp(m, "bl") || !strcmp(m, "blr") || starts(m, "blra"))
        out->flow = EDAN_FLOW_CALL;
    else if (!strcmp(m, "ret") || starts(m, "reta"))
        out->flow = EDAN_FLOW_RETURN;
    else if (!strcmp(m, "b") || !strcmp(m, "br") || starts(m, "bra"))
        out->flow = EDAN_FLOW_JUMP;
    else if (has_group(d, CS_GRP_JUMP))
        out->flow = EDAN_FLOW_BRANCH;
    if (out->flow != EDAN_FLOW_NONE && a->op_count && a->operands[a->op_count - 1].type == ARM64_OP_IMM) {
        out->imm = (int64_t)((uint64_t)a->operands[a->op_count - 1].imm - out->pc);
        out->native |= EDAN_NATIVE_DIRECT;
    }
    if (out->flow != EDAN_FLOW_NONE)
        out->cls = EDAN_CLASS_BRANCH;
    else if (out->mem == EDAN_MEM_AMO)
        out->cls = EDAN_CLASS_ATOMIC;
    else if (out->mem == EDAN_MEM_LOAD)
        out->cls = EDAN_CLASS_LOAD;
    else if (out->mem == EDAN_MEM_STORE)
        out->cls = EDAN_CLASS_STORE;
    else if (!strcmp(m, "sdiv") || !strcmp(m, "udiv"))
        out->cls = EDAN_CLASS_DIV;
    else if (starts(m, "fmadd") || starts(m, "fmsub") || starts(m, "fnmadd") || starts(m, "fnmsub") ||
             starts(m, "fmla") || starts(m, "fmls"))
        out->cls = EDAN_CLASS_FFMA;
    else if (starts(m, "fmul") || starts(m, "fnmul"))
        out->cls = EDAN_CLASS_FMUL;
    else if (starts(m, "fdiv"))
        out->cls = EDAN_CLASS_FDIV;
    else if (starts(m, "fsqrt"))
        out->cls = EDAN_CLASS_FSQRT;
    else if (m[0] == 'f' || starts(m, "scvtf") || starts(m, "ucvtf"))
        out->cls = EDAN_CLASS_FADD;
    else if (starts(m, "mul") || starts(m, "madd") || starts(m, "msub") || starts(m, "mneg") || starts(m, "smul") ||
             starts(m, "umul") || starts(m, "smadd") || starts(m, "umadd") || starts(m, "smsub") || starts(m, "umsub"))
        out->cls = EDAN_CLASS_MUL;
    if (starts(m, "fadd") || starts(m, "fsub"))
        out->native |= EDAN_NATIVE_FLOP_ADD;
    out->op_cls = out->cls;
}

/*
 * An instruction that accesses two places as two vertices, one per access
 * in QEMU's order: the first reads every source and writes the temporary
 * slot (the value it loaded); the second reads the temporary alone (every
 * source reaches it through the first), makes the second access, writes
 * every destination and carries the instruction's control flow. part: 0
 * the first, 1 the second.
 */
static void split(edan_insn *out, int part, regset *rd, regset *wr, const regset *ad, second_access second)
{
    regset addr = {.n = 0}, data = {.n = 0};
    for (int i = 0; i < wr->n; i++) {
        bool is_addr = false;
        for (int j = 0; j < ad->n; j++)
            is_addr |= wr->r[i] == ad->r[j];
        add_reg(is_addr ? &addr : &data, wr->r[i]);
    }
    if (part == 0) { /* the temporary, and the address updates (from the sources, as the first reads them) */
        wr->n = 0;
        add_reg(wr, EDAN_X86_TMP);
        for (int i = 0; i < addr.n; i++)
            add_reg(wr, addr.r[i]);
        out->flow = EDAN_FLOW_NONE;
        out->cls = EDAN_CLASS_LOAD;
        return;
    }
    rd->n = 0; /* what the first read reaches the second through it */
    add_reg(rd, EDAN_X86_TMP);
    *wr = data;
    out->native |= EDAN_NATIVE_SECOND;
    out->mem = second.mem;
    out->mem_size = second.size;
    out->cls = out->flow != EDAN_FLOW_NONE    ? EDAN_CLASS_BRANCH
               : second.mem == EDAN_MEM_STORE ? EDAN_CLASS_STORE
                                              : EDAN_CLASS_LOAD;
}

/* An AArch64 LSE atomic, which Capstone does not know (native_lse.c): an atomic vertex, as decode_a64's. */
static edan_decode_status decode_lse(edan_insn *out, const uint8_t *bytes)
{
    edan_a64_lse l;
    const uint32_t w =
        (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
    if (!edan_a64_lse_decode(w, &l))
        return EDAN_DECODE_ILLEGAL;
    regset rd = {.n = 0}, wr = {.n = 0}, ad = {.n = 0};
    for (int i = 0; i < l.n_reads; i++)
        add_reg(&rd, l.reads[i] < 31 ? EDAN_A64_X(l.reads[i]) : EDAN_A64_SP);
    for (int i = 0; i < l.n_writes; i++)
        add_reg(&wr, EDAN_A64_X(l.writes[i]));
    out->size = 4;
    memset(out->enc + 4, 0, EDAN_MAX_ENC - 4);
    out->native = 0;
    out->mem = EDAN_MEM_AMO;
    out->mem_size = l.size;
    out->rs1 = l.base < 31 ? EDAN_A64_X(l.base) : EDAN_A64_SP;
    out->cls = out->op_cls = EDAN_CLASS_ATOMIC;
    if (put_regs(out, &rd, &wr, &ad))
        return EDAN_DECODE_OK;
    out->native = EDAN_NATIVE_UNDECODED;
    return EDAN_DECODE_ILLEGAL;
}

edan_decode_status edan_native_decode(int isa, const uint8_t *bytes, size_t avail, uint64_t pc, edan_insn *out)
{
    return edan_native_decode_part(isa, bytes, avail, pc, 0, out);
}

edan_decode_status edan_native_decode_part(int isa, const uint8_t *bytes, size_t avail, uint64_t pc, int part,
                                           edan_insn *out)
{
    edan_insn_clear(out);
    out->pc = pc;
    out->isa = (uint8_t)isa;
    const size_t keep = avail < EDAN_MAX_ENC ? avail : EDAN_MAX_ENC;
    memcpy(out->enc, bytes, keep);
    out->size = (uint8_t)keep;
    out->cls = EDAN_CLASS_INT;
    out->native = EDAN_NATIVE_UNDECODED;
    if (isa != EDAN_ISA_X86_64 && isa != EDAN_ISA_AARCH64) {
        out->raw = edan_native_raw(isa, out->enc, keep);
        return EDAN_DECODE_ILLEGAL;
    }
    pthread_mutex_lock(&lock);
    handle *h = handle_of(isa);
    const uint8_t *p = bytes;
    size_t n = keep;
    uint64_t a = pc;
    edan_decode_status st = EDAN_DECODE_ILLEGAL;
    if (h && cs_disasm_iter(h->cs, &p, &n, &a, h->insn)) {
        regset rd = {.n = 0}, wr = {.n = 0};
        out->native = 0;
        out->size = (uint8_t)h->insn->size;
        memset(out->enc + out->size, 0, EDAN_MAX_ENC - out->size);
        second_access second = {0, 0};
        regset ad = {.n = 0};
        if (isa == EDAN_ISA_X86_64)
            decode_x86(h, out, &rd, &wr, &ad, &second);
        else
            decode_a64(h, out, &rd, &wr, &ad);
        if (out->native & EDAN_NATIVE_TWO_PLACES)
            split(out, part, &rd, &wr, &ad, second);
        else if (part)
            out->native |= EDAN_NATIVE_UNDECODED; /* no second part */
        if (out->mem == EDAN_MEM_NONE)
            ad.n = 0; /* without an access there is nothing to keep an update apart from */
        if ((out->native & EDAN_NATIVE_UNDECODED) || !put_regs(out, &rd, &wr, &ad)) {
            const uint8_t size = out->size;
            edan_insn_clear(out);
            out->pc = pc;
            out->isa = (uint8_t)isa;
            out->size = size;
            memcpy(out->enc, bytes, size);
            out->native = EDAN_NATIVE_UNDECODED;
        } else {
            st = EDAN_DECODE_OK;
        }
    } else if (isa == EDAN_ISA_AARCH64 && keep >= 4 && !part) {
        st = decode_lse(out, bytes);
    }
    pthread_mutex_unlock(&lock);
    out->raw = edan_native_raw(isa, out->enc, out->size);
    return st;
}

int edan_native_disas(const edan_insn *in, char *buf, size_t cap)
{
    if (in->isa != EDAN_ISA_X86_64 && in->isa != EDAN_ISA_AARCH64)
        return snprintf(buf, cap, "?");
    pthread_mutex_lock(&lock);
    handle *h = handle_of(in->isa);
    const uint8_t *p = in->enc;
    size_t n = in->size;
    uint64_t a = in->pc;
    int len;
    edan_a64_lse lse;
    if (h && cs_disasm_iter(h->cs, &p, &n, &a, h->insn))
        len = snprintf(buf, cap, "%s%s%s%s", h->insn->mnemonic, h->insn->op_str[0] ? " " : "", h->insn->op_str,
                       in->native & EDAN_NATIVE_SECOND ? " (2nd access)" : "");
    else if (in->isa == EDAN_ISA_AARCH64 && in->size == 4 && !(in->native & EDAN_NATIVE_UNDECODED) &&
             edan_a64_lse_decode((uint32_t)in->enc[0] | (uint32_t)in->enc[1] << 8 | (uint32_t)in->enc[2] << 16 |
                                     (uint32_t)in->enc[3] << 24,
                                 &lse))
        len = snprintf(buf, cap, "%s", lse.text);
    else
        len = snprintf(buf, cap, "(undecoded)");
    pthread_mutex_unlock(&lock);
    return len;
}

int edan_isa_disas(const edan_insn *in, char *buf, size_t cap)
{
    return in->isa == EDAN_ISA_RISCV64 ? edan_rv_disas(in, buf, cap) : edan_native_disas(in, buf, cap);
}

const char *edan_native_reg_name(int isa, uint8_t reg)
{
    if (isa == EDAN_ISA_RISCV64)
        return edan_rv_reg_name(reg);
    static const char *const a64_x[31] = {"x0",  "x1",  "x2",  "x3",  "x4",  "x5",  "x6",  "x7",  "x8",  "x9",  "x10",
                                          "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21",
                                          "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29", "x30"};
    static const char *const vec[32] = {"0",  "1",  "2",  "3",  "4",  "5",  "6",  "7",  "8",  "9",  "10",
                                        "11", "12", "13", "14", "15", "16", "17", "18", "19", "20", "21",
                                        "22", "23", "24", "25", "26", "27", "28", "29", "30", "31"};
    static _Thread_local char name[8];
    if (isa == EDAN_ISA_X86_64) {
        if (reg >= EDAN_X86_GPR(0) && reg <= EDAN_X86_GPR(15))
            return x86_q[reg - EDAN_X86_GPR(0)];
        if (reg == EDAN_X86_FLAGS)
            return "flags";
        if (reg == EDAN_X86_TMP)
            return "tmp";
        if (reg >= EDAN_X86_VEC(0) && reg <= EDAN_X86_VEC(31)) {
            snprintf(name, sizeof name, "xmm%s", vec[reg - EDAN_X86_VEC(0)]);
            return name;
        }
        if (reg >= EDAN_X86_K(0) && reg <= EDAN_X86_K(7)) {
            snprintf(name, sizeof name, "k%s", vec[reg - EDAN_X86_K(0)]);
            return name;
        }
        return reg == EDAN_X86_X87 ? "st" : "?";
    }
    if (isa == EDAN_ISA_AARCH64) {
        if (reg >= EDAN_A64_X(0) && reg <= EDAN_A64_X(30))
            return a64_x[reg - EDAN_A64_X(0)];
        if (reg == EDAN_A64_SP)
            return "sp";
        if (reg == EDAN_A64_NZCV)
            return "nzcv";
        if (reg >= EDAN_A64_V(0) && reg <= EDAN_A64_V(31)) {
            snprintf(name, sizeof name, "v%s", vec[reg - EDAN_A64_V(0)]);
            return name;
        }
    }
    return "?";
}
