/*
 * opmix.h - the operation mix of executed instructions, as ExaSAT counts a
 * loop's arithmetic: floating-point adds (and subtracts), multiplies,
 * fused multiply-adds (two operations each), divides, square roots, and
 * calls into libm's transcendental functions (one operation each, however
 * many instructions the call executes); besides them the instruction
 * classes, loads and stores with their bytes, and stack (sp-relative)
 * traffic.
 *
 * What counts as a flop: add, sub, mul (1), fmadd/fmsub/fnmadd/fnmsub (2),
 * div (1), sqrt (1), a transcendental call (1), a call of libm's sqrt (1).
 * Other FP instructions (moves, conversions, compares, min/max, sign
 * injection, classify) are counted as "other", not as flops. Weighted
 * flops (ExaSAT's weighted computational workload) multiply divisions,
 * square roots and transcendentals by their weights.
 *
 * Instructions executed inside a recognised libm call are not part of the
 * counts above: the call is one operation, and what it executed is kept
 * apart (in_calls, in_calls_flops).
 */
#ifndef EDAN_ANALYSIS_OPMIX_H
#define EDAN_ANALYSIS_OPMIX_H

#include <stdbool.h>
#include <stdint.h>

#include "isa/riscv.h"

/* Floating-point kinds of static instructions. */
enum {
    EDAN_FP_NONE = 0, /* not a floating-point operation */
    EDAN_FP_ADD,      /* fadd, fsub */
    EDAN_FP_MUL,      /* fmul */
    EDAN_FP_FMA,      /* fmadd, fmsub, fnmadd, fnmsub: two flops */
    EDAN_FP_DIV,      /* fdiv */
    EDAN_FP_SQRT,     /* fsqrt */
    EDAN_FP_OTHER,    /* every other F/D instruction that is no load or store: not a flop */
    EDAN_FP_KINDS
};

/* The kind of a static instruction. */
int edan_opmix_fp_kind(const edan_insn *in);
/* Flops of one instruction of a kind: 2 for a fused multiply-add, 1 for add, mul, div and sqrt, else 0. */
unsigned edan_opmix_kind_flops(int kind);

/* What a function symbol is, for calls into libm. */
enum { EDAN_LIBM_NONE = 0, EDAN_LIBM_TRANSCENDENTAL, EDAN_LIBM_SQRT };

/*
 * The libm kind of a function named name: exp, exp2, exp10, expm1, log,
 * log2, log10, log1p, pow, sin, cos, tan, sincos, asin, acos, atan, atan2,
 * sinh, cosh, tanh, asinh, acosh, atanh, cbrt, hypot, erf, erfc, tgamma,
 * lgamma are transcendental; sqrt is a square root. Their float (f) and long
 * double (l) forms count alike, and so do glibc's aliases (__exp,
 * __ieee754_exp, __exp_finite).
 */
int edan_opmix_libm_kind(const char *name);

/* Whether a memory instruction addresses the stack: its base register is sp. */
bool edan_opmix_stack(const edan_insn *in);

/* The weights of ExaSAT's weighted flops: an add or a multiply weighs 1. */
typedef struct edan_flop_weights {
    double div, sqrt, transcendental;
} edan_flop_weights;

typedef struct edan_opmix {
    uint64_t instructions;            /* executed, not counting those inside libm calls */
    uint64_t cls[EDAN_CLASS_COUNT];   /* of those, per cost class */
    uint64_t fp[EDAN_FP_KINDS];       /* of those, per FP kind (fp[EDAN_FP_NONE] unused) */
    uint64_t transcendentals;         /* calls into libm's transcendental functions */
    uint64_t sqrt_calls;              /* calls into libm's sqrt */
    uint64_t in_calls;                /* instructions executed inside those calls */
    uint64_t in_calls_flops;          /* their flops (by the rules above), apart from the flops */
    uint64_t loads, stores, atomics;  /* accesses performed (a failed sc performs none) */
    uint64_t load_bytes, store_bytes; /* an atomic reads and writes its bytes */
    uint64_t stack_loads, stack_stores, stack_load_bytes, stack_store_bytes;
} edan_opmix;

/*
 * Add `executions` executions of a static instruction, of which `accesses`
 * performed their memory access (equal for an instruction without one).
 */
void edan_opmix_add(edan_opmix *m, const edan_insn *in, uint64_t executions, uint64_t accesses);
void edan_opmix_merge(edan_opmix *to, const edan_opmix *from);

/* add + mul + 2 fma + div + sqrt + transcendental calls + sqrt calls */
uint64_t edan_opmix_flops(const edan_opmix *m);
/* add + mul + 2 fma + div x w.div + (sqrt + sqrt calls) x w.sqrt + transcendentals x w.transcendental */
double edan_opmix_weighted_flops(const edan_opmix *m, const edan_flop_weights *w);

#endif
