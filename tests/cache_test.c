/*
 * Golden cases for the cache model, worked out by hand from the rules in
 * cache.h / docs/model.md, plus the cache and cost option parsers.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "analysis/cache/cache.h"
#include "analysis/edag/cost.h"
#include "check.h"

static edan_cache make(const char *spec)
{
    edan_cache_config cfg;
    edan_error err = {0};
    int rc = edan_cache_config_parse(spec, &cfg, &err);
    CHECK(rc == 0, "parse %s: %s", spec, err.msg);
    edan_cache c;
    CHECK(edan_cache_init(&c, &cfg, &err) == 0, "init %s", err.msg);
    return c;
}

#define LOAD(a) edan_cache_access(&c, (a), 8, false)
#define STORE(a) edan_cache_access(&c, (a), 8, true)

/*
 * The LRU shift of a hit past the first way (edan_cache_probe_way(), edan_cache_shift_down(): a jump into moves up
 * to 15 entries, memmove past them) and the first level's probe of the other ways (edan_cache_try_first_level(),
 * unrolled for 8 ways) against references: a move to the front written out, and edan_cache_access_general(), which
 * probes every level with its own loop, on a twin cache. Random lines over few sets, so that most accesses hit.
 */
static void test_probe_against_references(void)
{
    uint64_t set[32], ref[32];
    long bad = 0;
    for (uint32_t ways = 2; ways <= 32; ways++) {
        for (uint32_t w = 1; w < ways; w++) {
            for (uint32_t k = 0; k < ways; k++)
                set[k] = ref[k] = edan_cache_tag(100 + k, k & 1);
            const bool store = w & 1;
            const bool hit = edan_cache_probe_way(set, w, 100 + w, store);
            const uint64_t t = ref[w] | (store ? EDAN_TAG_DIRTY : 0);
            for (uint32_t k = w; k > 0; k--)
                ref[k] = ref[k - 1];
            ref[0] = t;
            bad += !hit || memcmp(set, ref, ways * sizeof *set) != 0;
        }
    }
    CHECK(bad == 0, "a hit in way w moves the w ways before it one down: %ld of 496 differ", bad);
    static const char *const specs[] = {
        "4K,line=64,ways=8,write=back,alloc=yes+32K,line=64,ways=16,write=back,alloc=yes",
        "4K,line=64,ways=8,write=through,alloc=no+16K,line=64,ways=8,write=back,alloc=yes",
        "2K,line=64,ways=2,write=back,alloc=yes+8K,line=64,ways=4,write=back,alloc=yes",
        "8K,line=64,ways=16,write=back,alloc=yes+64K,line=64,ways=16,write=back,alloc=yes",
        "3K,line=64,ways=12,write=back,alloc=yes+24K,line=64,ways=12,write=back,alloc=yes", /* 48K/12 as 4 sets */
    };
    srand(39);
    for (size_t s = 0; s < sizeof specs / sizeof *specs; s++) {
        edan_cache a = make(specs[s]), b = make(specs[s]);
        long diff = 0;
        for (int i = 0; i < 200000; i++) {
            const uint64_t addr = (uint64_t)(rand() % 3000) * 24, size = rand() % 4 ? 8 : 16;
            const bool store = rand() % 3 == 0;
            const edan_cache_result x = edan_cache_access(&a, addr, (uint32_t)size, store),
                                    y = edan_cache_access_general(&b, addr, (uint32_t)size, store);
            diff += x.reads_ram != y.reads_ram || x.writes_ram != y.writes_ram || x.ram_bytes != y.ram_bytes ||
                    x.level != y.level;
        }
        for (int l = 0; l < a.n_levels; l++) {
            const edan_cache_level *la = &a.level[l], *lb = &b.level[l];
            const size_t entries = (size_t)(la->set_mask + 1) * la->ways;
            diff += memcmp(la->tags, lb->tags, entries * sizeof *la->tags) != 0 || la->hits != lb->hits ||
                    la->misses != lb->misses || la->writebacks != lb->writebacks;
        }
        CHECK(diff == 0, "%s: edan_cache_access() against the general path: %ld differences", specs[s], diff);
        edan_cache_free(&a);
        edan_cache_free(&b);
    }
}

int main(void)
{
    test_probe_against_references();
    edan_cache_result r;

    /* The paper's policy: write-through, no write-allocate. 256 B, 64 B lines, 2 ways: 2 sets. */
    edan_cache c = make("256,line=64,ways=2");
    r = LOAD(0x0);
    CHECK(r.reads_ram && !r.writes_ram && r.ram_bytes == 64, "cold load misses and fills a line");
    r = LOAD(0x8);
    CHECK(!r.reads_ram && r.ram_bytes == 0, "same line hits");
    r = STORE(0x0);
    CHECK(r.writes_ram && !r.reads_ram && r.ram_bytes == 8, "write-through store always reaches RAM");
    CHECK_EQ_U64(c.ram_write_bytes, 8, "the store's bytes are written to RAM");
    r = LOAD(0x0);
    CHECK(!r.reads_ram, "the store hit kept the line");
    r = LOAD(0x80); /* set 0, second way */
    CHECK(r.reads_ram, "0x80 misses");
    r = LOAD(0x0); /* 0x0 becomes MRU */
    CHECK(!r.reads_ram, "0x0 still present");
    r = LOAD(0x100); /* set 0: evicts the LRU line, 0x80 */
    CHECK(r.reads_ram, "0x100 misses");
    r = LOAD(0x0);
    CHECK(!r.reads_ram, "0x0 survived (it was MRU)");
    r = LOAD(0x80);
    CHECK(r.reads_ram, "0x80 was evicted (LRU)");
    r = STORE(0x200);
    CHECK(r.writes_ram && !r.reads_ram, "store miss without write-allocate goes to RAM");
    CHECK_EQ_U64(c.ram_write_bytes, 16, "both stores' bytes are written to RAM");
    CHECK_EQ_U64(c.level[0].hits, 5, "hits so far: 0x8, the store to 0x0 and three loads of 0x0");
    CHECK_EQ_U64(c.level[0].misses, 5, "misses so far: 0x0, 0x80 twice, 0x100 and the store to 0x200");
    r = LOAD(0x200);
    CHECK(r.reads_ram, "...and does not allocate");
    /* set 0 now holds 0x200 and 0x80: loading 0x200 evicted line 0 */
    r = edan_cache_access(&c, 0x3c, 8, false); /* crosses into line 0x40 (set 1) */
    CHECK(r.reads_ram && r.ram_bytes == 128, "line-crossing load misses both lines");
    r = edan_cache_access(&c, 0x3c, 8, false);
    CHECK(!r.reads_ram && r.ram_bytes == 0, "now both lines hit");
    CHECK_EQ_U64(c.level[0].misses, 8, "WT misses (the store miss counts)");
    edan_cache_free(&c);

    /* Write-back, write-allocate. */
    c = make("256,line=64,ways=2,write=back,alloc=yes");
    r = STORE(0x0);
    CHECK(r.reads_ram && !r.writes_ram && r.ram_bytes == 64, "WB store miss fetches the line");
    r = STORE(0x0);
    CHECK(!r.reads_ram && !r.writes_ram && r.ram_bytes == 0, "WB store hit stays in cache");
    r = LOAD(0x80);
    CHECK(r.reads_ram && r.ram_bytes == 64, "second way");
    r = LOAD(0x100); /* evicts dirty 0x0 */
    CHECK(r.reads_ram && !r.writes_ram && r.ram_bytes == 128, "fill + dirty write-back, %u bytes", r.ram_bytes);
    CHECK_EQ_U64(c.ram_write_bytes, 64, "one write-back");
    CHECK_EQ_U64(c.level[0].writebacks, 1, "write-backs");
    edan_cache_free(&c);

    /* Write-back without write-allocate. */
    c = make("256,line=64,ways=2,write=back,alloc=no");
    r = STORE(0x0);
    CHECK(r.writes_ram && !r.reads_ram && r.ram_bytes == 8, "store miss goes around the cache");
    r = LOAD(0x0);
    CHECK(r.reads_ram, "not allocated");
    r = STORE(0x0);
    CHECK(!r.writes_ram && r.ram_bytes == 0, "store hit is absorbed");
    edan_cache_free(&c);

    /* Two levels: write-through L1 over a write-back, write-allocate L2. */
    c = make("128,line=64,ways=1+1K,line=64,ways=2,write=back,alloc=yes");
    r = STORE(0x0);
    CHECK(r.reads_ram && !r.writes_ram, "store passes L1, allocates in L2 with a fetch from RAM");
    r = STORE(0x0);
    CHECK(!r.reads_ram && !r.writes_ram, "second store is absorbed by L2");
    r = LOAD(0x0);
    CHECK(!r.reads_ram, "L1 miss, L2 hit");
    r = LOAD(0x0);
    CHECK(!r.reads_ram && c.level[0].hits == 1, "now an L1 hit");
    edan_cache_free(&c);

    /*
     * The tag format and LRU order, as the analyzer's look at level 0 uses
     * them (edag_sweep.c): a 4-way set, filled with lines 1 to 4.
     */
    uint64_t set[4] = {0, 0, 0, 0};
    CHECK(!edan_cache_mru_holds(set, 0) && !edan_cache_tag_dirty(set[0]), "an entry of 0 holds no line, not even 0");
    for (uint64_t line = 1; line <= 4; line++)
        CHECK_EQ_U64(edan_cache_set_insert(set, 4, line, line == 1), 0, "no victim while the set fills");
    CHECK(edan_cache_mru_holds(set, 4) && edan_cache_tag_holds(set[3], 1), "MRU first, the oldest last");
    CHECK(edan_cache_tag_dirty(set[3]) && !edan_cache_tag_dirty(set[0]), "line 1 was filled dirty");
    CHECK(!edan_cache_probe_way(set, 1, 4, false) && edan_cache_probe_way(set, 2, 2, true), "way 2 holds line 2");
    CHECK(edan_cache_tag_holds(set[0], 2) && edan_cache_tag_holds(set[1], 4) && edan_cache_tag_holds(set[2], 3) &&
              edan_cache_tag_dirty(set[0]),
          "a hit in way 2 moves it to the front, the ways before it one down, and a store makes it dirty");
    CHECK(edan_cache_mru_hit(set, 2, false) && !edan_cache_mru_hit(set, 4, true) && !edan_cache_tag_dirty(set[1]),
          "only the MRU entry hits the MRU check");
    const uint64_t victim = edan_cache_set_insert(set, 4, 5, false);
    CHECK(edan_cache_tag_dirty(victim) && edan_cache_tag_line(victim) == 1, "the LRU line is the victim: %" PRIx64,
          victim);
    CHECK(edan_cache_set(set, 1, 2, 3) == set + 2, "set 1 of 2-way sets starts at entry 2");

    /*
     * A clean victim keeps its line young in the level below (gem5's
     * CleanEvict). L1: one 64-byte line; L2: one set of two ways. Load A,
     * then B: L2 [B, A], and A leaving the L1 clean makes it L2's most
     * recently used: [A, B]. C's fill evicts B, the least recently used
     * (without the rule it would evict A), and A is still in the L2.
     */
    c = make("64,line=64,ways=1,write=back,alloc=yes+128,line=64,ways=2,write=back,alloc=yes");
    LOAD(0x000);
    LOAD(0x040);
    r = LOAD(0x080);
    CHECK(r.reads_ram && r.level == 2, "C comes from RAM");
    r = LOAD(0x000);
    CHECK(!r.reads_ram && r.level == 1 && r.ram_bytes == 0, "A's clean eviction kept it in the L2: level %u", r.level);
    r = LOAD(0x040);
    CHECK(r.reads_ram && r.level == 2, "B was the L2's victim: level %u", r.level);
    CHECK_EQ_U64(c.level[1].hits, 1, "the touches count no hits at the L2");
    CHECK_EQ_U64(c.level[1].misses, 4, "L2 misses: A, B, C, then B again");
    edan_cache_free(&c);
    /* A dirty victim is written back instead, which makes it the L2's most recently used as well. */
    c = make("64,line=64,ways=1,write=back,alloc=yes+128,line=64,ways=2,write=back,alloc=yes");
    STORE(0x000);
    LOAD(0x040);
    LOAD(0x080);
    r = LOAD(0x000);
    CHECK(!r.reads_ram && r.level == 1, "A's write-back kept it in the L2: level %u", r.level);
    edan_cache_free(&c);
    /*
     * A dirty line read from the L2 goes up dirty (gem5's mostly inclusive
     * cache passes it Modified and keeps a clean copy), and a whole line
     * written back is allocated without a read. L1: two sets of one way (A
     * and C in set 0, B in set 1); L2: one set of two ways. A stored, then
     * written back by C's fill: the L2 holds it dirty. A read again: dirty in
     * the L1, clean in the L2, where C's clean eviction leaves it the least
     * recently used. B's fill evicts it from the L2 without a write-back; C's
     * read then evicts it from the L1 dirty, and its write-back puts it into
     * the L2 again (without reading it), where the next read of A finds it.
     * Before the rule, the L2 wrote A back to RAM, the L1 dropped its clean
     * copy, and A came from RAM.
     */
    c = make("128,line=64,ways=1,write=back,alloc=yes+128,line=64,ways=2,write=back,alloc=yes");
    STORE(0x000);
    LOAD(0x080);
    r = LOAD(0x000);
    CHECK(!r.reads_ram && r.level == 1, "A from the L2: level %u", r.level);
    CHECK(edan_cache_tag_dirty(edan_cache_level_set(&c.level[0], 0)[0]) &&
              !edan_cache_tag_dirty(edan_cache_level_set(&c.level[1], 0)[1]),
          "A dirty in the L1, clean (and least recently used) in the L2");
    const uint64_t written = c.ram_write_bytes;
    r = LOAD(0x040);
    CHECK(r.reads_ram && r.level == 2 && r.ram_bytes == 64, "B's fill evicts the L2's clean A: %u bytes", r.ram_bytes);
    CHECK_EQ_U64(c.ram_write_bytes, written, "no write-back to RAM");
    r = LOAD(0x080);
    CHECK(!r.reads_ram && r.level == 1 && r.ram_bytes == 0,
          "C from the L2, A's write-back allocated without a read: "
          "level %u, %u bytes",
          r.level, r.ram_bytes);
    r = LOAD(0x000);
    CHECK(!r.reads_ram && r.level == 1 && r.ram_bytes == 0, "A's write-back kept it: level %u", r.level);
    edan_cache_free(&c);

    /* Parser errors. */
    edan_cache_config cfg;
    edan_error err = {0};
    CHECK(edan_cache_config_parse("1000", &cfg, &err) == -1 && strstr(err.msg, "power-of-two number of sets"), "%s",
          err.msg);
    edan_error_clear(&err);
    CHECK(edan_cache_config_parse("32K,ways=3", &cfg, &err) == -1, "3 ways of 64 B in 32 KiB");
    edan_error_clear(&err);
    /* a size that is no power of two with a power-of-two number of sets: Zen 5's and Golden Cove's L1d */
    CHECK(edan_cache_config_parse("48K,ways=12", &cfg, &err) == 0 && cfg.level[0].size == 48 * 1024 &&
              cfg.level[0].ways == 12,
          "48 KiB of 12 ways (64 sets): %s", err.msg);
    edan_error_clear(&err);
    {
        edan_cache c48 = make("48K,line=64,ways=12,write=back,alloc=yes");
        CHECK(c48.level[0].set_mask == 63, "48 KiB of 12 ways: 64 sets, mask %" PRIu64,
              (uint64_t)c48.level[0].set_mask);
        edan_cache_free(&c48);
    }
    CHECK(edan_cache_config_parse("48K,ways=8", &cfg, &err) == -1 && strstr(err.msg, "power-of-two number of sets"),
          "48 KiB of 8 ways (96 sets): %s", err.msg);
    edan_error_clear(&err);
    CHECK(edan_cache_config_parse("32K,colour=red", &cfg, &err) == -1 && strstr(err.msg, "colour"), "%s", err.msg);
    edan_error_clear(&err);
    CHECK(edan_cache_config_parse("64,line=128", &cfg, &err) == -1, "line larger than the cache");
    edan_error_clear(&err);
    CHECK(edan_cache_config_parse("32KiB+1M,ways=16,write=back,alloc=yes", &cfg, &err) == 0, "%s", err.msg);
    char text[256];
    edan_cache_config_format(&cfg, text, sizeof text);
    CHECK(!strcmp(text, "32K,line=64,ways=2,write=through,alloc=no+1M,line=64,ways=16,write=back,alloc=yes"),
          "canonical form: %s", text);
    edan_cache_config again;
    char text2[256] = "";
    CHECK(edan_cache_config_parse(text, &again, &err) == 0, "%s", err.msg);
    edan_cache_config_format(&again, text2, sizeof text2);
    CHECK(again.n_levels == 2 && again.level[1].ways == 16 && again.level[1].write_back && !strcmp(text, text2),
          "canonical form parses back: %s", text2);

    /* Cost tables. */
    edan_cost_model cost;
    edan_cost_default(&cost);
    CHECK(cost.alpha == 200 && cost.cls[EDAN_CLASS_FDIV] == 1, "defaults");
    char path[] = "/tmp/edan_cost_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs("# a cost table\nfdiv 20\nfsqrt=30\n\nhit 2  # cache hits\nram 300\n", f);
    fclose(f);
    CHECK(edan_cost_load(&cost, path, &err) == 0, "%s", err.msg);
    CHECK(cost.cls[EDAN_CLASS_FDIV] == 20 && cost.cls[EDAN_CLASS_FSQRT] == 30 && cost.cls[EDAN_CLASS_LOAD] == 2 &&
              cost.cls[EDAN_CLASS_STORE] == 2 && cost.alpha == 300,
          "cost file values");
    f = fopen(path, "w");
    fputs("fdiv 20\nfrobnicate 3\n", f);
    fclose(f);
    edan_error_clear(&err);
    CHECK(edan_cost_load(&cost, path, &err) == -1 && strstr(err.msg, ":2:") && strstr(err.msg, "frobnicate"),
          "bad key names the line: %s", err.msg);
    f = fopen(path, "w");
    fputs("fdiv -4\n", f);
    fclose(f);
    edan_error_clear(&err);
    CHECK(edan_cost_load(&cost, path, &err) == -1 && strstr(err.msg, ":1:"), "negative cost: %s", err.msg);
    unlink(path);

    /*
     * A cache of 64 GiB (a memory-side cache): 8 GiB of tags, of which a run
     * takes only the pages of the sets it touches. The fuzzer found a machine
     * file with a 32 GiB L1i whose tags were one allocation of 4 GiB.
     */
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    c = make("64G,line=64,ways=16");
    for (uint64_t a = 0; a < 4096; a++)
        edan_cache_access(&c, a * 4096 * 64, 8, false);
    r = LOAD(0);
    CHECK(!r.reads_ram, "a 64 GiB cache keeps the 4096 lines of a stride");
    getrusage(RUSAGE_SELF, &after);
    CHECK(after.ru_maxrss - before.ru_maxrss < 256 * 1024, "a 64 GiB cache used %ld KiB more",
          after.ru_maxrss - before.ru_maxrss);
    edan_cache_free(&c);
    return check_summary();
}
