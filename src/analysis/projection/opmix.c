/*
 * opmix.c - the operation mix (see opmix.h for what counts).
 */
#include "analysis/projection/opmix.h"

#include <string.h>

#include "isa/native.h"
#include "isa/riscv_ops.h"

/* ===================================================================== */
/* Static instructions                                                    */
/* ===================================================================== */

/* A native instruction's kind, from its operation's cost class (isa/native.c classes the mnemonics). */
static int native_fp_kind(const edan_insn *in)
{
    switch (in->op_cls) {
    case EDAN_CLASS_FMUL:
        return EDAN_FP_MUL;
    case EDAN_CLASS_FFMA:
        return EDAN_FP_FMA;
    case EDAN_CLASS_FDIV:
        return EDAN_FP_DIV;
    case EDAN_CLASS_FSQRT:
        return EDAN_FP_SQRT;
    case EDAN_CLASS_FADD:
        return in->native & EDAN_NATIVE_FLOP_ADD ? EDAN_FP_ADD : EDAN_FP_OTHER;
    default:
        return EDAN_FP_NONE;
    }
}

int edan_opmix_fp_kind(const edan_insn *in)
{
    if (in->isa != EDAN_ISA_RISCV64)
        return native_fp_kind(in);
    switch (in->op) {
    case EDAN_OP_FADD_S:
    case EDAN_OP_FSUB_S:
    case EDAN_OP_FADD_D:
    case EDAN_OP_FSUB_D:
        return EDAN_FP_ADD;
    case EDAN_OP_FMUL_S:
    case EDAN_OP_FMUL_D:
        return EDAN_FP_MUL;
    case EDAN_OP_FMADD_S:
    case EDAN_OP_FMSUB_S:
    case EDAN_OP_FNMSUB_S:
    case EDAN_OP_FNMADD_S:
    case EDAN_OP_FMADD_D:
    case EDAN_OP_FMSUB_D:
    case EDAN_OP_FNMSUB_D:
    case EDAN_OP_FNMADD_D:
        return EDAN_FP_FMA;
    case EDAN_OP_FDIV_S:
    case EDAN_OP_FDIV_D:
        return EDAN_FP_DIV;
    case EDAN_OP_FSQRT_S:
    case EDAN_OP_FSQRT_D:
        return EDAN_FP_SQRT;
    default:
        break;
    }
    /* the rest of the F and D extensions that compute: the FADD cost class holds exactly them */
    return in->cls == EDAN_CLASS_FADD ? EDAN_FP_OTHER : EDAN_FP_NONE;
}

unsigned edan_opmix_kind_flops(int kind)
{
    switch (kind) {
    case EDAN_FP_FMA:
        return 2;
    case EDAN_FP_ADD:
    case EDAN_FP_MUL:
    case EDAN_FP_DIV:
    case EDAN_FP_SQRT:
        return 1;
    default:
        return 0;
    }
}

bool edan_opmix_stack(const edan_insn *in)
{
    return in->mem != EDAN_MEM_NONE && in->rs1 == edan_isa_sp(in->isa);
}

/* ===================================================================== */
/* libm                                                                   */
/* ===================================================================== */

static const char *const transcendental[] = {
    "exp",   "exp2",  "exp10",  "expm1", "log",   "log2", "log10", "log1p",  "pow",    "sin",
    "cos",   "tan",   "sincos", "asin",  "acos",  "atan", "atan2", "sinh",   "cosh",   "tanh",
    "asinh", "acosh", "atanh",  "cbrt",  "hypot", "erf",  "erfc",  "tgamma", "lgamma",
};

/* 1 when the first n bytes of s name a listed function (or sqrt: 2), else 0. */
static int listed(const char *s, size_t n)
{
    if (n == 4 && !memcmp(s, "sqrt", 4))
        return EDAN_LIBM_SQRT;
    for (size_t i = 0; i < sizeof transcendental / sizeof transcendental[0]; i++)
        if (strlen(transcendental[i]) == n && !memcmp(s, transcendental[i], n))
            return EDAN_LIBM_TRANSCENDENTAL;
    return EDAN_LIBM_NONE;
}

int edan_opmix_libm_kind(const char *name)
{
    if (!name)
        return EDAN_LIBM_NONE;
    /* glibc's aliases: __exp, __ieee754_exp, __exp_finite */
    while (*name == '_')
        name++;
    if (!strncmp(name, "ieee754_", 8))
        name += 8;
    size_t n = strlen(name);
    if (n > 7 && !strcmp(name + n - 7, "_finite"))
        n -= 7;
    const int k = listed(name, n);
    if (k || n < 2)
        return k;
    /* the float and long double forms: expf, logl (erf itself is listed, so erff is erf's float form) */
    return name[n - 1] == 'f' || name[n - 1] == 'l' ? listed(name, n - 1) : EDAN_LIBM_NONE;
}

/* ===================================================================== */
/* Counts                                                                 */
/* ===================================================================== */

void edan_opmix_add(edan_opmix *m, const edan_insn *in, uint64_t executions, uint64_t accesses)
{
    m->instructions += executions;
    m->cls[in->cls < EDAN_CLASS_COUNT ? in->cls : EDAN_CLASS_INT] += executions;
    m->fp[edan_opmix_fp_kind(in)] += executions;
    if (in->mem == EDAN_MEM_NONE)
        return;
    const bool rd = in->mem != EDAN_MEM_STORE, wr = in->mem != EDAN_MEM_LOAD;
    const uint64_t bytes = accesses * in->mem_size;
    if (in->mem == EDAN_MEM_AMO)
        m->atomics += accesses;
    else if (rd)
        m->loads += accesses;
    else
        m->stores += accesses;
    m->load_bytes += rd ? bytes : 0;
    m->store_bytes += wr ? bytes : 0;
    if (edan_opmix_stack(in)) {
        m->stack_loads += rd ? accesses : 0;
        m->stack_stores += wr ? accesses : 0;
        m->stack_load_bytes += rd ? bytes : 0;
        m->stack_store_bytes += wr ? bytes : 0;
    }
}

void edan_opmix_merge(edan_opmix *to, const edan_opmix *from)
{
    /* every member is a uint64_t count */
    uint64_t *t = (uint64_t *)to;
    const uint64_t *f = (const uint64_t *)from;
    for (size_t i = 0; i < sizeof *to / sizeof(uint64_t); i++)
        t[i] += f[i];
}

uint64_t edan_opmix_flops(const edan_opmix *m)
{
    return m->fp[EDAN_FP_ADD] + m->fp[EDAN_FP_MUL] + 2 * m->fp[EDAN_FP_FMA] + m->fp[EDAN_FP_DIV] + m->fp[EDAN_FP_SQRT] +
           m->transcendentals + m->sqrt_calls;
}

double edan_opmix_weighted_flops(const edan_opmix *m, const edan_flop_weights *w)
{
    return (double)(m->fp[EDAN_FP_ADD] + m->fp[EDAN_FP_MUL] + 2 * m->fp[EDAN_FP_FMA]) +
           w->div * (double)m->fp[EDAN_FP_DIV] + w->sqrt * (double)(m->fp[EDAN_FP_SQRT] + m->sqrt_calls) +
           w->transcendental * (double)m->transcendentals;
}
