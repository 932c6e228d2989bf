/*
 * plugin_syscall.c - the memory system calls write into the traced
 * program's: read, pread64, readv, preadv, preadv2, recvfrom and recvmsg.
 *
 * On hardware the kernel's copy to user space leaves the bytes it wrote in
 * the core's caches, dirty, so a kernel that reads its input after a read()
 * of a file finds what still fits there; QEMU performs the copy itself, and
 * no instruction of the program makes those accesses. At the call's return
 * (QEMU's syscall return callback), when it succeeded, the plugin appends one
 * record per 64-byte line of [buf, buf + ret) in ascending order, the order
 * of the copy (edan_exec_kernel_write(), trace/exec.h): warm records, which
 * the caches take as stores and no result counts (docs/model.md, "Memory
 * the kernel writes"). For readv, preadv and recvmsg the bytes fill the
 * iovec array's buffers in order, ret of them in all; QEMU 7.2 has no
 * qemu_plugin_read_memory_vaddr, so the array is read where user mode maps
 * the guest's memory (guest address + guest_base), with process_vm_readv,
 * which fails instead of faulting. System calls are rare: the callbacks may
 * take a system call of their own, but append as the instructions do.
 *
 * The table of the system calls' numbers (sc_calls[]) is the plugin's only
 * one: the clock's calls (plugin_clock.c) and exit_group (plugin_exit.c)
 * are in it too, each ISA's number beside the others'.
 */
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "isa/native.h"

#include "plugin/plugin_internal.h"
#include "plugin/plugin_syscall.h"

/* The system calls the plugin acts on: numbers on x86-64, and in the generic table (RISC-V, AArch64). */
static const struct {
    int64_t x86_64, generic;
    edan_syscall_kind kind;
} sc_calls[] = {
    {0, 63, EDAN_SC_BUF},               /* read */
    {17, 67, EDAN_SC_BUF},              /* pread64 */
    {45, 207, EDAN_SC_BUF},             /* recvfrom */
    {19, 65, EDAN_SC_IOV},              /* readv */
    {295, 69, EDAN_SC_IOV},             /* preadv */
    {327, 286, EDAN_SC_IOV},            /* preadv2 */
    {47, 212, EDAN_SC_MSG},             /* recvmsg */
    {228, 113, EDAN_SC_CLOCK_TIMESPEC}, /* clock_gettime (plugin_clock.c) */
    {96, 169, EDAN_SC_CLOCK_TIMEVAL},   /* gettimeofday (plugin_clock.c) */
    {231, 94, EDAN_SC_EXIT_GROUP},      /* exit_group (plugin_exit.c) */
};

/* A linear search: system calls are rare next to instructions. */
edan_syscall_kind edan_syscall_kind_of(int64_t num)
{
    for (size_t i = 0; i < sizeof sc_calls / sizeof *sc_calls; i++)
        if ((P.isa == EDAN_ISA_X86_64 ? sc_calls[i].x86_64 : sc_calls[i].generic) == num)
            return sc_calls[i].kind;
    return EDAN_SC_NONE;
}

/* iovec entries read at most (Linux's IOV_MAX: a call with more fails) */
#define IOV_MAX_ENTRIES 1024

static struct {
    bool on;
    edan_syscall_kind kind; /* of the call in progress on vCPU 0; EDAN_SC_NONE: none that writes */
    int64_t num;
    uint64_t ptr, count; /* the buffer, or the iovec array and its length (SC_MSG: the msghdr) */
} sc;

void edan_syscall_enable(bool on)
{
    sc.on = on;
}

/* n bytes of guest memory at gaddr into out; false when not all of them are mapped. */
static bool guest_read(uint64_t gaddr, void *out, size_t n)
{
    struct iovec local = {out, n}, remote = {(void *)(uintptr_t)(gaddr + P.guest_base), n};
    return P.guest_known && process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)n;
}

/* The kernel wrote [buf, buf + len): a record per line, ascending. */
static void written(uint64_t buf, uint64_t len)
{
    if (!len)
        return;
    const uint64_t last = buf + len - 1 < buf ? UINT64_MAX : buf + len - 1;
    for (uint64_t line = buf & ~(uint64_t)(EDAN_KERNEL_LINE - 1);; line += EDAN_KERNEL_LINE) {
        if (P.n + 1 > BATCH)
            edan_plugin_flush();
        P.buf[P.n++] = edan_exec_kernel_write(line, 0);
        P.warmed++;
        if (last - line < EDAN_KERNEL_LINE)
            break;
    }
}

/* The iovec array at iov, of count entries, filled with total bytes in order. */
static void written_iov(uint64_t iov, uint64_t count, uint64_t total)
{
    for (uint64_t i = 0; i < count && i < IOV_MAX_ENTRIES && total; i++) {
        uint64_t v[2]; /* struct iovec on the 64-bit targets: base, length (little-endian like the host) */
        if (!guest_read(iov + 16 * i, v, sizeof v))
            return;
        const uint64_t n = v[1] < total ? v[1] : total;
        written(v[0], n);
        total -= n;
    }
}

void edan_syscall_enter(unsigned int vcpu, edan_syscall_kind kind, int64_t num, uint64_t a1, uint64_t a2, uint64_t a3)
{
    edan_clock_enter(vcpu, kind, num, a1, a2);
    if (!sc.on || vcpu || P.child)
        return; /* other threads' calls are not traced (and sc is vCPU 0's alone) */
    sc.kind = kind == EDAN_SC_BUF || kind == EDAN_SC_IOV || kind == EDAN_SC_MSG ? kind : EDAN_SC_NONE;
    sc.num = num;
    sc.ptr = a2;
    sc.count = a3;
}

static void on_return(qemu_plugin_id_t id, unsigned int vcpu, int64_t num, int64_t ret)
{
    (void)id;
    edan_clock_return(vcpu, num, ret);
    if (vcpu || sc.kind == EDAN_SC_NONE || num != sc.num || P.child)
        return;
    const edan_syscall_kind kind = sc.kind;
    sc.kind = EDAN_SC_NONE;
    if (ret <= 0)
        return; /* an error (-errno), or nothing written */
    /* without a filter the kernel's writes are the only warm records: in batches of their own (report.h) */
    const bool alone = !P.warming;
    if (alone && P.n)
        edan_plugin_flush();
    if (kind == EDAN_SC_BUF) {
        written(sc.ptr, (uint64_t)ret);
    } else if (kind == EDAN_SC_IOV) {
        written_iov(sc.ptr, sc.count, (uint64_t)ret);
    } else {
        uint64_t m[2]; /* struct msghdr: msg_iov at 16, msg_iovlen at 24 */
        if (guest_read(sc.ptr + 16, m, sizeof m))
            written_iov(m[0], m[1], (uint64_t)ret);
    }
    if (alone && P.n)
        edan_plugin_flush();
}

void edan_syscall_watch(qemu_plugin_id_t id)
{
    qemu_plugin_register_vcpu_syscall_ret_cb(id, on_return); /* the clock's (plugin_clock.c) and the writes' */
}
