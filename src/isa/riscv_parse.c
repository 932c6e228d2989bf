/*
 * riscv_parse.c - parse one disassembled RV64GC instruction back into an
 * edan_insn with the same dependency view as decoding its bytes.
 *
 * Accepts QEMU's style (what edan_rv_disas prints, including QEMU's leading
 * hex encoding and rounding-mode-first FP operands), GNU objdump's style
 * (-M no-aliases "c.xxx" forms, hex shift amounts, "lui a0,0x12", absolute
 * branch targets followed by "<symbol>", trailing rounding modes) and the
 * usual assembler pseudo-instructions.
 *
 * Called once per trace line, so: no allocation, one binary search over a
 * sorted mnemonic table, and every scan bounded by the NUL terminator.
 */
#include "isa/riscv_ops.h"

#include <stdio.h>
#include <string.h>

enum {
    P_C = 1,      /* compressed mnemonic: size 2 */
    P_IMM = 2,    /* imm is fixed by the mnemonic */
    P_TIE = 4,    /* rs2 = rs1 (fmv/fneg/fabs) */
    P_LAXF = 8,   /* f operands may use x names (QEMU 7.2 prints "fabs.d a5,a5") */
    P_FENCE = 16, /* bare "fence" means iorw,iorw */
    P_TSO = 32,   /* fence.tso: rw,rw */
    P_PAUSE = 64, /* pause: fence w,0 */
};

typedef struct parse_entry {
    const char *mn;
    uint16_t op;
    uint8_t flags;
    int8_t rd, rs1, rs2;  /* fixed register numbers, -1 when taken from the text */
    int16_t imm;          /* fixed imm when P_IMM */
    uint16_t csr;         /* fixed CSR, 0 when none */
    const char *forms[6]; /* operand forms tried in order by operand count; NULL: the op's own form */
} parse_entry;

/* Sorted by strcmp on mn (riscv_test.c checks this). */
static const parse_entry parse_table[] = {
    {"add", EDAN_OP_ADD, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"addi", EDAN_OP_ADDI, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"addiw", EDAN_OP_ADDIW, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"addw", EDAN_OP_ADDW, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"amoadd.d", EDAN_OP_AMOADD_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"amoadd.w", EDAN_OP_AMOADD_W, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"amoand.d", EDAN_OP_AMOAND_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"amoand.w", EDAN_OP_AMOAND_W, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"amomax.d", EDAN_OP_AMOMAX_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"amomax.w", EDAN_OP_AMOMAX_W, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"amomaxu.d", EDAN_OP_AMOMAXU_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"amomaxu.w", EDAN_OP_AMOMAXU_W, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"amomin.d", EDAN_OP_AMOMIN_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"amomin.w", EDAN_OP_AMOMIN_W, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"amominu.d", EDAN_OP_AMOMINU_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"amominu.w", EDAN_OP_AMOMINU_W, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"amoor.d", EDAN_OP_AMOOR_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"amoor.w", EDAN_OP_AMOOR_W, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"amoswap.d", EDAN_OP_AMOSWAP_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"amoswap.w", EDAN_OP_AMOSWAP_W, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"amoxor.d", EDAN_OP_AMOXOR_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"amoxor.w", EDAN_OP_AMOXOR_W, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"and", EDAN_OP_AND, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"andi", EDAN_OP_ANDI, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"auipc", EDAN_OP_AUIPC, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"beq", EDAN_OP_BEQ, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"beqz", EDAN_OP_BEQ, 0, -1, -1, 0, 0, 0x000, {"so", NULL, NULL, NULL, NULL, NULL}},
    {"bge", EDAN_OP_BGE, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"bgeu", EDAN_OP_BGEU, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"bgez", EDAN_OP_BGE, 0, -1, -1, 0, 0, 0x000, {"so", NULL, NULL, NULL, NULL, NULL}},
    {"bgt", EDAN_OP_BLT, 0, -1, -1, -1, 0, 0x000, {"tso", NULL, NULL, NULL, NULL, NULL}},
    {"bgtu", EDAN_OP_BLTU, 0, -1, -1, -1, 0, 0x000, {"tso", NULL, NULL, NULL, NULL, NULL}},
    {"bgtz", EDAN_OP_BLT, 0, -1, 0, -1, 0, 0x000, {"to", NULL, NULL, NULL, NULL, NULL}},
    {"ble", EDAN_OP_BGE, 0, -1, -1, -1, 0, 0x000, {"tso", NULL, NULL, NULL, NULL, NULL}},
    {"bleu", EDAN_OP_BGEU, 0, -1, -1, -1, 0, 0x000, {"tso", NULL, NULL, NULL, NULL, NULL}},
    {"blez", EDAN_OP_BGE, 0, -1, 0, -1, 0, 0x000, {"to", NULL, NULL, NULL, NULL, NULL}},
    {"blt", EDAN_OP_BLT, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"bltu", EDAN_OP_BLTU, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"bltz", EDAN_OP_BLT, 0, -1, -1, 0, 0, 0x000, {"so", NULL, NULL, NULL, NULL, NULL}},
    {"bne", EDAN_OP_BNE, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"bnez", EDAN_OP_BNE, 0, -1, -1, 0, 0, 0x000, {"so", NULL, NULL, NULL, NULL, NULL}},
    {"c.add", EDAN_OP_ADD, P_C, -1, -1, -1, 0, 0x000, {"bt", NULL, NULL, NULL, NULL, NULL}},
    {"c.addi", EDAN_OP_ADDI, P_C, -1, -1, -1, 0, 0x000, {"bi", NULL, NULL, NULL, NULL, NULL}},
    {"c.addi16sp", EDAN_OP_ADDI, P_C, -1, -1, -1, 0, 0x000, {"bi", NULL, NULL, NULL, NULL, NULL}},
    {"c.addi4spn", EDAN_OP_ADDI, P_C, -1, -1, -1, 0, 0x000, {"dsi", NULL, NULL, NULL, NULL, NULL}},
    {"c.addiw", EDAN_OP_ADDIW, P_C, -1, -1, -1, 0, 0x000, {"bi", NULL, NULL, NULL, NULL, NULL}},
    {"c.addw", EDAN_OP_ADDW, P_C, -1, -1, -1, 0, 0x000, {"bt", NULL, NULL, NULL, NULL, NULL}},
    {"c.and", EDAN_OP_AND, P_C, -1, -1, -1, 0, 0x000, {"bt", NULL, NULL, NULL, NULL, NULL}},
    {"c.andi", EDAN_OP_ANDI, P_C, -1, -1, -1, 0, 0x000, {"bi", NULL, NULL, NULL, NULL, NULL}},
    {"c.beqz", EDAN_OP_BEQ, P_C, -1, -1, 0, 0, 0x000, {"so", NULL, NULL, NULL, NULL, NULL}},
    {"c.bnez", EDAN_OP_BNE, P_C, -1, -1, 0, 0, 0x000, {"so", NULL, NULL, NULL, NULL, NULL}},
    {"c.ebreak", EDAN_OP_EBREAK, P_C, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"c.fld", EDAN_OP_FLD, P_C, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"c.fldsp", EDAN_OP_FLD, P_C, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"c.flw", EDAN_OP_FLW, P_C, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"c.flwsp", EDAN_OP_FLW, P_C, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"c.fsd", EDAN_OP_FSD, P_C, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"c.fsdsp", EDAN_OP_FSD, P_C, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"c.fsw", EDAN_OP_FSW, P_C, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"c.fswsp", EDAN_OP_FSW, P_C, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"c.j", EDAN_OP_JAL, P_C, 0, -1, -1, 0, 0x000, {"o", NULL, NULL, NULL, NULL, NULL}},
    {"c.jal", EDAN_OP_JAL, P_C, 1, -1, -1, 0, 0x000, {"o", NULL, NULL, NULL, NULL, NULL}},
    {"c.jalr", EDAN_OP_JALR, P_C | P_IMM, 1, -1, -1, 0, 0x000, {"s", NULL, NULL, NULL, NULL, NULL}},
    {"c.jr", EDAN_OP_JALR, P_C | P_IMM, 0, -1, -1, 0, 0x000, {"s", NULL, NULL, NULL, NULL, NULL}},
    {"c.ld", EDAN_OP_LD, P_C, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"c.ldsp", EDAN_OP_LD, P_C, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"c.li", EDAN_OP_ADDI, P_C, -1, 0, -1, 0, 0x000, {"di", NULL, NULL, NULL, NULL, NULL}},
    {"c.lui", EDAN_OP_LUI, P_C, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"c.lw", EDAN_OP_LW, P_C, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"c.lwsp", EDAN_OP_LW, P_C, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"c.mv", EDAN_OP_ADDI, P_C | P_IMM, -1, -1, -1, 0, 0x000, {"ds", NULL, NULL, NULL, NULL, NULL}},
    {"c.nop", EDAN_OP_ADDI, P_C | P_IMM, 0, 0, -1, 0, 0x000, {"", NULL, NULL, NULL, NULL, NULL}},
    {"c.or", EDAN_OP_OR, P_C, -1, -1, -1, 0, 0x000, {"bt", NULL, NULL, NULL, NULL, NULL}},
    {"c.sd", EDAN_OP_SD, P_C, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"c.sdsp", EDAN_OP_SD, P_C, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"c.slli", EDAN_OP_SLLI, P_C, -1, -1, -1, 0, 0x000, {"bi", NULL, NULL, NULL, NULL, NULL}},
    {"c.srai", EDAN_OP_SRAI, P_C, -1, -1, -1, 0, 0x000, {"bi", NULL, NULL, NULL, NULL, NULL}},
    {"c.srli", EDAN_OP_SRLI, P_C, -1, -1, -1, 0, 0x000, {"bi", NULL, NULL, NULL, NULL, NULL}},
    {"c.sub", EDAN_OP_SUB, P_C, -1, -1, -1, 0, 0x000, {"bt", NULL, NULL, NULL, NULL, NULL}},
    {"c.subw", EDAN_OP_SUBW, P_C, -1, -1, -1, 0, 0x000, {"bt", NULL, NULL, NULL, NULL, NULL}},
    {"c.sw", EDAN_OP_SW, P_C, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"c.swsp", EDAN_OP_SW, P_C, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"c.xor", EDAN_OP_XOR, P_C, -1, -1, -1, 0, 0x000, {"bt", NULL, NULL, NULL, NULL, NULL}},
    {"csrc", EDAN_OP_CSRRC, 0, 0, -1, -1, 0, 0x000, {"cs", NULL, NULL, NULL, NULL, NULL}},
    {"csrci", EDAN_OP_CSRRCI, 0, 0, -1, -1, 0, 0x000, {"cz", NULL, NULL, NULL, NULL, NULL}},
    {"csrr", EDAN_OP_CSRRS, 0, -1, 0, -1, 0, 0x000, {"dc", NULL, NULL, NULL, NULL, NULL}},
    {"csrrc", EDAN_OP_CSRRC, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"csrrci", EDAN_OP_CSRRCI, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"csrrs", EDAN_OP_CSRRS, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"csrrsi", EDAN_OP_CSRRSI, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"csrrw", EDAN_OP_CSRRW, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"csrrwi", EDAN_OP_CSRRWI, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"csrs", EDAN_OP_CSRRS, 0, 0, -1, -1, 0, 0x000, {"cs", NULL, NULL, NULL, NULL, NULL}},
    {"csrsi", EDAN_OP_CSRRSI, 0, 0, -1, -1, 0, 0x000, {"cz", NULL, NULL, NULL, NULL, NULL}},
    {"csrw", EDAN_OP_CSRRW, 0, 0, -1, -1, 0, 0x000, {"cs", NULL, NULL, NULL, NULL, NULL}},
    {"csrwi", EDAN_OP_CSRRWI, 0, 0, -1, -1, 0, 0x000, {"cz", NULL, NULL, NULL, NULL, NULL}},
    {"div", EDAN_OP_DIV, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"divu", EDAN_OP_DIVU, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"divuw", EDAN_OP_DIVUW, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"divw", EDAN_OP_DIVW, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"ebreak", EDAN_OP_EBREAK, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"ecall", EDAN_OP_ECALL, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fabs.d", EDAN_OP_FSGNJX_D, P_TIE | P_LAXF, -1, -1, -1, 0, 0x000, {"DS", NULL, NULL, NULL, NULL, NULL}},
    {"fabs.s", EDAN_OP_FSGNJX_S, P_TIE | P_LAXF, -1, -1, -1, 0, 0x000, {"DS", NULL, NULL, NULL, NULL, NULL}},
    {"fadd.d", EDAN_OP_FADD_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fadd.s", EDAN_OP_FADD_S, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fclass.d", EDAN_OP_FCLASS_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fclass.s", EDAN_OP_FCLASS_S, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fcvt.d.l", EDAN_OP_FCVT_D_L, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fcvt.d.lu", EDAN_OP_FCVT_D_LU, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fcvt.d.s", EDAN_OP_FCVT_D_S, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fcvt.d.w", EDAN_OP_FCVT_D_W, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fcvt.d.wu", EDAN_OP_FCVT_D_WU, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fcvt.l.d", EDAN_OP_FCVT_L_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fcvt.l.s", EDAN_OP_FCVT_L_S, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fcvt.lu.d", EDAN_OP_FCVT_LU_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fcvt.lu.s", EDAN_OP_FCVT_LU_S, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fcvt.s.d", EDAN_OP_FCVT_S_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fcvt.s.l", EDAN_OP_FCVT_S_L, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fcvt.s.lu", EDAN_OP_FCVT_S_LU, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fcvt.s.w", EDAN_OP_FCVT_S_W, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fcvt.s.wu", EDAN_OP_FCVT_S_WU, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fcvt.w.d", EDAN_OP_FCVT_W_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fcvt.w.s", EDAN_OP_FCVT_W_S, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fcvt.wu.d", EDAN_OP_FCVT_WU_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fcvt.wu.s", EDAN_OP_FCVT_WU_S, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fdiv.d", EDAN_OP_FDIV_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fdiv.s", EDAN_OP_FDIV_S, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fence", EDAN_OP_FENCE, P_FENCE, -1, -1, -1, 0, 0x000, {"ff", "", NULL, NULL, NULL, NULL}},
    {"fence.i", EDAN_OP_FENCE_I, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fence.tso", EDAN_OP_FENCE, P_TSO, -1, -1, -1, 0, 0x000, {"", NULL, NULL, NULL, NULL, NULL}},
    {"feq.d", EDAN_OP_FEQ_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"feq.s", EDAN_OP_FEQ_S, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fld", EDAN_OP_FLD, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fle.d", EDAN_OP_FLE_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fle.s", EDAN_OP_FLE_S, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"flt.d", EDAN_OP_FLT_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"flt.s", EDAN_OP_FLT_S, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"flw", EDAN_OP_FLW, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fmadd.d", EDAN_OP_FMADD_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fmadd.s", EDAN_OP_FMADD_S, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fmax.d", EDAN_OP_FMAX_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fmax.s", EDAN_OP_FMAX_S, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fmin.d", EDAN_OP_FMIN_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fmin.s", EDAN_OP_FMIN_S, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fmsub.d", EDAN_OP_FMSUB_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fmsub.s", EDAN_OP_FMSUB_S, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fmul.d", EDAN_OP_FMUL_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fmul.s", EDAN_OP_FMUL_S, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fmv.d", EDAN_OP_FSGNJ_D, P_TIE | P_LAXF, -1, -1, -1, 0, 0x000, {"DS", NULL, NULL, NULL, NULL, NULL}},
    {"fmv.d.x", EDAN_OP_FMV_D_X, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fmv.s", EDAN_OP_FSGNJ_S, P_TIE | P_LAXF, -1, -1, -1, 0, 0x000, {"DS", NULL, NULL, NULL, NULL, NULL}},
    {"fmv.s.x", EDAN_OP_FMV_W_X, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fmv.w.x", EDAN_OP_FMV_W_X, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fmv.x.d", EDAN_OP_FMV_X_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fmv.x.s", EDAN_OP_FMV_X_W, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fmv.x.w", EDAN_OP_FMV_X_W, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fneg.d", EDAN_OP_FSGNJN_D, P_TIE | P_LAXF, -1, -1, -1, 0, 0x000, {"DS", NULL, NULL, NULL, NULL, NULL}},
    {"fneg.s", EDAN_OP_FSGNJN_S, P_TIE | P_LAXF, -1, -1, -1, 0, 0x000, {"DS", NULL, NULL, NULL, NULL, NULL}},
    {"fnmadd.d", EDAN_OP_FNMADD_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fnmadd.s", EDAN_OP_FNMADD_S, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fnmsub.d", EDAN_OP_FNMSUB_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fnmsub.s", EDAN_OP_FNMSUB_S, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"frcsr", EDAN_OP_CSRRS, 0, -1, 0, -1, 0, 0x003, {"d", NULL, NULL, NULL, NULL, NULL}},
    {"frflags", EDAN_OP_CSRRS, 0, -1, 0, -1, 0, 0x001, {"d", NULL, NULL, NULL, NULL, NULL}},
    {"frrm", EDAN_OP_CSRRS, 0, -1, 0, -1, 0, 0x002, {"d", NULL, NULL, NULL, NULL, NULL}},
    {"fscsr", EDAN_OP_CSRRW, 0, 0, -1, -1, 0, 0x003, {"ds", "s", NULL, NULL, NULL, NULL}},
    {"fsd", EDAN_OP_FSD, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fsflags", EDAN_OP_CSRRW, 0, 0, -1, -1, 0, 0x001, {"ds", "s", NULL, NULL, NULL, NULL}},
    {"fsflagsi", EDAN_OP_CSRRWI, 0, 0, -1, -1, 0, 0x001, {"dz", "z", NULL, NULL, NULL, NULL}},
    {"fsgnj.d", EDAN_OP_FSGNJ_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fsgnj.s", EDAN_OP_FSGNJ_S, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fsgnjn.d", EDAN_OP_FSGNJN_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fsgnjn.s", EDAN_OP_FSGNJN_S, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fsgnjx.d", EDAN_OP_FSGNJX_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fsgnjx.s", EDAN_OP_FSGNJX_S, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fsqrt.d", EDAN_OP_FSQRT_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fsqrt.s", EDAN_OP_FSQRT_S, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fsrm", EDAN_OP_CSRRW, 0, 0, -1, -1, 0, 0x002, {"ds", "s", NULL, NULL, NULL, NULL}},
    {"fsrmi", EDAN_OP_CSRRWI, 0, 0, -1, -1, 0, 0x002, {"dz", "z", NULL, NULL, NULL, NULL}},
    {"fsub.d", EDAN_OP_FSUB_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fsub.s", EDAN_OP_FSUB_S, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"fsw", EDAN_OP_FSW, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"j", EDAN_OP_JAL, 0, 0, -1, -1, 0, 0x000, {"o", NULL, NULL, NULL, NULL, NULL}},
    {"jal", EDAN_OP_JAL, 0, 1, -1, -1, 0, 0x000, {"do", "o", NULL, NULL, NULL, NULL}},
    {"jalr", EDAN_OP_JALR, P_IMM, 1, -1, -1, 0, 0x000, {"dsi", "dL", "s", "ds", "L", NULL}},
    {"jr", EDAN_OP_JALR, P_IMM, 0, -1, -1, 0, 0x000, {"s", "L", NULL, NULL, NULL, NULL}},
    {"lb", EDAN_OP_LB, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"lbu", EDAN_OP_LBU, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"ld", EDAN_OP_LD, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"lh", EDAN_OP_LH, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"lhu", EDAN_OP_LHU, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"li", EDAN_OP_ADDI, 0, -1, 0, -1, 0, 0x000, {"di", NULL, NULL, NULL, NULL, NULL}},
    {"lr.d", EDAN_OP_LR_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"lr.w", EDAN_OP_LR_W, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"lui", EDAN_OP_LUI, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"lw", EDAN_OP_LW, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"lwu", EDAN_OP_LWU, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"mul", EDAN_OP_MUL, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"mulh", EDAN_OP_MULH, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"mulhsu", EDAN_OP_MULHSU, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"mulhu", EDAN_OP_MULHU, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"mulw", EDAN_OP_MULW, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"mv", EDAN_OP_ADDI, P_IMM, -1, -1, -1, 0, 0x000, {"ds", NULL, NULL, NULL, NULL, NULL}},
    {"neg", EDAN_OP_SUB, 0, -1, 0, -1, 0, 0x000, {"dt", NULL, NULL, NULL, NULL, NULL}},
    {"negw", EDAN_OP_SUBW, 0, -1, 0, -1, 0, 0x000, {"dt", NULL, NULL, NULL, NULL, NULL}},
    {"nop", EDAN_OP_ADDI, P_IMM, 0, 0, -1, 0, 0x000, {"", NULL, NULL, NULL, NULL, NULL}},
    {"not", EDAN_OP_XORI, P_IMM, -1, -1, -1, -1, 0x000, {"ds", NULL, NULL, NULL, NULL, NULL}},
    {"or", EDAN_OP_OR, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"ori", EDAN_OP_ORI, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"pause", EDAN_OP_FENCE, P_PAUSE, -1, -1, -1, 0, 0x000, {"", NULL, NULL, NULL, NULL, NULL}},
    {"rdcycle", EDAN_OP_CSRRS, 0, -1, 0, -1, 0, 0xc00, {"d", NULL, NULL, NULL, NULL, NULL}},
    {"rdcycleh", EDAN_OP_CSRRS, 0, -1, 0, -1, 0, 0xc80, {"d", NULL, NULL, NULL, NULL, NULL}},
    {"rdinstret", EDAN_OP_CSRRS, 0, -1, 0, -1, 0, 0xc02, {"d", NULL, NULL, NULL, NULL, NULL}},
    {"rdinstreth", EDAN_OP_CSRRS, 0, -1, 0, -1, 0, 0xc82, {"d", NULL, NULL, NULL, NULL, NULL}},
    {"rdtime", EDAN_OP_CSRRS, 0, -1, 0, -1, 0, 0xc01, {"d", NULL, NULL, NULL, NULL, NULL}},
    {"rdtimeh", EDAN_OP_CSRRS, 0, -1, 0, -1, 0, 0xc81, {"d", NULL, NULL, NULL, NULL, NULL}},
    {"rem", EDAN_OP_REM, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"remu", EDAN_OP_REMU, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"remuw", EDAN_OP_REMUW, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"remw", EDAN_OP_REMW, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"ret", EDAN_OP_JALR, P_IMM, 0, 1, -1, 0, 0x000, {"", NULL, NULL, NULL, NULL, NULL}},
    {"sb", EDAN_OP_SB, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"sc.d", EDAN_OP_SC_D, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"sc.w", EDAN_OP_SC_W, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"sd", EDAN_OP_SD, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"seqz", EDAN_OP_SLTIU, P_IMM, -1, -1, -1, 1, 0x000, {"ds", NULL, NULL, NULL, NULL, NULL}},
    {"sext.w", EDAN_OP_ADDIW, P_IMM, -1, -1, -1, 0, 0x000, {"ds", NULL, NULL, NULL, NULL, NULL}},
    {"sgtz", EDAN_OP_SLT, 0, -1, 0, -1, 0, 0x000, {"dt", NULL, NULL, NULL, NULL, NULL}},
    {"sh", EDAN_OP_SH, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"sll", EDAN_OP_SLL, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"slli", EDAN_OP_SLLI, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"slliw", EDAN_OP_SLLIW, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"sllw", EDAN_OP_SLLW, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"slt", EDAN_OP_SLT, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"slti", EDAN_OP_SLTI, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"sltiu", EDAN_OP_SLTIU, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"sltu", EDAN_OP_SLTU, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"sltz", EDAN_OP_SLT, 0, -1, -1, 0, 0, 0x000, {"ds", NULL, NULL, NULL, NULL, NULL}},
    {"snez", EDAN_OP_SLTU, 0, -1, 0, -1, 0, 0x000, {"dt", NULL, NULL, NULL, NULL, NULL}},
    {"sra", EDAN_OP_SRA, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"srai", EDAN_OP_SRAI, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"sraiw", EDAN_OP_SRAIW, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"sraw", EDAN_OP_SRAW, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"srl", EDAN_OP_SRL, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"srli", EDAN_OP_SRLI, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"srliw", EDAN_OP_SRLIW, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"srlw", EDAN_OP_SRLW, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"sub", EDAN_OP_SUB, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"subw", EDAN_OP_SUBW, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"sw", EDAN_OP_SW, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"xor", EDAN_OP_XOR, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"xori", EDAN_OP_XORI, 0, -1, -1, -1, 0, 0x000, {NULL, NULL, NULL, NULL, NULL, NULL}},
    {"zext.b", EDAN_OP_ANDI, P_IMM, -1, -1, -1, 255, 0x000, {"ds", NULL, NULL, NULL, NULL, NULL}},
};

#define N_ENTRIES (sizeof parse_table / sizeof parse_table[0])
#define MAX_OPS 6
#define MAX_MN 24

/* Exposed for the test program only (declared there). */
size_t edan_rv_parse_table_check(const char **bad);
size_t edan_rv_parse_table_check(const char **bad)
{
    for (size_t i = 1; i < N_ENTRIES; i++) {
        if (strcmp(parse_table[i - 1].mn, parse_table[i].mn) >= 0) {
            *bad = parse_table[i].mn;
            return 0;
        }
    }
    *bad = NULL;
    return N_ENTRIES;
}

static const parse_entry *lookup(const char *mn, size_t len)
{
    size_t lo = 0, hi = N_ENTRIES;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *s = parse_table[mid].mn;
        int c = strncmp(s, mn, len);
        if (c == 0) {
            c = s[len] == '\0' ? 0 : 1;
        }
        if (c == 0) {
            return &parse_table[mid];
        }
        if (c < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return NULL;
}

typedef struct tok {
    const char *s;
    size_t n;
} tok;

typedef struct perr {
    char *buf;
    size_t cap;
} perr;

static int fail(perr *e, const char *fmt, const char *a, size_t alen, const char *b)
{
    if (e->buf && e->cap > 0) {
        int n = (int)(alen > 40 ? 40 : alen);
        snprintf(e->buf, e->cap, fmt, n, a ? a : "", b ? b : "");
    }
    return -1;
}

static inline bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static inline bool is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static inline unsigned hex_val(char c)
{
    return c <= '9' ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
}

static tok trim(const char *s, size_t n)
{
    while (n > 0 && is_space(*s)) {
        s++;
        n--;
    }
    while (n > 0 && is_space(s[n - 1])) {
        n--;
    }
    return (tok){s, n};
}

static inline bool tok_eq(tok t, const char *lit)
{
    size_t n = strlen(lit);
    return t.n == n && memcmp(t.s, lit, n) == 0;
}

/* Number in [lo, hi] from digits[0..n): returns -1 if not all digits. */
static int small_num(const char *d, size_t n, int hi)
{
    if (n == 0 || n > 2) {
        return -1;
    }
    int v = 0;
    for (size_t i = 0; i < n; i++) {
        if (d[i] < '0' || d[i] > '9') {
            return -1;
        }
        v = v * 10 + (d[i] - '0');
    }
    if (n == 2 && d[0] == '0') {
        return -1;
    }
    return v <= hi ? v : -1;
}

/* x register by ABI or xN name, or -1. */
static int xreg(tok t)
{
    const char *s = t.s;
    size_t n = t.n;
    if (n < 2 || n > 4) {
        return -1;
    }
    int k;
    switch (s[0]) {
    case 'z':
        return tok_eq(t, "zero") ? 0 : -1;
    case 'r':
        return tok_eq(t, "ra") ? 1 : -1;
    case 'g':
        return tok_eq(t, "gp") ? 3 : -1;
    case 'x':
        return small_num(s + 1, n - 1, 31);
    case 'f':
        return tok_eq(t, "fp") ? 8 : -1;
    case 's':
        if (tok_eq(t, "sp")) {
            return 2;
        }
        k = small_num(s + 1, n - 1, 11);
        return k < 0 ? -1 : k < 2 ? 8 + k : 16 + k;
    case 't':
        if (tok_eq(t, "tp")) {
            return 4;
        }
        k = small_num(s + 1, n - 1, 6);
        return k < 0 ? -1 : k < 3 ? 5 + k : 25 + k;
    case 'a':
        k = small_num(s + 1, n - 1, 7);
        return k < 0 ? -1 : 10 + k;
    default:
        return -1;
    }
}

/* f register number (0..31) by ABI or fN name, or -1. */
static int freg(tok t)
{
    const char *s = t.s;
    size_t n = t.n;
    if (n < 2 || n > 4 || s[0] != 'f') {
        return -1;
    }
    int k;
    switch (s[1]) {
    case 't':
        k = small_num(s + 2, n - 2, 11);
        return k < 0 ? -1 : k < 8 ? k : 20 + k;
    case 's':
        k = small_num(s + 2, n - 2, 11);
        return k < 0 ? -1 : k < 2 ? 8 + k : 16 + k;
    case 'a':
        k = small_num(s + 2, n - 2, 7);
        return k < 0 ? -1 : 10 + k;
    default:
        return small_num(s + 1, n - 1, 31);
    }
}

/* Signed integer: optional sign, decimal or 0x hex. hex_plain: bare digits are hex. */
static bool parse_int(tok t, bool hex_plain, int64_t *out)
{
    const char *s = t.s;
    size_t n = t.n;
    bool neg = false;
    if (n > 0 && (s[0] == '-' || s[0] == '+')) {
        neg = s[0] == '-';
        s++;
        n--;
    }
    bool hex = hex_plain;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        hex = true;
        s += 2;
        n -= 2;
    }
    if (n == 0 || n > (hex ? 16u : 20u)) {
        return false;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (hex) {
            if (!is_hex(s[i])) {
                return false;
            }
            v = (v << 4) | hex_val(s[i]);
        } else {
            if (s[i] < '0' || s[i] > '9') {
                return false;
            }
            v = v * 10u + (uint64_t)(s[i] - '0');
        }
    }
    *out = (int64_t)(neg ? 0u - v : v);
    return true;
}

static bool has_hex_prefix(tok t)
{
    size_t i = (t.n > 0 && (t.s[0] == '-' || t.s[0] == '+')) ? 1 : 0;
    return t.n > i + 2 && t.s[i] == '0' && (t.s[i + 1] == 'x' || t.s[i + 1] == 'X');
}

static int rm_name(tok t)
{
    static const char *const names[8] = {"rne", "rtz", "rdn", "rup", "rmm", "", "", "dyn"};
    if (t.n != 3) {
        return -1;
    }
    for (int i = 0; i < 8; i++) {
        if (names[i][0] && memcmp(t.s, names[i], 3) == 0) {
            return i;
        }
    }
    return -1;
}

static int csr_by_name(tok t)
{
    return edan_rv_csr_by_name(t.s, t.n);
}

static bool fence_set(tok t, unsigned *out)
{
    unsigned v = 0;
    if (tok_eq(t, "0")) {
        *out = 0;
        return true;
    }
    for (size_t i = 0; i < t.n; i++) {
        switch (t.s[i]) {
        case 'i':
            v |= 8;
            break;
        case 'o':
            v |= 4;
            break;
        case 'r':
            v |= 2;
            break;
        case 'w':
            v |= 1;
            break;
        default:
            return false;
        }
    }
    *out = v;
    return true;
}

/* "imm(reg)" or "(reg)": split at the parenthesis. */
static bool split_mem(tok t, tok *imm, tok *reg)
{
    if (t.n < 3 || t.s[t.n - 1] != ')') {
        return false;
    }
    size_t open = t.n;
    for (size_t i = 0; i < t.n; i++) {
        if (t.s[i] == '(') {
            open = i;
            break;
        }
    }
    if (open >= t.n - 1) {
        return false;
    }
    *imm = trim(t.s, open);
    *reg = trim(t.s + open + 1, t.n - open - 2);
    return true;
}

static size_t form_len(const char *form)
{
    return strlen(form);
}

/* Fill operands from tokens according to form; returns 0 or -1 with message. */
static int apply_form(const char *form, const tok *ops, const parse_entry *pe, uint64_t pc, edan_insn *out, perr *e)
{
    unsigned fence_n = 0;
    for (size_t i = 0; form[i]; i++) {
        tok t = ops[i];
        char f = form[i];
        int r;
        int64_t v;
        tok a, b;
        switch (f) {
        case 'd':
        case 's':
        case 't':
        case 'b':
            r = xreg(t);
            if (r < 0) {
                return fail(e, "expected integer register, got '%.*s'%s", t.s, t.n, "");
            }
            if (f == 'd' || f == 'b') {
                out->rd = (uint8_t)r;
            }
            if (f == 's' || f == 'b') {
                out->rs1 = (uint8_t)r;
            }
            if (f == 't') {
                out->rs2 = (uint8_t)r;
            }
            break;
        case 'D':
        case 'S':
        case 'T':
        case 'R':
            r = freg(t);
            if (r < 0 && (pe->flags & P_LAXF)) {
                r = xreg(t);
            }
            if (r < 0) {
                return fail(e, "expected FP register, got '%.*s'%s", t.s, t.n, "");
            }
            if (f == 'D') {
                out->rd = (uint8_t)r;
            } else if (f == 'S') {
                out->rs1 = (uint8_t)r;
            } else if (f == 'T') {
                out->rs2 = (uint8_t)r;
            } else {
                out->rs3 = (uint8_t)r;
            }
            break;
        case 'i':
        case 'z':
            if (!parse_int(t, false, &v)) {
                return fail(e, "expected immediate, got '%.*s'%s", t.s, t.n, "");
            }
            if (f == 'z' && (v < 0 || v > 31)) {
                return fail(e, "CSR immediate out of range: '%.*s'%s", t.s, t.n, "");
            }
            out->imm = v;
            break;
        case 'u':
            if (!parse_int(t, false, &v)) {
                return fail(e, "expected immediate, got '%.*s'%s", t.s, t.n, "");
            }
            /* GNU prints the 20-bit field in hex, QEMU the shifted value in decimal. */
            if (has_hex_prefix(t)) {
                v = (int64_t)(int32_t)(uint32_t)((uint64_t)v << 12);
            }
            out->imm = v;
            break;
        case 'o': {
            /* "-6" (QEMU: byte offset) or "1047c <sym+0x4>" (objdump: absolute hex target). */
            size_t lt = t.n;
            for (size_t k = 0; k < t.n; k++) {
                if (t.s[k] == '<') {
                    lt = k;
                    break;
                }
            }
            tok num = trim(t.s, lt);
            bool absolute = lt < t.n;
            if (!parse_int(num, absolute, &v)) {
                return fail(e, "expected branch offset, got '%.*s'%s", t.s, t.n, "");
            }
            out->imm = absolute ? (int64_t)((uint64_t)v - pc) : v;
            break;
        }
        case 'L':
        case 'A':
            if (!split_mem(t, &a, &b)) {
                return fail(e, "expected 'offset(register)', got '%.*s'%s", t.s, t.n, "");
            }
            r = xreg(b);
            if (r < 0) {
                return fail(e, "expected base register, got '%.*s'%s", b.s, b.n, "");
            }
            out->rs1 = (uint8_t)r;
            if (a.n == 0) {
                v = 0;
            } else if (!parse_int(a, false, &v) || (f == 'A' && v != 0)) {
                return fail(e, "bad address offset '%.*s'%s", a.s, a.n, "");
            }
            if (f == 'L') {
                out->imm = v;
            }
            break;
        case 'c':
            r = csr_by_name(t);
            if (r < 0) {
                if (!parse_int(t, false, &v) || v < 0 || v > 0xfff) {
                    return fail(e, "unknown CSR '%.*s'%s", t.s, t.n, "");
                }
                r = (int)v;
            }
            out->csr = (uint16_t)r;
            break;
        case 'f': {
            unsigned set;
            if (!fence_set(t, &set)) {
                return fail(e, "bad fence set '%.*s'%s", t.s, t.n, "");
            }
            out->rm = (uint8_t)(fence_n++ == 0 ? (set << 4) | (out->rm & 15) : (out->rm & 0xf0) | set);
            break;
        }
        default:
            return fail(e, "internal: bad form%.*s%s", "", 0, "");
        }
    }
    return 0;
}

static uint16_t imm_twin(uint16_t op)
{
    switch (op) {
    case EDAN_OP_ADD:
        return EDAN_OP_ADDI;
    case EDAN_OP_ADDW:
        return EDAN_OP_ADDIW;
    case EDAN_OP_AND:
        return EDAN_OP_ANDI;
    case EDAN_OP_OR:
        return EDAN_OP_ORI;
    case EDAN_OP_XOR:
        return EDAN_OP_XORI;
    case EDAN_OP_SLT:
        return EDAN_OP_SLTI;
    case EDAN_OP_SLTU:
        return EDAN_OP_SLTIU;
    case EDAN_OP_SLL:
        return EDAN_OP_SLLI;
    case EDAN_OP_SRL:
        return EDAN_OP_SRLI;
    case EDAN_OP_SRA:
        return EDAN_OP_SRAI;
    case EDAN_OP_SLLW:
        return EDAN_OP_SLLIW;
    case EDAN_OP_SRLW:
        return EDAN_OP_SRLIW;
    case EDAN_OP_SRAW:
        return EDAN_OP_SRAIW;
    default:
        return 0;
    }
}

int edan_rv_parse(const char *text, uint64_t pc, edan_insn *out, char *err, size_t errcap)
{
    perr e = {err, errcap};
    if (err && errcap > 0) {
        err[0] = '\0';
    }
    if (out == NULL) {
        return -1;
    }
    edan_insn_clear(out);
    out->pc = pc;
    out->size = 4;
    if (text == NULL) {
        return fail(&e, "no text%.*s%s", "", 0, "");
    }

    const char *p = text;
    while (is_space(*p)) {
        p++;
    }
    /* The operand text ends at a comment or end of line. */
    const char *end = p;
    while (*end && *end != '#' && *end != '\n') {
        end++;
    }

    /* Mnemonic; skip a leading 4- or 8-digit hex encoding as QEMU prints it. */
    tok mn;
    for (int pass = 0;; pass++) {
        const char *m = p;
        while (p < end && !is_space(*p)) {
            p++;
        }
        mn = (tok){m, (size_t)(p - m)};
        while (p < end && is_space(*p)) {
            p++;
        }
        bool all_hex = mn.n == 4 || mn.n == 8;
        for (size_t i = 0; all_hex && i < mn.n; i++) {
            all_hex = is_hex(mn.s[i]);
        }
        if (pass > 0 || !all_hex || p >= end) {
            break;
        }
    }
    if (mn.n == 0) {
        return fail(&e, "empty instruction%.*s%s", "", 0, "");
    }
    if (mn.n >= MAX_MN) {
        return fail(&e, "unknown mnemonic '%.*s'%s", mn.s, mn.n, "");
    }
    char lower[MAX_MN];
    for (size_t i = 0; i < mn.n; i++) {
        char c = mn.s[i];
        lower[i] = (c >= 'A' && c <= 'Z') ? (char)(c | 0x20) : c;
    }
    size_t mlen = mn.n;
    const parse_entry *pe = lookup(lower, mlen);
    unsigned aqrl = 0;
    if (!pe) {
        /* A-extension ordering suffixes: .aq, .rl, .aqrl */
        static const struct {
            const char *sfx;
            unsigned bits;
        } sfx[4] = {{".aqrl", 3}, {".aq.rl", 3}, {".aq", 2}, {".rl", 1}};
        for (int i = 0; i < 4 && !pe; i++) {
            size_t n = strlen(sfx[i].sfx);
            if (mlen > n && memcmp(lower + mlen - n, sfx[i].sfx, n) == 0) {
                pe = lookup(lower, mlen - n);
                if (pe && !(edan_rv_ops[pe->op].flags & EDAN_RV_AQRL)) {
                    pe = NULL;
                }
                aqrl = sfx[i].bits;
            }
        }
        if (!pe) {
            return fail(&e, "unknown mnemonic '%.*s'%s", mn.s, mn.n, "");
        }
    }

    /* Split operands at commas; a "<symbol>" swallows the rest (it may contain commas). */
    tok ops[MAX_OPS + 1];
    size_t nops = 0;
    if (p < end) {
        const char *s = p;
        for (const char *q = p;; q++) {
            if (q < end && *q == '<') {
                q = end;
            }
            if (q >= end || *q == ',') {
                if (nops > MAX_OPS) {
                    return fail(&e, "too many operands for '%.*s'%s", mn.s, mn.n, "");
                }
                ops[nops++] = trim(s, (size_t)(q - s));
                if (q >= end) {
                    break;
                }
                s = q + 1;
            }
        }
        for (size_t i = 0; i < nops; i++) {
            if (ops[i].n == 0) {
                /* Only "fence ,w" style (QEMU, empty set) legitimately has an empty operand. */
                if (pe->op != EDAN_OP_FENCE) {
                    return fail(&e, "empty operand in '%.*s'%s", text, (size_t)(end - text), "");
                }
            }
        }
    }

    const edan_rv_opinfo *info = &edan_rv_ops[pe->op];
    out->op = pe->op;
    if (pe->flags & P_C) {
        out->size = 2;
    }
    if (info->flags & EDAN_RV_HAS_RM) {
        /* QEMU puts the rounding mode first, GNU last; absent means dynamic. */
        out->rm = 7;
        int rm;
        if (nops > 0 && (rm = rm_name(ops[0])) >= 0) {
            out->rm = (uint8_t)rm;
            memmove(&ops[0], &ops[1], (nops - 1) * sizeof ops[0]);
            nops--;
        } else if (nops > 0 && (rm = rm_name(ops[nops - 1])) >= 0) {
            out->rm = (uint8_t)rm;
            nops--;
        }
    }
    if (info->flags & EDAN_RV_AQRL) {
        out->rm = (uint8_t)aqrl;
    }

    /* GNU objdump's default (alias) output writes e.g. c.addi16sp as "add sp,sp,-192":
     * a register-register op with an immediate last operand means its immediate twin. */
    if (pe->forms[0] == NULL && info->fmt == EDAN_FMT_R && !(info->flags & EDAN_RV_FRD) && nops == 3 &&
        xreg(ops[2]) < 0) {
        uint16_t twin = imm_twin(pe->op);
        if (twin) {
            out->op = twin;
            info = &edan_rv_ops[twin];
        }
    }

    /* Candidate forms with the right operand count; the first that applies wins. */
    const char *cands[6];
    size_t n_cands = 0;
    if (pe->forms[0] == NULL) {
        if (form_len(info->form) == nops) {
            cands[n_cands++] = info->form;
        }
    } else {
        for (size_t i = 0; i < 6 && pe->forms[i]; i++) {
            if (form_len(pe->forms[i]) == nops) {
                cands[n_cands++] = pe->forms[i];
            }
        }
    }
    if (n_cands == 0) {
        char n[8];
        snprintf(n, sizeof n, "%u", (unsigned)nops);
        return fail(&e, "wrong number of operands for '%.*s' (got %s)", mn.s, mn.n, n);
    }

    /* Likewise "csrs fflags,16" (GNU alias output) is csrrsi. */
    const char *form = cands[0];
    char csr_form[8];
    size_t flen = form_len(form);
    if (out->op >= EDAN_OP_CSRRW && out->op <= EDAN_OP_CSRRC && flen > 0 && flen < sizeof csr_form &&
        form[flen - 1] == 's' && xreg(ops[flen - 1]) < 0) {
        memcpy(csr_form, form, flen - 1);
        csr_form[flen - 1] = 'z';
        csr_form[flen] = '\0';
        form = csr_form;
        out->op = (uint16_t)(out->op + (EDAN_OP_CSRRWI - EDAN_OP_CSRRW));
    }

    if (pe->rd >= 0) {
        out->rd = (uint8_t)pe->rd;
    }
    if (pe->rs1 >= 0) {
        out->rs1 = (uint8_t)pe->rs1;
    }
    if (pe->rs2 >= 0) {
        out->rs2 = (uint8_t)pe->rs2;
    }
    if (pe->flags & P_IMM) {
        out->imm = pe->imm;
    }
    if (pe->csr) {
        out->csr = pe->csr;
    }
    if ((pe->flags & P_FENCE) && nops == 0) {
        out->rm = 0xff;
    }
    if (pe->flags & P_TSO) {
        out->rm = 0x33;
    }
    if (pe->flags & P_PAUSE) {
        out->rm = 0x10;
    }
    cands[0] = form;
    if (n_cands > 1) {
        /* Try the alternatives in order; report the first one's error if none fits. */
        edan_insn base = *out;
        perr quiet = {NULL, 0};
        for (size_t i = 0; i < n_cands; i++) {
            if (apply_form(cands[i], ops, pe, pc, out, &quiet) == 0) {
                goto applied;
            }
            *out = base;
        }
    }
    if (apply_form(form, ops, pe, pc, out, &e) != 0) {
        return -1;
    }
applied:
    if (pe->flags & P_TIE) {
        out->rs2 = out->rs1;
    }
    edan_rv_finish(out);
    return 0;
}
