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

/*
 * The system calls the plugin acts on, by what it does with them: the one
 * table of their numbers is plugin_syscall.c's (x86-64's own numbers, and the
 * generic table RISC-V and AArch64 share).
 */
typedef enum {
    EDAN_SC_NONE,           /* none the plugin acts on */
    EDAN_SC_BUF,            /* writes one buffer, its second argument (read, pread64, recvfrom) */
    EDAN_SC_IOV,            /* fills an iovec array's buffers (readv, preadv, preadv2) */
    EDAN_SC_MSG,            /* fills a msghdr's iovec array (recvmsg) */
    EDAN_SC_CLOCK_TIMESPEC, /* clock_gettime(clockid, struct timespec *) */
    EDAN_SC_CLOCK_TIMEVAL,  /* gettimeofday(struct timeval *, struct timezone *) */
    EDAN_SC_EXIT_GROUP      /* exit_group(status) */
} edan_syscall_kind;

/* What system call number num is, for the traced program's ISA (edan_plug.isa). */
edan_syscall_kind edan_syscall_kind_of(int64_t num);

/* Whether the kernel's writes become records: the consumer warms (set at install, before the callbacks). */
void edan_syscall_enable(bool on);
/* Register the return callback (after install and every reset): the kernel's writes, when enabled, and the clock. */
void edan_syscall_watch(qemu_plugin_id_t id);
/* At a system call's entry (plugin_exit.c's callback, the plugin's one): notes the arguments of one that writes. */
void edan_syscall_enter(unsigned int vcpu, edan_syscall_kind kind, int64_t num, uint64_t a1, uint64_t a2, uint64_t a3);

/* The time the program reads (plugin_clock.c): a call's arguments at its entry, its result replaced at its return. */
void edan_clock_enter(unsigned int vcpu, edan_syscall_kind kind, int64_t num, uint64_t a1, uint64_t a2);
void edan_clock_return(unsigned int vcpu, int64_t num, int64_t ret);

#endif
