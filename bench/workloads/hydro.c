/*
 * hydro.c - LULESH-shaped hydrodynamics workload for edan.
 *
 *   hydro NE [STEPS]
 *
 * A structured NE*NE*NE mesh of hexahedral elements whose (NE+1)^3 nodes are
 * numbered in a random order (Fisher-Yates shuffle driven by a deterministic
 * splitmix64 generator), so the element-to-node connectivity array (8 node
 * indices per element) makes every node access indexed and irregular. Setup
 * (not traced) builds the mesh, the connectivity and the nodal masses; the
 * kernel function hydro_step_loop() (trace it with --filter=hydro_step_loop)
 * then runs STEPS (default 10) explicit time steps. Each step
 *   1. clears the nodal forces;
 *   2. per element: gathers the 8 node coordinates and velocities, computes a
 *      volume (trilinear-hex triple product), relative volume, density, a
 *      velocity-divergence-like strain, artificial viscosity, pressure (ideal
 *      gas), the p dV energy update and the sound speed (sqrt and divisions),
 *      takes the minimum of a Courant time-step constraint, and scatters
 *      (accumulates) corner forces back to the 8 nodes;
 *   3. per node: updates velocity and position;
 *   4. sets the next time step from the reduction.
 * A checksum of energies and positions is printed; it is deterministic.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Keep the kernel free of library calls so that everything it executes lies
 * inside it: stop GCC from turning zeroing loops into calls to memset. */
#define KERNEL_OPT optimize("no-tree-loop-distribute-patterns")

typedef struct {
    int nelem, nnode;
    double h0;               /* initial element edge length */
    int *conn;               /* 8 node indices per element */
    double *x, *y, *z;       /* node positions */
    double *xd, *yd, *zd;    /* node velocities */
    double *fx, *fy, *fz;    /* node forces */
    double *inv_nmass;       /* 1 / nodal mass */
    double *e;               /* element specific internal energy */
    double *vol0, *vprev;    /* element initial and previous volume */
    double *emass;           /* element mass */
    double *p, *q;           /* element pressure and artificial viscosity */
} mesh_t;

static uint64_t rng_state = 0x853C49E6748FEA9BULL;

static uint64_t splitmix64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

#define GAMMA 1.4
#define QCOEF 1.5
#define CFL 0.3
#define HGCOEF 0.5

__attribute__((noinline, noipa, KERNEL_OPT)) double hydro_step_loop(mesh_t *m, int steps, double dt)
{
    const int nelem = m->nelem, nnode = m->nnode;
    const double h0 = m->h0;
    const int *restrict conn = m->conn;
    double *restrict x = m->x, *restrict y = m->y, *restrict z = m->z;
    double *restrict xd = m->xd, *restrict yd = m->yd, *restrict zd = m->zd;
    double *restrict fx = m->fx, *restrict fy = m->fy, *restrict fz = m->fz;
    const double *restrict inv_nmass = m->inv_nmass;
    double *restrict e = m->e, *restrict vprev = m->vprev, *restrict p = m->p, *restrict q = m->q;
    const double *restrict vol0 = m->vol0, *restrict emass = m->emass;

    for (int step = 0; step < steps; step++) {
        for (int n = 0; n < nnode; n++) {
            fx[n] = 0.0;
            fy[n] = 0.0;
            fz[n] = 0.0;
        }
        double dtmin = 1e30;
        for (int el = 0; el < nelem; el++) {
            const int *nd = &conn[8 * el];
            double px[8], py[8], pz[8], vx[8], vy[8], vz[8];
            double cx = 0, cy = 0, cz = 0, ux = 0, uy = 0, uz = 0;
            for (int k = 0; k < 8; k++) { /* gather */
                int n = nd[k];
                px[k] = x[n];
                py[k] = y[n];
                pz[k] = z[n];
                vx[k] = xd[n];
                vy[k] = yd[n];
                vz[k] = zd[n];
                cx += px[k];
                cy += py[k];
                cz += pz[k];
                ux += vx[k];
                uy += vy[k];
                uz += vz[k];
            }
            cx *= 0.125, cy *= 0.125, cz *= 0.125;
            ux *= 0.125, uy *= 0.125, uz *= 0.125;
            /* Edge-averaged directions of the hex (corners in LULESH order). */
            double ax = 0.25 * (px[1] + px[2] + px[5] + px[6] - px[0] - px[3] - px[4] - px[7]);
            double ay = 0.25 * (py[1] + py[2] + py[5] + py[6] - py[0] - py[3] - py[4] - py[7]);
            double az = 0.25 * (pz[1] + pz[2] + pz[5] + pz[6] - pz[0] - pz[3] - pz[4] - pz[7]);
            double bx = 0.25 * (px[2] + px[3] + px[6] + px[7] - px[0] - px[1] - px[4] - px[5]);
            double by = 0.25 * (py[2] + py[3] + py[6] + py[7] - py[0] - py[1] - py[4] - py[5]);
            double bz = 0.25 * (pz[2] + pz[3] + pz[6] + pz[7] - pz[0] - pz[1] - pz[4] - pz[5]);
            double gx = 0.25 * (px[4] + px[5] + px[6] + px[7] - px[0] - px[1] - px[2] - px[3]);
            double gy = 0.25 * (py[4] + py[5] + py[6] + py[7] - py[0] - py[1] - py[2] - py[3]);
            double gz = 0.25 * (pz[4] + pz[5] + pz[6] + pz[7] - pz[0] - pz[1] - pz[2] - pz[3]);
            double vol = ax * (by * gz - bz * gy) - ay * (bx * gz - bz * gx) + az * (bx * gy - by * gx);
            if (vol < 1e-12 * vol0[el])
                vol = 1e-12 * vol0[el];
            double vrel = vol / vol0[el];
            double rho = emass[el] / vol;
            /* Velocity-divergence-like strain: sum of (u_k - u) . (x_k - c). */
            double div = 0.0;
            for (int k = 0; k < 8; k++)
                div += (vx[k] - ux) * (px[k] - cx) + (vy[k] - uy) * (py[k] - cy) +
                       (vz[k] - uz) * (pz[k] - cz);
            double len = h0 * vrel; /* characteristic length (cheap) */
            double strain = div / (len * len);
            double qq = strain < 0.0 ? QCOEF * rho * strain * strain * len * len : 0.0;
            double pp = (GAMMA - 1.0) * rho * e[el];
            double ee = e[el] - (pp + qq) * (vol - vprev[el]) / emass[el];
            e[el] = ee > 0.0 ? ee : 0.0;
            vprev[el] = vol;
            p[el] = pp;
            q[el] = qq;
            double c2 = GAMMA * pp / rho;
            double c = sqrt(c2 > 0.0 ? c2 : 0.0);
            double dtc = len / (c + fabs(strain) * len + 1e-20);
            if (dtc < dtmin)
                dtmin = dtc;
            /* Corner forces: pressure pushing the corners away from the
             * centre, plus a viscous hourglass-like damping of each corner's
             * velocity relative to the element mean. */
            double fscale = (pp + qq) * 0.5 * len;
            double hscale = HGCOEF * rho * c * len * len;
            for (int k = 0; k < 8; k++) { /* scatter (accumulate) */
                int n = nd[k];
                fx[n] += fscale * (px[k] - cx) - hscale * (vx[k] - ux);
                fy[n] += fscale * (py[k] - cy) - hscale * (vy[k] - uy);
                fz[n] += fscale * (pz[k] - cz) - hscale * (vz[k] - uz);
            }
        }
        for (int n = 0; n < nnode; n++) {
            double im = inv_nmass[n];
            xd[n] += fx[n] * im * dt;
            yd[n] += fy[n] * im * dt;
            zd[n] += fz[n] * im * dt;
            x[n] += xd[n] * dt;
            y[n] += yd[n] * dt;
            z[n] += zd[n] * dt;
        }
        double dtnew = CFL * dtmin;
        dt = dtnew < 1.1 * dt ? dtnew : 1.1 * dt;
    }
    return dt;
}

static long parse_arg(const char *s, const char *what, long min, long max)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < min || v > max) {
        fprintf(stderr, "hydro: bad %s '%s' (integer in [%ld, %ld] expected)\n", what, s, min,
                max);
        exit(2);
    }
    return v;
}

static double *alloc_doubles(size_t n)
{
    double *a = calloc(n, sizeof *a);
    if (!a) {
        fprintf(stderr, "hydro: out of memory\n");
        exit(1);
    }
    return a;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: hydro NE [STEPS]\n");
        return 2;
    }
    int ne = (int)parse_arg(argv[1], "NE", 1, 400);
    int steps = argc > 2 ? (int)parse_arg(argv[2], "STEPS", 0, 1000000000) : 10;
    int nn = ne + 1;

    mesh_t m;
    m.nelem = ne * ne * ne;
    m.nnode = nn * nn * nn;
    m.h0 = 1.0 / ne;
    size_t nelem = (size_t)m.nelem, nnode = (size_t)m.nnode;

    /* Random node numbering: structured node s gets number perm[s]. */
    int *perm = malloc(nnode * sizeof *perm);
    m.conn = malloc(8 * nelem * sizeof *m.conn);
    if (!perm || !m.conn) {
        fprintf(stderr, "hydro: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < nnode; i++)
        perm[i] = (int)i;
    for (size_t i = nnode - 1; i > 0; i--) {
        size_t j = (size_t)(splitmix64() % (i + 1));
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }

    m.x = alloc_doubles(nnode), m.y = alloc_doubles(nnode), m.z = alloc_doubles(nnode);
    m.xd = alloc_doubles(nnode), m.yd = alloc_doubles(nnode), m.zd = alloc_doubles(nnode);
    m.fx = alloc_doubles(nnode), m.fy = alloc_doubles(nnode), m.fz = alloc_doubles(nnode);
    m.inv_nmass = alloc_doubles(nnode);
    m.e = alloc_doubles(nelem), m.vol0 = alloc_doubles(nelem), m.vprev = alloc_doubles(nelem);
    m.emass = alloc_doubles(nelem), m.p = alloc_doubles(nelem), m.q = alloc_doubles(nelem);

    for (int k = 0; k < nn; k++)
        for (int j = 0; j < nn; j++)
            for (int i = 0; i < nn; i++) {
                int n = perm[(k * nn + j) * nn + i];
                m.x[n] = i * m.h0;
                m.y[n] = j * m.h0;
                m.z[n] = k * m.h0;
            }
    static const int corner[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                     {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
    double v0 = m.h0 * m.h0 * m.h0;
    for (int k = 0; k < ne; k++)
        for (int j = 0; j < ne; j++)
            for (int i = 0; i < ne; i++) {
                int el = (k * ne + j) * ne + i;
                for (int c = 0; c < 8; c++)
                    m.conn[8 * el + c] =
                        perm[((k + corner[c][2]) * nn + (j + corner[c][1])) * nn + i + corner[c][0]];
                m.vol0[el] = v0;
                m.vprev[el] = v0;
                m.emass[el] = v0; /* density 1 */
                m.e[el] = 1.0;
            }
    m.e[0] = 100.0; /* energy deposit in the corner element (Sedov-like) */
    for (size_t el = 0; el < nelem; el++)
        for (int c = 0; c < 8; c++)
            m.inv_nmass[m.conn[8 * el + c]] += 0.125 * m.emass[el]; /* nodal mass */
    for (size_t n = 0; n < nnode; n++)
        m.inv_nmass[n] = 1.0 / m.inv_nmass[n];
    free(perm);

    double dt0 = 1e-3 * m.h0;
    double dt = hydro_step_loop(&m, steps, dt0);

    double se = 0.0, sx = 0.0, sv = 0.0;
    for (size_t el = 0; el < nelem; el++)
        se += m.e[el] * m.emass[el];
    for (size_t n = 0; n < nnode; n++) {
        sx += m.x[n] + 2.0 * m.y[n] + 3.0 * m.z[n];
        sv += fabs(m.xd[n]) + fabs(m.yd[n]) + fabs(m.zd[n]);
    }
    printf("hydro: NE=%d (%d elements, %d nodes), %d steps, final dt %.6e\n", ne, m.nelem,
           m.nnode, steps, dt);
    printf("hydro: internal energy %.12e, position sum %.12e, |velocity| sum %.12e\n", se, sx, sv);
    printf("hydro: checksum %.12e\n", se + sx + sv);
    int ok = isfinite(se) && isfinite(sx) && isfinite(sv);
    if (!ok)
        printf("hydro: non-finite result: FAILED\n");
    return ok ? 0 : 1;
}
