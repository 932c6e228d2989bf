/*
 * insn_count_plugin.c - a TCG plugin that counts the guest instructions a
 * program executes, all its threads together, and prints the count when it
 * exits: `qemu-x86_64 -plugin build/libedan_bench_insn_count.so build/edan ...`.
 * It counts edan's own x86-64 instructions where valgrind cannot: valgrind
 * 3.19 (Debian 12) stops at an AVX instruction the timing model's AVX2
 * build has (vmovq between xmm registers in its 66 0F D6 form), and QEMU
 * runs AVX2 code. Repeatable on a shared machine, as callgrind's counts are.
 */
#include <inttypes.h>
#include <stdio.h>

#include "plugin/qemu_plugin_api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = EDAN_QEMU_PLUGIN_VERSION;

static uint64_t count;

static void on_tb(unsigned int vcpu, void *n_insns)
{
    (void)vcpu;
    __atomic_fetch_add(&count, (uint64_t)(uintptr_t)n_insns, __ATOMIC_RELAXED);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb, QEMU_PLUGIN_CB_NO_REGS,
                                         (void *)(uintptr_t)qemu_plugin_tb_n_insns(tb));
}

static void on_exit(qemu_plugin_id_t id, void *ud)
{
    (void)id;
    (void)ud;
    char line[64];
    snprintf(line, sizeof line, "instructions %" PRIu64 "\n", __atomic_load_n(&count, __ATOMIC_RELAXED));
    qemu_plugin_outs(line);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
    (void)info;
    (void)argc;
    (void)argv;
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_exit, NULL);
    return 0;
}
