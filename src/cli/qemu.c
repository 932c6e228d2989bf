/*
 * qemu.c - running the traced program under QEMU's user-mode emulator for
 * its ISA (qemu-riscv64, qemu-x86_64, qemu-aarch64: the ELF header's
 * e_machine) with edan's plugin.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "isa/native.h"
#include "tool/graph/graph.h"
#include "util/files.h"
#include "util/symbols/symbols.h"

static char self_dir[PATH_MAX];

void cli_set_self_dir(const char *dir)
{
    snprintf(self_dir, sizeof self_dir, "%s", dir);
}

const char *cli_self_dir(void)
{
    return self_dir;
}

/* Beside edan (the build tree), else where make install puts it (PREFIX/lib/edan for PREFIX/bin/edan). */
static const char *find_plugin(const cli *c)
{
    if (c->plugin)
        return c->plugin;
    const char *env = getenv("EDAN_PLUGIN");
    if (env && *env)
        return env;
    static char path[PATH_MAX + 64];
    static char installed[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/libedan_plugin.so", self_dir);
    snprintf(installed, sizeof installed, "%s/../lib/edan/libedan_plugin.so", self_dir);
    return access(path, F_OK) && !access(installed, F_OK) ? installed : path;
}

/*
 * libedan_preload.so beside the plugin (src/plugin/preload.c), for QEMU's
 * LD_PRELOAD, with what LD_PRELOAD held: NULL when there is none or its
 * path holds a separator of LD_PRELOAD's list (the report of a program
 * killed by a signal is then lost, as edan says).
 */
static const char *preload_list(const char *plugin)
{
    static char list[2 * PATH_MAX + 64];
    char dir[PATH_MAX];
    if (strlen(plugin) >= sizeof dir)
        return NULL;
    memcpy(dir, plugin, strlen(plugin) + 1);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    char path[PATH_MAX + 32];
    if (snprintf(path, sizeof path, "%s/libedan_preload.so", slash ? dir : ".") >= (int)sizeof path)
        return NULL;
    if (access(path, R_OK) || strpbrk(path, " :"))
        return NULL;
    const char *had = getenv("LD_PRELOAD");
    snprintf(list, sizeof list, "%s%s%s", path, had && *had ? " " : "", had ? had : "");
    return list;
}

/* QEMU's user-mode emulator of each ISA (isa/native.h: edan_isa) */
static const char *const emulators[EDAN_ISA_COUNT] = {"qemu-riscv64", "qemu-x86_64", "qemu-aarch64"};
/* Debian's AArch64 libraries (libc6-arm64-cross), for a dynamically linked AArch64 program on another host */
#define AARCH64_SYSROOT "/usr/aarch64-linux-gnu"

static const char *find_qemu(const cli *c, int isa)
{
    if (c->qemu)
        return c->qemu;
    const char *env = getenv("EDAN_QEMU");
    return env && *env ? env : emulators[isa];
}

/* Whether an executable named name is on $PATH (a name with a '/' is itself). */
static bool on_path(const char *name)
{
    if (strchr(name, '/'))
        return access(name, X_OK) == 0;
    const char *path = getenv("PATH");
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        const char *end = strchr(p, ':');
        const size_t n = end ? (size_t)(end - p) : strlen(p);
        char full[PATH_MAX];
        if (n && (size_t)snprintf(full, sizeof full, "%.*s/%s", (int)n, p, name) < sizeof full &&
            access(full, X_OK) == 0)
            return true;
        p += n + (end != NULL);
    }
    return false;
}

/* The ISA of a program (its ELF header), and whether it is dynamically linked; exits 2 when it is none edan runs. */
static int program_isa(const char *program, bool *dynamic)
{
    edan_elf elf;
    edan_error err = {0};
    if (edan_elf_open(program, &elf, &err))
        cli_die(2, "%s", err.msg);
    const int isa = edan_isa_of_machine(elf.machine);
    *dynamic = elf.is_dynamic;
    edan_elf_close(&elf);
    if (isa < 0)
        cli_die(2, "%s: ELF machine %u is not supported (edan traces RISC-V, x86-64 and AArch64 programs)", program,
                elf.machine);
    return isa;
}

/* The directory QEMU finds a dynamically linked program's libraries in (-L); NULL: QEMU's default, the host's. */
static const char *sysroot_of(const cli *c, int isa, bool dynamic)
{
    if (c->sysroot)
        return c->sysroot;
    return isa == EDAN_ISA_AARCH64 && dynamic ? AARCH64_SYSROOT : NULL;
}

void cli_check_program(const cli *c, const char *program)
{
    edan_elf elf;
    edan_error err = {0};
    bool dynamic = false;
    const int isa = program_isa(program, &dynamic);
    const char *qemu = find_qemu(c, isa);
    if (!on_path(qemu))
        cli_die(2,
                "%s: a program of ISA %s runs under %s, which is not installed (Debian: apt-get install qemu-user; "
                "or set --qemu / EDAN_QEMU)",
                program, edan_isa_name(isa), qemu);
    const char *root = sysroot_of(c, isa, dynamic);
    if (isa == EDAN_ISA_AARCH64 && dynamic && !c->sysroot) {
        char loader[PATH_MAX];
        snprintf(loader, sizeof loader, "%s/lib/ld-linux-aarch64.so.1", root);
        if (access(loader, R_OK))
            cli_die(2,
                    "%s: a dynamically linked AArch64 program needs the AArch64 libraries in %s, which are not "
                    "installed (Debian: apt-get install libc6-arm64-cross; or give --sysroot=DIR)",
                    program, root);
    }
    if (c->sysroot) {
        struct stat st;
        if (stat(c->sysroot, &st) || !S_ISDIR(st.st_mode))
            cli_die(2, "--sysroot=%s: not a directory", c->sysroot);
    }
    if (edan_elf_open(program, &elf, &err))
        cli_die(2, "%s", err.msg);
    if (elf.is_dynamic && isa == EDAN_ISA_RISCV64) {
        edan_elf_close(&elf);
        cli_die(2,
                "%s: dynamically linked (it needs a program interpreter and shared libraries); build it with "
                "riscv64-linux-gnu-gcc -static",
                program);
    }
    for (int i = 0; i < c->o.n_filter; i++) {
        edan_elf_func f;
        /* a shared object's function: LIB:NAME, or a name the program imports (the tracer finds it as it loads) */
        const char *name = c->o.filter[i];
        char lib[512];
        if (elf.is_dynamic && (edan_elf_filter_library(name, lib, sizeof lib) || edan_elf_imports(program, name)))
            continue;
        if (!edan_elf_find(&elf, program, name, &f, 1, &err)) {
            if (elf.is_dynamic)
                snprintf(err.msg + strlen(err.msg), sizeof err.msg - strlen(err.msg),
                         "; a shared library's function: --filter=LIB:NAME (e.g. libm.so:exp)");
            edan_elf_close(&elf);
            cli_die(2, "%s", err.msg);
        }
    }
    edan_elf_close(&elf);
    /* --functions' names too, once here rather than from the plugin QEMU then fails to load */
    if (edan_functions_check_names(&c->o, program, &err))
        cli_die(2, "%s", err.msg);
}

static void check_plugin_path(const char *what, const char *path)
{
    if (strchr(path, ','))
        cli_die(2, "%s '%s' contains a comma, which QEMU's -plugin option cannot pass", what, path);
}

static char tmpdir[PATH_MAX];
#define TMPDIR_LEN 150 /* the temporary directory's path length, when $TMPDIR is short enough */
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
    stop_signal = sig;
}

const char *cli_tmpdir(void)
{
    if (tmpdir[0])
        return tmpdir;
    const char *base = getenv("TMPDIR");
    base = base && *base && !strchr(base, ',') ? base : "/tmp";
    /* a fixed length (padded with '_'), whatever $TMPDIR is: the program runs from here (stable_path) */
    const size_t len = strlen(base) + strlen("/edan.XXXXXX");
    const int pad = len < TMPDIR_LEN ? (int)(TMPDIR_LEN - len) : 0;
    snprintf(tmpdir, sizeof tmpdir, "%s/edan.%.*sXXXXXX", base, pad,
             "________________________________________________________________________________"
             "________________________________________________________________________________");
    if (!mkdtemp(tmpdir))
        cli_die(1, "cannot create a temporary directory: %s", strerror(errno));
    /* removed at exit and by the handler of SIGINT, SIGTERM and SIGHUP, with what the plugin left (util/files.h) */
    if (edan_temporary_dir(tmpdir))
        cli_die(1, "cannot register the temporary directory %s", tmpdir);
    return tmpdir;
}

/*
 * The path QEMU runs the program by: the program itself (a hard link, or a
 * copy) in the temporary directory, under a path of fixed length in a
 * directory of fixed length. The guest sees both: the loader copies the
 * path onto the stack, and the C library reads /proc/self/exe (which QEMU
 * resolves to the real file, so a symbolic link would not do) and keeps
 * its directory on the heap. With the real path, a longer path moved the
 * stack and the heap and changed which accesses conflict in a cache.
 */
#define STABLE_PATH_LEN 200

static bool copy_file(const char *from, const char *to)
{
    const int in = open(from, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return false;
    const int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0700);
    bool ok = out >= 0;
    char buf[1 << 16];
    for (ssize_t n; ok && (n = read(in, buf, sizeof buf)) != 0;) {
        ok = n > 0;
        for (ssize_t done = 0; ok && done < n;) {
            const ssize_t w = write(out, buf + done, (size_t)(n - done));
            ok = w > 0;
            done += ok ? w : 0;
        }
    }
    close(in);
    if (out >= 0 && close(out))
        ok = false;
    if (!ok)
        unlink(to);
    return ok;
}

static int stdin_saved = -1; /* a terminal, while the first run reads /dev/null */
static off_t stdin_at = -1;  /* where a file was read from */

void cli_stdin_first(void)
{
    if (fcntl(0, F_GETFD) < 0)
        return; /* no standard input: both runs have none */
    if (isatty(0)) {
        const int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
        stdin_saved = fcntl(0, F_DUPFD_CLOEXEC, 3);
        if (null < 0 || stdin_saved < 0 || dup2(null, 0) < 0)
            cli_die(1, "cannot redirect standard input: %s", strerror(errno));
        close(null);
        return;
    }
    if ((stdin_at = lseek(0, 0, SEEK_CUR)) >= 0)
        return;
    char copy[PATH_MAX + 16];
    snprintf(copy, sizeof copy, "%s/stdin", cli_tmpdir());
    const int in = copy_file("/proc/self/fd/0", copy) ? open(copy, O_RDONLY | O_CLOEXEC) : -1;
    if (in < 0 || dup2(in, 0) < 0)
        cli_die(1, "cannot keep standard input for the second run in %s: %s", copy, strerror(errno));
    close(in);
    stdin_at = 0;
}

void cli_stdin_second(void)
{
    if (stdin_saved >= 0) {
        if (dup2(stdin_saved, 0) < 0)
            cli_die(1, "cannot restore standard input: %s", strerror(errno));
        close(stdin_saved);
        stdin_saved = -1;
    } else if (stdin_at >= 0 && lseek(0, stdin_at, SEEK_SET) < 0) {
        cli_die(1, "cannot read standard input again: %s", strerror(errno));
    }
}

static const char *stable_path(const char *program)
{
    static char path[STABLE_PATH_LEN + 1];
    char target[PATH_MAX];
    if (!realpath(program, target))
        return program;
    const char *dir = cli_tmpdir();
    const size_t dlen = strlen(dir);
    if (dlen + 2 > STABLE_PATH_LEN)
        return program; /* a very long $TMPDIR: the real path, reproducible only for equal paths */
    memset(path, 0, sizeof path);
    memcpy(path, dir, dlen);
    path[dlen] = '/';
    memset(path + dlen + 1, 'p', STABLE_PATH_LEN - dlen - 1);
    unlink(path);
    if (link(target, path) == 0 || copy_file(target, path))
        return path;
    return program;
}

/*
 * The program's environment, as QEMU options: QEMU itself keeps edan's
 * environment (a wrapper, QEMU_* settings), the guest gets only the --env
 * variables: -U for every variable of edan's (QEMU builds the guest's from
 * its own), -E for each --env. With --pass-env, edan's and the --env ones.
 * Adds to args from n; returns the new n.
 */
static int program_env_args(const cli *c, char **args, int n)
{
    extern char **environ;
    static char names[4096][256];
    static char had_preload[PATH_MAX + 16];
    int k = 0;
    /*
     * QEMU's LD_PRELOAD (preload_list()) is QEMU's alone: in the guest's
     * environment its path, edan's install directory, would move the stack by
     * its length, and with it what the program does (fits.trisolv's slope moved
     * 25 % between two build directories). With --pass-env the guest gets the
     * LD_PRELOAD edan had.
     */
    args[n++] = "-U";
    args[n++] = "LD_PRELOAD";
    const char *had = getenv("LD_PRELOAD");
    if (c->pass_env && had && *had &&
        snprintf(had_preload, sizeof had_preload, "LD_PRELOAD=%s", had) < (int)sizeof had_preload) {
        args[n++] = "-E";
        args[n++] = had_preload;
    }
    for (char **e = environ; !c->pass_env && e && *e && k < 4096; e++) {
        const char *eq = strchr(*e, '=');
        const size_t len = eq ? (size_t)(eq - *e) : strlen(*e);
        if (!len || len >= sizeof names[0] || memchr(*e, ',', len))
            continue;
        memcpy(names[k], *e, len);
        names[k][len] = '\0';
        args[n++] = "-U";
        args[n++] = names[k++];
    }
    for (int i = 0; i < c->n_env; i++) {
        args[n++] = "-E";
        args[n++] = (char *)c->env[i];
    }
    return n;
}

/* --program-output's file: put in place when the run succeeded (util/files.h). */
static edan_output program_out;

/* Where the program's standard output goes: -1 (edan's), or a descriptor to put in its place. */
static int program_stdout(const cli *c, const char *mode)
{
    const char *po = c->program_output;
    if (!po) /* a machine-readable report on stdout must not be mixed with the program's output */
        po = !strcmp(mode, "online") && (c->o.json || c->o.table) && !c->o.output[0] ? "stderr" : "stdout";
    if (!strcmp(po, "stdout"))
        return -1;
    if (!strcmp(po, "stderr"))
        return 2;
    edan_error err = {0};
    if (edan_output_open(&program_out, po, "--program-output", &err))
        cli_die(2, "%s", err.msg);
    return program_out.fd;
}

static uint64_t last_traced;

uint64_t cli_last_traced(void)
{
    return last_traced;
}

/* Run QEMU with the plugin; returns the program's exit status. */
int cli_run_qemu(const cli *c, const char *mode, const char *out, char **prog_argv, int prog_argc)
{
    /* the file at out before the run: a failed run removes only what it wrote itself */
    struct stat before;
    const bool existed = stat(out, &before) == 0;
    const char *plugin = find_plugin(c);
    if (access(plugin, R_OK))
        cli_die(1, "cannot find edan's QEMU plugin at %s (build it, or set --plugin / EDAN_PLUGIN)", plugin);
    check_plugin_path("plugin path", plugin);
    check_plugin_path("output path", out);
    char opts[PATH_MAX + 16], status[PATH_MAX + 16];
    snprintf(opts, sizeof opts, "%s/opts", cli_tmpdir());
    snprintf(status, sizeof status, "%s/status", cli_tmpdir());
    FILE *f = fopen(opts, "we");
    if (!f || edan_options_write(&c->o, f) || fclose(f))
        cli_die(1, "cannot write %s: %s", opts, strerror(errno));
    char plugin_arg[8 * PATH_MAX];
    int progress = c->o.progress < 0 ? isatty(2) : c->o.progress;
    char binary[PATH_MAX];
    if (!realpath(prog_argv[0], binary) || strchr(binary, ','))
        snprintf(binary, sizeof binary, "%s", "");
    char expect[40] = "";
    if (progress && c->expect)
        snprintf(expect, sizeof expect, ",expect=%llu", (unsigned long long)c->expect);
    snprintf(plugin_arg, sizeof plugin_arg, "%s,mode=%s,out=%s,opts=%s,status=%s,progress=%s%s%s%s%s", plugin, mode,
             out, opts, status, progress ? "on" : "off", expect, c->ignore_exit ? ",ignore_exit=on" : "",
             binary[0] ? ",binary=" : "", binary);
    extern char **environ;
    size_t n_environ = 0;
    for (char **e = environ; e && *e; e++)
        n_environ++;
    char **args = calloc((size_t)prog_argc + 2 * (n_environ + (size_t)c->n_env) + 16,
                         sizeof *args); /* the fixed ones: 10, and LD_PRELOAD's 4 */
    if (!args)
        cli_die(1, "out of memory");
    /* argv[0] is the program's file name however it was given; the file is run by a path of fixed length */
    const char *base = strrchr(prog_argv[0], '/');
    int n = 0;
    bool dynamic = false;
    const int isa = program_isa(prog_argv[0], &dynamic);
    if (isa != EDAN_ISA_RISCV64 && !strcmp(mode, "text"))
        cli_die(2,
                "record: %s is a program of ISA %s; the original EDAN text format (--text) holds RISC-V "
                "instructions only: record the binary format",
                prog_argv[0], edan_isa_name(isa));
    const char *root = sysroot_of(c, isa, dynamic);
    args[n++] = (char *)find_qemu(c, isa);
    /*
     * QEMU's AArch64 CPU is "max" by default, with SVE and MTE, which glibc's memcpy and memset then use and
     * Capstone 4.0.2 does not decode (their accesses would be lost): a Neoverse N1 (ARMv8.2 with LSE atomics),
     * unless QEMU_CPU names another (docs/model.md).
     */
    if (isa == EDAN_ISA_AARCH64 && !getenv("QEMU_CPU")) {
        args[n++] = "-cpu";
        args[n++] = "neoverse-n1";
    }
    if (root) {
        args[n++] = "-L";
        args[n++] = (char *)root;
    }
    args[n++] = "-plugin";
    args[n++] = plugin_arg;
    args[n++] = "-0";
    args[n++] = (char *)(c->real_path ? prog_argv[0] : base ? base + 1 : prog_argv[0]);
    n = program_env_args(c, args, n);
    args[n++] = "-U"; /* QEMU's alone, never the guest's (util/files.h) */
    args[n++] = "EDAN_TEMPORARIES";
    args[n++] = (char *)(c->real_path ? prog_argv[0] : stable_path(prog_argv[0]));
    for (int i = 1; i < prog_argc; i++)
        args[n++] = prog_argv[i];
    args[n] = NULL;
    const int out_fd = program_stdout(c, mode);
    const char *preload = preload_list(plugin);
    fflush(NULL);
    /*
     * QEMU never outlives edan: SIGINT, SIGTERM or SIGHUP to edan stops it
     * (and the exit that follows removes the temporary directory), and the
     * kernel kills it if edan dies any other way (PR_SET_PDEATHSIG).
     */
    struct sigaction sa, old[3];
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal; /* no SA_RESTART: waitpid() returns EINTR */
    sigemptyset(&sa.sa_mask);
    const int stops[3] = {SIGINT, SIGTERM, SIGHUP};
    for (int i = 0; i < 3; i++)
        sigaction(stops[i], &sa, &old[i]);
    const pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0)
        cli_die(1, "fork: %s", strerror(errno));
    if (pid == 0) {
        /* QEMU's defaults (or an ignored signal, nohup): never edan's handlers, which clean up edan's files */
        for (int i = 0; i < 3; i++)
            signal(stops[i], old[i].sa_handler == SIG_IGN ? SIG_IGN : SIG_DFL);
        signal(SIGXFSZ, SIG_DFL); /* QEMU and the program keep the default edan's main() changed */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) /* edan died before the line above */
            _exit(127);
        if (out_fd >= 0 && dup2(out_fd, 1) < 0)
            _exit(127);
        /* the plugin lists its temporaries in the journal, swept at edan's exit (util/files.h) */
        char journal[PATH_MAX + 32];
        snprintf(journal, sizeof journal, "%s/temporaries", tmpdir);
        if (setenv("EDAN_TEMPORARIES", journal, 1) || (preload && setenv("LD_PRELOAD", preload, 1)))
            _exit(127);
        execvp(args[0], args);
        fprintf(stderr, "%s: cannot run %s: %s (install qemu-user, or set --qemu / EDAN_QEMU)\n", cli_prog_name,
                args[0], strerror(errno));
        _exit(127);
    }
    int ws;
    while (waitpid(pid, &ws, 0) < 0) {
        if (errno != EINTR)
            cli_die(1, "waitpid: %s", strerror(errno));
        if (stop_signal) {
            kill(pid, SIGKILL);
            while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
                ;
            fprintf(stderr, "%s: stopped by signal %d; QEMU was stopped too\n", cli_prog_name, (int)stop_signal);
            exit(128 + stop_signal);
        }
    }
    for (int i = 0; i < 3; i++)
        sigaction(stops[i], &old[i], NULL);
    free(args);
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == 127 && access(status, R_OK))
        exit(1);
    FILE *s = fopen(status, "re");
    char line[2048] = "";
    if (!s || !fgets(line, sizeof line, s)) {
        if (s)
            fclose(s);
        struct stat dir;
        if (stat(cli_tmpdir(), &dir))
            cli_die(1, "edan's temporary directory %s was removed while QEMU ran: the plugin's result is lost",
                    cli_tmpdir());
        if (WIFSIGNALED(ws))
            cli_die(1, "QEMU was killed by signal %d (%s) before edan's plugin finished%s", WTERMSIG(ws),
                    strsignal(WTERMSIG(ws)),
                    preload ? "" : " (libedan_preload.so, which lets it finish, is not beside the plugin)");
        cli_die(1, "QEMU exited with status %d before edan's plugin finished (see its messages above)",
                WIFEXITED(ws) ? WEXITSTATUS(ws) : -1);
    }
    fclose(s);
    line[strcspn(line, "\n")] = '\0';
    if (!strncmp(line, "error: ", 7))
        cli_die(2, "%s", line + 7);
    int code = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    unsigned long long traced = 0, entered = 0;
    const int fields = sscanf(line, "ok %llu %llu", &traced, &entered);
    last_traced = traced;
    /* nothing ran (QEMU could not start the program: a limit, a missing loader), or the filter never matched */
    const bool nothing = fields >= 1 && traced == 0 && (code || c->o.n_filter);
    const bool never = c->o.n_filter && fields == 2 && entered == 0;
    if (nothing || never) {
        struct stat now;
        if (strcmp(mode, "online") && !stat(out, &now) && S_ISREG(now.st_mode) &&
            (!existed || now.st_ino != before.st_ino || now.st_dev != before.st_dev))
            unlink(out);
        char names[512] = "";
        for (int i = 0; i < c->o.n_filter; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "", c->o.filter[i]);
        if (code && !c->o.n_filter)
            cli_die(2,
                    "%s: the program did not run under QEMU (exit status %d, no instruction traced; see the "
                    "messages above)",
                    prog_argv[0], code);
        if (code)
            cli_die(2,
                    "%s: the program did not run under QEMU, or exited with status %d before %s ran (nothing "
                    "traced; see the messages above)",
                    prog_argv[0], code, names);
        if (never)
            cli_die(2, "%s: the filtered function%s %s never ran (nothing to analyse)", prog_argv[0],
                    c->o.n_filter > 1 ? "s" : "", names);
    }
    cli_note_program_exit(c, prog_argv[0], ws);
    edan_error err = {0};
    if (out_fd > 2 && edan_output_commit(&program_out, &err))
        cli_die(1, "%s", err.msg);
    return code;
}

void cli_copy_file_to(const char *path, FILE *to)
{
    FILE *f = fopen(path, "re");
    if (!f)
        cli_die(1, "cannot read %s: %s", path, strerror(errno));
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        if (fwrite(buf, 1, n, to) != n)
            cli_die(1, "cannot write the report: %s", strerror(errno));
    fclose(f);
}

/* ===================================================================== */
/* The traced programs' exit and edan's                                  */
/* ===================================================================== */

/* Each traced program that failed, once (the profile run of --per-function runs the program twice). */
#define MAX_FAILED 16
static struct {
    char program[256];
    int status, signal; /* its exit status, or the signal that killed it (then status is -1) */
} failed[MAX_FAILED];
static int n_failed, n_unlisted;
static bool ignore_exit;

void cli_note_program_exit(const cli *c, const char *program, int wait_status)
{
    ignore_exit = c->ignore_exit;
    const int status = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
    const int sig = WIFSIGNALED(wait_status) ? WTERMSIG(wait_status) : 0;
    if (status == 0)
        return;
    for (int i = 0; i < n_failed; i++)
        if (!strcmp(failed[i].program, program) && failed[i].status == status && failed[i].signal == sig)
            return;
    if (n_failed == MAX_FAILED) {
        n_unlisted++;
        return;
    }
    snprintf(failed[n_failed].program, sizeof failed[n_failed].program, "%s", program);
    failed[n_failed].status = status;
    failed[n_failed].signal = sig;
    n_failed++;
}

int cli_program_exit_status(void)
{
    bool killed = false;
    for (int i = 0; i < n_failed; i++)
        killed |= failed[i].signal != 0;
    const int code = !n_failed ? 0 : ignore_exit ? 0 : killed ? EDAN_EXIT_PROGRAM_KILLED : EDAN_EXIT_PROGRAM_FAILED;
    char then[64];
    snprintf(then, sizeof then,
             code ? "edan exits with status %d (--ignore-exit: 0)" : "edan exits with 0 (--ignore-exit)", code);
    for (int i = 0; i < n_failed; i++) {
        char what[128];
        if (failed[i].signal)
            snprintf(what, sizeof what, "was killed by signal %d (%s)", failed[i].signal, strsignal(failed[i].signal));
        else
            snprintf(what, sizeof what, "exited with status %d", failed[i].status);
        fprintf(stderr, "%s: the program %s %s; edan's results are complete and %s\n", cli_prog_name, failed[i].program,
                what, then);
    }
    if (n_unlisted)
        fprintf(stderr, "%s: and %d more programs failed\n", cli_prog_name, n_unlisted);
    return code;
}
