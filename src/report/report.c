#include "report/report.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "analysis/metrics/metrics.h"
#include "config/machine_file.h"
#include "report/json.h"

void edan_report_lane_label(const edan_edag *e, int k, char *buf, size_t cap)
{
    const edan_lane_config *l = &edan_edag_get_config(e)->lane[k];
    char cache[256];
    edan_cache_config_format(&l->cache, cache, sizeof cache);
    snprintf(buf, cap, "cache=%s alpha=%" PRIu64, cache, l->cost.alpha);
}

static void fmt_num(double v, char *buf, size_t cap)
{
    if (v == floor(v) && fabs(v) < 1e18)
        snprintf(buf, cap, "%.0f", v);
    else
        snprintf(buf, cap, "%.6g", v);
}

void edan_report_text_header(FILE *f, const edan_options *o, const edan_report_source *src)
{
    /* --sample-only: MemGaze's samples alone were traced, for their estimates; no eDAG */
    const bool samples = !strcmp(src->kind, "sampled");
    if (samples)
        fprintf(f, "edan: MemGaze's samples alone (online)\n");
    else
        fprintf(f, "edan: eDAG analysis (%s%s%s)\n", src->kind, src->path ? " " : "", src->path ? src->path : "");
    if (src->binary && *src->binary)
        fprintf(f, "  program     %s\n", src->binary);
    if (src->filter && *src->filter)
        fprintf(f, "  functions   %s\n", src->filter);
    if (samples)
        return;
    if (src->filter && *src->filter)
        fprintf(f, "  start       %s\n",
                src->warm && !o->cold ? "warm (caches and branch predictor follow the whole program)"
                                      : "cold (caches and branch predictor see the region alone)");
    fprintf(f, "  model       %s dependencies, w(v) = %s bytes, clock %g GHz, alpha0 %g\n",
            o->false_deps ? "true+false" : "true (RAW)", o->bytes_mode == EDAN_BYTES_LINE ? "line" : "access",
            o->metrics.clock_ghz, o->metrics.alpha0);
}

void edan_report_edag_text(FILE *f, const edan_edag *e, const edan_options *o)
{
    /* the summary's figures, from the same computation (the layered bound is a pass over all D layers) */
    double sum_lambda[EDAN_MAX_LANES], sum_Lambda[EDAN_MAX_LANES], sum_bw[EDAN_MAX_LANES];
    for (int k = 0; k < edan_edag_n_lanes(e); k++) {
        const edan_lane_stats *st = edan_edag_lane(e, k);
        const edan_lane_config *lc = &edan_edag_get_config(e)->lane[k];
        edan_metrics mt;
        edan_metrics_compute(st, lc->cost.alpha, &o->metrics, &mt);
        sum_lambda[k] = mt.per_m[0].lambda;
        sum_Lambda[k] = mt.per_m[0].Lambda;
        sum_bw[k] = mt.bw_gbs;
        char label[320], c[64];
        edan_report_lane_label(e, k, label, sizeof label);
        fprintf(f, "\n[%d] %s\n", k + 1, label);
        fprintf(f, "  vertices (instructions)   %" PRIu64 "\n", st->vertices);
        fprintf(f, "  work T1                   %" PRIu64 " cycles\n", st->T1);
        fprintf(f, "  span Tinf                 %" PRIu64 " cycles\n", st->Tinf);
        fprintf(f, "  parallelism T1/Tinf       %.4f\n", mt.parallelism);
        fprintf(f, "  memory work W             %" PRIu64 "\n", st->W);
        fprintf(f, "  memory depth D            %" PRIu64 "\n", st->D);
        fprintf(f, "  memory parallelism W/D    %.4f\n", mt.mem_parallelism);
        fmt_num(mt.C, c, sizeof c);
        fprintf(f, "  non-memory cost C         %s cycles%s\n", c, o->metrics.C_given ? " (given)" : "");
        fprintf(f, "  bytes moved sum w(v)      %" PRIu64 "\n", st->bytes);
        fprintf(f, "  average bandwidth B       %.4f bytes/cycle = %.4f GB/s\n", mt.bw_bytes_per_cycle, mt.bw_gbs);
        fprintf(f, "  loads / stores / atomics  %" PRIu64 " / %" PRIu64 " / %" PRIu64 "\n", st->loads, st->stores,
                st->amos);
        fprintf(f, "  reaching RAM: loads / stores %" PRIu64 " / %" PRIu64 "\n", st->ram_loads, st->ram_stores);
        for (int l = 0; l < lc->cache.n_levels; l++) {
            uint64_t h = st->cache_hits[l], m = st->cache_misses[l];
            fprintf(f, "  L%d hits / misses          %" PRIu64 " / %" PRIu64 " (%.2f%% hits)\n", l + 1, h, m,
                    h + m ? 100.0 * (double)h / (double)(h + m) : 0.0);
        }
        fprintf(f, "  layers W_1..W_D          ");
        uint64_t shown = st->D < 16 ? st->D : 16;
        for (uint64_t i = 1; i <= shown; i++)
            fprintf(f, " %" PRIu64, edan_layers_get(&st->layers, i));
        if (st->D > shown)
            fprintf(f, " ... (%" PRIu64 " layers)", st->D);
        fprintf(f, "\n");
        fprintf(f, "  %6s %14s %14s %14s %14s %14s %14s %14s\n", "m", "lambda", "lambda(lay.)", "Lambda", "M lower",
                "M upper", "M layered", "T upper");
        for (int i = 0; i < mt.n_m; i++) {
            const edan_m_metrics *r = &mt.per_m[i];
            char lam[32], laml[32], lo[32], up[32], ly[32], tu[32];
            fmt_num(r->lambda, lam, sizeof lam);
            fmt_num(r->lambda_layered, laml, sizeof laml);
            fmt_num(r->mem_lower, lo, sizeof lo);
            fmt_num(r->mem_upper, up, sizeof up);
            fmt_num(r->mem_layered, ly, sizeof ly);
            fmt_num(r->run_upper, tu, sizeof tu);
            fprintf(f, "  %6" PRIu64 " %14s %14s %14.6g %14s %14s %14s %14s\n", r->m, lam, laml, r->Lambda, lo, up, ly,
                    tu);
        }
        for (int j = 0; j < st->n_series; j++) {
            const edan_series *s = &st->series[j];
            uint64_t peak = 0;
            size_t at = 0;
            for (size_t i = 0; i < s->n; i++)
                if (s->U[i] > peak) {
                    peak = s->U[i];
                    at = i;
                }
            fprintf(f, "  data movement: tau %" PRIu64 "%s, %zu phases, peak U_%zu = %" PRIu64 " bytes\n", s->tau,
                    s->requested_tau && s->tau != s->requested_tau ? " (coarsened)" : "", s->n, at, peak);
        }
    }
    if (edan_edag_n_lanes(e) > 1) {
        fprintf(f, "\nSummary (m = %" PRIu64 ")\n", o->metrics.m[0]);
        fprintf(f, "  %-4s %-60s %12s %10s %14s %10s %10s\n", "#", "configuration", "W", "D", "lambda", "Lambda",
                "B GB/s");
        for (int k = 0; k < edan_edag_n_lanes(e); k++) {
            const edan_lane_stats *st = edan_edag_lane(e, k);
            char label[320], lam[32];
            edan_report_lane_label(e, k, label, sizeof label);
            fmt_num(sum_lambda[k], lam, sizeof lam);
            fprintf(f, "  %-4d %-60.60s %12" PRIu64 " %10" PRIu64 " %14s %10.4g %10.4g\n", k + 1, label, st->W, st->D,
                    lam, sum_Lambda[k], sum_bw[k]);
        }
    }
}

void edan_report_json_begin(FILE *f, const edan_options *o, const edan_report_source *src)
{
    fprintf(f, "{\"schema\":\"%s\",\"source\":{\"kind\":", EDAN_JSON_SCHEMA);
    edan_json_str(f, src->kind);
    fputs(",\"path\":", f);
    edan_json_str(f, src->path ? src->path : "");
    fputs(",\"binary\":", f);
    edan_json_str(f, src->binary ? src->binary : "");
    fputs(",\"filter\":", f);
    edan_json_str(f, src->filter ? src->filter : "");
    if (src->filter && *src->filter)
        fprintf(f, ",\"start\":\"%s\"", src->warm && !o->cold ? "warm" : "cold");
    if (src->exit.known) {
        if (src->exit.signal)
            fprintf(f, ",\"program_exit\":{\"status\":null,\"signal\":%d", src->exit.signal);
        else
            fprintf(f, ",\"program_exit\":{\"status\":%d,\"signal\":null", src->exit.status);
        fprintf(f, ",\"ignore_exit\":%s}", src->exit.ignore_exit ? "true" : "false");
    }
    fputs("},\"model\":{\"m\":", f);
    edan_json_u64_array(f, o->metrics.m, (size_t)o->metrics.n_m);
    fputs(",\"alpha0\":", f);
    edan_json_num(f, o->metrics.alpha0);
    fputs(",\"clock_ghz\":", f);
    edan_json_num(f, o->metrics.clock_ghz);
    fprintf(f, ",\"false_deps\":%s,\"bytes\":\"%s\",\"C_given\":%s", o->false_deps ? "true" : "false",
            o->bytes_mode == EDAN_BYTES_LINE ? "line" : "access", o->metrics.C_given ? "true" : "false");
    fputc('}', f);
}

/* Write the distinct caches of the eDAG's configurations, "; " apart in text, as strings in JSON. */
static void edag_caches(FILE *f, const edan_edag_config *cfg, bool json)
{
    char seen[EDAN_MAX_LANES][256];
    int n = 0;
    for (int k = 0; k < cfg->n_lanes; k++) {
        char c[256];
        edan_cache_config_format(&cfg->lane[k].cache, c, sizeof c);
        bool dup = false;
        for (int i = 0; i < n && !dup; i++)
            dup = !strcmp(seen[i], c);
        if (dup)
            continue;
        if (json) {
            fputs(n ? "," : "", f);
            edan_json_str(f, c);
        } else {
            fprintf(f, "%s%s", n ? "; " : "", c);
        }
        snprintf(seen[n++], sizeof seen[0], "%s", c);
    }
}

void edan_report_caches(FILE *f, const edan_options *o, bool json, bool edag, bool prediction, bool projection)
{
    const char *path = edan_options_last(o, "machine");
    edan_machine m;
    edan_error err = {0};
    edan_edag_config cfg;
    if (!path || edan_machine_load(path, &m, &err) || edan_options_edag_config(o, &cfg, &err))
        return; /* no machine: the configurations name their caches; a bad one: its tool says why */
    char mc[256];
    const edan_cache_config data = edan_machine_data_caches(&m);
    edan_cache_config_format(&data, mc, sizeof mc);
    /* the projection counts traffic in --cache's configurations when given, else in the machine's caches */
    const char *from = o->cache_given ? "cache" : "machine";
    if (json) {
        fputs(",\"caches\":{\"machine\":", f);
        edan_json_str(f, m.name);
        if (edag) {
            fprintf(f, ",\"edag\":{\"from\":\"%s\",\"caches\":[", from);
            edag_caches(f, &cfg, true);
            fputs("]}", f);
        }
        if (prediction) {
            fputs(",\"prediction\":{\"from\":\"machine\",\"caches\":[", f);
            edan_json_str(f, mc);
            fputs("]}", f);
        }
        if (projection) {
            fprintf(f, ",\"projection\":{\"from\":\"%s\",\"caches\":[", from);
            if (o->cache_given)
                edag_caches(f, &cfg, true);
            else
                edan_json_str(f, mc);
            fputs("]}", f);
        }
        fputc('}', f);
        return;
    }
    if (edag) {
        fprintf(f, "  caches      eDAG: ");
        edag_caches(f, &cfg, false);
        fprintf(f, " (%s)\n", o->cache_given ? "--cache" : "the machine's data caches; --cache to change");
    }
    if (prediction)
        fprintf(f, "  %-11s prediction: %s (machine %s's data caches)\n", edag ? "" : "caches", mc, m.name);
    if (projection) {
        fprintf(f, "  %-11s projection: ", edag || prediction ? "" : "caches");
        if (o->cache_given)
            edag_caches(f, &cfg, false);
        else
            fputs(mc, f);
        fprintf(f, " (%s)\n", o->cache_given ? "--cache" : "the machine's data caches");
    }
}

void edan_report_edag_json(FILE *f, const edan_edag *e, const edan_options *o)
{
    fputs(",\"footprint_bytes\":", f);
    fprintf(f, "%" PRIu64, edan_edag_footprint(e));
    fputs(",\"configurations\":[", f);
    for (int k = 0; k < edan_edag_n_lanes(e); k++) {
        const edan_lane_stats *st = edan_edag_lane(e, k);
        const edan_lane_config *lc = &edan_edag_get_config(e)->lane[k];
        edan_metrics mt;
        edan_metrics_compute(st, lc->cost.alpha, &o->metrics, &mt);
        char cache[256];
        edan_cache_config_format(&lc->cache, cache, sizeof cache);
        fprintf(f, "%s{\"cache\":", k ? "," : "");
        edan_json_str(f, cache);
        fprintf(f, ",\"alpha\":%" PRIu64 ",\"costs\":{", lc->cost.alpha);
        for (int c = 0; c < EDAN_CLASS_COUNT; c++)
            fprintf(f, "%s\"%s\":%" PRIu64, c ? "," : "", edan_class_name(c), lc->cost.cls[c]);
        fprintf(f, "},\"vertices\":%" PRIu64 ",\"T1\":%" PRIu64 ",\"Tinf\":%" PRIu64 ",\"parallelism\":", st->vertices,
                st->T1, st->Tinf);
        edan_json_num(f, mt.parallelism);
        fprintf(f, ",\"W\":%" PRIu64 ",\"D\":%" PRIu64 ",\"C\":", st->W, st->D);
        edan_json_num(f, mt.C);
        fprintf(f, ",\"bytes\":%" PRIu64 ",\"bandwidth_bytes_per_cycle\":", st->bytes);
        edan_json_num(f, mt.bw_bytes_per_cycle);
        fputs(",\"bandwidth_gbs\":", f);
        edan_json_num(f, mt.bw_gbs);
        fprintf(f,
                ",\"loads\":%" PRIu64 ",\"stores\":%" PRIu64 ",\"atomics\":%" PRIu64 ",\"ram_loads\":%" PRIu64
                ",\"ram_stores\":%" PRIu64 ",\"ram_read_bytes\":%" PRIu64 ",\"ram_write_bytes\":%" PRIu64,
                st->loads, st->stores, st->amos, st->ram_loads, st->ram_stores, st->ram_read_bytes,
                st->ram_write_bytes);
        fputs(",\"classes\":{", f);
        for (int c = 0; c < EDAN_CLASS_COUNT; c++)
            fprintf(f, "%s\"%s\":%" PRIu64, c ? "," : "", edan_class_name(c), st->class_count[c]);
        fputs("},\"cache_levels\":[", f);
        for (int l = 0; l < lc->cache.n_levels; l++)
            fprintf(f, "%s{\"hits\":%" PRIu64 ",\"misses\":%" PRIu64 "}", l ? "," : "", st->cache_hits[l],
                    st->cache_misses[l]);
        fputs("]", f);
        bool with_layers = st->D <= EDAN_JSON_MAX_LAYERS;
        fprintf(f, ",\"layers_included\":%s,\"layers\":", with_layers ? "true" : "false");
        fputc('[', f);
        for (uint64_t i = 1; with_layers && i <= st->D; i++)
            fprintf(f, "%s%" PRIu64, i > 1 ? "," : "", edan_layers_get(&st->layers, i));
        fputc(']', f);
        fputs(",\"per_m\":[", f);
        for (int i = 0; i < mt.n_m; i++) {
            const edan_m_metrics *r = &mt.per_m[i];
            fprintf(f, "%s{\"m\":%" PRIu64 ",\"lambda\":", i ? "," : "", r->m);
            edan_json_num(f, r->lambda);
            fputs(",\"lambda_layered\":", f);
            edan_json_num(f, r->lambda_layered);
            fputs(",\"Lambda\":", f);
            edan_json_num(f, r->Lambda);
            fputs(",\"memory_cost\":{\"lower\":", f);
            edan_json_num(f, r->mem_lower);
            fputs(",\"upper\":", f);
            edan_json_num(f, r->mem_upper);
            fputs(",\"layered\":", f);
            edan_json_num(f, r->mem_layered);
            fputs("},\"runtime\":{\"lower\":", f);
            edan_json_num(f, r->run_lower);
            fputs(",\"upper\":", f);
            edan_json_num(f, r->run_upper);
            fputs(",\"layered\":", f);
            edan_json_num(f, r->run_layered);
            fputs("}}", f);
        }
        fputs("],\"series\":[", f);
        for (int j = 0; j < st->n_series; j++) {
            const edan_series *s = &st->series[j];
            fprintf(f, "%s{\"requested_tau\":%" PRIu64 ",\"tau\":%" PRIu64 ",\"phases\":%zu,\"U\":", j ? "," : "",
                    s->requested_tau, s->tau, s->n);
            edan_json_u64_array(f, s->U, s->n);
            fputs(",\"started\":", f);
            edan_json_u64_array(f, s->started, s->n);
            fputs("}", f);
        }
        fputs("]}", f);
    }
    fputs("]", f);
}

void edan_report_series_csv(FILE *f, const edan_edag *e)
{
    fprintf(f, "configuration,cache,alpha,tau,phase,time,U,started\n");
    for (int k = 0; k < edan_edag_n_lanes(e); k++) {
        const edan_lane_stats *st = edan_edag_lane(e, k);
        const edan_lane_config *lc = &edan_edag_get_config(e)->lane[k];
        char cache[256];
        edan_cache_config_format(&lc->cache, cache, sizeof cache);
        for (int j = 0; j < st->n_series; j++) {
            const edan_series *s = &st->series[j];
            for (size_t i = 0; i < s->n; i++)
                fprintf(f, "%d,\"%s\",%" PRIu64 ",%" PRIu64 ",%zu,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", k + 1, cache,
                        lc->cost.alpha, s->tau, i, (uint64_t)i * s->tau, s->U[i], s->started[i]);
        }
    }
}

static void pct(char *buf, size_t cap, double base, double v)
{
    if (base > 0)
        snprintf(buf, cap, " (%.1f%%)", 100.0 * (base - v) / base);
    else
        buf[0] = '\0';
}

/* A configuration's label in the table: its cache (or "No cache"), and its alpha where the lanes differ. */
static void table_label(const edan_edag *e, int k, char *label, size_t cap)
{
    const edan_lane_config *lc = &edan_edag_get_config(e)->lane[k];
    char cache[256];
    edan_cache_config_format(&lc->cache, cache, sizeof cache);
    snprintf(label, cap, "%s", lc->cache.n_levels == 0 ? "No cache" : cache);
    if (edan_edag_n_lanes(e) > 1 && lc->cost.alpha != edan_edag_get_config(e)->lane[0].cost.alpha)
        snprintf(label + strlen(label), cap - strlen(label), " a=%" PRIu64, lc->cost.alpha);
}

void edan_report_table(FILE *f, const edan_edag *e, const edan_options *o)
{
    int base = -1;
    for (int k = 0; k < edan_edag_n_lanes(e) && base < 0; k++)
        if (edan_edag_get_config(e)->lane[k].cache.n_levels == 0)
            base = k;
    edan_metrics bm = {0};
    const edan_lane_stats *bs = NULL;
    if (base >= 0) {
        bs = edan_edag_lane(e, base);
        edan_metrics_compute(bs, edan_edag_get_config(e)->lane[base].cost.alpha, &o->metrics, &bm);
    }
    fprintf(f, "m = %" PRIu64 ", alpha0 = %g, clock %g GHz%s\n", o->metrics.m[0], o->metrics.alpha0,
            o->metrics.clock_ghz, base < 0 ? " (no configuration without a cache: no reductions)" : "");
    /* the Cache column holds the longest label whole (at least the paper's 44 characters) */
    int width = 44;
    for (int k = 0; k < edan_edag_n_lanes(e); k++) {
        char label[300];
        table_label(e, k, label, sizeof label);
        if ((int)strlen(label) > width)
            width = (int)strlen(label);
    }
    fprintf(f, "%-*s %22s %18s %22s %18s %16s\n", width, "Cache", "W", "D", "lambda", "Lambda", "B [GB/s]");
    for (int k = 0; k < edan_edag_n_lanes(e); k++) {
        const edan_lane_stats *st = edan_edag_lane(e, k);
        const edan_lane_config *lc = &edan_edag_get_config(e)->lane[k];
        edan_metrics mt;
        edan_metrics_compute(st, lc->cost.alpha, &o->metrics, &mt);
        char label[300];
        table_label(e, k, label, sizeof label);
        char w[64], d[64], l[64], L[64], b[64], pw[32] = "", pd[32] = "", pl[32] = "", pL[32] = "", pb[32] = "";
        if (bs && k != base) {
            pct(pw, sizeof pw, (double)bs->W, (double)st->W);
            pct(pd, sizeof pd, (double)bs->D, (double)st->D);
            pct(pl, sizeof pl, bm.per_m[0].lambda, mt.per_m[0].lambda);
            pct(pL, sizeof pL, bm.per_m[0].Lambda, mt.per_m[0].Lambda);
            pct(pb, sizeof pb, bm.bw_gbs, mt.bw_gbs);
        }
        snprintf(w, sizeof w, "%" PRIu64 "%s", st->W, pw);
        snprintf(d, sizeof d, "%" PRIu64 "%s", st->D, pd);
        snprintf(l, sizeof l, "%.0f%s", mt.per_m[0].lambda, pl);
        snprintf(L, sizeof L, "%.4f%s", mt.per_m[0].Lambda, pL);
        snprintf(b, sizeof b, "%.1f%s", mt.bw_gbs, pb);
        fprintf(f, "%-*s %22s %18s %22s %18s %16s\n", width, label, w, d, l, L, b);
    }
}
