#include "analysis/cache/cache.h"
#include "util/bigmem.h"
#include "util/parse.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

edan_cache_level_config edan_cache_level_default(uint64_t size)
{
    edan_cache_level_config l = {size, 64, 2, false, false};
    return l;
}

static int parse_level(const char *s, size_t len, edan_cache_level_config *l, int index, edan_error *err)
{
    const char *end = s + len;
    const char *comma = memchr(s, ',', len);
    const char *size_end = comma ? comma : end;
    uint64_t size;
    if (edan_parse_size(s, (size_t)(size_end - s), &size)) {
        edan_error_set(err, "cache level %d: size '%.*s' is not a size like 32K, 1M or 65536", index + 1,
                       (int)(size_end - s), s);
        return -1;
    }
    *l = edan_cache_level_default(size);
    const char *p = comma ? comma + 1 : end;
    while (p < end) {
        const char *q = memchr(p, ',', (size_t)(end - p));
        if (!q)
            q = end;
        const char *eq = memchr(p, '=', (size_t)(q - p));
        if (!eq) {
            edan_error_set(err, "cache level %d: '%.*s' is not key=value (keys: line, ways, write, alloc)", index + 1,
                           (int)(q - p), p);
            return -1;
        }
        size_t klen = (size_t)(eq - p), vlen = (size_t)(q - eq - 1);
        const char *v = eq + 1;
#define KEY(name) (klen == strlen(name) && !memcmp(p, name, klen))
#define VAL(name) (vlen == strlen(name) && !memcmp(v, name, vlen))
        if (KEY("line") || KEY("ways")) {
            uint64_t n;
            if (edan_parse_size(v, vlen, &n) || n == 0 || n > (1u << 20)) {
                edan_error_set(err, "cache level %d: %.*s='%.*s' is not a positive number", index + 1, (int)klen, p,
                               (int)vlen, v);
                return -1;
            }
            if (KEY("line"))
                l->line = (uint32_t)n;
            else
                l->ways = (uint32_t)n;
        } else if (KEY("write")) {
            if (VAL("back") || VAL("wb"))
                l->write_back = true;
            else if (VAL("through") || VAL("wt"))
                l->write_back = false;
            else {
                edan_error_set(err, "cache level %d: write='%.*s' must be 'back' or 'through'", index + 1, (int)vlen,
                               v);
                return -1;
            }
        } else if (KEY("alloc")) {
            if (VAL("yes") || VAL("1") || VAL("true"))
                l->write_allocate = true;
            else if (VAL("no") || VAL("0") || VAL("false"))
                l->write_allocate = false;
            else {
                edan_error_set(err, "cache level %d: alloc='%.*s' must be 'yes' or 'no'", index + 1, (int)vlen, v);
                return -1;
            }
        } else {
            edan_error_set(err, "cache level %d: unknown key '%.*s' (keys: line, ways, write, alloc)", index + 1,
                           (int)klen, p);
            return -1;
        }
#undef KEY
#undef VAL
        p = q + 1;
    }
    if (l->size == 0) {
        edan_error_set(err, "cache level %d: size 0", index + 1);
        return -1;
    }
    if (!is_pow2(l->line) || l->line < 4) {
        edan_error_set(err, "cache level %d: line size %u is not a power of two >= 4", index + 1, l->line);
        return -1;
    }
    if ((uint64_t)l->line * l->ways > l->size) {
        edan_error_set(err, "cache level %d: %u ways of %u-byte lines do not fit in %" PRIu64 " bytes", index + 1,
                       l->ways, l->line, l->size);
        return -1;
    }
    uint64_t sets = l->size / ((uint64_t)l->line * l->ways);
    if (!is_pow2(sets) || sets * l->line * l->ways != l->size) {
        edan_error_set(err,
                       "cache level %d: %" PRIu64 " bytes / (%u-byte lines x %u ways) is not a power-of-two "
                       "number of sets",
                       index + 1, l->size, l->line, l->ways);
        return -1;
    }
    return 0;
}

/* Named hierarchies (EDAN_CACHE_PRESETS in cache.h). */
static const struct {
    const char *name, *spec;
} presets[] = {
    {"paper", "32K,line=64,ways=2,write=through,alloc=no"},
    {"server", "32K,line=64,ways=8,write=back,alloc=yes+1M,line=64,ways=16,write=back,alloc=yes+"
               "32M,line=64,ways=16,write=back,alloc=yes"},
};

int edan_cache_config_parse(const char *text, edan_cache_config *out, edan_error *err)
{
    memset(out, 0, sizeof *out);
    if (!strcmp(text, "none") || !strcmp(text, "0"))
        return 0;
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (!strcmp(text, presets[i].name))
            return edan_cache_config_parse(presets[i].spec, out, err);
    const char *p = text;
    for (;;) {
        const char *plus = strchr(p, '+');
        size_t len = plus ? (size_t)(plus - p) : strlen(p);
        if (out->n_levels == EDAN_CACHE_MAX_LEVELS) {
            edan_error_set(err, "cache '%s': at most %d levels", text, EDAN_CACHE_MAX_LEVELS);
            return -1;
        }
        if (parse_level(p, len, &out->level[out->n_levels], out->n_levels, err))
            return -1;
        out->n_levels++;
        if (!plus)
            break;
        p = plus + 1;
    }
    for (int i = 1; i < out->n_levels; i++) {
        if (out->level[i].line < out->level[i - 1].line) {
            edan_error_set(err, "cache level %d: line size %u is smaller than level %d's %u", i + 1, out->level[i].line,
                           i, out->level[i - 1].line);
            return -1;
        }
    }
    return 0;
}

static void format_size(uint64_t v, char *buf, size_t cap)
{
    if (v >= (1ull << 30) && v % (1ull << 30) == 0)
        snprintf(buf, cap, "%" PRIu64 "G", v >> 30);
    else if (v >= (1ull << 20) && v % (1ull << 20) == 0)
        snprintf(buf, cap, "%" PRIu64 "M", v >> 20);
    else if (v >= (1ull << 10) && v % (1ull << 10) == 0)
        snprintf(buf, cap, "%" PRIu64 "K", v >> 10);
    else
        snprintf(buf, cap, "%" PRIu64, v);
}

void edan_cache_config_format(const edan_cache_config *c, char *buf, size_t cap)
{
    if (c->n_levels == 0) {
        snprintf(buf, cap, "none");
        return;
    }
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < c->n_levels && used < cap; i++) {
        const edan_cache_level_config *l = &c->level[i];
        char sz[32];
        format_size(l->size, sz, sizeof sz);
        int n = snprintf(buf + used, cap - used, "%s%s,line=%u,ways=%u,write=%s,alloc=%s", i ? "+" : "", sz, l->line,
                         l->ways, l->write_back ? "back" : "through", l->write_allocate ? "yes" : "no");
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

static unsigned log2u(uint64_t v)
{
    unsigned s = 0;
    while ((1ull << s) < v)
        s++;
    return s;
}

int edan_cache_init(edan_cache *c, const edan_cache_config *cfg, edan_error *err)
{
    memset(c, 0, sizeof *c);
    c->n_levels = cfg->n_levels;
    for (int i = 0; i < cfg->n_levels; i++) {
        const edan_cache_level_config *lc = &cfg->level[i];
        edan_cache_level *l = &c->level[i];
        uint64_t sets = lc->size / ((uint64_t)lc->line * lc->ways);
        /*
         * From 4 MiB on a mapping of its own in 4 KiB pages (util/bigmem.h):
         * only the pages of the sets a run touches take memory, so a cache of
         * many GiB (a memory-side cache) costs what the trace uses of it.
         */
        const uint64_t entries = sets * lc->ways;
        l->tags = entries <= SIZE_MAX / sizeof *l->tags ? edan_big_zalloc_sparse(entries * sizeof *l->tags) : NULL;
        if (!l->tags) {
            edan_error_set(err, "out of memory for a %" PRIu64 "-byte cache", lc->size);
            edan_cache_free(c);
            return -1;
        }
        l->set_mask = sets - 1;
        l->ways = lc->ways;
        l->line_shift = log2u(lc->line);
        l->write_back = lc->write_back;
        l->write_allocate = lc->write_allocate;
    }
    return 0;
}

void edan_cache_free(edan_cache *c)
{
    for (int i = 0; i < EDAN_CACHE_MAX_LEVELS; i++) {
        edan_cache_level *l = &c->level[i];
        edan_big_free(l->tags, (l->set_mask + 1) * l->ways * sizeof *l->tags);
        l->tags = NULL;
    }
    free(c->wb);
    c->wb = c->wb_cur = NULL;
}

int edan_cache_wb_enable(edan_cache *c, edan_error *err)
{
    if (!c->wb && !(c->wb = calloc(EDAN_CACHE_WB_SLOTS, sizeof *c->wb))) {
        edan_error_set(err, "out of memory for the cache's write-backs");
        return -1;
    }
    return 0;
}

/* ---- warm state (trace/exec.h, EDAN_EXEC_WARM) -------------------------- */

void edan_cache_warm(edan_cache *c, const edan_exec *recs, size_t n)
{
    if (!c->n_levels)
        return;
    /* the counts are the region's: what warming adds to them is taken back */
    uint64_t hits[EDAN_CACHE_MAX_LEVELS], misses[EDAN_CACHE_MAX_LEVELS], wbs[EDAN_CACHE_MAX_LEVELS];
    for (int l = 0; l < c->n_levels; l++) {
        hits[l] = c->level[l].hits;
        misses[l] = c->level[l].misses;
        wbs[l] = c->level[l].writebacks;
    }
    const uint64_t rd = c->ram_read_bytes, wr = c->ram_write_bytes;
    for (size_t i = 0; i < n; i++) {
        const edan_insn *in = recs[i].insn;
        if (in->mem == EDAN_MEM_NONE || (recs[i].flags & EDAN_EXEC_NO_ACCESS) || !in->mem_size)
            continue;
        edan_cache_classify(c, true, recs[i].addr, in->mem_size, in->mem != EDAN_MEM_STORE, in->mem != EDAN_MEM_LOAD);
    }
    for (int l = 0; l < c->n_levels; l++) {
        c->level[l].hits = hits[l];
        c->level[l].misses = misses[l];
        c->level[l].writebacks = wbs[l];
    }
    c->ram_read_bytes = rd;
    c->ram_write_bytes = wr;
}
