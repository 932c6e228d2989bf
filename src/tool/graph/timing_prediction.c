/*
 * timing_prediction.c - the prediction tool's (timing_tool.c) views of the
 * data caches' prefetchers and its --csv-dir tables, from the finished model.
 */
#include <inttypes.h>
#include <math.h>

#include "report/csv.h"
#include "tool/graph/timing_tool.h"

/* The data levels' prefetchers, when the machine has one: what each did, and per latency the late and dropped. */
const char *edan_timing_level_label(int level)
{
    static const char *const names[] = {"L1d", "L2", "L3"};
    return level >= 0 && level < 3 ? names[level] : "?";
}

static bool has_prefetcher(const edan_machine *mc)
{
    for (int l = 0; l < mc->n_data_levels; l++)
        if (mc->data[l].prefetch.kind != EDAN_PREFETCH_NONE)
            return true;
    return false;
}

static const char *prefetcher_name(edan_prefetch_kind k)
{
    return k == EDAN_PREFETCH_STRIDE ? "stride" : "tagged";
}

void edan_timing_prefetch_text(const edan_timing *m, FILE *f)
{
    const edan_machine *mc = edan_timing_machine(m);
    const edan_timing_counts *c = edan_timing_counts_get(m);
    if (!has_prefetcher(mc))
        return;
    for (int l = 0; l < mc->n_data_levels; l++) {
        if (mc->data[l].prefetch.kind == EDAN_PREFETCH_NONE)
            continue;
        const edan_prefetch_counts *p = &c->prefetch[l];
        fprintf(
            f,
            "  %-4s %-6s prefetcher    %" PRIu64 " issued, %" PRIu64 " useful, %" PRIu64 " useless (evicted unused)\n",
            edan_timing_level_label(l), prefetcher_name(mc->data[l].prefetch.kind), p->issued, p->useful, p->useless);
    }
    fputs("  prefetches late, dropped ", f);
    for (int k = 0; k < edan_timing_lanes(m); k++) {
        const edan_timing_lane l = edan_timing_lane_get(m, k);
        fprintf(f, "%s%" PRIu64 ", %" PRIu64 " at %g ns", k ? "; " : "", l.prefetch_late, l.prefetch_dropped,
                l.mem_latency_ns);
    }
    fputc('\n', f);
}

/* "prefetch": null without a prefetcher; else each level's counts and, per latency, the late and dropped. */
void edan_timing_prefetch_json(const edan_timing *m, FILE *f)
{
    const edan_machine *mc = edan_timing_machine(m);
    const edan_timing_counts *c = edan_timing_counts_get(m);
    fputs(",\"prefetch\":", f);
    if (!has_prefetcher(mc)) {
        fputs("null", f);
        return;
    }
    fputs("{\"levels\":[", f);
    bool first = true;
    for (int l = 0; l < mc->n_data_levels; l++) {
        if (mc->data[l].prefetch.kind == EDAN_PREFETCH_NONE)
            continue;
        const edan_prefetch_counts *p = &c->prefetch[l];
        fprintf(f,
                "%s{\"level\":\"%s\",\"type\":\"%s\",\"issued\":%" PRIu64 ",\"useful\":%" PRIu64 ",\"useless\":%" PRIu64
                "}",
                first ? "" : ",",
                l == 0   ? "l1d"
                : l == 1 ? "l2"
                         : "l3",
                prefetcher_name(mc->data[l].prefetch.kind), p->issued, p->useful, p->useless);
        first = false;
    }
    uint64_t late[EDAN_TIMING_MAX_LATENCIES], dropped[EDAN_TIMING_MAX_LATENCIES];
    for (int k = 0; k < edan_timing_lanes(m); k++) {
        const edan_timing_lane l = edan_timing_lane_get(m, k);
        late[k] = l.prefetch_late;
        dropped[k] = l.prefetch_dropped;
    }
    fputs("],\"late\":[", f);
    for (int k = 0; k < edan_timing_lanes(m); k++)
        fprintf(f, "%s%" PRIu64, k ? "," : "", late[k]);
    fputs("],\"dropped\":[", f);
    for (int k = 0; k < edan_timing_lanes(m); k++)
        fprintf(f, "%s%" PRIu64, k ? "," : "", dropped[k]);
    fputs("]}", f);
}

/*
 * --csv-dir: NAME-prediction.csv, a row per latency: its cycles with their 95 %
 * interval (empty when exact or unknown), seconds, the share stalled on memory,
 * the region's slope with its interval and slowdown (the same in every row),
 * the schedule, and the prefetches late and dropped; then NAME-prefetch.csv, a
 * row per data level with a prefetcher (what it issued, what was used, what
 * was not).
 */
int edan_timing_prediction_csv(const edan_timing *m, const char *dir, const char *name, edan_error *err)
{
    const edan_machine *mc = edan_timing_machine(m);
    const edan_timing_counts *cnt = edan_timing_counts_get(m);
    edan_timing_sample_info si;
    edan_timing_sample_info_get(m, &si);
    const bool ci = si.sampled && !si.covered;
    const bool slope = edan_timing_lanes(m) > 1;
    edan_csv c;
    if (edan_csv_open(&c, dir, name, "prediction",
                      "mem_latency_ns,cycles,cycles_low,cycles_high,seconds,mem_stall_share,slope_ns_per_ns,"
                      "slope_low,slope_high,slowdown,schedule,prefetch_late,prefetch_dropped",
                      err))
        return -1;
    for (int k = 0; k < edan_timing_lanes(m); k++) {
        const edan_timing_lane l = edan_timing_lane_get(m, k);
        edan_csv_num(&c, l.mem_latency_ns);
        edan_csv_num(&c, l.cycles);
        const bool lane_ci = ci && isfinite(si.cycles_half[k]);
        if (lane_ci) {
            edan_csv_num(&c, l.cycles - si.cycles_half[k]);
            edan_csv_num(&c, l.cycles + si.cycles_half[k]);
        } else {
            edan_csv_str(&c, NULL);
            edan_csv_str(&c, NULL);
        }
        edan_csv_num(&c, l.seconds);
        edan_csv_num(&c, l.cycles > 0 ? l.mem_stall_cycles / l.cycles : 0);
        if (slope) {
            const double v = edan_timing_slope(m);
            edan_csv_num(&c, v);
            if (ci && isfinite(si.slope_half)) {
                edan_csv_num(&c, v - si.slope_half);
                edan_csv_num(&c, v + si.slope_half);
            } else {
                edan_csv_str(&c, NULL);
                edan_csv_str(&c, NULL);
            }
            edan_csv_num(&c, edan_timing_slowdown(m));
        } else
            for (int i = 0; i < 4; i++)
                edan_csv_str(&c, NULL);
        edan_csv_str(&c, !si.sampled ? "exact" : si.covered ? "sampled, every instruction" : "sampled");
        edan_csv_u64(&c, l.prefetch_late);
        edan_csv_u64(&c, l.prefetch_dropped);
        edan_csv_end_row(&c);
    }
    if (edan_csv_close(&c, err))
        return -1;
    if (!has_prefetcher(mc))
        return 0;
    if (edan_csv_open(&c, dir, name, "prefetch", "level,type,issued,useful,useless", err))
        return -1;
    for (int l = 0; l < mc->n_data_levels; l++) {
        if (mc->data[l].prefetch.kind == EDAN_PREFETCH_NONE)
            continue;
        edan_csv_str(&c, l == 0 ? "l1d" : l == 1 ? "l2" : "l3");
        edan_csv_str(&c, prefetcher_name(mc->data[l].prefetch.kind));
        edan_csv_u64(&c, cnt->prefetch[l].issued);
        edan_csv_u64(&c, cnt->prefetch[l].useful);
        edan_csv_u64(&c, cnt->prefetch[l].useless);
        edan_csv_end_row(&c);
    }
    return edan_csv_close(&c, err);
}
