/*
 * plugin_native.c - what the plugin does for x86-64 and AArch64 programs
 * (isa/native.h): their instructions' bytes, the load bias of a
 * dynamically linked program, and the warnings about what the decoder
 * could not see.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>

#include "isa/native.h"
#include "util/symbols/symbols.h"

#include "plugin/plugin_internal.h"

uint32_t edan_native_insn_id(struct qemu_plugin_insn *qi, const uint8_t *data, size_t size, uint64_t pc)
{
    /*
     * QEMU 7.2 gives an x86 instruction that crosses a page only part of
     * its bytes (and their count as its size). In user mode the guest's
     * memory is the host's at a fixed offset (haddr), where the whole
     * instruction is: an instruction whose bytes do not decode is read
     * there, as far as it is mapped (process_vm_readv stops at an unmapped
     * page instead of faulting).
     */
    uint8_t bytes[EDAN_MAX_ENC];
    const uint8_t *h = qemu_plugin_insn_haddr(qi);
    edan_insn insn;
    size = size < EDAN_MAX_ENC - 1 ? size : EDAN_MAX_ENC - 1;
    if (h && edan_native_decode(P.isa, data, size, pc, &insn) != EDAN_DECODE_OK) {
        struct iovec local = {bytes, EDAN_MAX_ENC - 1}, remote = {(void *)h, EDAN_MAX_ENC - 1};
        const ssize_t got = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
        if (got > (ssize_t)size) {
            data = bytes;
            size = (size_t)got;
        }
    }
    /* the program's own code at its link address (a position-independent program); a library's where it runs */
    if (pc >= P.native_lo && pc < P.native_hi)
        pc -= P.native_bias;
    else if (P.objects_wanted)
        edan_native_object_at(pc);
    const uint32_t raw = edan_native_raw(P.isa, data, size);
    const int64_t found = edan_code_table_find(P.code, pc, raw);
    if (found >= 0)
        return (uint32_t)found;
    edan_native_decode(P.isa, data, size, pc, &insn);
    insn.raw = raw; /* as found: the bytes read, whatever length the decoder took */
    if ((insn.native & EDAN_NATIVE_UNDECODED) && !P.unseen++)
        P.unseen_pc = pc;
    const uint32_t id = edan_code_table_add(P.code, &insn);
    if (insn.native & EDAN_NATIVE_TWO_PLACES) {
        /* its second part, the next id (slot.parts) */
        edan_insn second;
        edan_native_decode_part(P.isa, data, size, pc, 1, &second);
        second.raw = raw;
        edan_code_table_add(P.code, &second);
    }
    return id;
}

void edan_native_setup(uint64_t guest_base)
{
    /*
     * Guest memory is the host's at guest_base, and QEMU maps the program's
     * file there (file-backed, so its device and inode show in the host's
     * /proc/self/maps): the mapping of its offset 0 is its first segment,
     * at link address 0 in a position-independent executable.
     */
    P.native_ready = 1;
    const char *bin = qemu_plugin_path_to_binary();
    struct stat st;
    edan_elf elf;
    edan_error ignored = {0};
    if (!bin || stat(bin, &st) || edan_elf_open(bin, &elf, &ignored))
        return;
    const bool pie = elf.is_pie;
    P.objects_wanted = elf.is_dynamic;
    P.bin_dev = st.st_dev;
    P.bin_ino = st.st_ino;
    edan_elf_close(&elf);
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f)
        return;
    char line[4096 + 128];
    uint64_t lo_all = UINT64_MAX, hi_all = 0, base = UINT64_MAX;
    while (fgets(line, sizeof line, f)) {
        unsigned long long lo, hi, off, inode;
        unsigned maj, mnr;
        char perms[8];
        if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu", &lo, &hi, perms, &off, &maj, &mnr, &inode) != 7 ||
            inode != (unsigned long long)st.st_ino || makedev(maj, mnr) != st.st_dev || lo < guest_base)
            continue;
        lo_all = lo < lo_all ? lo : lo_all;
        hi_all = hi > hi_all ? hi : hi_all;
        if (off == 0 && lo < base)
            base = lo;
    }
    fclose(f);
    if (base == UINT64_MAX)
        return;
    /* a program that is not position-independent runs at its link addresses: its range only tells it apart */
    P.native_bias = pie ? base - guest_base : 0;
    P.native_lo = lo_all - guest_base;
    P.native_hi = hi_all - guest_base;
}

void edan_native_object_at(uint64_t pc)
{
    /*
     * At translation only: a scan reads the maps (a few dozen lines), once
     * per object loaded. Code in no file (generated at run time) would scan
     * again at each of its pages: a bounded number of fruitless scans.
     */
    enum { MAX_MISSES = 64 };
    if (edan_objmap_find(&P.objects, pc) || pc >> 12 == P.objects_miss_page || P.objects_misses >= MAX_MISSES)
        return;
    const size_t before = P.objects.n;
    edan_objmap_scan(&P.objects, P.guest_base, (dev_t)P.bin_dev, (ino_t)P.bin_ino);
    for (size_t k = before; k < P.objects.n; k++)
        edan_filter_object(&P.objects.objs[k]);
    if (!edan_objmap_find(&P.objects, pc)) {
        P.objects_miss_page = pc >> 12;
        P.objects_misses++;
    }
}

void edan_native_warnings(void)
{
    if (P.unseen)
        fprintf(stderr,
                "edan: warning: %" PRIu64 " static instruction%s (the first at 0x%" PRIx64
                ") unknown to the decoder: analysed without registers or memory\n",
                P.unseen, P.unseen == 1 ? "" : "s", P.unseen_pc);
}
