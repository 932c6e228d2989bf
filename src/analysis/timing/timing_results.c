/* timing_results.c - the timing model's results (timing.h), after the stream. */
#include "analysis/timing/timing_internal.h"

const edan_error *edan_timing_error(const edan_timing *t)
{
    for (int g = 0; g < t->n_groups && !t->err.set; g++)
        if (t->group[g]->err.set)
            return &t->group[g]->err;
    return &t->err;
}

int edan_timing_lanes(const edan_timing *t)
{
    return t->K;
}

/* what every lane shares: a parent's first group has it */
static const edan_timing *shared(const edan_timing *t)
{
    return t->n_groups ? t->group[0] : t;
}

const edan_timing_counts *edan_timing_counts_get(const edan_timing *t)
{
    return &shared(t)->n;
}

const edan_machine *edan_timing_machine(const edan_timing *t)
{
    return &t->m;
}

edan_timing_lane edan_timing_lane_get(const edan_timing *t, int i)
{
    t = edan_timing_group_of(t, &i);
    edan_timing_lane l;
    l.mem_latency_ns = t->lat_ns[i];
    const timing_sampler *s = &t->smp;
    /* sampled: the estimates (timing_sample.c), which are the model's own when every instruction was measured */
    l.cycles = (s->on ? s->est[i] : (double)t->last_commit[i]) / TPC + (double)t->n.pages_zeroed * t->fault_cycles;
    l.seconds = l.cycles / (t->m.clock_ghz * 1e9);
    l.mem_stall_cycles = (s->on ? s->stall_est[i] : (double)t->stall[i]) / TPC;
    l.prefetch_late = t->mem.pf.on ? t->mem.pf.late[i] : 0;
    l.prefetch_dropped = t->mem.pf.on ? t->mem.pf.dropped[i] : 0;
    l.dram = t->mem.dram ? edan_dram_lane_counts(t->mem.dram, i) : (edan_dram_counts){0};
    return l;
}

uint32_t edan_timing_ids(const edan_timing *t)
{
    t = shared(t);
    return (uint32_t)t->id_n; /* the ids above have no row (timing_internal.h) */
}

uint64_t edan_timing_id_count(const edan_timing *t, uint32_t id)
{
    t = shared(t);
    const uint64_t folded = id < t->id_side_cap ? t->id_side[id].folded : 0;
    return (id < t->id_cap ? t->id_count[id] + t->fdesc[id].skipped : 0) + folded;
}

uint64_t edan_timing_id_pc(const edan_timing *t, uint32_t id)
{
    t = shared(t);
    if (id >= t->id_cap)
        return 0;
    /* an id only skipped has no id_pc: its row's (the same instruction's) */
    return t->id_pc[id] ? t->id_pc[id] : t->fdesc[id].insn ? t->fdesc[id].at.pc : 0;
}

double edan_timing_id_cycles(const edan_timing *t, uint32_t id, int k)
{
    t = edan_timing_group_of(t, &k);
    const size_t at = (size_t)id * (size_t)t->Kp + (size_t)k;
    if (id >= t->id_cap)
        return 0;
    const double faults = id < t->id_side_cap ? (double)t->id_side[id].faults * t->fault_cycles : 0;
    return (t->smp.on ? t->smp.id_est[at] : (double)t->id_time[at]) / TPC + faults;
}

double edan_timing_id_stall(const edan_timing *t, uint32_t id, int k)
{
    t = edan_timing_group_of(t, &k);
    const size_t at = (size_t)id * (size_t)t->Kp + (size_t)k;
    if (id >= t->id_cap)
        return 0;
    return (t->smp.on ? t->smp.id_stall_est[at] : (double)t->id_stall[at]) / TPC;
}

double edan_timing_slope_of(const edan_timing *t, const double *cycles)
{
    const double ns_per_cycle = 1.0 / t->m.clock_ghz;
    double sx = 0, sy = 0;
    for (int k = 0; k < t->K; k++) {
        sx += t->lat_ns[k];
        sy += cycles[k] * ns_per_cycle;
    }
    double mx = sx / t->K, my = sy / t->K, sxx = 0, sxy = 0;
    for (int k = 0; k < t->K; k++) {
        double dx = t->lat_ns[k] - mx;
        sxx += dx * dx;
        sxy += dx * (cycles[k] * ns_per_cycle - my);
    }
    return sxx > 0 ? sxy / sxx : 0;
}

double edan_timing_slope(const edan_timing *t)
{
    double c[MAXK];
    for (int k = 0; k < t->K; k++)
        c[k] = edan_timing_lane_get(t, k).cycles;
    return edan_timing_slope_of(t, c);
}

double edan_timing_slowdown(const edan_timing *t)
{
    int lo = 0, hi = 0;
    for (int k = 1; k < t->K; k++) {
        if (t->lat_ns[k] < t->lat_ns[lo])
            lo = k;
        if (t->lat_ns[k] > t->lat_ns[hi])
            hi = k;
    }
    double base = edan_timing_lane_get(t, lo).seconds;
    return base > 0 ? edan_timing_lane_get(t, hi).seconds / base : 1;
}
