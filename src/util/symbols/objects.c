#include "util/symbols/objects.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

int edan_objmap_add(edan_objmap *m, const char *path, uint64_t lo, uint64_t hi, uint64_t base)
{
    const size_t len = path ? strlen(path) : 0;
    if (!len || len > EDAN_OBJMAP_MAX_PATH || lo >= hi)
        return -1;
    for (size_t i = 0; i < m->n; i++) {
        edan_object *o = &m->objs[i];
        if (o->base == base && !strcmp(o->path, path)) {
            /* readers on other threads load lo and hi atomically (edan_objmap_get) */
            if (lo < o->lo)
                __atomic_store_n(&o->lo, lo, __ATOMIC_RELAXED);
            if (hi > o->hi)
                __atomic_store_n(&o->hi, hi, __ATOMIC_RELAXED);
            return 0;
        }
    }
    if (m->n == EDAN_OBJMAP_MAX)
        return -1;
    /* room for all at once (40 KiB): an object never moves under a reader on another thread */
    if (!m->objs && !(m->objs = malloc(EDAN_OBJMAP_MAX * sizeof *m->objs)))
        return -1;
    char *copy = strdup(path);
    if (!copy)
        return -1;
    m->objs[m->n] = (edan_object){copy, lo, hi, base};
    __atomic_store_n(&m->n, m->n + 1, __ATOMIC_RELEASE); /* the object is complete before it is counted */
    return 0;
}

size_t edan_objmap_published(const edan_objmap *m)
{
    return m ? __atomic_load_n(&m->n, __ATOMIC_ACQUIRE) : 0;
}

edan_object edan_objmap_get(const edan_objmap *m, size_t i)
{
    const edan_object *o = &m->objs[i];
    return (edan_object){o->path, __atomic_load_n(&o->lo, __ATOMIC_RELAXED), __atomic_load_n(&o->hi, __ATOMIC_RELAXED),
                         o->base};
}

const edan_object *edan_objmap_find(const edan_objmap *m, uint64_t addr)
{
    for (size_t i = 0; m && i < m->n; i++)
        if (addr >= m->objs[i].lo && addr < m->objs[i].hi)
            return &m->objs[i];
    return NULL;
}

void edan_objmap_free(edan_objmap *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->objs[i].path);
    free(m->objs);
    m->objs = NULL;
    m->n = 0;
}

/* One file's mappings as they are listed together (a group): added when the group ends, unless one is executable. */
typedef struct scan_group {
    char path[EDAN_OBJMAP_MAX_PATH + 1];
    uint64_t lo, hi, base;
    bool exec, open;
} scan_group;

static void group_end(edan_objmap *m, scan_group *g)
{
    if (g->open && !g->exec)
        edan_objmap_add(m, g->path, g->lo, g->hi, g->base);
    g->open = false;
}

int edan_objmap_scan(edan_objmap *m, uint64_t guest_base, dev_t skip_dev, ino_t skip_ino)
{
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f)
        return -1;
    const size_t before = m->n;
    char line[EDAN_OBJMAP_MAX_PATH + 160];
    /*
     * A file's mappings are listed together, its offset-0 mapping first,
     * where its base is. The emulator's own libraries are mapped too, and
     * may lie above guest_base (it is 0 for x86-64 on x86-64): the host
     * runs their code, so one of their mappings is executable; the guest's
     * code is translated, so none of a guest object's mappings is.
     */
    static scan_group g; /* 4 KiB: off the stack of QEMU's thread */
    g.open = false;
    while (fgets(line, sizeof line, f)) {
        unsigned long long lo, hi, off, inode;
        unsigned maj, mnr;
        char perms[8];
        int path_at = 0;
        if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &lo, &hi, perms, &off, &maj, &mnr, &inode, &path_at) !=
                7 ||
            !path_at || line[path_at] != '/' || !inode || lo < guest_base ||
            (makedev(maj, mnr) == skip_dev && inode == (unsigned long long)skip_ino)) {
            group_end(m, &g);
            continue;
        }
        char *path = line + path_at;
        path[strcspn(path, "\n")] = '\0';
        if (off == 0 || !g.open || strcmp(g.path, path)) {
            group_end(m, &g);
            if (off != 0)
                continue; /* a file whose start is not mapped: no base to name its code from */
            snprintf(g.path, sizeof g.path, "%s", path);
            g.lo = lo - guest_base;
            g.hi = hi - guest_base;
            g.base = lo - guest_base;
            g.exec = false;
            g.open = true;
        }
        g.lo = lo - guest_base < g.lo ? lo - guest_base : g.lo;
        g.hi = hi - guest_base > g.hi ? hi - guest_base : g.hi;
        g.exec |= strchr(perms, 'x') != NULL;
    }
    group_end(m, &g);
    fclose(f);
    return (int)(m->n - before);
}
