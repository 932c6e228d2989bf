/*
 * plugin_clock.c - the time the traced program reads: a clock of its own,
 * the same in every run.
 *
 * QEMU's user mode passes clock_gettime and gettimeofday to the host, so a
 * program read the host's time, and a program that prints it before its
 * kernel (GAPBS's "Read Time", "Build Time") ran another number of
 * instructions in printf's digit loops each run: the warm records before
 * the region differed and so did the caches and the branch predictor the
 * region starts with (fits.gapbs-bfs: model slopes 324.4, 325.6 and 326.3
 * ns/ns from three recordings). Like gem5's syscall emulation, which
 * answers with its simulated time, the plugin answers with a clock of its
 * own: at a successful call's return (QEMU's syscall return callback) it
 * writes over the result in the guest's memory (guest address +
 * guest_base, with process_vm_writev, which fails instead of faulting)
 * EDAN_CLOCK_START plus EDAN_CLOCK_STEP_NS for every call made so far, for
 * every clock id. A program's time then goes forward 1 ms per reading,
 * whatever the host did; how the program ran is decided by the program
 * alone (docs/model.md, "The time the program reads"). time(2), times(2) and
 * getrusage(2) are not changed: they return in a register or are
 * rarely read to steer a program.
 */
#include <stdatomic.h>
#include <sys/uio.h>
#include <unistd.h>

#include "plugin/plugin_internal.h"
#include "plugin/plugin_syscall.h"

#define EDAN_CLOCK_START 1000000000ull /* seconds: 2001-09-09, for CLOCK_REALTIME as for the others */
#define EDAN_CLOCK_STEP_NS 1000000ull  /* one reading: 1 ms later than the previous one */
#define CLOCK_VCPUS 256                /* vCPUs with a call in progress each */

static struct {
    int64_t num;
    edan_syscall_kind kind; /* EDAN_SC_CLOCK_TIMESPEC, _TIMEVAL, or EDAN_SC_NONE: no clock call in progress */
    uint64_t ptr;
} pending[CLOCK_VCPUS];

static atomic_uint_fast64_t readings;

void edan_clock_enter(unsigned int vcpu, edan_syscall_kind kind, int64_t num, uint64_t a1, uint64_t a2)
{
    if (vcpu >= CLOCK_VCPUS)
        return;
    pending[vcpu].num = num;
    pending[vcpu].kind = EDAN_SC_NONE;
    if (kind == EDAN_SC_CLOCK_TIMESPEC) { /* clock_gettime(clockid, struct timespec *) */
        pending[vcpu].kind = kind;
        pending[vcpu].ptr = a2;
    } else if (kind == EDAN_SC_CLOCK_TIMEVAL) { /* gettimeofday(struct timeval *, struct timezone *) */
        pending[vcpu].kind = kind;
        pending[vcpu].ptr = a1;
    }
}

void edan_clock_return(unsigned int vcpu, int64_t num, int64_t ret)
{
    if (vcpu >= CLOCK_VCPUS || pending[vcpu].kind == EDAN_SC_NONE || pending[vcpu].num != num)
        return;
    const edan_syscall_kind kind = pending[vcpu].kind;
    pending[vcpu].kind = EDAN_SC_NONE;
    if (ret != 0 || !pending[vcpu].ptr || !P.guest_known)
        return;
    const uint64_t ns = (atomic_fetch_add(&readings, 1) + 1) * EDAN_CLOCK_STEP_NS;
    /* struct timespec and struct timeval on the 64-bit targets: two 64-bit fields, little-endian like the host */
    int64_t t[2] = {(int64_t)(EDAN_CLOCK_START + ns / 1000000000u), (int64_t)(ns % 1000000000u)};
    if (kind == EDAN_SC_CLOCK_TIMEVAL)
        t[1] /= 1000;
    struct iovec local = {t, sizeof t}, remote = {(void *)(uintptr_t)(pending[vcpu].ptr + P.guest_base), sizeof t};
    (void)process_vm_writev(getpid(), &local, 1, &remote, 1, 0);
}
