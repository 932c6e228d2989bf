/*
 * native_lse.c - AArch64's atomic memory operations (ARMv8.1 LSE: cas,
 * casp, swp, ld<op>, st<op>), which Capstone 4.0.2 does not decode at all.
 * glibc's outline atomics (__aarch64_cas4_acq, ...) run them where the CPU
 * has them, as QEMU's does: without this they were vertices without
 * registers or memory. Encodings from the Arm Architecture Reference Manual
 * (C6.2, "CAS", "CASP", "SWP", "LDADD" ...).
 */
#include "isa/native_lse.h"

#include <stdio.h>
#include <string.h>

enum { NONE = 255 };

/* A register's number (31: the zero register, none; as a base: sp, 31). */
static uint8_t reg_slot(unsigned r, bool base)
{
    return r < 31 || base ? (uint8_t)r : NONE;
}

static void add(uint8_t *set, uint8_t *n, uint8_t r)
{
    if (r != NONE)
        set[(*n)++] = r;
}

/* "w3", "x3", "wzr", "xzr", "sp" */
static const char *reg_text(char *buf, size_t cap, unsigned r, bool x, bool base)
{
    if (r == 31)
        snprintf(buf, cap, "%s", base ? "sp" : x ? "xzr" : "wzr");
    else
        snprintf(buf, cap, "%c%u", x ? 'x' : 'w', r);
    return buf;
}

bool edan_a64_lse_decode(uint32_t w, edan_a64_lse *out)
{
    memset(out, 0, sizeof *out);
    const unsigned size = w >> 30, rs = (w >> 16) & 31, rn = (w >> 5) & 31, rt = w & 31;
    const bool x = size == 3;
    const char *sfx = size == 0 ? "b" : size == 1 ? "h" : "";
    char a[8], b[8], c[8], d[8], n[8];
    out->base = reg_slot(rn, true);
    add(out->reads, &out->n_reads, out->base);
    if ((w & 0x3fa07c00u) == 0x08a07c00u) { /* CAS: Rs is compared and gets the old value, Rt stored */
        const bool acq = w >> 22 & 1, rel = w >> 15 & 1;
        out->size = (uint8_t)(1u << size);
        add(out->reads, &out->n_reads, reg_slot(rs, false));
        add(out->reads, &out->n_reads, reg_slot(rt, false));
        add(out->writes, &out->n_writes, reg_slot(rs, false));
        snprintf(out->text, sizeof out->text, "cas%s%s%s %s, %s, [%s]", acq ? "a" : "", rel ? "l" : "", sfx,
                 reg_text(a, sizeof a, rs, x, false), reg_text(b, sizeof b, rt, x, false),
                 reg_text(n, sizeof n, rn, true, true));
        return true;
    }
    if ((w & 0xbfa07c00u) == 0x08207c00u && !(rs & 1) && !(rt & 1)) { /* CASP: two registers each */
        const bool px = w >> 30 & 1, acq = w >> 22 & 1, rel = w >> 15 & 1;
        out->size = (uint8_t)(px ? 16 : 8);
        for (unsigned k = 0; k < 2; k++) {
            add(out->reads, &out->n_reads, reg_slot(rs + k, false));
            add(out->reads, &out->n_reads, reg_slot(rt + k, false));
            add(out->writes, &out->n_writes, reg_slot(rs + k, false));
        }
        snprintf(out->text, sizeof out->text, "casp%s%s %s, %s, %s, %s, [%s]", acq ? "a" : "", rel ? "l" : "",
                 reg_text(a, sizeof a, rs, px, false), reg_text(b, sizeof b, rs + 1, px, false),
                 reg_text(c, sizeof c, rt, px, false), reg_text(d, sizeof d, rt + 1, px, false),
                 reg_text(n, sizeof n, rn, true, true));
        return true;
    }
    const bool swp = (w & 0x3f20fc00u) == 0x38208000u, op = (w & 0x3f208c00u) == 0x38200000u;
    if (!swp && !op)
        return false;
    /* SWP and LD<op>: Rs is the operand, Rt gets the old value (ST<op>: Rt is the zero register) */
    static const char *const ops[8] = {"add", "clr", "eor", "set", "smax", "smin", "umax", "umin"};
    const bool acq = w >> 23 & 1, rel = w >> 22 & 1, store = op && rt == 31 && !acq;
    out->size = (uint8_t)(1u << size);
    add(out->reads, &out->n_reads, reg_slot(rs, false));
    add(out->writes, &out->n_writes, reg_slot(rt, false));
    if (store)
        snprintf(out->text, sizeof out->text, "st%s%s%s %s, [%s]", ops[w >> 12 & 7], rel ? "l" : "", sfx,
                 reg_text(a, sizeof a, rs, x, false), reg_text(n, sizeof n, rn, true, true));
    else
        snprintf(out->text, sizeof out->text, "%s%s%s%s %s, %s, [%s]", swp ? "swp" : "ld", swp ? "" : ops[w >> 12 & 7],
                 acq   ? (rel ? "al" : "a")
                 : rel ? "l"
                       : "",
                 sfx, reg_text(a, sizeof a, rs, x, false), reg_text(b, sizeof b, rt, x, false),
                 reg_text(n, sizeof n, rn, true, true));
    return true;
}
