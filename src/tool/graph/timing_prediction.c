/*
 * timing_prediction.c - the prediction tool's (timing_tool.c) views of the
 * data caches' prefetchers and its --csv-dir tables, from the finished model.
 */
#include <inttypes.h>
#include <math.h>

#include "report/csv.h"
#include "report/json.h"
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

/* ===================================================================== */
/* The DRAM ([dram]): per latency, its reads by row-buffer outcome         */
/* ===================================================================== */

/* The mean ns a read waited in the controller (0 without reads). */
static double dram_mean_wait(const edan_dram_counts *d)
{
    return d->reads ? d->wait_ns / (double)d->reads : 0.0;
}

static double share(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

void edan_timing_dram_text(const edan_timing *m, bool ci, FILE *f)
{
    const edan_machine *mc = edan_timing_machine(m);
    if (!mc->dram.present)
        return;
    fprintf(f,
            "  memory: DRAM, %u channel%s x %u ranks x %u banks; mem latency = a link's, added to every read on "
            "top of the DRAM's own time\n",
            mc->dram.channels, mc->dram.channels == 1 ? "" : "s", mc->dram.ranks, mc->dram.banks);
    for (int k = 0; k < edan_timing_lanes(m); k++) {
        const edan_timing_lane l = edan_timing_lane_get(m, k);
        const edan_dram_counts *d = &l.dram;
        fprintf(f,
                "    at %g ns: %" PRIu64 " reads%s, %.1f%% row hits, %.1f%% misses, %.1f%% conflicts; %" PRIu64
                " write drains; read queue wait %.1f ns mean\n",
                l.mem_latency_ns, d->reads, ci ? " scheduled" : "", share(d->row_hits, d->reads),
                share(d->row_misses, d->reads), share(d->row_conflicts, d->reads), d->drains, dram_mean_wait(d));
    }
}

static void json_u64s(FILE *f, const char *key, const uint64_t *v, int n)
{
    fprintf(f, "\"%s\":[", key);
    for (int k = 0; k < n; k++)
        fprintf(f, "%s%" PRIu64, k ? "," : "", v[k]);
    fputc(']', f);
}

void edan_timing_dram_json(const edan_timing *m, FILE *f)
{
    if (!edan_timing_machine(m)->dram.present)
        return; /* no member: reports of machines without [dram] as they were */
    const int K = edan_timing_lanes(m);
    uint64_t v[6][EDAN_TIMING_MAX_LATENCIES];
    double wait[EDAN_TIMING_MAX_LATENCIES];
    for (int k = 0; k < K; k++) {
        const edan_dram_counts d = edan_timing_lane_get(m, k).dram;
        v[0][k] = d.reads, v[1][k] = d.row_hits, v[2][k] = d.row_misses, v[3][k] = d.row_conflicts;
        v[4][k] = d.writes, v[5][k] = d.drains;
        wait[k] = dram_mean_wait(&d);
    }
    static const char *const keys[] = {"reads", "row_hits", "row_misses", "row_conflicts", "writes", "drains"};
    fputs(",\"dram\":{", f);
    for (int i = 0; i < 6; i++) {
        if (i)
            fputc(',', f);
        json_u64s(f, keys[i], v[i], K);
    }
    fputs(",\"read_queue_wait_ns\":", f);
    edan_json_num_array(f, wait, (size_t)K);
    fputc('}', f);
}

/* NAME-dram.csv, with [dram]: a row per latency, the same numbers as the JSON's "dram". */
static int dram_csv(const edan_timing *m, const char *dir, const char *name, edan_error *err)
{
    if (!edan_timing_machine(m)->dram.present)
        return 0;
    edan_csv c;
    if (edan_csv_open(&c, dir, name, "dram",
                      "mem_latency_ns,reads,row_hits,row_misses,row_conflicts,writes,drains,read_queue_wait_ns", err))
        return -1;
    for (int k = 0; k < edan_timing_lanes(m); k++) {
        const edan_timing_lane l = edan_timing_lane_get(m, k);
        edan_csv_num(&c, l.mem_latency_ns);
        edan_csv_u64(&c, l.dram.reads);
        edan_csv_u64(&c, l.dram.row_hits);
        edan_csv_u64(&c, l.dram.row_misses);
        edan_csv_u64(&c, l.dram.row_conflicts);
        edan_csv_u64(&c, l.dram.writes);
        edan_csv_u64(&c, l.dram.drains);
        edan_csv_num(&c, dram_mean_wait(&l.dram));
        edan_csv_end_row(&c);
    }
    return edan_csv_close(&c, err);
}

/*
 * --csv-dir: NAME-prediction.csv, a row per latency: its cycles with their 95 %
 * interval (empty when exact or unknown), seconds, the share stalled on memory,
 * the region's slope with its interval and slowdown (the same in every row),
 * the schedule, and the prefetches late and dropped; then NAME-prefetch.csv, a
 * row per data level with a prefetcher (what it issued, what was used, what
 * was not), and with [dram] NAME-dram.csv.
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
    if (edan_csv_close(&c, err) || dram_csv(m, dir, name, err))
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
