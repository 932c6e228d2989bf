/*
 * riscv_decode.c - RV64GC (IMAFDC + Zicsr + Zifencei) binary decoder.
 *
 * Only fills op and the raw operand fields; edan_rv_finish() derives the
 * dependency view from the op table. Compressed instructions are expanded to
 * the base op they stand for, so downstream code never sees a "c." op.
 */
#include "isa/riscv_ops.h"

#include <string.h>

static inline uint32_t bits(uint32_t x, unsigned hi, unsigned lo)
{
    return (x >> lo) & ((1u << (hi - lo + 1)) - 1u);
}

static inline int64_t sext(uint64_t x, unsigned width)
{
    uint64_t m = 1ull << (width - 1);
    x &= (m << 1) - 1;
    return (int64_t)((x ^ m) - m);
}

static inline void set3(edan_insn *o, uint16_t op, unsigned rd, unsigned rs1, unsigned rs2)
{
    o->op = op;
    o->rd = (uint8_t)rd;
    o->rs1 = (uint8_t)rs1;
    o->rs2 = (uint8_t)rs2;
}

/* Rounding modes 5 and 6 are reserved: such encodings raise illegal-instruction. */
static inline bool rm_ok(unsigned rm)
{
    return rm != 5 && rm != 6;
}

static uint16_t decode_op_fp(uint32_t w, unsigned rs2, unsigned f3)
{
    unsigned f7 = w >> 25;
    /* fmt field: 0 = S, 1 = D; 2 (H) and 3 (Q) are not RV64GC. */
    if ((f7 & 3) > 1) {
        return 0;
    }
    bool d = f7 & 1;
    switch (f7 >> 2) {
    case 0x00:
        return rm_ok(f3) ? (d ? EDAN_OP_FADD_D : EDAN_OP_FADD_S) : 0;
    case 0x01:
        return rm_ok(f3) ? (d ? EDAN_OP_FSUB_D : EDAN_OP_FSUB_S) : 0;
    case 0x02:
        return rm_ok(f3) ? (d ? EDAN_OP_FMUL_D : EDAN_OP_FMUL_S) : 0;
    case 0x03:
        return rm_ok(f3) ? (d ? EDAN_OP_FDIV_D : EDAN_OP_FDIV_S) : 0;
    case 0x0b:
        if (rs2 != 0 || !rm_ok(f3)) {
            return 0;
        }
        return d ? EDAN_OP_FSQRT_D : EDAN_OP_FSQRT_S;
    case 0x04:
        switch (f3) {
        case 0:
            return d ? EDAN_OP_FSGNJ_D : EDAN_OP_FSGNJ_S;
        case 1:
            return d ? EDAN_OP_FSGNJN_D : EDAN_OP_FSGNJN_S;
        case 2:
            return d ? EDAN_OP_FSGNJX_D : EDAN_OP_FSGNJX_S;
        default:
            return 0;
        }
    case 0x05:
        switch (f3) {
        case 0:
            return d ? EDAN_OP_FMIN_D : EDAN_OP_FMIN_S;
        case 1:
            return d ? EDAN_OP_FMAX_D : EDAN_OP_FMAX_S;
        default:
            return 0;
        }
    case 0x08:
        if (!rm_ok(f3)) {
            return 0;
        }
        if (f7 == 0x20 && rs2 == 1) {
            return EDAN_OP_FCVT_S_D;
        }
        if (f7 == 0x21 && rs2 == 0) {
            return EDAN_OP_FCVT_D_S;
        }
        return 0;
    case 0x14:
        switch (f3) {
        case 0:
            return d ? EDAN_OP_FLE_D : EDAN_OP_FLE_S;
        case 1:
            return d ? EDAN_OP_FLT_D : EDAN_OP_FLT_S;
        case 2:
            return d ? EDAN_OP_FEQ_D : EDAN_OP_FEQ_S;
        default:
            return 0;
        }
    case 0x18:
        if (!rm_ok(f3)) {
            return 0;
        }
        switch (rs2) {
        case 0:
            return d ? EDAN_OP_FCVT_W_D : EDAN_OP_FCVT_W_S;
        case 1:
            return d ? EDAN_OP_FCVT_WU_D : EDAN_OP_FCVT_WU_S;
        case 2:
            return d ? EDAN_OP_FCVT_L_D : EDAN_OP_FCVT_L_S;
        case 3:
            return d ? EDAN_OP_FCVT_LU_D : EDAN_OP_FCVT_LU_S;
        default:
            return 0;
        }
    case 0x1a:
        if (!rm_ok(f3)) {
            return 0;
        }
        switch (rs2) {
        case 0:
            return d ? EDAN_OP_FCVT_D_W : EDAN_OP_FCVT_S_W;
        case 1:
            return d ? EDAN_OP_FCVT_D_WU : EDAN_OP_FCVT_S_WU;
        case 2:
            return d ? EDAN_OP_FCVT_D_L : EDAN_OP_FCVT_S_L;
        case 3:
            return d ? EDAN_OP_FCVT_D_LU : EDAN_OP_FCVT_S_LU;
        default:
            return 0;
        }
    case 0x1c:
        if (rs2 != 0) {
            return 0;
        }
        if (f3 == 0) {
            return d ? EDAN_OP_FMV_X_D : EDAN_OP_FMV_X_W;
        }
        if (f3 == 1) {
            return d ? EDAN_OP_FCLASS_D : EDAN_OP_FCLASS_S;
        }
        return 0;
    case 0x1e:
        if (rs2 != 0 || f3 != 0) {
            return 0;
        }
        return d ? EDAN_OP_FMV_D_X : EDAN_OP_FMV_W_X;
    default:
        return 0;
    }
}

static uint16_t decode_amo(uint32_t w, unsigned rs2)
{
    unsigned f3 = bits(w, 14, 12);
    if (f3 != 2 && f3 != 3) {
        return 0;
    }
    /* .d ops directly follow their .w twins in the same order in the op list. */
    unsigned dd = f3 == 3 ? (unsigned)(EDAN_OP_LR_D - EDAN_OP_LR_W) : 0u;
    uint16_t op;
    switch (w >> 27) {
    case 0x02:
        if (rs2 != 0) {
            return 0;
        }
        op = EDAN_OP_LR_W;
        break;
    case 0x03:
        op = EDAN_OP_SC_W;
        break;
    case 0x01:
        op = EDAN_OP_AMOSWAP_W;
        break;
    case 0x00:
        op = EDAN_OP_AMOADD_W;
        break;
    case 0x04:
        op = EDAN_OP_AMOXOR_W;
        break;
    case 0x0c:
        op = EDAN_OP_AMOAND_W;
        break;
    case 0x08:
        op = EDAN_OP_AMOOR_W;
        break;
    case 0x10:
        op = EDAN_OP_AMOMIN_W;
        break;
    case 0x14:
        op = EDAN_OP_AMOMAX_W;
        break;
    case 0x18:
        op = EDAN_OP_AMOMINU_W;
        break;
    case 0x1c:
        op = EDAN_OP_AMOMAXU_W;
        break;
    default:
        return 0;
    }
    return (uint16_t)(op + dd);
}

static void decode32(uint32_t w, edan_insn *o)
{
    unsigned rd = bits(w, 11, 7), rs1 = bits(w, 19, 15), rs2 = bits(w, 24, 20);
    unsigned f3 = bits(w, 14, 12), f7 = w >> 25;
    int64_t imm_i = sext(w >> 20, 12);
    int64_t imm_s = sext((bits(w, 31, 25) << 5) | bits(w, 11, 7), 12);
    uint16_t op = 0;

    switch (bits(w, 6, 2)) {
    case 0x00: { /* LOAD */
        static const uint16_t ops[8] = {EDAN_OP_LB,  EDAN_OP_LH,  EDAN_OP_LW,  EDAN_OP_LD,
                                        EDAN_OP_LBU, EDAN_OP_LHU, EDAN_OP_LWU, 0};
        op = ops[f3];
        set3(o, op, rd, rs1, 0);
        o->imm = imm_i;
        break;
    }
    case 0x01: /* LOAD-FP */
        op = f3 == 2 ? EDAN_OP_FLW : f3 == 3 ? EDAN_OP_FLD : 0;
        set3(o, op, rd, rs1, 0);
        o->imm = imm_i;
        break;
    case 0x03: /* MISC-MEM */
        if (f3 == 0) {
            /* fm (fence.tso) is ignored: it only weakens ordering. */
            op = EDAN_OP_FENCE;
            o->rm = (uint8_t)bits(w, 27, 20);
        } else if (f3 == 1) {
            op = EDAN_OP_FENCE_I;
        }
        o->op = op;
        break;
    case 0x04: /* OP-IMM */
        switch (f3) {
        case 0:
            op = EDAN_OP_ADDI;
            break;
        case 1:
            op = (w >> 26) == 0 ? EDAN_OP_SLLI : 0;
            break;
        case 2:
            op = EDAN_OP_SLTI;
            break;
        case 3:
            op = EDAN_OP_SLTIU;
            break;
        case 4:
            op = EDAN_OP_XORI;
            break;
        case 5:
            op = (w >> 26) == 0 ? EDAN_OP_SRLI : (w >> 26) == 0x10 ? EDAN_OP_SRAI : 0;
            break;
        case 6:
            op = EDAN_OP_ORI;
            break;
        default:
            op = EDAN_OP_ANDI;
            break;
        }
        set3(o, op, rd, rs1, 0);
        o->imm = (f3 == 1 || f3 == 5) ? (int64_t)bits(w, 25, 20) : imm_i;
        break;
    case 0x05: /* AUIPC */
    case 0x0d: /* LUI */
        op = bits(w, 6, 2) == 0x05 ? EDAN_OP_AUIPC : EDAN_OP_LUI;
        set3(o, op, rd, 0, 0);
        o->imm = sext(w & 0xfffff000u, 32);
        break;
    case 0x06: /* OP-IMM-32 */
        if (f3 == 0) {
            op = EDAN_OP_ADDIW;
        } else if (f3 == 1 && f7 == 0) {
            op = EDAN_OP_SLLIW;
        } else if (f3 == 5 && f7 == 0) {
            op = EDAN_OP_SRLIW;
        } else if (f3 == 5 && f7 == 0x20) {
            op = EDAN_OP_SRAIW;
        }
        set3(o, op, rd, rs1, 0);
        o->imm = f3 == 0 ? imm_i : (int64_t)rs2;
        break;
    case 0x08: { /* STORE */
        static const uint16_t ops[8] = {EDAN_OP_SB, EDAN_OP_SH, EDAN_OP_SW, EDAN_OP_SD, 0, 0, 0, 0};
        op = ops[f3];
        set3(o, op, 0, rs1, rs2);
        o->imm = imm_s;
        break;
    }
    case 0x09: /* STORE-FP */
        op = f3 == 2 ? EDAN_OP_FSW : f3 == 3 ? EDAN_OP_FSD : 0;
        set3(o, op, 0, rs1, rs2);
        o->imm = imm_s;
        break;
    case 0x0b: /* AMO */
        op = decode_amo(w, rs2);
        set3(o, op, rd, rs1, op == EDAN_OP_LR_W || op == EDAN_OP_LR_D ? 0 : rs2);
        o->rm = (uint8_t)bits(w, 26, 25); /* aq<<1 | rl */
        break;
    case 0x0c: /* OP */
        if (f7 == 0) {
            static const uint16_t ops[8] = {EDAN_OP_ADD, EDAN_OP_SLL, EDAN_OP_SLT, EDAN_OP_SLTU,
                                            EDAN_OP_XOR, EDAN_OP_SRL, EDAN_OP_OR,  EDAN_OP_AND};
            op = ops[f3];
        } else if (f7 == 0x20) {
            op = f3 == 0 ? EDAN_OP_SUB : f3 == 5 ? EDAN_OP_SRA : 0;
        } else if (f7 == 1) {
            static const uint16_t ops[8] = {EDAN_OP_MUL, EDAN_OP_MULH, EDAN_OP_MULHSU, EDAN_OP_MULHU,
                                            EDAN_OP_DIV, EDAN_OP_DIVU, EDAN_OP_REM,    EDAN_OP_REMU};
            op = ops[f3];
        }
        set3(o, op, rd, rs1, rs2);
        break;
    case 0x0e: /* OP-32 */
        if (f7 == 0) {
            op = f3 == 0 ? EDAN_OP_ADDW : f3 == 1 ? EDAN_OP_SLLW : f3 == 5 ? EDAN_OP_SRLW : 0;
        } else if (f7 == 0x20) {
            op = f3 == 0 ? EDAN_OP_SUBW : f3 == 5 ? EDAN_OP_SRAW : 0;
        } else if (f7 == 1) {
            static const uint16_t ops[8] = {EDAN_OP_MULW, 0, 0, 0, EDAN_OP_DIVW, EDAN_OP_DIVUW, EDAN_OP_REMW,
                                            EDAN_OP_REMUW};
            op = ops[f3];
        }
        set3(o, op, rd, rs1, rs2);
        break;
    case 0x10:   /* MADD */
    case 0x11:   /* MSUB */
    case 0x12:   /* NMSUB */
    case 0x13: { /* NMADD */
        unsigned fmt = bits(w, 26, 25);
        if ((fmt == 0 || fmt == 1) && rm_ok(f3)) {
            static const uint16_t ops[2][4] = {{EDAN_OP_FMADD_S, EDAN_OP_FMSUB_S, EDAN_OP_FNMSUB_S, EDAN_OP_FNMADD_S},
                                               {EDAN_OP_FMADD_D, EDAN_OP_FMSUB_D, EDAN_OP_FNMSUB_D, EDAN_OP_FNMADD_D}};
            op = ops[fmt][bits(w, 3, 2)];
        }
        set3(o, op, rd, rs1, rs2);
        o->rs3 = (uint8_t)(w >> 27);
        o->rm = (uint8_t)f3;
        break;
    }
    case 0x14: /* OP-FP */
        op = decode_op_fp(w, rs2, f3);
        set3(o, op, rd, rs1, rs2);
        o->rm = (uint8_t)f3;
        break;
    case 0x18: { /* BRANCH */
        static const uint16_t ops[8] = {EDAN_OP_BEQ, EDAN_OP_BNE,  0,           0, EDAN_OP_BLT,
                                        EDAN_OP_BGE, EDAN_OP_BLTU, EDAN_OP_BGEU};
        op = ops[f3];
        set3(o, op, 0, rs1, rs2);
        o->imm =
            sext((bits(w, 31, 31) << 12) | (bits(w, 7, 7) << 11) | (bits(w, 30, 25) << 5) | (bits(w, 11, 8) << 1), 13);
        break;
    }
    case 0x19: /* JALR */
        op = f3 == 0 ? EDAN_OP_JALR : 0;
        set3(o, op, rd, rs1, 0);
        o->imm = imm_i;
        break;
    case 0x1b: /* JAL */
        op = EDAN_OP_JAL;
        set3(o, op, rd, 0, 0);
        o->imm = sext(
            (bits(w, 31, 31) << 20) | (bits(w, 19, 12) << 12) | (bits(w, 20, 20) << 11) | (bits(w, 30, 21) << 1), 21);
        break;
    case 0x1c: /* SYSTEM */
        if (f3 == 0) {
            op = w == 0x00000073u ? EDAN_OP_ECALL : w == 0x00100073u ? EDAN_OP_EBREAK : 0;
            o->op = op;
        } else if (f3 != 4) {
            static const uint16_t ops[8] = {0, EDAN_OP_CSRRW,  EDAN_OP_CSRRS,  EDAN_OP_CSRRC,
                                            0, EDAN_OP_CSRRWI, EDAN_OP_CSRRSI, EDAN_OP_CSRRCI};
            op = ops[f3];
            o->csr = (uint16_t)(w >> 20);
            if (f3 >= 5) {
                /* The rs1 field is a 5-bit immediate, not a register. */
                set3(o, op, rd, 0, 0);
                o->imm = rs1;
            } else {
                set3(o, op, rd, rs1, 0);
            }
        }
        break;
    default:
        break;
    }
}

/* Compressed register fields name x8..x15 ("prime" registers). */
static inline unsigned creg(uint32_t h, unsigned lo)
{
    return 8 + bits(h, lo + 2, lo);
}

static void decode16(uint32_t h, edan_insn *o)
{
    unsigned f3 = bits(h, 15, 13);
    unsigned rd = bits(h, 11, 7), rs2 = bits(h, 6, 2);
    int64_t imm6 = sext((bits(h, 12, 12) << 5) | bits(h, 6, 2), 6);
    /* uimm[5:3] at 12:10 and [7:6] at 6:5: c.ld/c.sd/c.fld/c.fsd */
    int64_t uimm_d = (int64_t)((bits(h, 12, 10) << 3) | (bits(h, 6, 5) << 6));
    /* uimm[5:3] at 12:10, [2] at 6, [6] at 5: c.lw/c.sw */
    int64_t uimm_w = (int64_t)((bits(h, 12, 10) << 3) | (bits(h, 6, 6) << 2) | (bits(h, 5, 5) << 6));

    switch ((f3 << 2) | (h & 3)) {
    /* Quadrant 0 */
    case (0 << 2) | 0: { /* c.addi4spn */
        int64_t imm =
            (int64_t)((bits(h, 12, 11) << 4) | (bits(h, 10, 7) << 6) | (bits(h, 6, 6) << 2) | (bits(h, 5, 5) << 3));
        if (imm != 0) {
            set3(o, EDAN_OP_ADDI, creg(h, 2), 2, 0);
            o->imm = imm;
        }
        break;
    }
    case (1 << 2) | 0: /* c.fld */
        set3(o, EDAN_OP_FLD, creg(h, 2), creg(h, 7), 0);
        o->imm = uimm_d;
        break;
    case (2 << 2) | 0: /* c.lw */
        set3(o, EDAN_OP_LW, creg(h, 2), creg(h, 7), 0);
        o->imm = uimm_w;
        break;
    case (3 << 2) | 0: /* c.ld */
        set3(o, EDAN_OP_LD, creg(h, 2), creg(h, 7), 0);
        o->imm = uimm_d;
        break;
    case (5 << 2) | 0: /* c.fsd */
        set3(o, EDAN_OP_FSD, 0, creg(h, 7), creg(h, 2));
        o->imm = uimm_d;
        break;
    case (6 << 2) | 0: /* c.sw */
        set3(o, EDAN_OP_SW, 0, creg(h, 7), creg(h, 2));
        o->imm = uimm_w;
        break;
    case (7 << 2) | 0: /* c.sd */
        set3(o, EDAN_OP_SD, 0, creg(h, 7), creg(h, 2));
        o->imm = uimm_d;
        break;

    /* Quadrant 1 */
    case (0 << 2) | 1: /* c.addi, c.nop (rd = 0); imm 0 forms are hints, i.e. nops */
        set3(o, EDAN_OP_ADDI, rd, rd, 0);
        o->imm = imm6;
        break;
    case (1 << 2) | 1: /* c.addiw */
        if (rd != 0) {
            set3(o, EDAN_OP_ADDIW, rd, rd, 0);
            o->imm = imm6;
        }
        break;
    case (2 << 2) | 1: /* c.li */
        set3(o, EDAN_OP_ADDI, rd, 0, 0);
        o->imm = imm6;
        break;
    case (3 << 2) | 1:
        if (rd == 2) { /* c.addi16sp */
            int64_t imm = sext((bits(h, 12, 12) << 9) | (bits(h, 6, 6) << 4) | (bits(h, 5, 5) << 6) |
                                   (bits(h, 4, 3) << 7) | (bits(h, 2, 2) << 5),
                               10);
            if (imm != 0) {
                set3(o, EDAN_OP_ADDI, 2, 2, 0);
                o->imm = imm;
            }
        } else if (imm6 != 0) { /* c.lui */
            set3(o, EDAN_OP_LUI, rd, 0, 0);
            o->imm = imm6 * 4096;
        }
        break;
    case (4 << 2) | 1: {
        unsigned r = creg(h, 7);
        unsigned shamt = (bits(h, 12, 12) << 5) | bits(h, 6, 2);
        switch (bits(h, 11, 10)) {
        case 0: /* c.srli */
            set3(o, EDAN_OP_SRLI, r, r, 0);
            o->imm = shamt;
            break;
        case 1: /* c.srai */
            set3(o, EDAN_OP_SRAI, r, r, 0);
            o->imm = shamt;
            break;
        case 2: /* c.andi */
            set3(o, EDAN_OP_ANDI, r, r, 0);
            o->imm = imm6;
            break;
        default: {
            static const uint16_t ops[8] = {EDAN_OP_SUB,  EDAN_OP_XOR,  EDAN_OP_OR, EDAN_OP_AND,
                                            EDAN_OP_SUBW, EDAN_OP_ADDW, 0,          0};
            uint16_t op = ops[(bits(h, 12, 12) << 2) | bits(h, 6, 5)];
            if (op) {
                set3(o, op, r, r, creg(h, 2));
            }
            break;
        }
        }
        break;
    }
    case (5 << 2) | 1: /* c.j */
        set3(o, EDAN_OP_JAL, 0, 0, 0);
        o->imm = sext((bits(h, 12, 12) << 11) | (bits(h, 11, 11) << 4) | (bits(h, 10, 9) << 8) | (bits(h, 8, 8) << 10) |
                          (bits(h, 7, 7) << 6) | (bits(h, 6, 6) << 7) | (bits(h, 5, 3) << 1) | (bits(h, 2, 2) << 5),
                      12);
        break;
    case (6 << 2) | 1: /* c.beqz */
    case (7 << 2) | 1: /* c.bnez */
        set3(o, f3 == 6 ? EDAN_OP_BEQ : EDAN_OP_BNE, 0, creg(h, 7), 0);
        o->imm = sext((bits(h, 12, 12) << 8) | (bits(h, 11, 10) << 3) | (bits(h, 6, 5) << 6) | (bits(h, 4, 3) << 1) |
                          (bits(h, 2, 2) << 5),
                      9);
        break;

    /* Quadrant 2 */
    case (0 << 2) | 2: /* c.slli */
        set3(o, EDAN_OP_SLLI, rd, rd, 0);
        o->imm = (bits(h, 12, 12) << 5) | bits(h, 6, 2);
        break;
    case (1 << 2) | 2: /* c.fldsp */
    case (3 << 2) | 2: /* c.ldsp */
        if (f3 == 1 || rd != 0) {
            set3(o, f3 == 1 ? EDAN_OP_FLD : EDAN_OP_LD, rd, 2, 0);
            o->imm = (bits(h, 12, 12) << 5) | (bits(h, 6, 5) << 3) | (bits(h, 4, 2) << 6);
        }
        break;
    case (2 << 2) | 2: /* c.lwsp */
        if (rd != 0) {
            set3(o, EDAN_OP_LW, rd, 2, 0);
            o->imm = (bits(h, 12, 12) << 5) | (bits(h, 6, 4) << 2) | (bits(h, 3, 2) << 6);
        }
        break;
    case (4 << 2) | 2:
        if (bits(h, 12, 12) == 0) {
            if (rs2 == 0) { /* c.jr */
                if (rd != 0) {
                    set3(o, EDAN_OP_JALR, 0, rd, 0);
                }
            } else { /* c.mv: QEMU expands it to addi, which its disassembler prints as "mv" */
                set3(o, EDAN_OP_ADDI, rd, rs2, 0);
            }
        } else {
            if (rs2 == 0) {
                if (rd == 0) {
                    o->op = EDAN_OP_EBREAK;
                } else { /* c.jalr */
                    set3(o, EDAN_OP_JALR, 1, rd, 0);
                }
            } else { /* c.add */
                set3(o, EDAN_OP_ADD, rd, rd, rs2);
            }
        }
        break;
    case (5 << 2) | 2: /* c.fsdsp */
    case (7 << 2) | 2: /* c.sdsp */
        set3(o, f3 == 5 ? EDAN_OP_FSD : EDAN_OP_SD, 0, 2, rs2);
        o->imm = (bits(h, 12, 10) << 3) | (bits(h, 9, 7) << 6);
        break;
    case (6 << 2) | 2: /* c.swsp */
        set3(o, EDAN_OP_SW, 0, 2, rs2);
        o->imm = (bits(h, 12, 9) << 2) | (bits(h, 8, 7) << 6);
        break;
    default:
        break;
    }
}

edan_decode_status edan_rv_decode(const uint8_t *bytes, size_t avail, uint64_t pc, edan_insn *out)
{
    edan_insn_clear(out);
    out->pc = pc;
    out->size = 2;
    if (bytes == NULL || avail < 2) {
        edan_rv_finish(out);
        return EDAN_DECODE_ILLEGAL;
    }
    uint32_t lo = (uint32_t)bytes[0] | ((uint32_t)bytes[1] << 8);
    if ((lo & 3) != 3) {
        out->raw = lo;
        decode16(lo, out);
    } else {
        out->size = 4;
        if (avail < 4) {
            edan_rv_finish(out);
            return EDAN_DECODE_ILLEGAL;
        }
        uint32_t w = lo | ((uint32_t)bytes[2] << 16) | ((uint32_t)bytes[3] << 24);
        out->raw = w;
        /* Longer encodings (48/64-bit) are not RV64GC. */
        if ((w & 0x1c) != 0x1c) {
            decode32(w, out);
        }
    }
    if (out->op == EDAN_OP_ILLEGAL) {
        /* Keep pc/raw/size so the caller can report where it happened. */
        uint64_t keep_pc = out->pc;
        uint32_t keep_raw = out->raw;
        uint8_t keep_size = out->size;
        edan_insn_clear(out);
        out->pc = keep_pc;
        out->raw = keep_raw;
        out->size = keep_size;
        edan_rv_finish(out);
        return EDAN_DECODE_ILLEGAL;
    }
    edan_rv_finish(out);
    return EDAN_DECODE_OK;
}
