/*
 * riscv_ops.c - per-op property table and the shared operand-to-dependency
 * derivation used by both the binary decoder and the text parser.
 */
#include "isa/riscv_ops.h"

#include <string.h>

const edan_rv_opinfo edan_rv_ops[EDAN_OP_COUNT] = {
    [EDAN_OP_ILLEGAL] = {"illegal", "", 0, EDAN_CLASS_INT, EDAN_MEM_NONE, 0, EDAN_FMT_NONE},
#define EDAN_RV_OP_ROW(id, nm, cl, mk, sz, fm, shape, frm)                                        \
    [EDAN_OP_##id] = {nm, frm, (uint16_t)(shape), EDAN_CLASS_##cl, EDAN_MEM_##mk, sz, EDAN_FMT_##fm},
    EDAN_RV_OP_LIST(EDAN_RV_OP_ROW)
#undef EDAN_RV_OP_ROW
};

void edan_insn_clear(edan_insn *insn)
{
    memset(insn, 0, sizeof *insn);
}

static void add_src(edan_insn *insn, uint8_t reg)
{
    /* x0 reads as constant zero: it carries no dependency. */
    if (reg == 0) {
        return;
    }
    for (unsigned i = 0; i < insn->n_src; i++) {
        if (insn->src[i] == reg) {
            return;
        }
    }
    insn->src[insn->n_src++] = reg;
}

void edan_rv_finish(edan_insn *insn)
{
    uint16_t op = insn->op < EDAN_OP_COUNT ? insn->op : EDAN_OP_ILLEGAL;
    const edan_rv_opinfo *info = &edan_rv_ops[op];
    unsigned f = info->flags;

    insn->op = op;
    insn->cls = info->cls;
    insn->mem = info->mem;
    insn->mem_size = info->mem_size;
    insn->fmt = info->fmt;
    insn->flow = EDAN_FLOW_NONE;
    insn->n_src = 0;
    insn->n_dst = 0;
    insn->dst = 0;
    memset(insn->src, 0, sizeof insn->src);

    /* Raw fields are 5-bit numbers; place them in the right register file. */
    insn->rd = (uint8_t)((insn->rd & 31) + ((f & EDAN_RV_FRD) ? 32 : 0));
    insn->rs1 = (uint8_t)((insn->rs1 & 31) + ((f & EDAN_RV_FRS1) ? 32 : 0));
    insn->rs2 = (uint8_t)((insn->rs2 & 31) + ((f & EDAN_RV_FRS2) ? 32 : 0));
    insn->rs3 = (uint8_t)((insn->rs3 & 31) + ((f & EDAN_RV_FRS3) ? 32 : 0));

    if (f & EDAN_RV_RS1) {
        add_src(insn, insn->rs1);
    }
    if (f & EDAN_RV_RS2) {
        add_src(insn, insn->rs2);
    }
    if (f & EDAN_RV_RS3) {
        add_src(insn, insn->rs3);
    }
    if ((f & EDAN_RV_RD) && insn->rd != 0) {
        insn->dst = insn->rd;
        insn->n_dst = 1;
    }

    /* Return-address-stack hints (unprivileged spec, jal/jalr): x1 and x5 are link registers. */
    bool rd_link = insn->rd == 1 || insn->rd == 5;
    bool rs1_link = insn->rs1 == 1 || insn->rs1 == 5;
    switch (op) {
    case EDAN_OP_JAL:
        insn->flow = rd_link ? EDAN_FLOW_CALL : EDAN_FLOW_JUMP;
        break;
    case EDAN_OP_JALR:
        if (rd_link) {
            insn->flow = EDAN_FLOW_CALL;
        } else if (insn->rd == 0 && rs1_link) {
            insn->flow = EDAN_FLOW_RETURN;
        } else {
            insn->flow = EDAN_FLOW_JUMP;
        }
        break;
    case EDAN_OP_BEQ:
    case EDAN_OP_BNE:
    case EDAN_OP_BLT:
    case EDAN_OP_BGE:
    case EDAN_OP_BLTU:
    case EDAN_OP_BGEU:
        insn->flow = EDAN_FLOW_BRANCH;
        break;
    default:
        break;
    }
}

const char *edan_rv_op_name(uint16_t op)
{
    return op < EDAN_OP_COUNT ? edan_rv_ops[op].name : "illegal";
}

static const char rv_xreg_names[32][5] = {
    "zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
    "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
    "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

static const char rv_freg_names[32][5] = {
    "ft0", "ft1", "ft2",  "ft3",  "ft4", "ft5", "ft6",  "ft7",  "fs0", "fs1", "fa0",
    "fa1", "fa2", "fa3",  "fa4",  "fa5", "fa6", "fa7",  "fs2",  "fs3", "fs4", "fs5",
    "fs6", "fs7", "fs8",  "fs9",  "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
};

const char *edan_rv_reg_name(uint8_t reg)
{
    if (reg < 32) {
        return rv_xreg_names[reg];
    }
    if (reg < 64) {
        return rv_freg_names[reg - 32];
    }
    return "?";
}

const char *edan_rv_csr_name(uint16_t csr)
{
    /* Only CSRs a user-mode program (or a kernel trace) plausibly touches. */
    switch (csr) {
    case 0x001: return "fflags";
    case 0x002: return "frm";
    case 0x003: return "fcsr";
    case 0x008: return "vstart";
    case 0x009: return "vxsat";
    case 0x00a: return "vxrm";
    case 0x00f: return "vcsr";
    case 0x015: return "seed";
    case 0xc00: return "cycle";
    case 0xc01: return "time";
    case 0xc02: return "instret";
    case 0xc20: return "vl";
    case 0xc21: return "vtype";
    case 0xc22: return "vlenb";
    case 0xc80: return "cycleh";
    case 0xc81: return "timeh";
    case 0xc82: return "instreth";
    case 0x100: return "sstatus";
    case 0x104: return "sie";
    case 0x105: return "stvec";
    case 0x106: return "scounteren";
    case 0x140: return "sscratch";
    case 0x141: return "sepc";
    case 0x142: return "scause";
    case 0x143: return "stval";
    case 0x144: return "sip";
    case 0x180: return "satp";
    case 0x300: return "mstatus";
    case 0x301: return "misa";
    case 0x302: return "medeleg";
    case 0x303: return "mideleg";
    case 0x304: return "mie";
    case 0x305: return "mtvec";
    case 0x306: return "mcounteren";
    case 0x340: return "mscratch";
    case 0x341: return "mepc";
    case 0x342: return "mcause";
    case 0x343: return "mtval";
    case 0x344: return "mip";
    case 0xf11: return "mvendorid";
    case 0xf12: return "marchid";
    case 0xf13: return "mimpid";
    case 0xf14: return "mhartid";
    default: return NULL;
    }
}
