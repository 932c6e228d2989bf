/*
 * cg.c - HPCG-shaped preconditioned conjugate-gradient workload for edan.
 *
 *   cg NX [ITERS]
 *
 * Builds (setup, not traced) the sparse SPD matrix of a 27-point stencil on an
 * NX*NX*NX grid - diagonal 26, off-diagonals -1, CSR storage - and a right-hand
 * side b = A*1, so the exact solution is all ones. The kernel function
 * cg_solve() (trace it with --filter=cg_solve) then runs ITERS (default 50)
 * iterations of conjugate gradients preconditioned by one symmetric
 * Gauss-Seidel sweep (forward then backward) from x = 0, using SpMV, dot
 * products and WAXPBY, in sets of 50 iterations that each restart from x = 0
 * (as HPCG's benchmark phase does). The initial and final residual norms of
 * the last set are printed.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Keep the kernel free of library calls so that everything it executes lies
 * inside it: stop GCC from turning zeroing loops into calls to memset. */
#define KERNEL_OPT optimize("no-tree-loop-distribute-patterns")

typedef struct {
    int nrows;
    int *row_ptr;  /* nrows + 1 entries */
    int *col;      /* column index of each nonzero */
    double *val;   /* value of each nonzero */
    int *diag_idx; /* position of the diagonal entry of each row in col/val */
} csr_t;

/*
 * The kernel's parts (spmv, symgs, dot, waxpby) are inlined into cg_solve; built with
 * -DCG_FUNCTIONS (the cg_fn binary) each is a function of its own, as HPCG's are, so that
 * --filter and --functions can name them (bench/bench_warm_functions.py).
 */
#ifdef CG_FUNCTIONS
#define CG_PART static __attribute__((noinline, noipa, KERNEL_OPT))
#else
#define CG_PART static inline __attribute__((always_inline))
#endif

/* Build the 27-point stencil matrix on an nx*ny*nz grid and b = A*ones. */
static int build_problem(int nx, int ny, int nz, csr_t *A, double **b_out)
{
    int n = nx * ny * nz;
    A->nrows = n;
    A->row_ptr = malloc((size_t)(n + 1) * sizeof *A->row_ptr);
    A->col = malloc((size_t)n * 27 * sizeof *A->col);
    A->val = malloc((size_t)n * 27 * sizeof *A->val);
    A->diag_idx = malloc((size_t)n * sizeof *A->diag_idx);
    double *b = malloc((size_t)n * sizeof *b);
    if (!A->row_ptr || !A->col || !A->val || !A->diag_idx || !b)
        return -1;
    int nnz = 0;
    for (int iz = 0; iz < nz; iz++)
        for (int iy = 0; iy < ny; iy++)
            for (int ix = 0; ix < nx; ix++) {
                int row = (iz * ny + iy) * nx + ix;
                A->row_ptr[row] = nnz;
                double rowsum = 0.0;
                for (int dz = -1; dz <= 1; dz++)
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++) {
                            int jx = ix + dx, jy = iy + dy, jz = iz + dz;
                            if (jx < 0 || jx >= nx || jy < 0 || jy >= ny || jz < 0 || jz >= nz)
                                continue;
                            int c = (jz * ny + jy) * nx + jx;
                            double v = (c == row) ? 26.0 : -1.0;
                            if (c == row)
                                A->diag_idx[row] = nnz;
                            A->col[nnz] = c;
                            A->val[nnz] = v;
                            nnz++;
                            rowsum += v;
                        }
                b[row] = rowsum;
            }
    A->row_ptr[n] = nnz;
    *b_out = b;
    return 0;
}

/* y = A x */
CG_PART void spmv(const csr_t *restrict A, const double *restrict x, double *restrict y)
{
    const int n = A->nrows;
    const int *restrict rp = A->row_ptr;
    const int *restrict col = A->col;
    const double *restrict val = A->val;
    for (int i = 0; i < n; i++) {
        double sum = 0.0;
        for (int j = rp[i]; j < rp[i + 1]; j++)
            sum += val[j] * x[col[j]];
        y[i] = sum;
    }
}

/* One symmetric Gauss-Seidel sweep for A x = r, starting from x = 0. */
CG_PART void symgs(const csr_t *restrict A, const double *restrict r, double *restrict x)
{
    const int n = A->nrows;
    const int *restrict rp = A->row_ptr;
    const int *restrict col = A->col;
    const double *restrict val = A->val;
    const int *restrict dg = A->diag_idx;
    for (int i = 0; i < n; i++)
        x[i] = 0.0;
    for (int i = 0; i < n; i++) { /* forward sweep */
        double d = val[dg[i]];
        double sum = r[i];
        for (int j = rp[i]; j < rp[i + 1]; j++)
            sum -= val[j] * x[col[j]];
        sum += x[i] * d; /* undo the diagonal term subtracted above */
        x[i] = sum / d;
    }
    for (int i = n - 1; i >= 0; i--) { /* backward sweep */
        double d = val[dg[i]];
        double sum = r[i];
        for (int j = rp[i]; j < rp[i + 1]; j++)
            sum -= val[j] * x[col[j]];
        sum += x[i] * d;
        x[i] = sum / d;
    }
}

CG_PART double dot(int n, const double *restrict x, const double *restrict y)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

/* w = alpha x + beta y (w may alias x or y) */
CG_PART void waxpby(int n, double alpha, const double *x, double beta, const double *y, double *w)
{
    for (int i = 0; i < n; i++)
        w[i] = alpha * x[i] + beta * y[i];
}

/*
 * Run iters iterations of preconditioned CG on A x = b. Like the timed phase
 * of HPCG, the iterations are done in sets of CG_SET (50): each set restarts
 * from x = 0, so the work per iteration stays the same however many
 * iterations are run (a single long run would drive the residual into
 * underflow). r, z, p, Ap are work vectors of length A->nrows. Returns the
 * final residual norm of the last set; *normr0 receives its initial one.
 */
#define CG_SET 50

__attribute__((noinline, noipa, KERNEL_OPT)) double cg_solve(const csr_t *A, const double *b, double *x, double *r,
                                                             double *z, double *p, double *Ap, int iters,
                                                             double *normr0)
{
    const int n = A->nrows;
    double normr = 0.0, rtz = 0.0;
    for (int k = 0; k < iters; k++) {
        int kset = k % CG_SET;
        if (kset == 0) { /* start a set: x = 0, r = b - A x */
            for (int i = 0; i < n; i++)
                x[i] = 0.0;
            spmv(A, x, Ap);
            waxpby(n, 1.0, b, -1.0, Ap, r);
            normr = sqrt(dot(n, r, r));
            *normr0 = normr;
        }
        if (normr == 0.0) /* converged exactly: nothing left to do in this set */
            continue;
        symgs(A, r, z); /* z = M^-1 r */
        if (kset == 0) {
            waxpby(n, 1.0, z, 0.0, z, p); /* p = z */
            rtz = dot(n, r, z);
        } else {
            double oldrtz = rtz;
            rtz = dot(n, r, z);
            double beta = rtz / oldrtz;
            waxpby(n, 1.0, z, beta, p, p); /* p = z + beta p */
        }
        spmv(A, p, Ap);
        double pAp = dot(n, p, Ap);
        double alpha = rtz / pAp;
        waxpby(n, 1.0, x, alpha, p, x);   /* x = x + alpha p */
        waxpby(n, 1.0, r, -alpha, Ap, r); /* r = r - alpha A p */
        normr = sqrt(dot(n, r, r));
    }
    return normr;
}

static long parse_arg(const char *s, const char *what, long min, long max)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < min || v > max) {
        fprintf(stderr, "cg: bad %s '%s' (integer in [%ld, %ld] expected)\n", what, s, min, max);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: cg NX [ITERS]\n");
        return 2;
    }
    int nx = (int)parse_arg(argv[1], "NX", 2, 400);
    int iters = argc > 2 ? (int)parse_arg(argv[2], "ITERS", 0, 1000000000) : 50;

    csr_t A;
    double *b;
    if (build_problem(nx, nx, nx, &A, &b) != 0) {
        fprintf(stderr, "cg: out of memory\n");
        return 1;
    }
    int n = A.nrows;
    double *x = calloc((size_t)n, sizeof *x);
    double *r = calloc((size_t)n, sizeof *r);
    double *z = calloc((size_t)n, sizeof *z);
    double *p = calloc((size_t)n, sizeof *p);
    double *Ap = calloc((size_t)n, sizeof *Ap);
    if (!x || !r || !z || !p || !Ap) {
        fprintf(stderr, "cg: out of memory\n");
        return 1;
    }

    double normr0 = 0.0;
    double normr = cg_solve(&A, b, x, r, z, p, Ap, iters, &normr0);

    double err = 0.0; /* max |x - 1| (exact solution is all ones) */
    for (int i = 0; i < n; i++)
        err = fmax(err, fabs(x[i] - 1.0));
    printf("cg: grid %d^3 (%d rows, %d nonzeros), %d iterations (%d set(s) of up to %d)\n", nx, n, A.row_ptr[n], iters,
           (iters + CG_SET - 1) / CG_SET, CG_SET);
    printf("cg: initial residual norm %.6e, final residual norm %.6e (ratio %.3e), max error %.3e\n", normr0, normr,
           normr0 > 0 ? normr / normr0 : 0.0, err);
    int ok = iters == 0 || normr < normr0;
    if (!ok)
        printf("cg: residual did not decrease: FAILED\n");
    free(A.row_ptr);
    free(A.col);
    free(A.val);
    free(A.diag_idx);
    free(b);
    free(x);
    free(r);
    free(z);
    free(p);
    free(Ap);
    return ok ? 0 : 1;
}
