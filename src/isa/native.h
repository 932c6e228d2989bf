/*
 * native.h - decoding x86-64 and AArch64 instructions into edan_insn
 * (riscv.h), with Capstone's lists of the registers an instruction reads and
 * writes, explicit and implicit ones alike.
 *
 * An instruction is decoded once (when QEMU translates it, or once per
 * distinct static instruction when a trace is read). What the analyzers see
 * is the same record as for RISC-V: register slots below EDAN_NUM_REGS, the
 * memory kind and size, the cost class and the control-flow role.
 *
 * Register slots (0 is never a register: it carries no dependency):
 *   x86-64:  1..16 rax rcx rdx rbx rsp rbp rsi rdi r8..r15 (al/ah/ax/eax/rax:
 *            one slot), 17 the status flags, 18..49 xmm/ymm/zmm 0..31 (one
 *            slot per index), 50..57 k0..k7, 58 the x87/MMX stack.
 *   AArch64: 1..31 x0..x30 (w0..w30 alike), 32 sp, 33 nzcv, 34..65 v0..v31
 *            (b/h/s/d/q/v of one index: one slot).
 * A write of an 8- or 16-bit x86 register (al, ah, ax, r8b, ...) keeps the
 * rest of the register: it is a read of the slot too. A 32-bit write zeroes
 * the upper half (x86 eax, AArch64 w0): a write alone. Every write of a
 * status flag writes the flags slot (inc and dec keep CF, which cores rename
 * apart: not a read). Zero idioms (xor eax,eax; pxor xmm0,xmm0; sub r,r)
 * read nothing. The instruction pointer, segment and system registers carry
 * no dependency, as RISC-V's CSRs do not.
 *
 * A memory access is the instruction's explicit memory operand or its
 * implicit stack access (push, pop, call, ret, leave); lea, nop and
 * prefetches access nothing. An instruction with both, or with two memory
 * operands (movs, cmps, push/pop/call of memory), is marked
 * EDAN_NATIVE_TWO_PLACES and is two vertices, one per access in the order
 * QEMU makes them (edan_native_decode_part()): the first reads the
 * instruction's sources and passes what it loaded to the second through
 * the slot EDAN_X86_TMP; the second reads that alone (the sources reach it
 * through the first), makes the second access, writes the destinations
 * and carries the control flow. String instructions (movs, stos, lods,
 * cmps, scas) do not read the flags slot: the direction flag they read is
 * no status flag. (AArch64's ldp, stp and
 * multi-register loads access one contiguous place: one vertex.)
 */
#ifndef EDAN_ISA_NATIVE_H
#define EDAN_ISA_NATIVE_H

#include <stddef.h>
#include <stdint.h>

#include "isa/riscv.h"
#include "util/symbols/symbols.h"

#define EDAN_X86_GPR(n) ((uint8_t)(1 + (n)))
#define EDAN_X86_SP EDAN_X86_GPR(4)
#define EDAN_X86_FLAGS 17
#define EDAN_X86_VEC(n) ((uint8_t)(18 + (n)))
#define EDAN_X86_K(n) ((uint8_t)(50 + (n)))
#define EDAN_X86_X87 58
#define EDAN_X86_TMP 59 /* the value the first access of a two-place instruction passes to the second */

#define EDAN_A64_X(n) ((uint8_t)(1 + (n)))
#define EDAN_A64_SP 32
#define EDAN_A64_NZCV 33
#define EDAN_A64_V(n) ((uint8_t)(34 + (n)))

/* The ISA of an ELF e_machine (EM_RISCV, EM_X86_64, EM_AARCH64); -1 for any other. */
int edan_isa_of_machine(unsigned e_machine);
/* "riscv64", "x86-64", "aarch64" (the trace header's and the report's name); NULL out of range. */
const char *edan_isa_name(int isa);
/* The ISA named so (edan_isa_name()); -1 if none. */
int edan_isa_by_name(const char *name);
/*
 * Whether the records of the program elf carry its link addresses, so that its symbols and lines apply: a
 * program that is not position-independent, or an x86-64 or AArch64 one (the plugin rebases those to their
 * link addresses, plugin/plugin_native.c).
 */
static inline bool edan_elf_linked_pcs(const edan_elf *elf)
{
    return !elf->is_pie || edan_isa_of_machine(elf->machine) != EDAN_ISA_RISCV64;
}

/* The stack pointer's slot of an ISA. */
uint8_t edan_isa_sp(int isa);

/*
 * Decode the instruction at bytes (avail readable) for isa (x86-64 or
 * AArch64) at pc into *out. An encoding Capstone does not know gives an
 * instruction of class INT with no registers and no memory, marked
 * EDAN_NATIVE_UNDECODED, and EDAN_DECODE_ILLEGAL; its size is then the
 * bytes QEMU gave (avail, at most EDAN_MAX_ENC). Thread-safe (a lock
 * around Capstone's handle): decoding happens once per static instruction.
 */
edan_decode_status edan_native_decode(int isa, const uint8_t *bytes, size_t avail, uint64_t pc, edan_insn *out);
/* Part 0 (the first access's vertex: edan_native_decode()) or 1 (the second's, marked EDAN_NATIVE_SECOND) of an
 * instruction marked EDAN_NATIVE_TWO_PLACES; part 1 of any other is EDAN_DECODE_ILLEGAL. */
edan_decode_status edan_native_decode_part(int isa, const uint8_t *bytes, size_t avail, uint64_t pc, int part,
                                           edan_insn *out);

/* The digest of a native encoding stored in edan_insn.raw (FNV-1a 32 of its bytes; AArch64: the word itself). */
uint32_t edan_native_raw(int isa, const uint8_t *bytes, size_t n);

/* Capstone's disassembly of a decoded native instruction ("add rax, rbx"), snprintf-style; the second part of a
 * two-place instruction ends in " (2nd access)". */
int edan_native_disas(const edan_insn *insn, char *buf, size_t cap);
/* The disassembly of an instruction of any ISA: edan_rv_disas() or edan_native_disas(). */
int edan_isa_disas(const edan_insn *insn, char *buf, size_t cap);

/* The name of a register slot of isa ("rax", "flags", "v3"; RISC-V's ABI names, edan_rv_reg_name()); "?" for none. */
const char *edan_native_reg_name(int isa, uint8_t reg);

#endif
