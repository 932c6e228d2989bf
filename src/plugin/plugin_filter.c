/*
 * plugin_filter.c - the function filter's address ranges: the program's
 * functions at the first translation, a shared object's as the plugin learns
 * it (a dynamically linked program's name it does not define, LIB:NAME),
 * and at exit the names found nowhere.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "util/symbols/symbols.h"

#include "plugin/plugin_internal.h"

int edan_filter_setup(const char *bin, edan_error *err)
{
    edan_elf elf;
    if (edan_elf_open(bin, &elf, err))
        return -1;
    /* a native program's from where QEMU mapped its file (QEMU's entry is the program loader's when it has one) */
    P.bias = !elf.is_pie ? 0 : P.isa != EDAN_ISA_RISCV64 ? P.native_bias : qemu_plugin_entry_code() - elf.entry;
    for (int i = 0; i < P.options.n_filter; i++) {
        size_t room = sizeof P.ranges / sizeof P.ranges[0] - P.n_ranges;
        char lib[512];
        /* a dynamically linked program's name it does not define, or LIB:NAME: in the shared objects it loads */
        const bool in_library = edan_elf_filter_library(P.options.filter[i], lib, sizeof lib) != NULL;
        size_t found = in_library ? 0 : edan_elf_find(&elf, bin, P.options.filter[i], P.ranges + P.n_ranges, room, err);
        if (!found && P.objects_wanted) {
            edan_error_clear(err);
            P.filter_pending[i] = true;
            continue;
        }
        if (!found) {
            edan_elf_close(&elf);
            return -1;
        }
        for (size_t k = 0; k < found && k < room; k++)
            P.ranges[P.n_ranges + k].name = NULL; /* names belong to elf, freed below */
        P.n_ranges += found < room ? found : room;
    }
    edan_elf_close(&elf);
    return 0;
}

void edan_filter_object(const edan_object *o)
{
    bool pending = false;
    for (int i = 0; i < P.options.n_filter; i++)
        pending |= P.filter_pending[i];
    if (!pending)
        return;
    edan_objmap one = {1, (edan_object *)o};
    edan_elf syms = {0};
    edan_error ignored = {0};
    const char *file = strrchr(o->path, '/') ? strrchr(o->path, '/') + 1 : o->path;
    if (edan_elf_add_objects(&syms, &one, &ignored)) {
        edan_elf_close(&syms);
        return;
    }
    for (int i = 0; i < P.options.n_filter; i++) {
        char lib[512];
        const char *name = edan_elf_filter_library(P.options.filter[i], lib, sizeof lib);
        if (!P.filter_pending[i] || (name && strncmp(file, lib, strlen(lib))))
            continue;
        const size_t room = sizeof P.ranges / sizeof P.ranges[0] - P.n_ranges;
        edan_elf_func *at = P.ranges + P.n_ranges;
        size_t found = edan_elf_find(&syms, o->path, name ? name : P.options.filter[i], at, room, &ignored);
        found = found < room ? found : room;
        size_t kept = 0;
        for (size_t k = 0; k < found; k++) {
            if (at[k].span)
                continue;
            /* ranges are the program's link addresses (+ P.bias where they run): a library's run where they are */
            at[kept] = at[k];
            at[kept].start -= P.bias;
            at[kept].end -= P.bias;
            at[kept].name = at[kept].plain = at[kept].symbol = NULL; /* names belong to syms, freed below */
            kept++;
        }
        P.n_ranges += kept;
        P.filter_found[i] |= kept > 0;
    }
    edan_elf_close(&syms);
}

int edan_filter_unfound(edan_error *err)
{
    for (int i = 0; i < P.options.n_filter; i++)
        if (P.filter_pending[i] && !P.filter_found[i]) {
            edan_error_set(err,
                           "%s: no function named '%s' in the program or in the %zu shared objects it loaded (a "
                           "library's function: --filter=LIB:NAME, e.g. libm.so:exp)",
                           P.binary[0] ? P.binary : "the program", P.options.filter[i], P.objects.n);
            return -1;
        }
    return 0;
}
