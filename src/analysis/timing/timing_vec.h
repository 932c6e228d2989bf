/*
 * timing_vec.h - TIMING_LW lanes of the timing model's 64-bit times as one
 * vector (GCC's and Clang's vector extensions), and the few operations its
 * step needs (timing_lanes.h). The file that includes it defines TIMING_LW
 * (1: a plain 64-bit integer, 4: an AVX2 register); these functions are
 * inlined into its build, so a vector never crosses a call.
 *
 * Comparisons are signed: every time of a real lane is below 2^63 (the
 * model stops at 2^62, and a batch of the step adds far less than 2^62), and
 * a signed 64-bit compare is one AVX2 instruction. A padded lane's times
 * (timing_internal.h) may be anything, unsigned arithmetic wraps.
 */
#ifndef EDAN_ANALYSIS_TIMING_VEC_H
#define EDAN_ANALYSIS_TIMING_VEC_H

#include <stdbool.h>
#include <stdint.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "analysis/timing/timing_internal.h"

#if !defined(TIMING_LW) || TIMING_LW > TIMING_LV || TIMING_LV % TIMING_LW || !defined(TIMING_TARGET)
#error "timing_vec.h: TIMING_LW, the lanes of a vector, divides TIMING_LV; TIMING_TARGET is defined"
#endif

/* TIMING_TARGET (the includer's instruction set) on each: a vector's ABI is then the same on both sides of a call. */
#define VEC_INLINE static inline __attribute__((always_inline)) TIMING_TARGET

typedef uint64_t lv __attribute__((vector_size(8 * TIMING_LW)));
typedef int64_t lvs __attribute__((vector_size(8 * TIMING_LW)));
/* the same, at any 8-byte boundary, and allowed to alias the tick arrays it is loaded from */
typedef uint64_t lvu __attribute__((vector_size(8 * TIMING_LW), aligned(8), may_alias));

/* The lanes p[0 .. TIMING_LW). */
VEC_INLINE lv lv_ld(const uint64_t *p)
{
    return *(const lvu *)p;
}

VEC_INLINE void lv_st(uint64_t *p, lv x)
{
    *(lvu *)p = x;
}

VEC_INLINE lv lv_splat(uint64_t x)
{
    lv v = {0};
    return v + x;
}

/* All ones in the lanes where a > b (or a == b, a >= b), else 0. */
VEC_INLINE lv lv_gt(lv a, lv b)
{
    return (lv)((lvs)a > (lvs)b);
}

VEC_INLINE lv lv_eq(lv a, lv b)
{
    return (lv)((lvs)a == (lvs)b);
}

VEC_INLINE lv lv_ge(lv a, lv b)
{
    return (lv)((lvs)a >= (lvs)b);
}

#if TIMING_LW == 1
/* One lane: a branch-free select the compiler makes a conditional move. */
VEC_INLINE lv lv_sel(lv m, lv a, lv b)
{
    lv r = {m[0] ? a[0] : b[0]};
    return r;
}

VEC_INLINE lv lv_max(lv a, lv b)
{
    lv r = {(int64_t)a[0] > (int64_t)b[0] ? a[0] : b[0]};
    return r;
}

VEC_INLINE lv lv_min(lv a, lv b)
{
    lv r = {(int64_t)a[0] < (int64_t)b[0] ? a[0] : b[0]};
    return r;
}

/* Whether any lane of a mask is set. */
VEC_INLINE bool lv_any(lv m)
{
    return m[0] != 0;
}
#elif TIMING_LW == 4 && defined(__x86_64__)
/* Four lanes in an AVX2 register: a byte blend, and a test of all bits, one instruction each. */
VEC_INLINE lv lv_sel(lv m, lv a, lv b)
{
    return (lv)_mm256_blendv_epi8((__m256i)b, (__m256i)a, (__m256i)m);
}

VEC_INLINE lv lv_max(lv a, lv b)
{
    return lv_sel(lv_gt(a, b), a, b);
}

VEC_INLINE lv lv_min(lv a, lv b)
{
    return lv_sel(lv_gt(a, b), b, a);
}

VEC_INLINE bool lv_any(lv m)
{
    return !_mm256_testz_si256((__m256i)m, (__m256i)m);
}
#else
/* a where the mask m is set, else b. */
VEC_INLINE lv lv_sel(lv m, lv a, lv b)
{
    return (a & m) | (b & ~m);
}

VEC_INLINE lv lv_max(lv a, lv b)
{
    return lv_sel(lv_gt(a, b), a, b);
}

VEC_INLINE lv lv_min(lv a, lv b)
{
    return lv_sel(lv_gt(a, b), b, a);
}

VEC_INLINE bool lv_any(lv m)
{
    uint64_t any = 0;
    for (int i = 0; i < TIMING_LW; i++)
        any |= m[i];
    return any != 0;
}
#endif

#endif
