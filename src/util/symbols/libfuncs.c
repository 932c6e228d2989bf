#include "util/symbols/libfuncs.h"

#include <stdlib.h>

#include "util/symbols/elf_symbols.h"

/* An object's functions, read at the first lookup in its code, and the caller's value of each. */
typedef struct lib_object {
    edan_elf elf;
    uint32_t *values; /* elf.n_funcs */
    int state;        /* 0: not read yet, 1: read, -1: unreadable */
} lib_object;

struct edan_libfuncs {
    const edan_objmap *objects;
    lib_object *objs; /* EDAN_OBJMAP_MAX, by the objects' index, allocated at the first library pc */
};

edan_libfuncs *edan_libfuncs_new(const edan_objmap *objects)
{
    edan_libfuncs *l = calloc(1, sizeof *l);
    if (l)
        l->objects = objects;
    return l;
}

uint32_t *edan_libfuncs_value(edan_libfuncs *l, uint64_t pc, bool *oom)
{
    *oom = false;
    const size_t n = l ? edan_objmap_published(l->objects) : 0; /* those named before pc's code ran */
    for (size_t i = 0; i < n; i++) {
        const edan_object o = edan_objmap_get(l->objects, i);
        if (pc < o.lo || pc >= o.hi)
            continue;
        if (!l->objs && !(l->objs = calloc(EDAN_OBJMAP_MAX, sizeof *l->objs))) {
            *oom = true;
            return NULL;
        }
        lib_object *ob = &l->objs[i];
        if (!ob->state) {
            edan_objmap one = {1, (edan_object *)&o};
            edan_error ignored = {0};
            ob->state = edan_elf_add_objects(&ob->elf, &one, &ignored) ? -1 : 1;
            if (ob->state > 0 && !(ob->values = malloc((ob->elf.n_funcs + 1) * sizeof *ob->values))) {
                ob->state = 0; /* read again at the next lookup */
                edan_elf_close(&ob->elf);
                *oom = true;
                return NULL;
            }
            for (size_t f = 0; ob->state > 0 && f < ob->elf.n_funcs; f++)
                ob->values[f] = EDAN_LIBFUNCS_UNSET;
        }
        const edan_elf_func *f = ob->state > 0 ? edan_elf_func_at(&ob->elf, pc) : NULL;
        return f && !f->span ? &ob->values[f - ob->elf.funcs] : NULL;
    }
    return NULL;
}

void edan_libfuncs_free(edan_libfuncs *l)
{
    if (!l)
        return;
    for (size_t i = 0; l->objs && i < EDAN_OBJMAP_MAX; i++)
        if (l->objs[i].state) {
            edan_elf_close(&l->objs[i].elf);
            free(l->objs[i].values);
        }
    free(l->objs);
    free(l);
}
