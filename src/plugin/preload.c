/*
 * preload.c - libedan_preload.so, which edan puts in QEMU's LD_PRELOAD so
 * that a program killed by a signal still gets its report.
 *
 * QEMU's user mode (7.2) ends a guest that dies by a signal with
 * kill(getpid(), sig) after resetting the signal to its default action,
 * and never calls its plugins' exit callbacks: the plugin's trace or
 * analysis would be lost. This library defines kill(): when the process
 * kills itself with a signal whose action is the default one that ends it,
 * the hook edan's plugin set (edan_preload_set_fatal_hook, found with
 * dlsym) runs first, once, and the plugin finishes as at a normal exit.
 * Every other kill() is the system call unchanged. The library needs
 * nothing but the C library, so any wrapper QEMU is started through may
 * load it harmlessly.
 */
#include <signal.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

static void (*fatal_hook)(int sig);

EXPORT void edan_preload_set_fatal_hook(void (*hook)(int sig));
EXPORT int kill(pid_t pid, int sig);

void edan_preload_set_fatal_hook(void (*hook)(int sig))
{
    fatal_hook = hook;
}

/* Signals whose default action is not to end the process. */
static int ends_process(int sig)
{
    return sig > 0 && sig != SIGCHLD && sig != SIGCONT && sig != SIGSTOP && sig != SIGTSTP && sig != SIGTTIN &&
           sig != SIGTTOU && sig != SIGURG && sig != SIGWINCH;
}

int kill(pid_t pid, int sig)
{
    void (*hook)(int) = fatal_hook;
    struct sigaction now;
    if (hook && pid == getpid() && ends_process(sig) && sigaction(sig, NULL, &now) == 0 &&
        !(now.sa_flags & SA_SIGINFO) && now.sa_handler == SIG_DFL) {
        fatal_hook = NULL;
        hook(sig);
    }
    return (int)syscall(SYS_kill, pid, sig);
}
