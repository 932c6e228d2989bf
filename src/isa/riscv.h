/*
 * riscv.h - the contract between RISC-V decoding and everything downstream.
 *
 * An instruction is decoded once (at TCG translation time, or once per
 * distinct static instruction when reading a trace) into an edan_insn.
 * The analyzer never looks at encodings again: it only reads the register
 * lists, the memory kind and size and the class.
 *
 * Register numbering (edan_reg): 0..31 are x0..x31, 32..63 are f0..f31.
 * x0 is never listed as a source or destination: it carries no dependency.
 * CSRs (including fflags/frm, which FP instructions update implicitly) are
 * not tracked: the eDAG has edges only through x and f registers and memory.
 *
 * Native programs (x86-64, AArch64: isa/native.h) use the same record with
 * their own register numbering below EDAN_NUM_REGS (slot 0 is never a
 * register there either). An instruction with more than EDAN_MAX_SRC
 * sources or more than one destination lists the rest in more[]; RISC-V
 * never has any (n_more_src == n_more_dst == 0), so the analyzers' short
 * paths, which look at src[] and dst alone, leave the others to their
 * general paths (edan_insn_wide()).
 */
#ifndef EDAN_ISA_RISCV_H
#define EDAN_ISA_RISCV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EDAN_REG_X(n) ((uint8_t)(n))
#define EDAN_REG_F(n) ((uint8_t)(32 + (n)))
#define EDAN_NUM_REGS 72 /* RISC-V uses 0..63; AArch64 up to 66 (isa/native.h) */
#define EDAN_MAX_SRC 3
#define EDAN_MAX_MORE 12 /* further sources and destinations of a native instruction */
#define EDAN_MAX_ENC 16  /* bytes of a native instruction's encoding (x86: at most 15) */

/* The instruction sets edan decodes. RISC-V is 0, so a zeroed edan_insn is a RISC-V one. */
typedef enum edan_isa { EDAN_ISA_RISCV64 = 0, EDAN_ISA_X86_64, EDAN_ISA_AARCH64, EDAN_ISA_COUNT } edan_isa;

/* Cost classes: each has one entry in the cost table (cost.h). */
typedef enum edan_insn_class {
    EDAN_CLASS_INT = 0, /* integer ALU, lui/auipc, moves, CSR, fence, ecall, nop */
    EDAN_CLASS_MUL,     /* integer multiply */
    EDAN_CLASS_DIV,     /* integer divide and remainder */
    EDAN_CLASS_FADD,    /* FP add/sub/min/max/compare/convert/move/sign-inject/classify */
    EDAN_CLASS_FMUL,    /* FP multiply */
    EDAN_CLASS_FFMA,    /* FP fused multiply-add family */
    EDAN_CLASS_FDIV,    /* FP divide */
    EDAN_CLASS_FSQRT,   /* FP square root */
    EDAN_CLASS_BRANCH,  /* conditional branches, jal, jalr */
    EDAN_CLASS_LOAD,    /* integer and FP loads, lr */
    EDAN_CLASS_STORE,   /* integer and FP stores, sc */
    EDAN_CLASS_ATOMIC,  /* amo* (read-modify-write) */
    EDAN_CLASS_COUNT
} edan_insn_class;

/* What an instruction does to memory. */
typedef enum edan_mem_kind {
    EDAN_MEM_NONE = 0,
    EDAN_MEM_LOAD,  /* reads mem_size bytes at the data address (loads, lr) */
    EDAN_MEM_STORE, /* writes mem_size bytes (stores, sc: sc writes only if it succeeds) */
    EDAN_MEM_AMO    /* reads then writes the same mem_size bytes (amo*) */
} edan_mem_kind;

/* Control-flow role, used by the function filter to track call depth.
 * Follows the RISC-V return-address-stack hints: a call is jal/jalr whose rd
 * is x1 or x5; a return is jalr with rd=x0 and rs1 in {x1,x5}. */
typedef enum edan_flow {
    EDAN_FLOW_NONE = 0,
    EDAN_FLOW_CALL,
    EDAN_FLOW_RETURN,
    EDAN_FLOW_JUMP,  /* other jal/jalr (includes tail calls) */
    EDAN_FLOW_BRANCH /* conditional branch */
} edan_flow;

/* Operand layout used by the disassembler and the text parser. */
typedef enum edan_operand_format {
    EDAN_FMT_NONE = 0, /* "ecall", "fence.i", "ret", "nop" */
    EDAN_FMT_R,        /* rd,rs1,rs2 */
    EDAN_FMT_R4,       /* rd,rs1,rs2,rs3 (fused multiply-add) */
    EDAN_FMT_R2,       /* rd,rs1 (fsqrt, fcvt, fmv.x.w, fclass, and pseudos mv/not/neg...) */
    EDAN_FMT_I,        /* rd,rs1,imm */
    EDAN_FMT_LOAD,     /* rd,imm(rs1) */
    EDAN_FMT_STORE,    /* rs2,imm(rs1) */
    EDAN_FMT_B,        /* rs1,rs2,offset */
    EDAN_FMT_U,        /* rd,imm */
    EDAN_FMT_J,        /* rd,offset (jal) */
    EDAN_FMT_JALR,     /* rd,imm(rs1) or rd,rs1,imm as QEMU prints it */
    EDAN_FMT_AMO,      /* rd,rs2,(rs1) */
    EDAN_FMT_LR,       /* rd,(rs1) */
    EDAN_FMT_CSR,      /* rd,csr,rs1 */
    EDAN_FMT_CSRI,     /* rd,csr,uimm */
    EDAN_FMT_FENCE     /* fence pred,succ */
} edan_operand_format;

/*
 * A decoded static instruction. Plain data, no pointers: it can be copied,
 * stored in a table indexed by a dense id, and compared with memcmp after
 * edan_insn_clear().
 */
typedef struct edan_insn {
    uint64_t pc;               /* guest virtual address of the instruction */
    uint32_t raw;              /* encoding; compressed ones in the low 16 bits */
    uint16_t op;               /* edan_rv_op: the mnemonic (riscv_ops.h), after decompression */
    uint8_t size;              /* 2 (compressed) or 4; native: the encoding's bytes (1..15) */
    uint8_t cls;               /* edan_insn_class */
    uint8_t mem;               /* edan_mem_kind */
    uint8_t mem_size;          /* bytes accessed: 1, 2, 4 or 8 (native: up to 64); 0 when mem == NONE */
    uint8_t flow;              /* edan_flow */
    uint8_t n_src;             /* number of valid entries in src[] */
    uint8_t n_dst;             /* 0 or 1 (native: 1 when n_more_dst > 0) */
    uint8_t src[EDAN_MAX_SRC]; /* edan_reg numbers; distinct; never x0; entries past n_src are 0 */
    uint8_t dst;               /* edan_reg number when n_dst == 1 (never x0); 0 when n_dst == 0 */
    /* Raw operand fields for disassembly (edan_reg numbers, x0 included). */
    uint8_t rd, rs1, rs2, rs3;
    uint8_t fmt;  /* edan_operand_format */
    uint8_t rm;   /* FP rounding mode field, fence pred<<4|succ, or lr/sc/amo aq<<1|rl */
    uint16_t csr; /* CSR number for Zicsr instructions */
    int64_t imm;  /* immediate, sign-extended; branch/jump offsets in bytes */
    /* Native instructions (isa/native.h); all 0 for RISC-V. */
    uint8_t isa;        /* edan_isa */
    uint8_t n_more_src; /* sources past src[]: more[0 .. n_more_src) (n_src == EDAN_MAX_SRC then) */
    uint8_t n_more_dst; /* destinations past dst: more[n_more_src .. + n_more_dst) */
    uint8_t native;     /* EDAN_NATIVE_* facts the tracer reports */
    uint8_t op_cls;     /* the class of the operation itself: cls is LOAD or STORE when it also accesses
                           memory (x86 addsd xmm1, [rsi]: FADD here; add rax, [rsi]: INT) */
    uint8_t uops;       /* EDAN_UOP_*: the micro-operations the timing model splits it into (x86 load-op,
                           read-modify-write, op-store), decided when decoded; 0: one, as RISC-V's */
    uint16_t addr_dst;  /* destinations that are address updates (bit 0: dst, bit i: the i-th of more[]'s
                           destinations: push's rsp, rep movs's rdi, writeback): each keeps the state of
                           its own register (of addr_from when that is not 0: leave's rsp from rbp), an
                           integer operation later, as if the update were an instruction of its own */
    uint8_t addr_from;
    uint8_t mem_index; /* with uops: the memory operand's index register (rs1 is its base); 0: none */
    uint8_t more[EDAN_MAX_MORE];
    uint8_t enc[EDAN_MAX_ENC]; /* the encoding, size bytes (raw is a digest of it for x86) */
} edan_insn;

/* edan_insn.native */
enum {
    EDAN_NATIVE_UNDECODED = 1u << 0,  /* the decoder did not know it: no registers, no memory */
    EDAN_NATIVE_TWO_PLACES = 1u << 1, /* it accesses two places (movs, cmps, push/pop of memory): two vertices */
    EDAN_NATIVE_FLOP_ADD = 1u << 2,   /* a floating-point add or subtract (opmix.h counts it as a flop) */
    EDAN_NATIVE_SECOND = 1u << 3,     /* the second vertex of a two-place instruction (isa/native.h) */
    EDAN_NATIVE_DIRECT = 1u << 4,     /* a direct branch, jump or call: its target is pc + imm (RISC-V: jal, b*) */
    EDAN_NATIVE_REP = 1u << 5         /* an x86 string instruction with a rep prefix: one record per element */
};

/*
 * edan_insn.uops: an x86 instruction with a memory operand and an operation is
 * one vertex of the eDAG but, in the timing model, a load micro-operation (its
 * address registers and the bytes it reads), the operation (op_cls, after the
 * load and the other sources) and a store (after the operation), each with its
 * own window, queue and issue-queue entries (docs/model.md). Set by the decoder,
 * once per static instruction; moves, atomics, branches and two-place
 * instructions stay whole (0).
 */
enum { EDAN_UOP_LOAD = 1u << 0, EDAN_UOP_OP = 1u << 1, EDAN_UOP_STORE = 1u << 2 };

/* Whether an instruction has registers past src[] and dst, or address updates (only native ones do). */
static inline bool edan_insn_wide(const edan_insn *in)
{
    return (in->n_more_src | in->n_more_dst | in->addr_dst) != 0;
}

/* The register whose state an address update of register d takes (edan_insn.addr_dst). */
static inline uint8_t edan_insn_addr_from(const edan_insn *in, uint8_t d)
{
    return in->addr_from ? in->addr_from : d;
}

/* Result of decoding: a non-zero return means "not an RV64GC instruction". */
typedef enum edan_decode_status { EDAN_DECODE_OK = 0, EDAN_DECODE_ILLEGAL = 1 } edan_decode_status;

/* Zero every byte (including padding) so decoded instructions compare with memcmp. */
void edan_insn_clear(edan_insn *insn);

/*
 * Decode the instruction at `bytes` (little-endian, `avail` bytes readable,
 * at least 2). Fills *out. Compressed instructions are decoded to their
 * expanded meaning (op is the base mnemonic, size stays 2).
 * Illegal encodings: out->op is EDAN_OP_ILLEGAL, class INT, no operands,
 * and EDAN_DECODE_ILLEGAL is returned; the caller decides whether that is an
 * error (in a trace it is: QEMU would have raised SIGILL).
 */
edan_decode_status edan_rv_decode(const uint8_t *bytes, size_t avail, uint64_t pc, edan_insn *out);

/* Length in bytes of the instruction whose first halfword is `lo16` (2 or 4). */
static inline unsigned edan_rv_insn_length(uint16_t lo16)
{
    return (lo16 & 3) == 3 ? 4 : 2;
}

/*
 * Disassemble into the text style of the original EDAN tracer (QEMU's RISC-V
 * disassembler): "mnemonic op1,op2,..." with ABI register names, decimal
 * immediates and branch offsets, pseudo-instructions where QEMU prints them
 * (mv, li, ret, j, nop, beqz, ...). Writes at most cap bytes including the
 * terminating NUL and returns the length (snprintf-style).
 */
int edan_rv_disas(const edan_insn *insn, char *buf, size_t cap);

/*
 * Parse one disassembled instruction in that text style (mnemonic, operands;
 * whitespace and a trailing "# comment" are tolerated) into *out with the same
 * src/dst/mem/class/flow as decoding the binary would give. pc is stored as
 * given; raw is 0 and size is 4 unless the mnemonic is a c.* form.
 * Returns 0 on success; on failure returns -1 and writes a one-line reason
 * (e.g. "unknown mnemonic 'foo'", "expected register, got '12'") to err.
 */
int edan_rv_parse(const char *text, uint64_t pc, edan_insn *out, char *err, size_t errcap);

/* ABI name of an edan_reg ("zero", "ra", ..., "ft0", ..., "fa0"). */
const char *edan_rv_reg_name(uint8_t reg);

/* The mnemonic text of an op ("addi", "fmadd.d", ...). */
const char *edan_rv_op_name(uint16_t op);

#endif
