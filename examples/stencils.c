/* stencils.c - stencils and loops for the projection's what-ifs (docs/projection.md), each also
 * transformed by hand: cache blocked for a tile size T, or fused.
 *
 * Usage: stencils KERNEL [n] [T], or stencils [n]: `kernel`, the 7-point stencil (as every example has)
 *   st7, st7_blocked     7-point 3-D stencil on an n^3 grid (default n=40), interior points;
 *                        blocked: the j and i loops (levels 2 and 3) in T x T tiles, k streaming
 *   st27, st27_blocked   27-point 3-D stencil, the same loops and blocking
 *   st5, st5_blocked     5-point 2-D stencil on an n^2 grid (default n=256); blocked: the j loop
 *                        (level 2) in strips of T
 *   two_loops, fused     b[i] = 2 a[i] + 1, then c[i] = b[i] + a[i], over n elements (default
 *                        n=40000): as two loops, and fused by hand into one
 *   pipe, pipe_blocked   two 5-point 2-D stencils in a row on an n^2 grid (default n=256): tmp from in,
 *                        then out from tmp; blocked: all loops on one T x T block before the next
 *                        (Woodward et al.), tmp made on the block and the ring of 1 around it the
 *                        second stencil reads (recomputed by every block that needs it)
 *   pipe_fused           the two fused by hand into one nest: illegal (out reads tmp[i+1][j], not
 *                        yet made), so its checksum differs from pipe's
 *   pair5, pair5_fused   two nests of one 2-D iteration space (default n=256): tmp from in by the 5-point
 *                        stencil, then out from tmp at the same point and in's row neighbours; fused by
 *                        hand into one nest (legal: out reads tmp only where it was just made)
 *   unfusable            four nests no two of which fuse (default n=256): the 5-point stencil on the
 *                        interior, on its first half of rows, a row scaled (one level), ragged's rows
 *   sib5, sib5_blocked   per row two inner loops (default n=256): the 5-point stencil on the row into tmp,
 *                        then out on the row's first i points (j <= i: a trip count that changes from one
 *                        row to the next); blocked: the j loops in strips of T, each over the rows
 *   sib_ragged           sib5 with the second loop over (7 i) mod 11 + 1 points: not affine in i
 *   sweep, sweep_blocked out[i][j] = out[i-1][j+1] / 2 + in[i][j] on an n^2 grid (default n=256),
 *                        a dependence of distance (1, -1); blocked: the j loop in strips of T, which
 *                        reverses it (illegal: its checksum differs from sweep's)
 *   tri5, tri5_blocked   the 5-point stencil on the lower triangle (j <= i) of an n^2 grid (default
 *                        n=256); blocked: the j loop in strips of T, each over the rows it reaches
 *   ragged               the 5-point stencil on (7 i) mod 11 + 1 points of each row: trip counts not
 *                        affine in i
 * The function to trace is the one named KERNEL (noinline, noipa: that exact symbol). A blocked
 * version runs its tile loops outside the nest's own loops, in level order, each point loop
 * restricted to its tile: the order the projection's --what-if=block replays. The kernels are
 * compiled without predictive commoning (see KERNEL).
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GCC's -O3 predictive commoning unrolls an inner loop by two with a remainder loop, two inner
 * loops where the source has one; the what-ifs replay nests of one chain of loops (docs/projection.md) */
#ifndef KERNEL /* stencils_pc.c: the same kernels with it */
#define KERNEL __attribute__((noinline, noipa, optimize("no-predictive-commoning")))
#endif
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define AT3(k, j, i) (((long)(k)*n + (j)) * n + (i))

/* ---- 7-point 3-D ----------------------------------------------------- */

#define ST7(k, j, i)                                                                                                   \
    out[AT3(k, j, i)] =                                                                                                \
        0.4 * in[AT3(k, j, i)] + 0.1 * (in[AT3(k - 1, j, i)] + in[AT3(k + 1, j, i)] + in[AT3(k, j - 1, i)] +           \
                                        in[AT3(k, j + 1, i)] + in[AT3(k, j, i - 1)] + in[AT3(k, j, i + 1)])

KERNEL void st7(long n, const double *restrict in, double *restrict out)
{
    for (long k = 1; k < n - 1; k++)
        for (long j = 1; j < n - 1; j++)
            for (long i = 1; i < n - 1; i++)
                ST7(k, j, i);
}

KERNEL void st7_blocked(long n, long t, const double *restrict in, double *restrict out)
{
    for (long jj = 1; jj < n - 1; jj += t)
        for (long ii = 1; ii < n - 1; ii += t)
            for (long k = 1; k < n - 1; k++)
                for (long j = jj; j < MIN(jj + t, n - 1); j++)
                    for (long i = ii; i < MIN(ii + t, n - 1); i++)
                        ST7(k, j, i);
}

/* ---- 27-point 3-D ---------------------------------------------------- */

#define PLANE(k, j, i)                                                                                                 \
    (in[AT3(k, j - 1, i - 1)] + in[AT3(k, j - 1, i)] + in[AT3(k, j - 1, i + 1)] + in[AT3(k, j, i - 1)] +               \
     in[AT3(k, j, i)] + in[AT3(k, j, i + 1)] + in[AT3(k, j + 1, i - 1)] + in[AT3(k, j + 1, i)] +                       \
     in[AT3(k, j + 1, i + 1)])
#define ST27(k, j, i) out[AT3(k, j, i)] = 0.03 * PLANE(k - 1, j, i) + 0.04 * PLANE(k, j, i) + 0.03 * PLANE(k + 1, j, i)

KERNEL void st27(long n, const double *restrict in, double *restrict out)
{
    for (long k = 1; k < n - 1; k++)
        for (long j = 1; j < n - 1; j++)
            for (long i = 1; i < n - 1; i++)
                ST27(k, j, i);
}

KERNEL void st27_blocked(long n, long t, const double *restrict in, double *restrict out)
{
    for (long jj = 1; jj < n - 1; jj += t)
        for (long ii = 1; ii < n - 1; ii += t)
            for (long k = 1; k < n - 1; k++)
                for (long j = jj; j < MIN(jj + t, n - 1); j++)
                    for (long i = ii; i < MIN(ii + t, n - 1); i++)
                        ST27(k, j, i);
}

/* ---- 5-point 2-D ----------------------------------------------------- */

#define ST5(i, j)                                                                                                      \
    out[(i)*n + (j)] = 0.5 * in[(i)*n + (j)] + 0.125 * (in[((i)-1) * n + (j)] + in[((i) + 1) * n + (j)] +              \
                                                        in[(i)*n + (j)-1] + in[(i)*n + (j) + 1])

KERNEL void st5(long n, const double *restrict in, double *restrict out)
{
    for (long i = 1; i < n - 1; i++)
        for (long j = 1; j < n - 1; j++)
            ST5(i, j);
}

KERNEL void st5_blocked(long n, long t, const double *restrict in, double *restrict out)
{
    for (long jj = 1; jj < n - 1; jj += t)
        for (long i = 1; i < n - 1; i++)
            for (long j = jj; j < MIN(jj + t, n - 1); j++)
                ST5(i, j);
}

/* ---- two loops, and fused -------------------------------------------- */

KERNEL void two_loops(long n, const double *restrict a, double *restrict b, double *restrict c)
{
    for (long i = 0; i < n; i++)
        b[i] = 2.0 * a[i] + 1.0;
    for (long i = 0; i < n; i++)
        c[i] = b[i] + a[i];
}

KERNEL void fused(long n, const double *restrict a, double *restrict b, double *restrict c)
{
    for (long i = 0; i < n; i++) {
        b[i] = 2.0 * a[i] + 1.0;
        c[i] = b[i] + a[i];
    }
}

/* ---- two stencils in a row: the all-loops-per-block scheme ----------- */

#define ST5_OF(dst, src, i, j)                                                                                         \
    dst[(i)*n + (j)] = 0.5 * src[(i)*n + (j)] + 0.125 * (src[((i)-1) * n + (j)] + src[((i) + 1) * n + (j)] +           \
                                                         src[(i)*n + (j)-1] + src[(i)*n + (j) + 1])
#define MAX(a, b) ((a) > (b) ? (a) : (b))

KERNEL void pipe(long n, const double *restrict in, double *restrict tmp, double *restrict out)
{
    for (long i = 1; i < n - 1; i++)
        for (long j = 1; j < n - 1; j++)
            ST5_OF(tmp, in, i, j);
    for (long i = 1; i < n - 1; i++)
        for (long j = 1; j < n - 1; j++)
            ST5_OF(out, tmp, i, j);
}

KERNEL void pipe_blocked(long n, long t, const double *restrict in, double *restrict tmp, double *restrict out)
{
    for (long ii = 1; ii < n - 1; ii += t)
        for (long jj = 1; jj < n - 1; jj += t) {
            for (long i = MAX(ii - 1, 1); i < MIN(ii + t + 1, n - 1); i++)
                for (long j = MAX(jj - 1, 1); j < MIN(jj + t + 1, n - 1); j++)
                    ST5_OF(tmp, in, i, j);
            for (long i = ii; i < MIN(ii + t, n - 1); i++)
                for (long j = jj; j < MIN(jj + t, n - 1); j++)
                    ST5_OF(out, tmp, i, j);
        }
}

KERNEL void pipe_fused(long n, const double *restrict in, double *restrict tmp, double *restrict out)
{
    for (long i = 1; i < n - 1; i++)
        for (long j = 1; j < n - 1; j++) {
            ST5_OF(tmp, in, i, j);
            ST5_OF(out, tmp, i, j);
        }
}

/* ---- two nests fused: both replayed as trees in stencils_pc ---------- */

#define PAIR5_B(i, j) out[(i)*n + (j)] = 0.5 * tmp[(i)*n + (j)] + 0.25 * (in[(i)*n + (j)-1] + in[(i)*n + (j) + 1])

KERNEL void pair5(long n, const double *restrict in, double *restrict tmp, double *restrict out)
{
    for (long i = 1; i < n - 1; i++)
        for (long j = 1; j < n - 1; j++)
            ST5_OF(tmp, in, i, j);
    for (long i = 1; i < n - 1; i++)
        for (long j = 1; j < n - 1; j++)
            PAIR5_B(i, j);
}

KERNEL void pair5_fused(long n, const double *restrict in, double *restrict tmp, double *restrict out)
{
    for (long i = 1; i < n - 1; i++)
        for (long j = 1; j < n - 1; j++) {
            ST5_OF(tmp, in, i, j);
            PAIR5_B(i, j);
        }
}

KERNEL void unfusable(long n, const double *restrict in, double *restrict tmp, double *restrict out)
{
    for (long i = 1; i < n - 1; i++)
        for (long j = 1; j < n - 1; j++)
            ST5_OF(tmp, in, i, j);
    for (long i = 1; i < n / 2; i++)
        for (long j = 1; j < n - 1; j++)
            ST5_OF(out, in, i, j);
    for (long j = 0; j < n; j++)
        out[j] = 2.0 * tmp[n + j];
    for (long i = 1; i < n - 1; i++)
        for (long j = 1; j <= (i * 7) % 11 + 1; j++)
            ST5_OF(tmp, in, i, j);
}

/* ---- sibling inner loops, one triangular -------------------------- */

#define SIB5_B(i, j) out[(i)*n + (j)] = 0.5 * (in[((i)-1) * n + (j)] + in[(i)*n + (j)])

KERNEL void sib5(long n, const double *restrict in, double *restrict tmp, double *restrict out)
{
    for (long i = 1; i < n - 1; i++) {
        for (long j = 1; j < n - 1; j++)
            ST5_OF(tmp, in, i, j);
        for (long j = 1; j <= i; j++)
            SIB5_B(i, j);
    }
}

KERNEL void sib_ragged(long n, const double *restrict in, double *restrict tmp, double *restrict out)
{
    for (long i = 1; i < n - 1; i++) {
        for (long j = 1; j < n - 1; j++)
            ST5_OF(tmp, in, i, j);
        for (long j = 1; j <= (i * 7) % 11 + 1; j++)
            SIB5_B(i, j);
    }
}

KERNEL void sib5_blocked(long n, long t, const double *restrict in, double *restrict tmp, double *restrict out)
{
    for (long jj = 1; jj < n - 1; jj += t)
        for (long i = 1; i < n - 1; i++) {
            for (long j = jj; j < MIN(jj + t, n - 1); j++)
                ST5_OF(tmp, in, i, j);
            for (long j = jj; j < MIN(jj + t, i + 1); j++)
                SIB5_B(i, j);
        }
}

/* ---- a loop-carried dependence: tiling j reverses it ------------------ */

KERNEL void sweep(long n, const double *restrict in, double *restrict out)
{
    for (long i = 1; i < n - 1; i++)
        for (long j = 1; j < n - 2; j++)
            out[i * n + j] = 0.5 * out[(i - 1) * n + j + 1] + in[i * n + j];
}

KERNEL void sweep_blocked(long n, long t, const double *restrict in, double *restrict out)
{
    for (long jj = 1; jj < n - 2; jj += t)
        for (long i = 1; i < n - 1; i++)
            for (long j = jj; j < MIN(jj + t, n - 2); j++)
                out[i * n + j] = 0.5 * out[(i - 1) * n + j + 1] + in[i * n + j];
}

/* ---- a triangular nest, and one whose trip counts are not affine ------ */

KERNEL void tri5(long n, const double *restrict in, double *restrict out)
{
    for (long i = 1; i < n - 1; i++)
        for (long j = 1; j <= i; j++)
            ST5(i, j);
}

KERNEL void tri5_blocked(long n, long t, const double *restrict in, double *restrict out)
{
    for (long jj = 1; jj < n - 1; jj += t)
        for (long i = jj; i < n - 1; i++) /* the rows the strip reaches */
            for (long j = jj; j < MIN(jj + t, i + 1); j++)
                ST5(i, j);
}

KERNEL void ragged(long n, const double *restrict in, double *restrict out)
{
    for (long i = 1; i < n - 1; i++)
        for (long j = 1; j <= (i * 7) % 11 + 1; j++)
            ST5(i, j);
}

/* ---- kernel: what every example traces -------------------------------- */

KERNEL void kernel(long n, const double *restrict in, double *restrict out)
{
    st7(n, in, out);
}

/* ---- main ------------------------------------------------------------ */

int main(int argc, char **argv)
{
    const bool named = argc > 1 && !isdigit((unsigned char)argv[1][0]);
    const char *k = named ? argv[1] : "kernel";
    const int a = named ? 2 : 1; /* the first argument after KERNEL */
    const int two_d = !strncmp(k, "st5", 3) || !strncmp(k, "pipe", 4) || !strncmp(k, "sweep", 5) ||
                      !strncmp(k, "pair5", 5) || !strcmp(k, "unfusable") || !strncmp(k, "sib", 3) ||
                      !strncmp(k, "tri5", 4) || !strcmp(k, "ragged"),
              flat = !strcmp(k, "two_loops") || !strcmp(k, "fused");
    const long n = argc > a ? strtol(argv[a], NULL, 10) : flat ? 40000 : two_d ? 256 : 40;
    const long t = argc > a + 1 ? strtol(argv[a + 1], NULL, 10) : 8;
    const long cells = flat ? n : two_d ? n * n : n * n * n;
    if (n < 3 || n > (flat ? (1L << 24) : two_d ? 4096 : 256) || t < 1) {
        fprintf(stderr,
                "usage: %s [st7|st7_blocked|st27|st27_blocked|st5|st5_blocked|two_loops|fused|pipe|pipe_blocked|"
                "pipe_fused|pair5|pair5_fused|unfusable|sib5|sib5_blocked|sib_ragged|sweep|sweep_blocked|tri5|tri5_"
                "blocked|ragged]"
                " [n] [T]\n",
                argv[0]);
        return 1;
    }
    double *in = malloc((size_t)cells * sizeof *in), *out = calloc((size_t)cells, sizeof *out);
    double *c = calloc((size_t)cells, sizeof *c);
    if (!in || !out || !c) {
        perror("malloc");
        return 1;
    }
    for (long x = 0; x < cells; x++)
        in[x] = (double)(x % 17) * 0.25;
    if (!strcmp(k, "kernel"))
        kernel(n, in, out);
    else if (!strcmp(k, "st7"))
        st7(n, in, out);
    else if (!strcmp(k, "st7_blocked"))
        st7_blocked(n, t, in, out);
    else if (!strcmp(k, "st27"))
        st27(n, in, out);
    else if (!strcmp(k, "st27_blocked"))
        st27_blocked(n, t, in, out);
    else if (!strcmp(k, "st5"))
        st5(n, in, out);
    else if (!strcmp(k, "st5_blocked"))
        st5_blocked(n, t, in, out);
    else if (!strcmp(k, "two_loops"))
        two_loops(n, in, out, c);
    else if (!strcmp(k, "fused"))
        fused(n, in, out, c);
    else if (!strcmp(k, "pipe"))
        pipe(n, in, c, out);
    else if (!strcmp(k, "pipe_blocked"))
        pipe_blocked(n, t, in, c, out);
    else if (!strcmp(k, "pipe_fused"))
        pipe_fused(n, in, c, out);
    else if (!strcmp(k, "pair5"))
        pair5(n, in, c, out);
    else if (!strcmp(k, "pair5_fused"))
        pair5_fused(n, in, c, out);
    else if (!strcmp(k, "unfusable"))
        unfusable(n, in, c, out);
    else if (!strcmp(k, "sib5"))
        sib5(n, in, c, out);
    else if (!strcmp(k, "sib_ragged"))
        sib_ragged(n, in, c, out);
    else if (!strcmp(k, "sib5_blocked"))
        sib5_blocked(n, t, in, c, out);
    else if (!strcmp(k, "tri5"))
        tri5(n, in, out);
    else if (!strcmp(k, "tri5_blocked"))
        tri5_blocked(n, t, in, out);
    else if (!strcmp(k, "ragged"))
        ragged(n, in, out);
    else if (!strcmp(k, "sweep"))
        sweep(n, in, out);
    else if (!strcmp(k, "sweep_blocked"))
        sweep_blocked(n, t, in, out);
    else {
        fprintf(stderr, "%s: unknown kernel '%s'\n", argv[0], k);
        return 1;
    }
    double cs = 0.0;
    for (long x = 0; x < cells; x++)
        cs += out[x] + c[x];
    printf("stencils %s n=%ld checksum=%.6f\n", k, n, cs);
    free(in);
    free(out);
    free(c);
    return 0;
}
