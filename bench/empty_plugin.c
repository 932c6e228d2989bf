/*
 * empty_plugin.c - the floor for online tracing: a TCG plugin that registers
 * an empty callback on every instruction and every memory access and does
 * nothing else. The benchmark reports edan's online time against it.
 */
#include "plugin/qemu_plugin_api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = EDAN_QEMU_PLUGIN_VERSION;

static void on_insn(unsigned int vcpu, void *ud)
{
    (void)vcpu;
    (void)ud;
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *ud)
{
    (void)vcpu;
    (void)info;
    (void)vaddr;
    (void)ud;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        qemu_plugin_register_vcpu_insn_exec_cb(insn, on_insn, QEMU_PLUGIN_CB_NO_REGS, NULL);
        qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
    }
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
    (void)info;
    (void)argc;
    (void)argv;
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    return 0;
}
