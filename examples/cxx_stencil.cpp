// A C++ kernel for edan's name handling (issue 24): a namespace, an overload and a template, traced
// by plain name (--filter=kernel, --filter=smooth, --filter=grid::smooth,
// --filter='grid::smooth(grid::Field&, int)').
//   cxx_stencil [n] [steps]
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace grid {

struct Field {
    std::vector<double> v;
    explicit Field(long n) : v(static_cast<size_t>(n), 1.0) {}
};

// One Jacobi step, three-point average: the overload for a number of steps calls it.
__attribute__((noinline)) void smooth(Field &f)
{
    std::vector<double> &v = f.v;
    double prev = v[0];
    for (size_t i = 1; i + 1 < v.size(); i++) {
        const double cur = v[i];
        v[i] = (prev + cur + v[i + 1]) / 3.0;
        prev = cur;
    }
}

__attribute__((noinline)) void smooth(Field &f, int steps)
{
    for (int s = 0; s < steps; s++)
        smooth(f);
}

template <typename T> __attribute__((noinline)) T total(const std::vector<T> &v)
{
    T sum = 0;
    for (const T &x : v)
        sum += x;
    return sum;
}

// The region the tests trace by --filter=kernel: found by its plain name although it is grid::kernel.
__attribute__((noinline)) double kernel(Field &f, int steps)
{
    smooth(f, steps);
    return total(f.v);
}

} // namespace grid

int main(int argc, char **argv)
{
    const long n = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 1000;
    const int steps = argc > 2 ? std::atoi(argv[2]) : 4;
    if (n < 3 || n > (1L << 24) || steps < 1 || steps > 1000) {
        std::fprintf(stderr, "usage: %s [n >= 3] [steps 1..1000]\n", argv[0]);
        return 2;
    }
    grid::Field f(n);
    f.v[static_cast<size_t>(n / 2)] = 100.0;
    const double sum = grid::kernel(f, steps);
    std::vector<int> counts(static_cast<size_t>(n), 2);
    std::printf("cxx_stencil n=%ld total=%.6f ints=%d\n", n, sum, grid::total(counts));
    return 0;
}
