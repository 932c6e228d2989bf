/*
 * riscv_ops.h - the RV64GC mnemonic list and its per-op static properties.
 *
 * One table drives decoding, disassembly and parsing, so the three can never
 * disagree about which registers an op reads or writes, its class or its
 * memory behaviour: decode and parse both only fill op + raw operand fields
 * and then call edan_rv_finish(), which derives everything else from here.
 */
#ifndef EDAN_ISA_RISCV_OPS_H
#define EDAN_ISA_RISCV_OPS_H

#include "isa/riscv.h"

/* Operand usage bits: which fields are real registers, and in which file. */
#define EDAN_RV_RD 0x001u     /* rd is written */
#define EDAN_RV_RS1 0x002u    /* rs1 is read */
#define EDAN_RV_RS2 0x004u    /* rs2 is read */
#define EDAN_RV_RS3 0x008u    /* rs3 is read */
#define EDAN_RV_FRD 0x010u    /* rd is an f register */
#define EDAN_RV_FRS1 0x020u   /* rs1 is an f register */
#define EDAN_RV_FRS2 0x040u   /* rs2 is an f register */
#define EDAN_RV_FRS3 0x080u   /* rs3 is an f register */
#define EDAN_RV_HAS_RM 0x100u /* has a rounding-mode field (printed by QEMU) */
#define EDAN_RV_AQRL 0x200u   /* A extension: aq/rl bits kept in insn->rm */

/* Register shapes used by the table below (x = integer, f = FP). */
#define EDAN_RV_X_NONE 0u
#define EDAN_RV_X_D (EDAN_RV_RD)
#define EDAN_RV_X_DS (EDAN_RV_RD | EDAN_RV_RS1)
#define EDAN_RV_X_DST (EDAN_RV_RD | EDAN_RV_RS1 | EDAN_RV_RS2)
#define EDAN_RV_X_ST (EDAN_RV_RS1 | EDAN_RV_RS2)
#define EDAN_RV_AMO_DST (EDAN_RV_X_DST | EDAN_RV_AQRL)
#define EDAN_RV_AMO_DS (EDAN_RV_X_DS | EDAN_RV_AQRL)
#define EDAN_RV_FLOAD (EDAN_RV_RD | EDAN_RV_FRD | EDAN_RV_RS1)
#define EDAN_RV_FSTORE (EDAN_RV_RS1 | EDAN_RV_RS2 | EDAN_RV_FRS2)
#define EDAN_RV_F_DST (EDAN_RV_X_DST | EDAN_RV_FRD | EDAN_RV_FRS1 | EDAN_RV_FRS2)
#define EDAN_RV_F_DST_RM (EDAN_RV_F_DST | EDAN_RV_HAS_RM)
#define EDAN_RV_F_DSTR_RM (EDAN_RV_F_DST_RM | EDAN_RV_RS3 | EDAN_RV_FRS3)
#define EDAN_RV_F_DS_RM (EDAN_RV_X_DS | EDAN_RV_FRD | EDAN_RV_FRS1 | EDAN_RV_HAS_RM)
#define EDAN_RV_XF_DS (EDAN_RV_X_DS | EDAN_RV_FRS1) /* x rd, f rs1 */
#define EDAN_RV_XF_DS_RM (EDAN_RV_XF_DS | EDAN_RV_HAS_RM)
#define EDAN_RV_FX_DS (EDAN_RV_X_DS | EDAN_RV_FRD) /* f rd, x rs1 */
#define EDAN_RV_FX_DS_RM (EDAN_RV_FX_DS | EDAN_RV_HAS_RM)
#define EDAN_RV_XF_DST (EDAN_RV_X_DST | EDAN_RV_FRS1 | EDAN_RV_FRS2) /* compares */

/*
 * X(ID, "name", class, mem kind, mem size, operand format, shape, "parse form")
 *
 * The parse form lists the operands in text order, one letter each:
 *   d s t   x register into rd / rs1 / rs2     D S T R  f register into rd/rs1/rs2/rs3
 *   i imm   u upper imm (lui/auipc)  o branch/jump target   L imm(rs1)   A (rs1)
 *   c CSR   z 5-bit CSR immediate    f fence set (pred then succ)
 */
#define EDAN_RV_OP_LIST(X)                                                                                             \
    X(LUI, "lui", INT, NONE, 0, U, EDAN_RV_X_D, "du")                                                                  \
    X(AUIPC, "auipc", INT, NONE, 0, U, EDAN_RV_X_D, "du")                                                              \
    X(JAL, "jal", BRANCH, NONE, 0, J, EDAN_RV_X_D, "do")                                                               \
    X(JALR, "jalr", BRANCH, NONE, 0, JALR, EDAN_RV_X_DS, "dsi")                                                        \
    X(BEQ, "beq", BRANCH, NONE, 0, B, EDAN_RV_X_ST, "sto")                                                             \
    X(BNE, "bne", BRANCH, NONE, 0, B, EDAN_RV_X_ST, "sto")                                                             \
    X(BLT, "blt", BRANCH, NONE, 0, B, EDAN_RV_X_ST, "sto")                                                             \
    X(BGE, "bge", BRANCH, NONE, 0, B, EDAN_RV_X_ST, "sto")                                                             \
    X(BLTU, "bltu", BRANCH, NONE, 0, B, EDAN_RV_X_ST, "sto")                                                           \
    X(BGEU, "bgeu", BRANCH, NONE, 0, B, EDAN_RV_X_ST, "sto")                                                           \
    X(LB, "lb", LOAD, LOAD, 1, LOAD, EDAN_RV_X_DS, "dL")                                                               \
    X(LH, "lh", LOAD, LOAD, 2, LOAD, EDAN_RV_X_DS, "dL")                                                               \
    X(LW, "lw", LOAD, LOAD, 4, LOAD, EDAN_RV_X_DS, "dL")                                                               \
    X(LD, "ld", LOAD, LOAD, 8, LOAD, EDAN_RV_X_DS, "dL")                                                               \
    X(LBU, "lbu", LOAD, LOAD, 1, LOAD, EDAN_RV_X_DS, "dL")                                                             \
    X(LHU, "lhu", LOAD, LOAD, 2, LOAD, EDAN_RV_X_DS, "dL")                                                             \
    X(LWU, "lwu", LOAD, LOAD, 4, LOAD, EDAN_RV_X_DS, "dL")                                                             \
    X(SB, "sb", STORE, STORE, 1, STORE, EDAN_RV_X_ST, "tL")                                                            \
    X(SH, "sh", STORE, STORE, 2, STORE, EDAN_RV_X_ST, "tL")                                                            \
    X(SW, "sw", STORE, STORE, 4, STORE, EDAN_RV_X_ST, "tL")                                                            \
    X(SD, "sd", STORE, STORE, 8, STORE, EDAN_RV_X_ST, "tL")                                                            \
    X(ADDI, "addi", INT, NONE, 0, I, EDAN_RV_X_DS, "dsi")                                                              \
    X(SLTI, "slti", INT, NONE, 0, I, EDAN_RV_X_DS, "dsi")                                                              \
    X(SLTIU, "sltiu", INT, NONE, 0, I, EDAN_RV_X_DS, "dsi")                                                            \
    X(XORI, "xori", INT, NONE, 0, I, EDAN_RV_X_DS, "dsi")                                                              \
    X(ORI, "ori", INT, NONE, 0, I, EDAN_RV_X_DS, "dsi")                                                                \
    X(ANDI, "andi", INT, NONE, 0, I, EDAN_RV_X_DS, "dsi")                                                              \
    X(SLLI, "slli", INT, NONE, 0, I, EDAN_RV_X_DS, "dsi")                                                              \
    X(SRLI, "srli", INT, NONE, 0, I, EDAN_RV_X_DS, "dsi")                                                              \
    X(SRAI, "srai", INT, NONE, 0, I, EDAN_RV_X_DS, "dsi")                                                              \
    X(ADD, "add", INT, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                               \
    X(SUB, "sub", INT, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                               \
    X(SLL, "sll", INT, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                               \
    X(SLT, "slt", INT, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                               \
    X(SLTU, "sltu", INT, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                             \
    X(XOR, "xor", INT, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                               \
    X(SRL, "srl", INT, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                               \
    X(SRA, "sra", INT, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                               \
    X(OR, "or", INT, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                                 \
    X(AND, "and", INT, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                               \
    X(FENCE, "fence", INT, NONE, 0, FENCE, EDAN_RV_X_NONE, "ff")                                                       \
    X(FENCE_I, "fence.i", INT, NONE, 0, NONE, EDAN_RV_X_NONE, "")                                                      \
    X(ECALL, "ecall", INT, NONE, 0, NONE, EDAN_RV_X_NONE, "")                                                          \
    X(EBREAK, "ebreak", INT, NONE, 0, NONE, EDAN_RV_X_NONE, "")                                                        \
    X(ADDIW, "addiw", INT, NONE, 0, I, EDAN_RV_X_DS, "dsi")                                                            \
    X(SLLIW, "slliw", INT, NONE, 0, I, EDAN_RV_X_DS, "dsi")                                                            \
    X(SRLIW, "srliw", INT, NONE, 0, I, EDAN_RV_X_DS, "dsi")                                                            \
    X(SRAIW, "sraiw", INT, NONE, 0, I, EDAN_RV_X_DS, "dsi")                                                            \
    X(ADDW, "addw", INT, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                             \
    X(SUBW, "subw", INT, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                             \
    X(SLLW, "sllw", INT, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                             \
    X(SRLW, "srlw", INT, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                             \
    X(SRAW, "sraw", INT, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                             \
    X(MUL, "mul", MUL, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                               \
    X(MULH, "mulh", MUL, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                             \
    X(MULHSU, "mulhsu", MUL, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                         \
    X(MULHU, "mulhu", MUL, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                           \
    X(DIV, "div", DIV, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                               \
    X(DIVU, "divu", DIV, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                             \
    X(REM, "rem", DIV, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                               \
    X(REMU, "remu", DIV, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                             \
    X(MULW, "mulw", MUL, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                             \
    X(DIVW, "divw", DIV, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                             \
    X(DIVUW, "divuw", DIV, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                           \
    X(REMW, "remw", DIV, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                             \
    X(REMUW, "remuw", DIV, NONE, 0, R, EDAN_RV_X_DST, "dst")                                                           \
    X(LR_W, "lr.w", LOAD, LOAD, 4, LR, EDAN_RV_AMO_DS, "dA")                                                           \
    X(SC_W, "sc.w", STORE, STORE, 4, AMO, EDAN_RV_AMO_DST, "dtA")                                                      \
    X(AMOSWAP_W, "amoswap.w", ATOMIC, AMO, 4, AMO, EDAN_RV_AMO_DST, "dtA")                                             \
    X(AMOADD_W, "amoadd.w", ATOMIC, AMO, 4, AMO, EDAN_RV_AMO_DST, "dtA")                                               \
    X(AMOXOR_W, "amoxor.w", ATOMIC, AMO, 4, AMO, EDAN_RV_AMO_DST, "dtA")                                               \
    X(AMOAND_W, "amoand.w", ATOMIC, AMO, 4, AMO, EDAN_RV_AMO_DST, "dtA")                                               \
    X(AMOOR_W, "amoor.w", ATOMIC, AMO, 4, AMO, EDAN_RV_AMO_DST, "dtA")                                                 \
    X(AMOMIN_W, "amomin.w", ATOMIC, AMO, 4, AMO, EDAN_RV_AMO_DST, "dtA")                                               \
    X(AMOMAX_W, "amomax.w", ATOMIC, AMO, 4, AMO, EDAN_RV_AMO_DST, "dtA")                                               \
    X(AMOMINU_W, "amominu.w", ATOMIC, AMO, 4, AMO, EDAN_RV_AMO_DST, "dtA")                                             \
    X(AMOMAXU_W, "amomaxu.w", ATOMIC, AMO, 4, AMO, EDAN_RV_AMO_DST, "dtA")                                             \
    X(LR_D, "lr.d", LOAD, LOAD, 8, LR, EDAN_RV_AMO_DS, "dA")                                                           \
    X(SC_D, "sc.d", STORE, STORE, 8, AMO, EDAN_RV_AMO_DST, "dtA")                                                      \
    X(AMOSWAP_D, "amoswap.d", ATOMIC, AMO, 8, AMO, EDAN_RV_AMO_DST, "dtA")                                             \
    X(AMOADD_D, "amoadd.d", ATOMIC, AMO, 8, AMO, EDAN_RV_AMO_DST, "dtA")                                               \
    X(AMOXOR_D, "amoxor.d", ATOMIC, AMO, 8, AMO, EDAN_RV_AMO_DST, "dtA")                                               \
    X(AMOAND_D, "amoand.d", ATOMIC, AMO, 8, AMO, EDAN_RV_AMO_DST, "dtA")                                               \
    X(AMOOR_D, "amoor.d", ATOMIC, AMO, 8, AMO, EDAN_RV_AMO_DST, "dtA")                                                 \
    X(AMOMIN_D, "amomin.d", ATOMIC, AMO, 8, AMO, EDAN_RV_AMO_DST, "dtA")                                               \
    X(AMOMAX_D, "amomax.d", ATOMIC, AMO, 8, AMO, EDAN_RV_AMO_DST, "dtA")                                               \
    X(AMOMINU_D, "amominu.d", ATOMIC, AMO, 8, AMO, EDAN_RV_AMO_DST, "dtA")                                             \
    X(AMOMAXU_D, "amomaxu.d", ATOMIC, AMO, 8, AMO, EDAN_RV_AMO_DST, "dtA")                                             \
    X(CSRRW, "csrrw", INT, NONE, 0, CSR, EDAN_RV_X_DS, "dcs")                                                          \
    X(CSRRS, "csrrs", INT, NONE, 0, CSR, EDAN_RV_X_DS, "dcs")                                                          \
    X(CSRRC, "csrrc", INT, NONE, 0, CSR, EDAN_RV_X_DS, "dcs")                                                          \
    X(CSRRWI, "csrrwi", INT, NONE, 0, CSRI, EDAN_RV_X_D, "dcz")                                                        \
    X(CSRRSI, "csrrsi", INT, NONE, 0, CSRI, EDAN_RV_X_D, "dcz")                                                        \
    X(CSRRCI, "csrrci", INT, NONE, 0, CSRI, EDAN_RV_X_D, "dcz")                                                        \
    X(FLW, "flw", LOAD, LOAD, 4, LOAD, EDAN_RV_FLOAD, "DL")                                                            \
    X(FSW, "fsw", STORE, STORE, 4, STORE, EDAN_RV_FSTORE, "TL")                                                        \
    X(FMADD_S, "fmadd.s", FFMA, NONE, 0, R4, EDAN_RV_F_DSTR_RM, "DSTR")                                                \
    X(FMSUB_S, "fmsub.s", FFMA, NONE, 0, R4, EDAN_RV_F_DSTR_RM, "DSTR")                                                \
    X(FNMSUB_S, "fnmsub.s", FFMA, NONE, 0, R4, EDAN_RV_F_DSTR_RM, "DSTR")                                              \
    X(FNMADD_S, "fnmadd.s", FFMA, NONE, 0, R4, EDAN_RV_F_DSTR_RM, "DSTR")                                              \
    X(FADD_S, "fadd.s", FADD, NONE, 0, R, EDAN_RV_F_DST_RM, "DST")                                                     \
    X(FSUB_S, "fsub.s", FADD, NONE, 0, R, EDAN_RV_F_DST_RM, "DST")                                                     \
    X(FMUL_S, "fmul.s", FMUL, NONE, 0, R, EDAN_RV_F_DST_RM, "DST")                                                     \
    X(FDIV_S, "fdiv.s", FDIV, NONE, 0, R, EDAN_RV_F_DST_RM, "DST")                                                     \
    X(FSQRT_S, "fsqrt.s", FSQRT, NONE, 0, R2, EDAN_RV_F_DS_RM, "DS")                                                   \
    X(FSGNJ_S, "fsgnj.s", FADD, NONE, 0, R, EDAN_RV_F_DST, "DST")                                                      \
    X(FSGNJN_S, "fsgnjn.s", FADD, NONE, 0, R, EDAN_RV_F_DST, "DST")                                                    \
    X(FSGNJX_S, "fsgnjx.s", FADD, NONE, 0, R, EDAN_RV_F_DST, "DST")                                                    \
    X(FMIN_S, "fmin.s", FADD, NONE, 0, R, EDAN_RV_F_DST, "DST")                                                        \
    X(FMAX_S, "fmax.s", FADD, NONE, 0, R, EDAN_RV_F_DST, "DST")                                                        \
    X(FCVT_W_S, "fcvt.w.s", FADD, NONE, 0, R2, EDAN_RV_XF_DS_RM, "dS")                                                 \
    X(FCVT_WU_S, "fcvt.wu.s", FADD, NONE, 0, R2, EDAN_RV_XF_DS_RM, "dS")                                               \
    X(FMV_X_W, "fmv.x.w", FADD, NONE, 0, R2, EDAN_RV_XF_DS, "dS")                                                      \
    X(FEQ_S, "feq.s", FADD, NONE, 0, R, EDAN_RV_XF_DST, "dST")                                                         \
    X(FLT_S, "flt.s", FADD, NONE, 0, R, EDAN_RV_XF_DST, "dST")                                                         \
    X(FLE_S, "fle.s", FADD, NONE, 0, R, EDAN_RV_XF_DST, "dST")                                                         \
    X(FCLASS_S, "fclass.s", FADD, NONE, 0, R2, EDAN_RV_XF_DS, "dS")                                                    \
    X(FCVT_S_W, "fcvt.s.w", FADD, NONE, 0, R2, EDAN_RV_FX_DS_RM, "Ds")                                                 \
    X(FCVT_S_WU, "fcvt.s.wu", FADD, NONE, 0, R2, EDAN_RV_FX_DS_RM, "Ds")                                               \
    X(FMV_W_X, "fmv.w.x", FADD, NONE, 0, R2, EDAN_RV_FX_DS, "Ds")                                                      \
    X(FCVT_L_S, "fcvt.l.s", FADD, NONE, 0, R2, EDAN_RV_XF_DS_RM, "dS")                                                 \
    X(FCVT_LU_S, "fcvt.lu.s", FADD, NONE, 0, R2, EDAN_RV_XF_DS_RM, "dS")                                               \
    X(FCVT_S_L, "fcvt.s.l", FADD, NONE, 0, R2, EDAN_RV_FX_DS_RM, "Ds")                                                 \
    X(FCVT_S_LU, "fcvt.s.lu", FADD, NONE, 0, R2, EDAN_RV_FX_DS_RM, "Ds")                                               \
    X(FLD, "fld", LOAD, LOAD, 8, LOAD, EDAN_RV_FLOAD, "DL")                                                            \
    X(FSD, "fsd", STORE, STORE, 8, STORE, EDAN_RV_FSTORE, "TL")                                                        \
    X(FMADD_D, "fmadd.d", FFMA, NONE, 0, R4, EDAN_RV_F_DSTR_RM, "DSTR")                                                \
    X(FMSUB_D, "fmsub.d", FFMA, NONE, 0, R4, EDAN_RV_F_DSTR_RM, "DSTR")                                                \
    X(FNMSUB_D, "fnmsub.d", FFMA, NONE, 0, R4, EDAN_RV_F_DSTR_RM, "DSTR")                                              \
    X(FNMADD_D, "fnmadd.d", FFMA, NONE, 0, R4, EDAN_RV_F_DSTR_RM, "DSTR")                                              \
    X(FADD_D, "fadd.d", FADD, NONE, 0, R, EDAN_RV_F_DST_RM, "DST")                                                     \
    X(FSUB_D, "fsub.d", FADD, NONE, 0, R, EDAN_RV_F_DST_RM, "DST")                                                     \
    X(FMUL_D, "fmul.d", FMUL, NONE, 0, R, EDAN_RV_F_DST_RM, "DST")                                                     \
    X(FDIV_D, "fdiv.d", FDIV, NONE, 0, R, EDAN_RV_F_DST_RM, "DST")                                                     \
    X(FSQRT_D, "fsqrt.d", FSQRT, NONE, 0, R2, EDAN_RV_F_DS_RM, "DS")                                                   \
    X(FSGNJ_D, "fsgnj.d", FADD, NONE, 0, R, EDAN_RV_F_DST, "DST")                                                      \
    X(FSGNJN_D, "fsgnjn.d", FADD, NONE, 0, R, EDAN_RV_F_DST, "DST")                                                    \
    X(FSGNJX_D, "fsgnjx.d", FADD, NONE, 0, R, EDAN_RV_F_DST, "DST")                                                    \
    X(FMIN_D, "fmin.d", FADD, NONE, 0, R, EDAN_RV_F_DST, "DST")                                                        \
    X(FMAX_D, "fmax.d", FADD, NONE, 0, R, EDAN_RV_F_DST, "DST")                                                        \
    X(FCVT_S_D, "fcvt.s.d", FADD, NONE, 0, R2, EDAN_RV_F_DS_RM, "DS")                                                  \
    X(FCVT_D_S, "fcvt.d.s", FADD, NONE, 0, R2, EDAN_RV_F_DS_RM, "DS")                                                  \
    X(FEQ_D, "feq.d", FADD, NONE, 0, R, EDAN_RV_XF_DST, "dST")                                                         \
    X(FLT_D, "flt.d", FADD, NONE, 0, R, EDAN_RV_XF_DST, "dST")                                                         \
    X(FLE_D, "fle.d", FADD, NONE, 0, R, EDAN_RV_XF_DST, "dST")                                                         \
    X(FCLASS_D, "fclass.d", FADD, NONE, 0, R2, EDAN_RV_XF_DS, "dS")                                                    \
    X(FCVT_W_D, "fcvt.w.d", FADD, NONE, 0, R2, EDAN_RV_XF_DS_RM, "dS")                                                 \
    X(FCVT_WU_D, "fcvt.wu.d", FADD, NONE, 0, R2, EDAN_RV_XF_DS_RM, "dS")                                               \
    X(FCVT_D_W, "fcvt.d.w", FADD, NONE, 0, R2, EDAN_RV_FX_DS_RM, "Ds")                                                 \
    X(FCVT_D_WU, "fcvt.d.wu", FADD, NONE, 0, R2, EDAN_RV_FX_DS_RM, "Ds")                                               \
    X(FCVT_L_D, "fcvt.l.d", FADD, NONE, 0, R2, EDAN_RV_XF_DS_RM, "dS")                                                 \
    X(FCVT_LU_D, "fcvt.lu.d", FADD, NONE, 0, R2, EDAN_RV_XF_DS_RM, "dS")                                               \
    X(FMV_X_D, "fmv.x.d", FADD, NONE, 0, R2, EDAN_RV_XF_DS, "dS")                                                      \
    X(FCVT_D_L, "fcvt.d.l", FADD, NONE, 0, R2, EDAN_RV_FX_DS_RM, "Ds")                                                 \
    X(FCVT_D_LU, "fcvt.d.lu", FADD, NONE, 0, R2, EDAN_RV_FX_DS_RM, "Ds")                                               \
    X(FMV_D_X, "fmv.d.x", FADD, NONE, 0, R2, EDAN_RV_FX_DS, "Ds")

enum edan_rv_op {
    EDAN_OP_ILLEGAL = 0,
#define EDAN_RV_OP_ENUM(id, name, cls, mem, size, fmt, shape, form) EDAN_OP_##id,
    EDAN_RV_OP_LIST(EDAN_RV_OP_ENUM)
#undef EDAN_RV_OP_ENUM
        EDAN_OP_COUNT
};

/* Static properties of one op. */
typedef struct edan_rv_opinfo {
    const char *name; /* canonical (GNU) mnemonic */
    const char *form; /* parse form, see EDAN_RV_OP_LIST */
    uint16_t flags;   /* EDAN_RV_RD ... EDAN_RV_AQRL */
    uint8_t cls;      /* edan_insn_class */
    uint8_t mem;      /* edan_mem_kind */
    uint8_t mem_size;
    uint8_t fmt; /* edan_operand_format */
} edan_rv_opinfo;

extern const edan_rv_opinfo edan_rv_ops[EDAN_OP_COUNT];

/*
 * Derive everything that follows from op + raw operand fields: src/dst lists,
 * class, memory kind and size, flow, fmt. Decode and parse both end here so
 * they agree by construction. Leaves pc/raw/size/imm/rm/csr alone.
 */
void edan_rv_finish(edan_insn *insn);

/* CSR name as QEMU prints it, or NULL when QEMU would print the number. */
const char *edan_rv_csr_name(uint16_t csr);

/* CSR number for a name of length n (not NUL-terminated), or -1. */
int edan_rv_csr_by_name(const char *s, size_t n);

#endif
