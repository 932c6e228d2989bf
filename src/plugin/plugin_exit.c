/*
 * plugin_exit.c - how the traced program ends, for the report's
 * source.program_exit (report.h): the status its exit_group system call
 * passes (a signal that kills it is noted by edan_plugin.c's fatal-signal
 * hook). edan's own exit status is decided by edan, which waits for QEMU
 * (cli/qemu.c); this is what the report says of it.
 */
#include "plugin/plugin_internal.h"
#include "plugin/plugin_syscall.h"

#define P edan_plug

static void on_syscall(qemu_plugin_id_t id, unsigned int vcpu_index, int64_t num, uint64_t a1, uint64_t a2, uint64_t a3,
                       uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8)
{
    (void)id, (void)a4, (void)a5, (void)a6, (void)a7, (void)a8;
    const edan_syscall_kind kind = edan_syscall_kind_of(num); /* the one table of numbers (plugin_syscall.c) */
    edan_syscall_enter(vcpu_index, kind, num, a1, a2, a3);    /* QEMU takes one entry callback: the writes' too */
    if (kind != EDAN_SC_EXIT_GROUP || P.child)
        return;
    P.exit.known = true;
    P.exit.status = (int)(a1 & 0xff); /* what the parent's wait() sees */
    P.exit.signal = 0;
}

void edan_plugin_watch_exit(qemu_plugin_id_t id)
{
    qemu_plugin_register_vcpu_syscall_cb(id, on_syscall);
    edan_syscall_watch(id);
}
