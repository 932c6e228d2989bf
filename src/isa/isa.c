/*
 * isa.c - what edan knows of each ISA without decoding: its name, its ELF
 * machine, its stack pointer's slot, and the key a native encoding is found
 * by in the code table (native.h).
 */
#include "isa/native.h"

#include <string.h>

#ifndef EM_X86_64
#define EM_X86_64 62
#endif
#ifndef EM_AARCH64
#define EM_AARCH64 183
#endif
#ifndef EM_RISCV
#define EM_RISCV 243
#endif

/* ---- ISAs -------------------------------------------------------------- */

static const char *const isa_names[EDAN_ISA_COUNT] = {"riscv64", "x86-64", "aarch64"};

int edan_isa_of_machine(unsigned e_machine)
{
    switch (e_machine) {
    case EM_RISCV:
        return EDAN_ISA_RISCV64;
    case EM_X86_64:
        return EDAN_ISA_X86_64;
    case EM_AARCH64:
        return EDAN_ISA_AARCH64;
    default:
        return -1;
    }
}

const char *edan_isa_name(int isa)
{
    return isa >= 0 && isa < EDAN_ISA_COUNT ? isa_names[isa] : NULL;
}

int edan_isa_by_name(const char *name)
{
    for (int i = 0; name && i < EDAN_ISA_COUNT; i++)
        if (!strcmp(name, isa_names[i]))
            return i;
    return -1;
}

uint8_t edan_isa_sp(int isa)
{
    return isa == EDAN_ISA_X86_64 ? EDAN_X86_SP : isa == EDAN_ISA_AARCH64 ? EDAN_A64_SP : EDAN_REG_X(2);
}

uint32_t edan_native_raw(int isa, const uint8_t *bytes, size_t n)
{
    if (isa == EDAN_ISA_AARCH64 && n >= 4)
        return (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ bytes[i]) * 16777619u;
    return h;
}
