/*
 * files.h - the one place where edan opens the files a command reads and
 * writes, so that no output can destroy an input and no input can hang it.
 *
 * Inputs (edan_input_open): opened without blocking and checked before a
 * byte is read: a regular file, or a pipe only where the caller reads a
 * stream once (a trace); a FIFO, a device or a directory anywhere else is an
 * error naming the file. Every input is remembered by device and inode.
 *
 * Outputs (edan_output_open): written under a temporary name in the
 * target's directory (PATH.XXXXXXXXXXXX, created with O_EXCL | O_NOFOLLOW,
 * so a planted link is never followed) and renamed over PATH only by
 * edan_output_commit(); until then a file of that name is untouched, and a
 * link there is replaced, not followed. A device or a FIFO the user names
 * (/dev/null, a pipe) is written in place. An output that names an input
 * of the command (same device and inode, whatever the spelling) is refused.
 *
 * A file edan names itself in a directory of outputs (--plot-dir,
 * --csv-dir: PROGRAM-REGION-KIND) that exists is replaced too, and counted
 * for the command to say so (edan_outputs_replaced).
 *
 * Options that name outputs are declared as they are parsed
 * (edan_output_declare: checked up front, before a long run), so an input
 * opened later that is one of them is refused too, whichever comes first.
 *
 * Temporaries: every live one is in a process-wide registry; they are
 * removed at exit (every path, cli_die included) and by a handler of
 * SIGINT, SIGTERM and SIGHUP that unlinks them and re-raises the signal.
 * A process that cannot clean up itself (the plugin inside QEMU, which edan
 * may kill) is started with $EDAN_TEMPORARIES naming a journal: it lists
 * each temporary there before creating it, installs no handler and removes
 * nothing at exit (QEMU may close the plugin's files after that), and edan
 * sweeps the journal when QEMU is gone (edan_temporaries_sweep).
 */
#ifndef EDAN_UTIL_FILES_H
#define EDAN_UTIL_FILES_H

#include <stdbool.h>
#include <stdio.h>

#include "util/error.h"

/* Both paths exist and name the same file (device and inode: links and other spellings included). */
bool edan_same_file(const char *a, const char *b);

/*
 * The digest of a program's bytes, "fnv1a64:" and 16 hex digits, in out
 * (room for EDAN_DIGEST_LEN): a trace records it, so a rebuilt program is
 * noticed. The path must name a regular file (a FIFO would block). 0, or
 * -1 with err naming the path.
 */
#define EDAN_DIGEST_LEN 32
int edan_file_digest(const char *path, char out[EDAN_DIGEST_LEN], edan_error *err);

/*
 * Forget the inputs and outputs seen so far: the registry describes one
 * command, and a program that runs several in turn (a test) starts each
 * afresh.
 */
void edan_files_forget(void);

/* ---- inputs ----------------------------------------------------------------------- */

/* A pipe or FIFO is accepted (a stream read once from its start); otherwise only a regular file. */
#define EDAN_INPUT_STREAM 1

/*
 * Open path for reading, as what ("the machine file", "the trace"...): a
 * descriptor (close-on-exec, blocking again once checked), or -1 with err
 * naming path: missing, a directory, a FIFO or device (without
 * EDAN_INPUT_STREAM), or an output of this command.
 */
int edan_input_open(const char *path, const char *what, int flags, edan_error *err);
/* The same as a stdio stream ("rb"), or NULL with err set. */
FILE *edan_input_fopen(const char *path, const char *what, int flags, edan_error *err);
/*
 * The whole text of a regular file of at most max bytes, NUL-terminated
 * (free() it), *len its length; NULL when it cannot be opened (err set, as
 * edan_input_fopen()), is longer or cannot be read.
 */
char *edan_input_read_all(const char *path, const char *what, size_t max, size_t *len, edan_error *err);
/*
 * An input another process reads (the program QEMU runs) or that is read
 * later: remembered and checked against the outputs without opening it.
 * A path that does not exist passes (its reader says why). 0, or -1.
 */
int edan_input_note(const char *path, const char *what, edan_error *err);

/* ---- outputs ---------------------------------------------------------------------- */

/*
 * An output option's value, checked before the command starts: not a
 * directory, its directory writable (a temporary is made and removed), not
 * an input opened so far; remembered, so a later input that is this file
 * is refused. what names it in messages ("--series-csv"). "-" (standard
 * output) passes. 0, or -1 with err.
 */
int edan_output_declare(const char *path, const char *what, edan_error *err);
/* A directory files will be written into (--plot-dir): it exists and is writable, or can be made. 0 or -1. */
int edan_output_declare_dir(const char *dir, const char *what, edan_error *err);

typedef struct edan_output {
    char path[4096]; /* the final name */
    char tmp[4128];  /* written here and renamed to path at commit; "" when written in place */
    char what[48];   /* its name in messages ("--output") */
    bool open;       /* between open and commit or abort (a zeroed output is closed) */
    int fd;          /* -1 once closed */
    FILE *f;         /* edan_output_stream(): owns fd */
    int slot;        /* in the registry of live temporaries; -1 for none */
} edan_output;

/* Open path for writing (see above): 0 and o->fd, or -1 with err naming path. */
int edan_output_open(edan_output *o, const char *path, const char *what, edan_error *err);
/* A stdio stream over o->fd (owned by the output from then on), or NULL with err set. */
FILE *edan_output_stream(edan_output *o, edan_error *err);
/* Open and give the stream: NULL with err set (and nothing left) on failure. */
FILE *edan_output_fopen(edan_output *o, const char *path, const char *what, edan_error *err);
/* Where another program (gnuplot, Graphviz) writes it: the temporary, or path when written in place. */
const char *edan_output_where(const edan_output *o);
/*
 * Close (flushing the stream) and rename into place: 0; -1 with err when a
 * write failed, or -2 when an input read since the open is the file it
 * would replace; either way nothing is left but the old file.
 */
int edan_output_commit(edan_output *o, edan_error *err);
/* Close and remove the temporary; the old file stays. Safe to call twice, or on a zeroed output. */
void edan_output_abort(edan_output *o);

/*
 * Files in a directory of generated files (edan_output_declare_dir: plots,
 * CSV tables) that a commit replaced: their number, and when there are
 * any, one line in msg naming the directory and the first of them, for the
 * command to say (an earlier run's files are replaced, never silently).
 */
int edan_outputs_replaced(char *msg, size_t cap);

/* Whether path is the same file as an output of this command (declared or open). */
bool edan_output_is(const char *path);

/* Remove the temporaries listed in the journal that still exist (a killed plugin's), and the journal. */
void edan_temporaries_sweep(const char *journal);
/*
 * A directory of this process's own temporary files (edan's private one):
 * emptied and removed with the live temporaries, at exit and on SIGINT,
 * SIGTERM and SIGHUP, the plugin's temporaries its journal DIR/temporaries
 * lists first. 0, or -1 when there is no room (at most four).
 */
int edan_temporary_dir(const char *dir);
/* Empty and remove it now, and forget it. */
void edan_temporary_dir_remove(const char *dir);

#endif
