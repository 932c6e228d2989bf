/* stencils_pc.c - the kernels of stencils.c (its usage) as GCC's -O3 makes them with predictive commoning:
 * an inner loop unrolled by two, with loads before it its first iterations reuse, and a remainder loop after
 * it, so the 7-point and 5-point stencils' nests hold two sibling inner loops (the 27-point one stays one
 * chain). The what-ifs replay them as trees of loops (docs/projection.md). */
#define KERNEL __attribute__((noinline, noipa))
#include "stencils.c"
