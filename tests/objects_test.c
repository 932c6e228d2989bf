/*
 * objects_test.c - the shared objects a program mapped (util/symbols/
 * objects.h) and their functions at run-time addresses
 * (edan_elf_add_objects): the map's merging and bounds, and real libraries
 * as Debian installs them: the AArch64 cross libm (stripped: its exported
 * symbols) and the host's (its debug file's full symbol table, libc6-dbg),
 * each function found where the file says plus the load address, the
 * object's code outside every symbol named after its file.
 *
 * objects_test [LIBRARY...]: the libraries to load (the first one readable
 * of each argument's ':'-separated alternatives).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "util/symbols/symbols.h"

static void map_rules(void)
{
    edan_objmap m = {0};
    CHECK(edan_objmap_add(&m, "/lib/a.so", 0x1000, 0x2000, 0x1000) == 0, "add");
    CHECK(edan_objmap_add(&m, "/lib/a.so", 0x3000, 0x4000, 0x1000) == 0 && m.n == 1 && m.objs[0].hi == 0x4000,
          "the same file at the same base grows: %zu objects, hi %#llx", m.n, (unsigned long long)m.objs[0].hi);
    CHECK(edan_objmap_add(&m, "/lib/a.so", 0x9000, 0xa000, 0x9000) == 0 && m.n == 2, "loaded twice: two objects");
    CHECK(edan_objmap_add(&m, "", 0x1, 0x2, 0) < 0 && edan_objmap_add(&m, "/x", 0x2, 0x2, 0) < 0 && m.n == 2,
          "an empty path or range is refused");
    CHECK(edan_objmap_find(&m, 0x2500) == &m.objs[0] && edan_objmap_find(&m, 0x4000) == NULL &&
              edan_objmap_find(&m, 0x9fff) == &m.objs[1] && edan_objmap_find(NULL, 0x1000) == NULL,
          "find");
    edan_objmap_free(&m);
    CHECK(m.n == 0 && m.objs == NULL, "free");
}

/* path loaded at base: its functions where they belong, its gaps named after it. */
static void library(const char *path)
{
    const uint64_t base = 0x7f1234560000ull;
    edan_object o = {(char *)path, base, base + (64u << 20), base};
    const edan_objmap m = {1, &o};
    edan_elf e;
    memset(&e, 0, sizeof e);
    edan_error err = {0};
    CHECK(edan_elf_add_objects(&e, &m, &err) == 0, "%s: %s", path, err.msg);
    CHECK(e.n_funcs > 100 && e.n_spans == 1, "%s: %zu functions, %zu spans", path, e.n_funcs, e.n_spans);
    edan_elf_func f[8];
    size_t n = edan_elf_find(&e, path, "exp", f, 8, &err);
    CHECK(n >= 1, "%s: exp not found: %s", path, err.msg);
    for (size_t i = 0; i < n && i < 8; i++) {
        CHECK(f[i].start > base && f[i].end <= o.hi && !f[i].span, "%s: exp at %#llx", path,
              (unsigned long long)f[i].start);
        const edan_elf_func *at = edan_elf_func_at(&e, f[i].start);
        CHECK(at && at->start == f[i].start && !at->span, "%s: the function at exp's start is %s", path,
              at ? at->name : "none");
    }
    /* sorted, versions left out of the names, and a gap between two functions is the object's */
    uint64_t gap = 0, covered = base;
    for (size_t i = 0; i < e.n_funcs; i++) {
        CHECK(i == 0 || e.funcs[i - 1].start <= e.funcs[i].start, "%s: unsorted at %zu", path, i);
        CHECK(!strchr(e.funcs[i].name, '@'), "%s: a versioned name %s", path, e.funcs[i].name);
        if (e.funcs[i].span)
            continue;
        if (!gap && e.funcs[i].start > covered + 16 && covered > base)
            gap = covered + 8;
        covered = e.funcs[i].end > covered ? e.funcs[i].end : covered;
    }
    const edan_elf_func *g = gap ? edan_elf_func_at(&e, gap) : NULL;
    CHECK(g && g->span && !strcmp(g->name, "(libm.so.6)"), "%s: the code at %#llx is %s", path, (unsigned long long)gap,
          g ? g->name : "nobody's");
    CHECK(edan_elf_func_at(&e, base - 1) == NULL && edan_elf_func_at(&e, o.hi) == NULL, "%s: outside", path);
    /* the functions of a map that grows as a stream names its objects: one value per function, none before the
       object is named, outside its functions or in its gaps */
    edan_objmap grows = {0};
    edan_libfuncs *l = edan_libfuncs_new(&grows);
    bool oom = false;
    CHECK(l && edan_libfuncs_value(l, f[0].start, &oom) == NULL && !oom, "%s: a function before its object is named",
          path);
    CHECK(edan_objmap_add(&grows, "/nowhere/libx.so", 0x1000, 0x2000, 0x1000) == 0 &&
              edan_objmap_add(&grows, path, o.lo, o.hi, o.base) == 0,
          "add");
    uint32_t *v = edan_libfuncs_value(l, f[0].start, &oom);
    const edan_elf_func *next = edan_elf_func_at(&e, f[0].end);
    CHECK(v && *v == EDAN_LIBFUNCS_UNSET && v == edan_libfuncs_value(l, f[0].end - 1, &oom) &&
              (!next || next->span || edan_libfuncs_value(l, f[0].end, &oom) != v),
          "%s: exp's value", path);
    if (v)
        *v = 7;
    CHECK(v && *edan_libfuncs_value(l, f[0].start + (f[0].end - f[0].start) / 2, &oom) == 7, "%s: the value kept",
          path);
    CHECK(edan_libfuncs_value(l, gap, &oom) == NULL && edan_libfuncs_value(l, 0x1800, &oom) == NULL &&
              edan_libfuncs_value(NULL, f[0].start, &oom) == NULL && !oom,
          "%s: no function in a gap, an unreadable object, without a map", path);
    edan_libfuncs_free(l);
    edan_objmap_free(&grows);
    edan_elf_close(&e);
}

int main(int argc, char **argv)
{
    map_rules();
    for (int i = 1; i < argc; i++) {
        char alternatives[4096];
        snprintf(alternatives, sizeof alternatives, "%s", argv[i]);
        const char *found = NULL;
        for (char *p = strtok(alternatives, ":"); p && !found; p = strtok(NULL, ":"))
            if (!access(p, R_OK))
                found = p;
        CHECK(found != NULL, "none of %s is installed", argv[i]);
        if (found)
            library(found);
    }
    return check_summary();
}
