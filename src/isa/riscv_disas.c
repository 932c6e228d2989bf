/*
 * riscv_disas.c - text in the style of QEMU 7.2's RISC-V disassembler
 * (disas/riscv.c), which is what the original EDAN tracer recorded.
 *
 * Differences from QEMU's raw output, on purpose: a single space separates
 * mnemonic and operands (QEMU pads with spaces), there is no leading hex
 * encoding and no " # 0x..." branch-target comment.
 * QEMU quirks reproduced on purpose so traces compare equal:
 *  - blt/bge/bltu/bgeu are always printed as bgt/ble/bgtu/bleu with swapped
 *    operands (or the *z forms when one operand is zero);
 *  - the rounding mode is printed as the first operand of FP ops ("dyn,...");
 *  - fmv/fneg/fabs pseudo-instructions print integer register names.
 */
#include "isa/riscv_ops.h"

#include <stdio.h>
#include <string.h>

typedef struct out_buf {
    char *buf;
    size_t cap;
    size_t len; /* length that would have been written, snprintf-style */
} out_buf;

static void put(out_buf *o, const char *s)
{
    for (; *s; s++, o->len++) {
        if (o->len + 1 < o->cap) {
            o->buf[o->len] = *s;
        }
    }
}

static void put_int(out_buf *o, int64_t v)
{
    char tmp[24];
    snprintf(tmp, sizeof tmp, "%lld", (long long)v);
    put(o, tmp);
}

static void put_reg(out_buf *o, uint8_t reg)
{
    put(o, edan_rv_reg_name(reg));
}

static void put_sep(out_buf *o)
{
    put(o, ",");
}

static void put_rm(out_buf *o, unsigned rm)
{
    static const char *const names[8] = {"rne", "rtz", "rdn", "rup", "rmm", "inv", "inv", "dyn"};
    put(o, names[rm & 7]);
    put_sep(o);
}

static void put_fence_set(out_buf *o, unsigned set)
{
    if (set & 8) {
        put(o, "i");
    }
    if (set & 4) {
        put(o, "o");
    }
    if (set & 2) {
        put(o, "r");
    }
    if (set & 1) {
        put(o, "w");
    }
}

static void put_csr(out_buf *o, uint16_t csr)
{
    const char *name = edan_rv_csr_name(csr);
    if (name) {
        put(o, name);
    } else {
        char tmp[8];
        snprintf(tmp, sizeof tmp, "0x%03x", (unsigned)(csr & 0xfff));
        put(o, tmp);
    }
}

/* Mnemonic + operand-separating space. */
static void put_mn(out_buf *o, const char *mn)
{
    put(o, mn);
    put(o, " ");
}

/* Pseudo-instructions, following QEMU's table and its order of checks. Returns true if printed. */
static bool disas_pseudo(out_buf *o, const edan_insn *in)
{
    uint8_t rd = in->rd, rs1 = in->rs1, rs2 = in->rs2;
    int64_t imm = in->imm;
    const char *fp_pseudo = NULL;

    switch (in->op) {
    case EDAN_OP_JAL:
        if (rd == 0) {
            put_mn(o, "j");
            put_int(o, imm);
            return true;
        }
        return false;
    case EDAN_OP_JALR:
        if (rd == 0 && rs1 == 1) {
            put(o, "ret");
            return true;
        }
        if (rd == 0 && imm == 0) {
            put_mn(o, "jr");
            put_reg(o, rs1);
            return true;
        }
        return false;
    case EDAN_OP_BEQ:
    case EDAN_OP_BNE:
        if (rs2 == 0) {
            put_mn(o, in->op == EDAN_OP_BEQ ? "beqz" : "bnez");
            put_reg(o, rs1);
            put_sep(o);
            put_int(o, imm);
            return true;
        }
        return false;
    case EDAN_OP_BLT:
    case EDAN_OP_BGE: {
        bool lt = in->op == EDAN_OP_BLT;
        if (lt ? rs2 == 0 : rs1 == 0) {
            put_mn(o, lt ? "bltz" : "blez");
            put_reg(o, lt ? rs1 : rs2);
        } else if (lt ? rs1 == 0 : rs2 == 0) {
            put_mn(o, lt ? "bgtz" : "bgez");
            put_reg(o, lt ? rs2 : rs1);
        } else {
            put_mn(o, lt ? "bgt" : "ble");
            put_reg(o, rs2);
            put_sep(o);
            put_reg(o, rs1);
        }
        put_sep(o);
        put_int(o, imm);
        return true;
    }
    case EDAN_OP_BLTU:
    case EDAN_OP_BGEU:
        put_mn(o, in->op == EDAN_OP_BLTU ? "bgtu" : "bleu");
        put_reg(o, rs2);
        put_sep(o);
        put_reg(o, rs1);
        put_sep(o);
        put_int(o, imm);
        return true;
    case EDAN_OP_ADDI:
        if (rd == 0 && rs1 == 0 && imm == 0) {
            put(o, "nop");
            return true;
        }
        if (imm != 0) {
            return false;
        }
        put_mn(o, "mv");
        break;
    case EDAN_OP_SLTIU:
        if (imm != 1) {
            return false;
        }
        put_mn(o, "seqz");
        break;
    case EDAN_OP_XORI:
        if (imm != -1) {
            return false;
        }
        put_mn(o, "not");
        break;
    case EDAN_OP_ADDIW:
        if (imm != 0) {
            return false;
        }
        put_mn(o, "sext.w");
        break;
    case EDAN_OP_SUB:
    case EDAN_OP_SUBW:
        if (rs1 != 0) {
            return false;
        }
        put_mn(o, in->op == EDAN_OP_SUB ? "neg" : "negw");
        put_reg(o, rd);
        put_sep(o);
        put_reg(o, rs2);
        return true;
    case EDAN_OP_SLT:
        if (rs2 == 0) {
            put_mn(o, "sltz");
            break;
        }
        if (rs1 == 0) {
            put_mn(o, "sgtz");
            put_reg(o, rd);
            put_sep(o);
            put_reg(o, rs2);
            return true;
        }
        return false;
    case EDAN_OP_SLTU:
        if (rs1 != 0) {
            return false;
        }
        put_mn(o, "snez");
        put_reg(o, rd);
        put_sep(o);
        put_reg(o, rs2);
        return true;
    case EDAN_OP_CSRRW:
    case EDAN_OP_CSRRWI: {
        bool imm_form = in->op == EDAN_OP_CSRRWI;
        const char *mn = in->csr == 1                ? (imm_form ? "fsflagsi" : "fsflags")
                         : in->csr == 2              ? (imm_form ? "fsrmi" : "fsrm")
                         : in->csr == 3 && !imm_form ? "fscsr"
                                                     : NULL;
        if (!mn) {
            return false;
        }
        put_mn(o, mn);
        put_reg(o, rd);
        put_sep(o);
        if (imm_form) {
            put_int(o, imm);
        } else {
            put_reg(o, rs1);
        }
        return true;
    }
    case EDAN_OP_CSRRS: {
        if (rs1 != 0) {
            return false;
        }
        const char *mn = NULL;
        switch (in->csr) {
        case 0xc00:
            mn = "rdcycle";
            break;
        case 0xc01:
            mn = "rdtime";
            break;
        case 0xc02:
            mn = "rdinstret";
            break;
        case 0xc80:
            mn = "rdcycleh";
            break;
        case 0xc81:
            mn = "rdtimeh";
            break;
        case 0xc82:
            mn = "rdinstreth";
            break;
        case 0x003:
            mn = "frcsr";
            break;
        case 0x002:
            mn = "frrm";
            break;
        case 0x001:
            mn = "frflags";
            break;
        default:
            return false;
        }
        put_mn(o, mn);
        put_reg(o, rd);
        return true;
    }
    case EDAN_OP_FSGNJ_S:
        fp_pseudo = "fmv.s";
        break;
    case EDAN_OP_FSGNJN_S:
        fp_pseudo = "fneg.s";
        break;
    case EDAN_OP_FSGNJX_S:
        fp_pseudo = "fabs.s";
        break;
    case EDAN_OP_FSGNJ_D:
        fp_pseudo = "fmv.d";
        break;
    case EDAN_OP_FSGNJN_D:
        fp_pseudo = "fneg.d";
        break;
    case EDAN_OP_FSGNJX_D:
        fp_pseudo = "fabs.d";
        break;
    default:
        return false;
    }
    if (fp_pseudo) {
        if (rs1 != rs2) {
            return false;
        }
        /* QEMU 7.2 formats these with integer register names ("fabs.d a5,a5"). */
        put_mn(o, fp_pseudo);
        put_reg(o, (uint8_t)(rd & 31));
        put_sep(o);
        put_reg(o, (uint8_t)(rs1 & 31));
        return true;
    }
    /* Common "rd,rs1" tail for mv/seqz/not/sext.w/sltz. */
    put_reg(o, rd);
    put_sep(o);
    put_reg(o, rs1);
    return true;
}

static const char *qemu_name(uint16_t op)
{
    /* QEMU keeps the pre-2.2 names for the single-precision moves. */
    if (op == EDAN_OP_FMV_X_W) {
        return "fmv.x.s";
    }
    if (op == EDAN_OP_FMV_W_X) {
        return "fmv.s.x";
    }
    return edan_rv_op_name(op);
}

int edan_rv_disas(const edan_insn *insn, char *buf, size_t cap)
{
    out_buf o = {buf, cap, 0};
    uint16_t op = insn->op < EDAN_OP_COUNT ? insn->op : EDAN_OP_ILLEGAL;
    const edan_rv_opinfo *info = &edan_rv_ops[op];

    if (cap > 0) {
        buf[0] = '\0';
    }
    if (op == EDAN_OP_ILLEGAL || !disas_pseudo(&o, insn)) {
        put(&o, qemu_name(op));
        if (info->flags & EDAN_RV_AQRL) {
            if (insn->rm & 2) {
                put(&o, ".aq");
            }
            if (insn->rm & 1) {
                put(&o, ".rl");
            }
        }
        if (info->fmt != EDAN_FMT_NONE) {
            put(&o, " ");
        }
        if (info->flags & EDAN_RV_HAS_RM) {
            put_rm(&o, insn->rm);
        }
        switch (info->fmt) {
        case EDAN_FMT_R:
            put_reg(&o, insn->rd);
            put_sep(&o);
            put_reg(&o, insn->rs1);
            put_sep(&o);
            put_reg(&o, insn->rs2);
            break;
        case EDAN_FMT_R4:
            put_reg(&o, insn->rd);
            put_sep(&o);
            put_reg(&o, insn->rs1);
            put_sep(&o);
            put_reg(&o, insn->rs2);
            put_sep(&o);
            put_reg(&o, insn->rs3);
            break;
        case EDAN_FMT_R2:
            put_reg(&o, insn->rd);
            put_sep(&o);
            put_reg(&o, insn->rs1);
            break;
        case EDAN_FMT_I:
        case EDAN_FMT_JALR:
            put_reg(&o, insn->rd);
            put_sep(&o);
            put_reg(&o, insn->rs1);
            put_sep(&o);
            put_int(&o, insn->imm);
            break;
        case EDAN_FMT_LOAD:
        case EDAN_FMT_STORE:
            put_reg(&o, info->fmt == EDAN_FMT_LOAD ? insn->rd : insn->rs2);
            put_sep(&o);
            put_int(&o, insn->imm);
            put(&o, "(");
            put_reg(&o, insn->rs1);
            put(&o, ")");
            break;
        case EDAN_FMT_B:
            put_reg(&o, insn->rs1);
            put_sep(&o);
            put_reg(&o, insn->rs2);
            put_sep(&o);
            put_int(&o, insn->imm);
            break;
        case EDAN_FMT_U:
        case EDAN_FMT_J:
            put_reg(&o, insn->rd);
            put_sep(&o);
            put_int(&o, insn->imm);
            break;
        case EDAN_FMT_AMO:
            put_reg(&o, insn->rd);
            put_sep(&o);
            put_reg(&o, insn->rs2);
            put(&o, ",(");
            put_reg(&o, insn->rs1);
            put(&o, ")");
            break;
        case EDAN_FMT_LR:
            put_reg(&o, insn->rd);
            put(&o, ",(");
            put_reg(&o, insn->rs1);
            put(&o, ")");
            break;
        case EDAN_FMT_CSR:
        case EDAN_FMT_CSRI:
            put_reg(&o, insn->rd);
            put_sep(&o);
            put_csr(&o, insn->csr);
            put_sep(&o);
            if (info->fmt == EDAN_FMT_CSR) {
                put_reg(&o, insn->rs1);
            } else {
                put_int(&o, insn->imm);
            }
            break;
        case EDAN_FMT_FENCE:
            put_fence_set(&o, insn->rm >> 4);
            put_sep(&o);
            put_fence_set(&o, insn->rm & 15);
            break;
        default:
            break;
        }
    }
    if (cap > 0) {
        buf[o.len < cap ? o.len : cap - 1] = '\0';
    }
    return (int)o.len;
}
