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
    for (int i = 0; i < P.options.n_filter; i++) {
        if (!P.filter_pending[i])
            continue;
        const size_t room = sizeof P.ranges / sizeof P.ranges[0] - P.n_ranges;
        edan_elf_func *at = P.ranges + P.n_ranges;
        const size_t kept = edan_elf_find_in_object(o, P.options.filter[i], at, room);
        /* ranges are the program's link addresses (+ P.bias where they run): a library's run where they are */
        for (size_t k = 0; k < kept; k++) {
            at[k].start -= P.bias;
            at[k].end -= P.bias;
        }
        P.n_ranges += kept;
        P.filter_found[i] |= kept > 0;
    }
}

int edan_filter_unfound(edan_error *err)
{
    for (int i = 0; i < P.options.n_filter; i++)
        if (P.filter_pending[i] && !P.filter_found[i]) {
            edan_error_set(err,
                           "%s: no function named '%s' in the program or in the %zu shared objects whose code ran (a "
                           "library's function: --filter=LIB:NAME, e.g. libm.so:exp)",
                           P.binary[0] ? P.binary : "the program", P.options.filter[i], P.objects.n);
            return -1;
        }
    return 0;
}
