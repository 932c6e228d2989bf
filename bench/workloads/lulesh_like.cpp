// lulesh_like.cpp - a LULESH-shaped C++ workload for the cost of source attribution: one large
// translation unit (the standard library's headers, a class with many member functions, templates
// and inlined helpers), so that the DWARF of the unit is large and the traced code spans many
// functions and inlined scopes, as LULESH 2.0's does.
//   lulesh_like [NE] [STEPS]     trace the region with --filter=lagrange_leap_frog
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <numeric>
#include <string>
#include <vector>

namespace hydro {

using Real = double;
using Index = long;

template <typename T> struct Vec3 {
    T x, y, z;
    Vec3 operator+(const Vec3 &o) const { return {x + o.x, y + o.y, z + o.z}; }
    Vec3 operator-(const Vec3 &o) const { return {x - o.x, y - o.y, z - o.z}; }
    Vec3 operator*(T s) const { return {x * s, y * s, z * s}; }
    T dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
    Vec3 cross(const Vec3 &o) const { return {y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x}; }
};

template <typename T> inline T clamp_min(T v, T lo) { return v < lo ? lo : v; }
template <typename T> inline T square(T v) { return v * v; }

class Domain {
  public:
    Domain(Index ne) : ne_(ne), nn_(ne + 1), nodes_(nn_ * nn_ * nn_), elems_(ne * ne * ne)
    {
        x_.resize(nodes_);
        v_.resize(nodes_, {0, 0, 0});
        f_.resize(nodes_);
        mass_.assign(nodes_, 1.0);
        e_.assign(elems_, 1.0);
        p_.assign(elems_, 0.0);
        q_.assign(elems_, 0.0);
        vol_.assign(elems_, 1.0);
        ss_.assign(elems_, 0.0);
        conn_.resize(elems_ * 8);
        for (Index k = 0; k < nn_; k++)
            for (Index j = 0; j < nn_; j++)
                for (Index i = 0; i < nn_; i++)
                    x_[node(i, j, k)] = {Real(i), Real(j), Real(k)};
        for (Index k = 0; k < ne_; k++)
            for (Index j = 0; j < ne_; j++)
                for (Index i = 0; i < ne_; i++) {
                    const Index e = (k * ne_ + j) * ne_ + i;
                    static const int d[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                                {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
                    for (int c = 0; c < 8; c++)
                        conn_[e * 8 + c] = node(i + d[c][0], j + d[c][1], k + d[c][2]);
                }
        e_[0] = 100.0;
    }
    void lagrange_leap_frog();
    Real checksum() const
    {
        return std::accumulate(e_.begin(), e_.end(), 0.0) +
               std::accumulate(x_.begin(), x_.end(), 0.0, [](Real s, const Vec3<Real> &p) { return s + p.x; });
    }

  private:
    Index node(Index i, Index j, Index k) const { return (k * nn_ + j) * nn_ + i; }
    void clear_forces();
    void calc_volume_force();
    void calc_hourglass_control();
    void calc_fb_hourglass_force();
    void calc_acceleration();
    void apply_boundary();
    void calc_velocity();
    void calc_position();
    void calc_kinematics();
    void calc_lagrange_elements();
    void calc_q();
    void apply_material_properties();
    void eval_eos(Index e);
    void calc_energy(Index e);
    void calc_sound_speed(Index e);
    void update_volumes();
    void calc_time_constraints();
    Real element_volume(Index e) const;
    std::array<Vec3<Real>, 8> gather(Index e) const;

    Index ne_, nn_, nodes_, elems_;
    std::vector<Vec3<Real>> x_, v_, f_;
    std::vector<Real> mass_, e_, p_, q_, vol_, ss_;
    std::vector<Index> conn_;
    Real dt_ = 1e-4, dtcourant_ = 1e20;
    std::map<std::string, Real> timers_;
};

std::array<Vec3<Real>, 8> Domain::gather(Index e) const
{
    std::array<Vec3<Real>, 8> c;
    for (int i = 0; i < 8; i++)
        c[i] = x_[conn_[e * 8 + i]];
    return c;
}

Real Domain::element_volume(Index e) const
{
    const auto c = gather(e);
    const Vec3<Real> d1 = (c[1] - c[0]) + (c[2] - c[3]), d2 = (c[3] - c[0]) + (c[2] - c[1]);
    const Vec3<Real> d3 = (c[4] - c[0]) + (c[6] - c[2]);
    return std::fabs(d1.cross(d2).dot(d3)) / 8.0;
}

__attribute__((noinline)) void Domain::clear_forces()
{
    std::fill(f_.begin(), f_.end(), Vec3<Real>{0, 0, 0});
}

__attribute__((noinline)) void Domain::calc_volume_force()
{
    for (Index e = 0; e < elems_; e++) {
        const Real s = -(p_[e] + q_[e]) * vol_[e] / 8.0;
        for (int c = 0; c < 8; c++) {
            Vec3<Real> &f = f_[conn_[e * 8 + c]];
            f = f + Vec3<Real>{s, s * 0.5, s * 0.25};
        }
    }
}

__attribute__((noinline)) void Domain::calc_fb_hourglass_force()
{
    for (Index e = 0; e < elems_; e++) {
        const auto c = gather(e);
        Vec3<Real> mean = {0, 0, 0};
        for (const auto &p : c)
            mean = mean + p;
        mean = mean * 0.125;
        for (int i = 0; i < 8; i++) {
            Vec3<Real> &f = f_[conn_[e * 8 + i]];
            f = f - (c[i] - mean) * 1e-3;
        }
    }
}

__attribute__((noinline)) void Domain::calc_hourglass_control()
{
    for (Index e = 0; e < elems_; e++)
        vol_[e] = clamp_min(element_volume(e), Real(1e-12));
    calc_fb_hourglass_force();
}

__attribute__((noinline)) void Domain::calc_acceleration()
{
    for (Index n = 0; n < nodes_; n++)
        f_[n] = f_[n] * (1.0 / mass_[n]);
}

__attribute__((noinline)) void Domain::apply_boundary()
{
    for (Index k = 0; k < nn_; k++)
        for (Index j = 0; j < nn_; j++) {
            f_[node(0, j, k)].x = 0;
            f_[node(j, 0, k)].y = 0;
            f_[node(j, k, 0)].z = 0;
        }
}

__attribute__((noinline)) void Domain::calc_velocity()
{
    for (Index n = 0; n < nodes_; n++)
        v_[n] = v_[n] + f_[n] * dt_;
}

__attribute__((noinline)) void Domain::calc_position()
{
    for (Index n = 0; n < nodes_; n++)
        x_[n] = x_[n] + v_[n] * dt_;
}

__attribute__((noinline)) void Domain::calc_kinematics()
{
    for (Index e = 0; e < elems_; e++) {
        const Real nv = element_volume(e);
        vol_[e] = clamp_min(nv, Real(1e-12));
    }
}

__attribute__((noinline)) void Domain::calc_q()
{
    for (Index e = 0; e < elems_; e++)
        q_[e] = vol_[e] < 1.0 ? square(1.0 - vol_[e]) * 0.5 : 0.0;
}

__attribute__((noinline)) void Domain::eval_eos(Index e)
{
    p_[e] = 0.4 * e_[e] / vol_[e];
}

__attribute__((noinline)) void Domain::calc_energy(Index e)
{
    e_[e] = clamp_min(e_[e] - (p_[e] + q_[e]) * (vol_[e] - 1.0) * 1e-3, Real(0));
}

__attribute__((noinline)) void Domain::calc_sound_speed(Index e)
{
    ss_[e] = std::sqrt(clamp_min(1.4 * p_[e] / vol_[e], Real(1e-12)));
}

__attribute__((noinline)) void Domain::apply_material_properties()
{
    for (Index e = 0; e < elems_; e++) {
        eval_eos(e);
        calc_energy(e);
        calc_sound_speed(e);
    }
}

__attribute__((noinline)) void Domain::update_volumes()
{
    std::transform(vol_.begin(), vol_.end(), vol_.begin(), [](Real v) { return std::fabs(v - 1.0) < 1e-10 ? 1.0 : v; });
}

__attribute__((noinline)) void Domain::calc_time_constraints()
{
    Real dt = 1e20;
    for (Index e = 0; e < elems_; e++)
        dt = std::min(dt, std::cbrt(vol_[e]) / clamp_min(ss_[e], Real(1e-6)));
    dtcourant_ = dt;
    dt_ = std::min(1e-4, 0.5 * dt);
}

__attribute__((noinline)) void Domain::calc_lagrange_elements()
{
    calc_kinematics();
    calc_q();
    apply_material_properties();
    update_volumes();
}

__attribute__((noinline)) void Domain::lagrange_leap_frog()
{
    clear_forces();
    calc_volume_force();
    calc_hourglass_control();
    calc_acceleration();
    apply_boundary();
    calc_velocity();
    calc_position();
    calc_lagrange_elements();
    calc_time_constraints();
    timers_["steps"] += 1;
}

} // namespace hydro

__attribute__((noinline)) void lagrange_leap_frog(hydro::Domain &d, int steps)
{
    for (int s = 0; s < steps; s++)
        d.lagrange_leap_frog();
}

int main(int argc, char **argv)
{
    const long ne = argc > 1 ? std::atol(argv[1]) : 8;
    const int steps = argc > 2 ? std::atoi(argv[2]) : 2;
    if (ne < 1 || ne > 200 || steps < 1) {
        std::cerr << "usage: lulesh_like [NE 1..200] [STEPS >= 1]\n";
        return 2;
    }
    hydro::Domain d(ne);
    lagrange_leap_frog(d, steps);
    std::printf("lulesh_like ne=%ld steps=%d checksum=%.6e\n", ne, steps, d.checksum());
    return 0;
}
