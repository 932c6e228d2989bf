/*
 * plugin_syscall.h - the memory the kernel writes for the traced program
 * (plugin_syscall.c): a read() into its buffer puts the bytes there as
 * the kernel's copy does on hardware, so the analysis's caches take them
 * (EDAN_EXEC_KERNEL records, trace/exec.h; docs/model.md, "Memory the
 * kernel writes"). Only the plugin's own files include it.
 */
#ifndef EDAN_PLUGIN_PLUGIN_SYSCALL_H
#define EDAN_PLUGIN_PLUGIN_SYSCALL_H

#include <stdbool.h>
#include <stdint.h>

#include "plugin/qemu_plugin_api.h"

/* Whether the kernel's writes become records: the consumer warms (set at install, before the callbacks). */
void edan_syscall_enable(bool on);
/* Register the return callback (after install and every reset): the kernel's writes, when enabled, and the clock. */
void edan_syscall_watch(qemu_plugin_id_t id);
/* At a system call's entry (plugin_exit.c's callback, the plugin's one): notes the arguments of one that writes. */
void edan_syscall_enter(unsigned int vcpu, int64_t num, uint64_t a1, uint64_t a2, uint64_t a3);

/* The time the program reads (plugin_clock.c): a call's arguments at its entry, its result replaced at its return. */
void edan_clock_enter(unsigned int vcpu, int64_t num, uint64_t a1, uint64_t a2);
void edan_clock_return(unsigned int vcpu, int64_t num, int64_t ret);

#endif
