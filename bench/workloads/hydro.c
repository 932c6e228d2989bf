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
 *   2. per element: gathers the 8 node coordinates and velocities, computes
 *      the volume (triple product of the edge-averaged directions) and its
 *      derivative with respect to each corner, density, volumetric strain
 *      rate, characteristic length (volume / largest face, a sqrt), pressure
 *      (ideal gas), artificial viscosity, the p dV energy update and the sound
 *      speed (sqrt and divisions), takes the minimum of a Courant time-step
 *      constraint, and scatters (accumulates) corner forces - (p + q) dV/dx
 *      plus a viscous hourglass-like damping - back to the 8 nodes;
 *   3. per node: updates velocity (held at 0 normal to the six walls of the
 *      box, so the gas stays inside) and position;
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
    double h0;            /* initial element edge length */
    int *conn;            /* 8 node indices per element */
    double *x, *y, *z;    /* node positions */
    double *xd, *yd, *zd; /* node velocities */
    double *fx, *fy, *fz; /* node forces */
    double *inv_nmass;    /* 1 / nodal mass */
    unsigned char *bc;    /* wall flags: bit 0/1/2 = x/y/z velocity held at 0 */
    double *e;            /* element specific internal energy */
    double *vol0, *vprev; /* element initial and previous volume */
    double *emass;        /* element mass */
    double *p, *q;        /* element pressure and artificial viscosity */
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
#define QQUAD 1.0
#define QLIN 0.1
#define CFL 0.1
#define HGCOEF 0.5

/* Sign of each corner (LULESH order) in the three edge-averaged directions. */
static const double SA[8] = {-1, 1, 1, -1, -1, 1, 1, -1};
static const double SB[8] = {-1, -1, 1, 1, -1, -1, 1, 1};
static const double SG[8] = {-1, -1, -1, -1, 1, 1, 1, 1};

__attribute__((noinline, noipa, KERNEL_OPT)) double hydro_step_loop(mesh_t *m, int steps, double dt)
{
    const int nelem = m->nelem, nnode = m->nnode;
    const int *restrict conn = m->conn;
    double *restrict x = m->x, *restrict y = m->y, *restrict z = m->z;
    double *restrict xd = m->xd, *restrict yd = m->yd, *restrict zd = m->zd;
    double *restrict fx = m->fx, *restrict fy = m->fy, *restrict fz = m->fz;
    const double *restrict inv_nmass = m->inv_nmass;
    const unsigned char *restrict bc = m->bc;
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
            /* Cross products: V = a . (b x g) and its derivatives. */
            double bgx = by * gz - bz * gy, bgy = bz * gx - bx * gz, bgz = bx * gy - by * gx;
            double gax = gy * az - gz * ay, gay = gz * ax - gx * az, gaz = gx * ay - gy * ax;
            double abx = ay * bz - az * by, aby = az * bx - ax * bz, abz = ax * by - ay * bx;
            double vol = ax * bgx + ay * bgy + az * bgz;
            if (vol < 1e-6 * vol0[el])
                vol = 1e-6 * vol0[el];
            double rho = emass[el] / vol;
            /* dV/dx_k for each corner, and the volume change rate dV/dt. */
            double dvx[8], dvy[8], dvz[8], dvdt = 0.0;
            for (int k = 0; k < 8; k++) {
                dvx[k] = 0.25 * (SA[k] * bgx + SB[k] * gax + SG[k] * abx);
                dvy[k] = 0.25 * (SA[k] * bgy + SB[k] * gay + SG[k] * aby);
                dvz[k] = 0.25 * (SA[k] * bgz + SB[k] * gaz + SG[k] * abz);
                dvdt += dvx[k] * vx[k] + dvy[k] * vy[k] + dvz[k] * vz[k];
            }
            double strain = dvdt / vol; /* volumetric strain rate */
            /* Characteristic length: volume / largest face area. */
            double ab2 = abx * abx + aby * aby + abz * abz;
            double bg2 = bgx * bgx + bgy * bgy + bgz * bgz;
            double ga2 = gax * gax + gay * gay + gaz * gaz;
            double area2 = ab2 > bg2 ? ab2 : bg2;
            area2 = area2 > ga2 ? area2 : ga2;
            double len = vol / sqrt(area2);
            double pp = (GAMMA - 1.0) * rho * e[el];
            double c2 = GAMMA * pp / rho;
            double c = sqrt(c2 > 0.0 ? c2 : 0.0);
            /* Artificial viscosity in compression (quadratic + linear). */
            double qq = 0.0;
            if (strain < 0.0) {
                double du = -strain * len;
                qq = rho * du * (QQUAD * du + QLIN * c);
            }
            double ee = e[el] - (pp + qq) * (vol - vprev[el]) / emass[el];
            e[el] = ee > 0.0 ? ee : 0.0;
            vprev[el] = vol;
            p[el] = pp;
            q[el] = qq;
            double dtc = len / (c + fabs(strain) * len + 1e-20); /* Courant */
            if (dtc < dtmin)
                dtmin = dtc;
            /* Corner forces: (p + q) dV/dx_k, plus a viscous hourglass-like
             * damping of each corner's velocity relative to the element mean. */
            double pq = pp + qq;
            double hscale = HGCOEF * rho * c * len * len;
            for (int k = 0; k < 8; k++) { /* scatter (accumulate) */
                int n = nd[k];
                fx[n] += pq * dvx[k] - hscale * (vx[k] - ux);
                fy[n] += pq * dvy[k] - hscale * (vy[k] - uy);
                fz[n] += pq * dvz[k] - hscale * (vz[k] - uz);
            }
        }
        for (int n = 0; n < nnode; n++) {
            double im = inv_nmass[n];
            double vxn = xd[n] + fx[n] * im * dt;
            double vyn = yd[n] + fy[n] * im * dt;
            double vzn = zd[n] + fz[n] * im * dt;
            unsigned b = bc[n];
            xd[n] = (b & 1) ? 0.0 : vxn;
            yd[n] = (b & 2) ? 0.0 : vyn;
            zd[n] = (b & 4) ? 0.0 : vzn;
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
        fprintf(stderr, "hydro: bad %s '%s' (integer in [%ld, %ld] expected)\n", what, s, min, max);
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
    m.bc = malloc(nnode);
    if (!m.bc) {
        fprintf(stderr, "hydro: out of memory\n");
        return 1;
    }
    m.e = alloc_doubles(nelem), m.vol0 = alloc_doubles(nelem), m.vprev = alloc_doubles(nelem);
    m.emass = alloc_doubles(nelem), m.p = alloc_doubles(nelem), m.q = alloc_doubles(nelem);

    for (int k = 0; k < nn; k++)
        for (int j = 0; j < nn; j++)
            for (int i = 0; i < nn; i++) {
                int n = perm[(k * nn + j) * nn + i];
                m.x[n] = i * m.h0;
                m.y[n] = j * m.h0;
                m.z[n] = k * m.h0;
                m.bc[n] = (unsigned char)((i == 0 || i == ne) | (j == 0 || j == ne) << 1 | (k == 0 || k == ne) << 2);
            }
    static const int corner[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                     {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
    double v0 = m.h0 * m.h0 * m.h0;
    for (int k = 0; k < ne; k++)
        for (int j = 0; j < ne; j++)
            for (int i = 0; i < ne; i++) {
                int el = (k * ne + j) * ne + i;
                for (int c = 0; c < 8; c++)
                    m.conn[8 * el + c] = perm[((k + corner[c][2]) * nn + (j + corner[c][1])) * nn + i + corner[c][0]];
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
    printf("hydro: NE=%d (%d elements, %d nodes), %d steps, final dt %.6e\n", ne, m.nelem, m.nnode, steps, dt);
    printf("hydro: internal energy %.12e, position sum %.12e, |velocity| sum %.12e\n", se, sx, sv);
    printf("hydro: checksum %.12e\n", se + sx + sv);
    int ok = isfinite(se) && isfinite(sx) && isfinite(sv);
    if (!ok)
        printf("hydro: non-finite result: FAILED\n");
    return ok ? 0 : 1;
}
