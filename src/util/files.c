/*
 * files.c - the one place where edan opens the files a command reads and
 * writes (files.h).
 */
#include "util/files.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

bool edan_same_file(const char *a, const char *b)
{
    struct stat x, y;
    return a && b && !stat(a, &x) && !stat(b, &y) && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

int edan_file_digest(const char *path, char out[EDAN_DIGEST_LEN], edan_error *err)
{
    const int fd = edan_input_open(path, "the program", 0, err);
    if (fd < 0)
        return -1;
    uint64_t h = 0xcbf29ce484222325ull;
    unsigned char buf[65536];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        for (ssize_t i = 0; i < n; i++)
            h = (h ^ buf[i]) * 0x100000001b3ull;
    const int e = errno;
    close(fd);
    if (n < 0) {
        edan_error_set(err, "%s: read error: %s", path, strerror(e));
        return -1;
    }
    snprintf(out, EDAN_DIGEST_LEN, "fnv1a64:%016" PRIx64, h);
    return 0;
}

/* ===================================================================== */
/* What this command reads and writes                                    */
/* ===================================================================== */

/* Every input opened, by device and inode (added under the lock: a thread may open inputs, srcmap_ahead.h); every
 * output declared or opened, by name. */
#define MAX_INPUTS 256
#define MAX_OUTPUTS 128
static struct {
    dev_t dev;
    ino_t ino;
    char path[512], what[48];
} inputs[MAX_INPUTS];
static _Atomic int n_inputs;
static pthread_mutex_t inputs_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    char *path, *canon;
    char what[48];
} outputs[MAX_OUTPUTS];
static int n_outputs;

/* An output's name for comparing spellings of a file that may not exist yet: its directory's real path. */
static char *canonical(const char *path)
{
    char *a = strdup(path), *b = strdup(path);
    char *r = NULL, dir[PATH_MAX];
    if (a && b && realpath(dirname(a), dir) && asprintf(&r, "%s/%s", dir, basename(b)) < 0)
        r = NULL;
    free(a);
    free(b);
    return r ? r : strdup(path);
}

static void clash(edan_error *err, const char *out_what, const char *out_path, const char *in_what, const char *in_path)
{
    edan_error_set(err, "%s %s and %s %s are the same file: an input of this command would be destroyed", out_what,
                   out_path, in_what, in_path);
}

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO or pipe" : S_ISSOCK(m) ? "a socket" : "a device";
}

/* The output path may be written as what: not a directory, no input, and (others) no other output. */
static int check_output(const char *path, const char *what, bool others, edan_error *err)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        for (int i = 0; i < n_inputs; i++) /* an input directory (--sysroot) first: said as the input it is */
            if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino) {
                clash(err, what, path, inputs[i].what, inputs[i].path);
                return -1;
            }
        if (S_ISDIR(st.st_mode)) {
            edan_error_set(err, "%s %s: cannot write it: a directory", what, path);
            return -1;
        }
    }
    char *canon = canonical(path);
    for (int i = 0; others && canon && i < n_outputs; i++)
        if (strcmp(outputs[i].what, what) && !strcmp(outputs[i].canon, canon)) {
            edan_error_set(err, "%s %s and %s %s are the same file: one output would replace the other", what, path,
                           outputs[i].what, outputs[i].path);
            free(canon);
            return -1;
        }
    free(canon);
    return 0;
}

static int remember_output(const char *path, const char *what, edan_error *err)
{
    char *canon = canonical(path);
    for (int i = 0; canon && i < n_outputs; i++)
        if (!strcmp(outputs[i].what, what) && !strcmp(outputs[i].canon, canon)) {
            free(canon);
            return 0;
        }
    char *p = strdup(path);
    if (!canon || !p || n_outputs == MAX_OUTPUTS) {
        free(canon);
        free(p);
        edan_error_set(err, "%s: too many outputs in one command (at most %d)", path, MAX_OUTPUTS);
        return -1;
    }
    outputs[n_outputs].path = p;
    outputs[n_outputs].canon = canon;
    snprintf(outputs[n_outputs].what, sizeof outputs[n_outputs].what, "%s", what);
    n_outputs++;
    return 0;
}

/*
 * The directories of generated files (--plot-dir, --csv-dir) that existed when declared, by real path, and the
 * files of theirs a commit replaced: edan names those files itself, so replacing one is said
 * (edan_outputs_replaced), never silent.
 */
#define MAX_DIRS 8
static char *gen_dirs[MAX_DIRS];
static int n_gen_dirs;
static struct {
    int count;
    char dir[512], first[256];
} replaced;

static void remember_dir(const char *dir)
{
    char *real = realpath(dir, NULL);
    for (int i = 0; real && i < n_gen_dirs; i++)
        if (!strcmp(gen_dirs[i], real)) {
            free(real);
            return;
        }
    if (real && n_gen_dirs < MAX_DIRS)
        gen_dirs[n_gen_dirs++] = real;
    else
        free(real);
}

/* path is about to be replaced: counted when it is a regular file in a directory of generated files. */
static void note_replaced(const char *path)
{
    struct stat st;
    if (!n_gen_dirs || lstat(path, &st) || !S_ISREG(st.st_mode))
        return;
    char *a = strdup(path), *b = strdup(path);
    const char *shown = a ? dirname(a) : NULL; /* as the user gave it */
    char *dir = shown ? realpath(shown, NULL) : NULL;
    for (int i = 0; dir && b && i < n_gen_dirs; i++)
        if (!strcmp(gen_dirs[i], dir)) {
            if (!replaced.count++) {
                snprintf(replaced.dir, sizeof replaced.dir, "%s", shown);
                snprintf(replaced.first, sizeof replaced.first, "%s", basename(b));
            }
            break;
        }
    free(dir);
    free(a);
    free(b);
}

int edan_outputs_replaced(char *msg, size_t cap)
{
    if (!replaced.count)
        return 0;
    snprintf(msg, cap,
             "replaced %d file%s an earlier run wrote in %s (%s%s); give each run a directory of its own to keep "
             "both",
             replaced.count, replaced.count == 1 ? "" : "s", replaced.dir, replaced.first,
             replaced.count > 1 ? ", ..." : "");
    for (char *c = msg; *c; c++) /* one line on a terminal, whatever the names hold */
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    return replaced.count;
}

void edan_files_forget(void)
{
    for (int i = 0; i < n_gen_dirs; i++)
        free(gen_dirs[i]);
    n_gen_dirs = 0;
    replaced.count = 0;
    for (int i = 0; i < n_outputs; i++) {
        free(outputs[i].path);
        free(outputs[i].canon);
    }
    n_outputs = n_inputs = 0;
}

/* ===================================================================== */
/* Inputs                                                                */
/* ===================================================================== */

/* Remember an input by its device and inode, unless an output is that file: 0, or -1 with err. */
static int add_input(const struct stat *st, const char *path, const char *what, edan_error *err)
{
    /* remembered even when it is an output: the output's commit refuses to replace it (edan_output_commit) */
    bool known = false;
    pthread_mutex_lock(&inputs_lock);
    const int n = n_inputs;
    for (int i = 0; i < n && !known; i++)
        known = inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino;
    if (!known && n < MAX_INPUTS) {
        inputs[n].dev = st->st_dev;
        inputs[n].ino = st->st_ino;
        snprintf(inputs[n].path, sizeof inputs[n].path, "%s", path);
        snprintf(inputs[n].what, sizeof inputs[n].what, "%s", what);
        n_inputs = n + 1; /* after the entry: a reader without the lock sees it whole */
    }
    pthread_mutex_unlock(&inputs_lock);
    for (int i = 0; i < n_outputs; i++) {
        struct stat o;
        if (!stat(outputs[i].path, &o) && o.st_dev == st->st_dev && o.st_ino == st->st_ino) {
            clash(err, outputs[i].what, outputs[i].path, what, path);
            return -1;
        }
    }
    return 0;
}

int edan_input_note(const char *path, const char *what, edan_error *err)
{
    struct stat st;
    return stat(path, &st) ? 0 : add_input(&st, path, what, err);
}

int edan_input_open(const char *path, const char *what, int flags, edan_error *err)
{
    /* non-blocking until checked: opening a FIFO for reading would wait for a writer */
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st)) {
        edan_error_set(err, "%s: cannot open %s: %s", path, what, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    const bool stream = (flags & EDAN_INPUT_STREAM) && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
    if (!S_ISREG(st.st_mode) && !stream) {
        edan_error_set(err, "%s: not a regular file but %s: %s is read from a file", path, kind_of(st.st_mode), what);
        close(fd);
        return -1;
    }
    if (add_input(&st, path, what, err)) {
        close(fd);
        return -1;
    }
    const int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK)) {
        edan_error_set(err, "%s: cannot read %s: %s", path, what, strerror(errno));
        close(fd);
        return -1;
    }
    /*
     * A FIFO opened before its writer would read as empty (no writer: end
     * of file): wait until it holds data or a writer has come and gone
     * (Linux reports POLLHUP only after a writer, for a reader opened
     * without one). Not opened again: a writer that has finished already
     * would leave a second open waiting for ever.
     */
    if (S_ISFIFO(st.st_mode)) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        while (poll(&p, 1, -1) < 0 && errno == EINTR)
            ;
    }
    return fd;
}

FILE *edan_input_fopen(const char *path, const char *what, int flags, edan_error *err)
{
    const int fd = edan_input_open(path, what, flags, err);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        edan_error_set(err, "%s: cannot read %s: %s", path, what, strerror(errno));
        close(fd);
    }
    return f;
}

char *edan_input_read_all(const char *path, const char *what, size_t max, size_t *len, edan_error *err)
{
    FILE *f = edan_input_fopen(path, what, 0, err);
    char *buf = f ? malloc(max + 1) : NULL;
    *len = buf ? fread(buf, 1, max, f) : 0;
    const bool whole = buf && feof(f) && !ferror(f);
    if (f)
        fclose(f);
    if (whole)
        buf[*len] = '\0';
    else
        free(buf);
    return whole ? buf : NULL;
}

/* ===================================================================== */
/* The registry of live temporaries                                      */
/* ===================================================================== */

/*
 * A slot is filled (name first, then used = 1) before its file is created and emptied after it is renamed or
 * removed, so the signal handler, which reads only used slots, never sees half a name and never misses a file.
 */
#define MAX_LIVE 64
static struct {
    volatile sig_atomic_t used;
    char path[sizeof((edan_output *)0)->tmp];
} live[MAX_LIVE];

/*
 * Directories of this process's own temporaries (edan's: the plugin's options and status, a temporary trace, the
 * program's link): emptied and removed with the live files, by the process that registered them only (a child
 * between fork and exec runs the same handler).
 */
#define MAX_TMP_DIRS 4
static struct {
    volatile sig_atomic_t used;
    char path[PATH_MAX];
} tmp_dirs[MAX_TMP_DIRS];
static pid_t tmp_dirs_owner;

/*
 * Remove the temporaries a journal lists, then the journal, with
 * async-signal-safe calls only (open, read, unlink: a signal handler runs
 * this). A line longer than a temporary's name is skipped.
 */
static void sweep_journal(const char *j)
{
    const int fd = open(j, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return;
    static char line[sizeof((edan_output *)0)->tmp + 2];
    size_t n = 0;
    bool skip = false;
    char buf[4096];
    for (ssize_t got; (got = read(fd, buf, sizeof buf)) > 0;)
        for (ssize_t i = 0; i < got; i++) {
            if (buf[i] != '\n') {
                if (n + 1 < sizeof line)
                    line[n++] = buf[i];
                else
                    skip = true;
                continue;
            }
            line[n] = '\0';
            if (n && !skip)
                unlink(line); /* a name renamed into place is gone already */
            n = 0;
            skip = false;
        }
    close(fd);
    unlink(j);
}

/* Empty and remove dir (its entries are files), async-signal-safe: getdents64 rather than readdir's malloc. */
static void remove_dir(const char *dir)
{
    char journal[PATH_MAX + 16];
    const size_t len = strlen(dir);
    if (len + sizeof "/temporaries" <= sizeof journal) {
        memcpy(journal, dir, len);
        memcpy(journal + len, "/temporaries", sizeof "/temporaries");
        sweep_journal(journal); /* the plugin's, when QEMU died before it could remove them */
    }
    const int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return;
    char buf[8192] __attribute__((aligned(8)));
    for (long got; (got = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0;)
        for (long at = 0; at < got;) {
            const struct linux_dirent64 {
                uint64_t ino;
                int64_t off;
                unsigned short reclen;
                unsigned char type;
                char name[];
            } *e = (const void *)(buf + at);
            if (strcmp(e->name, ".") && strcmp(e->name, ".."))
                unlinkat(fd, e->name, 0);
            at += e->reclen;
        }
    close(fd);
    rmdir(dir);
}

static void unlink_live(void)
{
    for (int i = 0; i < MAX_LIVE; i++)
        if (live[i].used) {
            unlink(live[i].path);
            live[i].used = 0;
        }
    for (int i = 0; i < MAX_TMP_DIRS && getpid() == tmp_dirs_owner; i++)
        if (tmp_dirs[i].used) {
            remove_dir(tmp_dirs[i].path);
            tmp_dirs[i].used = 0;
        }
}

/* SIGINT, SIGTERM, SIGHUP: only async-signal-safe calls (unlink, signal, raise). */
static void on_signal(int sig)
{
    unlink_live();
    signal(sig, SIG_DFL);
    raise(sig);
}

static bool foreign_handler(int sig)
{
    struct sigaction old;
    return sigaction(sig, NULL, &old) == 0 &&
           ((old.sa_flags & SA_SIGINFO) || (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN));
}

static void install_cleanup(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    /*
     * A process with a journal, or that handles these signals already, is not edan's own: the plugin inside QEMU,
     * which delivers signals to its guest and may close the plugin's files after any exit handler of ours. There
     * the temporaries are left to the plugin and, if it dies first, to edan's sweep of the journal.
     */
    const int sigs[3] = {SIGINT, SIGTERM, SIGHUP};
    const char *j = getenv("EDAN_TEMPORARIES");
    if (j && *j)
        return;
    for (int i = 0; i < 3; i++)
        if (foreign_handler(sigs[i]))
            return;
    atexit(unlink_live);
    for (int i = 0; i < 3; i++) {
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL) { /* not SIG_IGN (nohup) */
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = on_signal;
            sigfillset(&sa.sa_mask);
            sigaction(sigs[i], &sa, NULL);
        }
    }
}

int edan_temporary_dir(const char *dir)
{
    install_cleanup();
    for (int i = 0; i < MAX_TMP_DIRS; i++)
        if (!tmp_dirs[i].used && strlen(dir) < sizeof tmp_dirs[i].path) {
            strcpy(tmp_dirs[i].path, dir);
            tmp_dirs_owner = getpid();
            atomic_signal_fence(memory_order_seq_cst);
            tmp_dirs[i].used = 1;
            return 0;
        }
    return -1;
}

void edan_temporary_dir_remove(const char *dir)
{
    for (int i = 0; i < MAX_TMP_DIRS; i++)
        if (tmp_dirs[i].used && !strcmp(tmp_dirs[i].path, dir)) {
            tmp_dirs[i].used = 0;
            remove_dir(dir);
        }
}

static int live_add(const char *path)
{
    install_cleanup();
    for (int i = 0; i < MAX_LIVE; i++)
        if (!live[i].used) {
            snprintf(live[i].path, sizeof live[i].path, "%s", path);
            atomic_signal_fence(memory_order_seq_cst);
            live[i].used = 1;
            return i;
        }
    return -1;
}

static void live_drop(int slot)
{
    if (slot >= 0)
        live[slot].used = 0;
}

/* A process that may be killed before it cleans up lists its temporaries for edan (files.h). */
static void journal(const char *tmp)
{
    const char *j = getenv("EDAN_TEMPORARIES");
    if (!j || !*j)
        return;
    const int fd = open(j, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return;
    char line[sizeof((edan_output *)0)->tmp + 1];
    const int n = snprintf(line, sizeof line, "%s\n", tmp);
    if (n > 0 && (size_t)n < sizeof line && write(fd, line, (size_t)n) != n) {
        /* the journal is a best effort: the temporary is still removed by its own process when it can */
    }
    close(fd);
}

void edan_temporaries_sweep(const char *j)
{
    sweep_journal(j);
}

/* ===================================================================== */
/* Outputs                                                               */
/* ===================================================================== */

/* path.XXXXXXXXXXXX beside path, created (O_EXCL | O_NOFOLLOW) and registered: the descriptor, or -1. */
static int make_temp(const char *path, char *tmp, size_t cap, int *slot)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned char r[12];
        if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r)
            for (size_t i = 0; i < sizeof r; i++)
                r[i] = (unsigned char)(rand() ^ (int)getpid() ^ attempt);
        char suffix[sizeof r + 1];
        for (size_t i = 0; i < sizeof r; i++)
            suffix[i] = digits[r[i] % (sizeof digits - 1)];
        suffix[sizeof r] = '\0';
        if ((size_t)snprintf(tmp, cap, "%s.%s", path, suffix) >= cap) {
            errno = ENAMETOOLONG;
            return -1;
        }
        /* registered before it exists: a signal between the two removes a name that is not there, harmlessly */
        *slot = live_add(tmp);
        if (*slot < 0) {
            errno = EMFILE;
            return -1;
        }
        journal(tmp);
        const int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0)
            return fd;
        const int e = errno;
        live_drop(*slot);
        *slot = -1;
        if (e != EEXIST) {
            errno = e;
            return -1;
        }
    }
    errno = EEXIST;
    return -1;
}

int edan_output_declare(const char *path, const char *what, edan_error *err)
{
    if (!strcmp(path, "-"))
        return 0;
    if (check_output(path, what, true, err))
        return -1;
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* never opened to find out: a reader of a FIFO would see its end of file */
        if (access(path, W_OK)) {
            edan_error_set(err, "%s: cannot write %s: %s", path, what, strerror(errno));
            return -1;
        }
    } else {
        /* where it will be written: a temporary beside it, made and removed */
        char tmp[sizeof((edan_output *)0)->tmp];
        int slot = -1;
        const int fd = make_temp(path, tmp, sizeof tmp, &slot);
        if (fd < 0) {
            edan_error_set(err, "%s: cannot write %s: %s", path, what, strerror(errno));
            return -1;
        }
        close(fd);
        unlink(tmp);
        live_drop(slot);
    }
    return remember_output(path, what, err);
}

int edan_output_declare_dir(const char *dir, const char *what, edan_error *err)
{
    struct stat st;
    bool made = false;
    if (stat(dir, &st)) {
        if (mkdir(dir, 0755)) {
            edan_error_set(err, "%s: cannot create %s: %s", dir, what, strerror(errno));
            return -1;
        }
        made = true;
    } else if (!S_ISDIR(st.st_mode)) {
        edan_error_set(err, "%s: %s is not a directory", dir, what);
        return -1;
    } else {
        remember_dir(dir); /* an earlier run's files may be there */
    }
    for (int i = 0; !made && i < n_inputs; i++) /* an input directory (--sysroot) is read, never written into */
        if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino) {
            clash(err, what, dir, inputs[i].what, inputs[i].path);
            return -1;
        }
    char probe[4096];
    snprintf(probe, sizeof probe, "%s/.edan-probe", dir);
    char tmp[sizeof((edan_output *)0)->tmp];
    int slot = -1;
    const int fd = make_temp(probe, tmp, sizeof tmp, &slot);
    const int e = errno;
    if (fd >= 0) {
        close(fd);
        unlink(tmp);
    }
    live_drop(slot);
    if (made)
        rmdir(dir);
    if (fd < 0) {
        edan_error_set(err, "%s: cannot write into %s: %s", dir, what, strerror(e));
        return -1;
    }
    return 0;
}

int edan_output_open(edan_output *o, const char *path, const char *what, edan_error *err)
{
    memset(o, 0, sizeof *o);
    o->fd = -1;
    o->slot = -1;
    if (strlen(path) >= sizeof o->path) {
        edan_error_set(err, "%.100s...: path too long", path);
        return -1;
    }
    strcpy(o->path, path);
    snprintf(o->what, sizeof o->what, "%s", what);
    if (check_output(path, what, false, err) || remember_output(path, what, err))
        return -1;
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* a device or a FIFO (/dev/null, a pipe) is written in place: a file renamed over it would replace it */
        o->fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
        struct stat now;
        if (o->fd >= 0 && (fstat(o->fd, &now) || S_ISREG(now.st_mode))) {
            close(o->fd); /* replaced by a regular file since: never write one in place */
            o->fd = -1;
            errno = EAGAIN;
        }
    } else {
        o->fd = make_temp(path, o->tmp, sizeof o->tmp, &o->slot);
    }
    if (o->fd < 0) {
        edan_error_set(err, "%s: cannot write %s: %s", path, what, strerror(errno));
        o->tmp[0] = '\0';
        return -1;
    }
    o->open = true;
    return 0;
}

FILE *edan_output_stream(edan_output *o, edan_error *err)
{
    if (!o->f && (o->f = fdopen(o->fd, "w")) == NULL)
        edan_error_set(err, "%s: cannot write: %s", o->path, strerror(errno));
    return o->f;
}

bool edan_output_is(const char *path)
{
    struct stat st, o;
    if (stat(path, &st))
        return false;
    for (int i = 0; i < n_outputs; i++)
        if (!stat(outputs[i].path, &o) && o.st_dev == st.st_dev && o.st_ino == st.st_ino)
            return true;
    return false;
}

FILE *edan_output_fopen(edan_output *o, const char *path, const char *what, edan_error *err)
{
    if (edan_output_open(o, path, what, err))
        return NULL;
    FILE *f = edan_output_stream(o, err);
    if (!f)
        edan_output_abort(o);
    return f;
}

const char *edan_output_where(const edan_output *o)
{
    return o->tmp[0] ? o->tmp : o->path;
}

static int close_output(edan_output *o)
{
    int failed = 0, e = 0;
    if (o->f) {
        failed = ferror(o->f) | fflush(o->f);
        e = errno;
        if (fclose(o->f) && !failed) {
            failed = 1;
            e = errno;
        }
    } else if (o->fd >= 0 && close(o->fd)) {
        failed = 1;
        e = errno;
    }
    o->f = NULL;
    o->fd = -1;
    errno = e ? e : EIO;
    return failed ? -1 : 0;
}

/* A written (or abandoned) output is no longer one: reading it back destroys nothing. */
static void forget_output(const char *path)
{
    char *canon = canonical(path);
    for (int i = 0; canon && i < n_outputs; i++)
        if (!strcmp(outputs[i].canon, canon)) {
            free(outputs[i].path);
            free(outputs[i].canon);
            outputs[i--] = outputs[--n_outputs];
        }
    free(canon);
}

int edan_output_commit(edan_output *o, edan_error *err)
{
    if (!o->open) {
        edan_error_set(err, "%s: not open", o->path);
        return -1;
    }
    /* an input read since the output was opened (a source file annotate showed) may be the file it replaces */
    edan_error sub = {0};
    if (o->tmp[0] && check_output(o->path, o->what, false, &sub)) {
        edan_error_set(err, "%s", sub.msg);
        edan_output_abort(o);
        return -2;
    }
    int rc = close_output(o);
    if (rc == 0 && o->tmp[0])
        note_replaced(o->path);
    if (rc == 0 && o->tmp[0] && rename(o->tmp, o->path))
        rc = -1;
    if (rc) {
        edan_error_set(err, "%s: write failed: %s", o->path, strerror(errno));
        edan_output_abort(o);
        return -1;
    }
    live_drop(o->slot);
    o->slot = -1;
    o->tmp[0] = '\0';
    o->open = false;
    forget_output(o->path);
    return 0;
}

void edan_output_abort(edan_output *o)
{
    if (!o->open)
        return;
    close_output(o);
    if (o->tmp[0])
        unlink(o->tmp);
    live_drop(o->slot);
    o->slot = -1;
    o->tmp[0] = '\0';
    o->open = false;
    forget_output(o->path);
}
