/*
 * riscv_ops.c - per-op property table and the shared operand-to-dependency
 * derivation used by both the binary decoder and the text parser.
 */
#include "isa/riscv_ops.h"

#include <string.h>

const edan_rv_opinfo edan_rv_ops[EDAN_OP_COUNT] = {
    [EDAN_OP_ILLEGAL] = {"illegal", "", 0, EDAN_CLASS_INT, EDAN_MEM_NONE, 0, EDAN_FMT_NONE},
#define EDAN_RV_OP_ROW(id, nm, cl, mk, sz, fm, shape, frm)                                                             \
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
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0",  "a1",  "a2", "a3", "a4", "a5",
    "a6",   "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

static const char rv_freg_names[32][5] = {
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0",  "fa1",  "fa2", "fa3", "fa4",  "fa5",
    "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
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

/*
 * CSR names exactly as QEMU 7.2's disassembler prints them (harvested from
 * qemu-riscv64 7.2 itself), sorted by number. Unnamed CSRs print as 0x%03x.
 */
static const struct {
    uint16_t csr;
    const char *name;
} csr_names[] = {
    {0x000, "ustatus"},
    {0x001, "fflags"},
    {0x002, "frm"},
    {0x003, "fcsr"},
    {0x004, "uie"},
    {0x005, "utvec"},
    {0x008, "vstart"},
    {0x009, "vxsat"},
    {0x00a, "vxrm"},
    {0x00f, "vcsr"},
    {0x015, "seed"},
    {0x040, "uscratch"},
    {0x041, "uepc"},
    {0x042, "ucause"},
    {0x043, "utval"},
    {0x044, "uip"},
    {0x100, "sstatus"},
    {0x104, "sie"},
    {0x105, "stvec"},
    {0x106, "scounteren"},
    {0x140, "sscratch"},
    {0x141, "sepc"},
    {0x142, "scause"},
    {0x143, "stval"},
    {0x144, "sip"},
    {0x180, "satp"},
    {0x200, "hstatus"},
    {0x202, "hedeleg"},
    {0x203, "hideleg"},
    {0x204, "hie"},
    {0x205, "htvec"},
    {0x240, "hscratch"},
    {0x241, "hepc"},
    {0x242, "hcause"},
    {0x243, "hbadaddr"},
    {0x244, "hip"},
    {0x300, "mstatus"},
    {0x301, "misa"},
    {0x302, "medeleg"},
    {0x303, "mideleg"},
    {0x304, "mie"},
    {0x305, "mtvec"},
    {0x306, "mcounteren"},
    {0x320, "mucounteren"},
    {0x321, "mscounteren"},
    {0x322, "mhcounteren"},
    {0x323, "mhpmevent3"},
    {0x324, "mhpmevent4"},
    {0x325, "mhpmevent5"},
    {0x326, "mhpmevent6"},
    {0x327, "mhpmevent7"},
    {0x328, "mhpmevent8"},
    {0x329, "mhpmevent9"},
    {0x32a, "mhpmevent10"},
    {0x32b, "mhpmevent11"},
    {0x32c, "mhpmevent12"},
    {0x32d, "mhpmevent13"},
    {0x32e, "mhpmevent14"},
    {0x32f, "mhpmevent15"},
    {0x330, "mhpmevent16"},
    {0x331, "mhpmevent17"},
    {0x332, "mhpmevent18"},
    {0x333, "mhpmevent19"},
    {0x334, "mhpmevent20"},
    {0x335, "mhpmevent21"},
    {0x336, "mhpmevent22"},
    {0x337, "mhpmevent23"},
    {0x338, "mhpmevent24"},
    {0x339, "mhpmevent25"},
    {0x33a, "mhpmevent26"},
    {0x33b, "mhpmevent27"},
    {0x33c, "mhpmevent28"},
    {0x33d, "mhpmevent29"},
    {0x33e, "mhpmevent30"},
    {0x33f, "mhpmevent31"},
    {0x340, "mscratch"},
    {0x341, "mepc"},
    {0x342, "mcause"},
    {0x343, "mtval"},
    {0x344, "mip"},
    {0x380, "mbase"},
    {0x381, "mbound"},
    {0x382, "mibase"},
    {0x383, "mibound"},
    {0x384, "mdbase"},
    {0x385, "mdbound"},
    {0x3a0, "pmpcfg0"},
    {0x3a1, "pmpcfg1"},
    {0x3a2, "pmpcfg2"},
    {0x3a3, "pmpcfg3"},
    {0x3a4, "pmpcfg4"},
    {0x3a5, "pmpcfg5"},
    {0x3a6, "pmpcfg6"},
    {0x3a7, "pmpcfg7"},
    {0x3a8, "pmpcfg8"},
    {0x3a9, "pmpcfg9"},
    {0x3aa, "pmpcfg10"},
    {0x3ab, "pmpcfg11"},
    {0x3ac, "pmpcfg12"},
    {0x3ad, "pmpcfg13"},
    {0x3ae, "pmpcfg14"},
    {0x3af, "pmpcfg15"},
    {0x3b0, "pmpaddr0"},
    {0x3b1, "pmpaddr1"},
    {0x3b2, "pmpaddr2"},
    {0x3b3, "pmpaddr3"},
    {0x3b4, "pmpaddr4"},
    {0x3b5, "pmpaddr5"},
    {0x3b6, "pmpaddr6"},
    {0x3b7, "pmpaddr7"},
    {0x3b8, "pmpaddr8"},
    {0x3b9, "pmpaddr9"},
    {0x3ba, "pmpaddr10"},
    {0x3bb, "pmpaddr11"},
    {0x3bc, "pmpaddr12"},
    {0x3bd, "pmpaddr13"},
    {0x3be, "pmpaddr14"},
    {0x3bf, "pmpaddr15"},
    {0x3c0, "pmpaddr16"},
    {0x3c1, "pmpaddr17"},
    {0x3c2, "pmpaddr18"},
    {0x3c3, "pmpaddr19"},
    {0x3c4, "pmpaddr20"},
    {0x3c5, "pmpaddr21"},
    {0x3c6, "pmpaddr22"},
    {0x3c7, "pmpaddr23"},
    {0x3c8, "pmpaddr24"},
    {0x3c9, "pmpaddr25"},
    {0x3ca, "pmpaddr26"},
    {0x3cb, "pmpaddr27"},
    {0x3cc, "pmpaddr28"},
    {0x3cd, "pmpaddr29"},
    {0x3ce, "pmpaddr30"},
    {0x3cf, "pmpaddr31"},
    {0x3d0, "pmpaddr32"},
    {0x3d1, "pmpaddr33"},
    {0x3d2, "pmpaddr34"},
    {0x3d3, "pmpaddr35"},
    {0x3d4, "pmpaddr36"},
    {0x3d5, "pmpaddr37"},
    {0x3d6, "pmpaddr38"},
    {0x3d7, "pmpaddr39"},
    {0x3d8, "pmpaddr40"},
    {0x3d9, "pmpaddr41"},
    {0x3da, "pmpaddr42"},
    {0x3db, "pmpaddr43"},
    {0x3dc, "pmpaddr44"},
    {0x3dd, "pmpaddr45"},
    {0x3de, "pmpaddr46"},
    {0x3df, "pmpaddr47"},
    {0x3e0, "pmpaddr48"},
    {0x3e1, "pmpaddr49"},
    {0x3e2, "pmpaddr50"},
    {0x3e3, "pmpaddr51"},
    {0x3e4, "pmpaddr52"},
    {0x3e5, "pmpaddr53"},
    {0x3e6, "pmpaddr54"},
    {0x3e7, "pmpaddr55"},
    {0x3e8, "pmpaddr56"},
    {0x3e9, "pmpaddr57"},
    {0x3ea, "pmpaddr58"},
    {0x3eb, "pmpaddr59"},
    {0x3ec, "pmpaddr60"},
    {0x3ed, "pmpaddr61"},
    {0x3ee, "pmpaddr62"},
    {0x3ef, "pmpaddr63"},
    {0x780, "mtohost"},
    {0x781, "mfromhost"},
    {0x782, "mreset"},
    {0x783, "mipi"},
    {0x784, "miobase"},
    {0x7a0, "tselect"},
    {0x7a1, "tdata1"},
    {0x7a2, "tdata2"},
    {0x7a3, "tdata3"},
    {0x7b0, "dcsr"},
    {0x7b1, "dpc"},
    {0x7b2, "dscratch"},
    {0xb00, "mcycle"},
    {0xb01, "mtime"},
    {0xb02, "minstret"},
    {0xb03, "mhpmcounter3"},
    {0xb04, "mhpmcounter4"},
    {0xb05, "mhpmcounter5"},
    {0xb06, "mhpmcounter6"},
    {0xb07, "mhpmcounter7"},
    {0xb08, "mhpmcounter8"},
    {0xb09, "mhpmcounter9"},
    {0xb0a, "mhpmcounter10"},
    {0xb0b, "mhpmcounter11"},
    {0xb0c, "mhpmcounter12"},
    {0xb0d, "mhpmcounter13"},
    {0xb0e, "mhpmcounter14"},
    {0xb0f, "mhpmcounter15"},
    {0xb10, "mhpmcounter16"},
    {0xb11, "mhpmcounter17"},
    {0xb12, "mhpmcounter18"},
    {0xb13, "mhpmcounter19"},
    {0xb14, "mhpmcounter20"},
    {0xb15, "mhpmcounter21"},
    {0xb16, "mhpmcounter22"},
    {0xb17, "mhpmcounter23"},
    {0xb18, "mhpmcounter24"},
    {0xb19, "mhpmcounter25"},
    {0xb1a, "mhpmcounter26"},
    {0xb1b, "mhpmcounter27"},
    {0xb1c, "mhpmcounter28"},
    {0xb1d, "mhpmcounter29"},
    {0xb1e, "mhpmcounter30"},
    {0xb1f, "mhpmcounter31"},
    {0xb80, "mcycleh"},
    {0xb81, "mtimeh"},
    {0xb82, "minstreth"},
    {0xb83, "mhpmcounter3h"},
    {0xb84, "mhpmcounter4h"},
    {0xb85, "mhpmcounter5h"},
    {0xb86, "mhpmcounter6h"},
    {0xb87, "mhpmcounter7h"},
    {0xb88, "mhpmcounter8h"},
    {0xb89, "mhpmcounter9h"},
    {0xb8a, "mhpmcounter10h"},
    {0xb8b, "mhpmcounter11h"},
    {0xb8c, "mhpmcounter12h"},
    {0xb8d, "mhpmcounter13h"},
    {0xb8e, "mhpmcounter14h"},
    {0xb8f, "mhpmcounter15h"},
    {0xb90, "mhpmcounter16h"},
    {0xb91, "mhpmcounter17h"},
    {0xb92, "mhpmcounter18h"},
    {0xb93, "mhpmcounter19h"},
    {0xb94, "mhpmcounter20h"},
    {0xb95, "mhpmcounter21h"},
    {0xb96, "mhpmcounter22h"},
    {0xb97, "mhpmcounter23h"},
    {0xb98, "mhpmcounter24h"},
    {0xb99, "mhpmcounter25h"},
    {0xb9a, "mhpmcounter26h"},
    {0xb9b, "mhpmcounter27h"},
    {0xb9c, "mhpmcounter28h"},
    {0xb9d, "mhpmcounter29h"},
    {0xb9e, "mhpmcounter30h"},
    {0xb9f, "mhpmcounter31h"},
    {0xc00, "cycle"},
    {0xc01, "time"},
    {0xc02, "instret"},
    {0xc20, "vl"},
    {0xc21, "vtype"},
    {0xc22, "vlenb"},
    {0xc80, "cycleh"},
    {0xc81, "timeh"},
    {0xc82, "instreth"},
    {0xd00, "scycle"},
    {0xd01, "stime"},
    {0xd02, "sinstret"},
    {0xd80, "scycleh"},
    {0xd81, "stimeh"},
    {0xd82, "sinstreth"},
    {0xe00, "hcycle"},
    {0xe01, "htime"},
    {0xe02, "hinstret"},
    {0xe80, "hcycleh"},
    {0xe81, "htimeh"},
    {0xe82, "hinstreth"},
    {0xf11, "mvendorid"},
    {0xf12, "marchid"},
    {0xf13, "mimpid"},
    {0xf14, "mhartid"},
};

const char *edan_rv_csr_name(uint16_t csr)
{
    size_t lo = 0, hi = sizeof csr_names / sizeof csr_names[0];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (csr_names[mid].csr == csr) {
            return csr_names[mid].name;
        }
        if (csr_names[mid].csr < csr) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return NULL;
}

int edan_rv_csr_by_name(const char *s, size_t n)
{
    /* CSR instructions are rare in traces, so a scan is fine here. */
    for (size_t i = 0; i < sizeof csr_names / sizeof csr_names[0]; i++) {
        if (strncmp(csr_names[i].name, s, n) == 0 && csr_names[i].name[n] == '\0') {
            return csr_names[i].csr;
        }
    }
    return -1;
}
