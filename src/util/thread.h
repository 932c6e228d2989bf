/*
 * thread.h - the threads edan starts (analysis, compression, lane groups).
 *
 * They run inside qemu-riscv64 when edan traces online, and QEMU's
 * linux-user emulation installs its own handler for every signal whose
 * default action is fatal. That handler assumes it runs on a thread that
 * emulates a guest CPU: on any other thread it dereferences a null CPU
 * pointer and the whole emulator dies with SIGSEGV. So a thread of edan's
 * must never be chosen to take a process-directed signal (SIGINT from a
 * terminal, SIGTERM, SIGXFSZ when a write passes the file-size limit):
 * it starts with every signal blocked, and the kernel delivers them to
 * QEMU's own threads, which hand them to the guest as the program expects.
 */
#ifndef EDAN_UTIL_THREAD_H
#define EDAN_UTIL_THREAD_H

#include <pthread.h>

/* pthread_create() with every signal blocked in the new thread; returns its result. */
int edan_thread_start(pthread_t *thread, void *(*start)(void *), void *arg);

/* Cores this process may run on: its affinity mask (taskset and containers narrow it), at least 1. */
int edan_available_cores(void);

#endif
