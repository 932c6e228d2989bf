/*
 * cmd_machines.c - the shipped machine descriptions by name: --machine=NAME
 * finds NAME.ini in the machine directories, and edan machines lists them.
 *
 * The directories, first match wins: the installed tree beside edan
 * (BIN/../share/edan/machines, so an installed copy moved as a whole keeps
 * working), the install prefix compiled in (EDAN_DATADIR/machines) and the
 * source tree's machines/ (EDAN_SOURCE_DIR/machines, for a build that was
 * never installed). A value holding a '/' or ending in ".ini" is a path and
 * is used as it is.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "util/files.h"

#ifndef EDAN_DATADIR
#define EDAN_DATADIR "/usr/local/share/edan"
#endif
#ifndef EDAN_SOURCE_DIR
#define EDAN_SOURCE_DIR "."
#endif

enum { N_DIRS = 3 };

/* The machine directories, in search order (dirs[i] may repeat another: the first wins). */
static void machine_dirs(char dirs[N_DIRS][PATH_MAX])
{
    snprintf(dirs[0], PATH_MAX, "%s/../share/edan/machines", cli_self_dir());
    snprintf(dirs[1], PATH_MAX, "%s/machines", EDAN_DATADIR);
    snprintf(dirs[2], PATH_MAX, "%s/machines", EDAN_SOURCE_DIR);
}

static bool is_file(const char *path)
{
    struct stat st;
    return !stat(path, &st) && S_ISREG(st.st_mode);
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && !strcmp(s + n - k, tail);
}

const char *cli_machine_path(const char *value)
{
    if (!value || !*value || strchr(value, '/') || ends_with(value, ".ini"))
        return value; /* a path (or nothing: the option's own check says so) */
    static char found[PATH_MAX + 300];
    char dirs[N_DIRS][PATH_MAX];
    machine_dirs(dirs);
    for (int i = 0; i < N_DIRS; i++) {
        if (strlen(dirs[i]) + strlen(value) + 6 > sizeof found)
            continue;
        snprintf(found, sizeof found, "%.*s/%.200s.ini", PATH_MAX, dirs[i], value);
        if (is_file(found)) {
            char real[PATH_MAX];
            if (realpath(found, real)) /* the report names the file without the installed tree's "bin/.." */
                snprintf(found, sizeof found, "%s", real);
            return found;
        }
    }
    cli_die(2, "--machine=%s: no machine of that name (see 'edan machines'; give a path to use another file)", value);
}

/* The file's one-line description: its [machine] description, else its first comment. */
static void describe(const char *path, char *out, size_t cap)
{
    out[0] = '\0';
    edan_error err = {0};
    FILE *f = edan_input_fopen(path, "a machine file", 0, &err); /* a FIFO in the folder is not read */
    if (!f)
        return;
    char line[1024], comment[1024] = "";
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        const char *p = line + strspn(line, " \t");
        if ((*p == '#' || *p == ';') && !comment[0]) {
            p += 1 + strspn(p + 1, " \t");
            snprintf(comment, sizeof comment, "%s", p);
        } else if (!strncmp(p, "description", 11) && strchr(p, '=')) {
            p = strchr(p, '=') + 1;
            snprintf(out, cap, "%s", p + strspn(p, " \t"));
            break;
        }
    }
    fclose(f);
    if (!out[0])
        snprintf(out, cap, "%s", comment);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int cli_cmd_machines(int argc, char **argv)
{
    cli c = {0};
    edan_options_default(&c.o);
    const int first = cli_parse_args(argc, argv, 2, &c, "machines");
    if (c.help) {
        fputs("usage: edan machines\n"
              "The machine descriptions --machine=NAME finds by name (docs/machines.md): a line\n"
              "each, its name, its file and what it describes. The directories searched, first\n"
              "match first: share/edan/machines beside the installed edan, the install prefix's,\n"
              "and the source tree's machines/.\n",
              stdout);
        return 0;
    }
    if (first < argc)
        cli_die(2, "machines: takes no arguments ('%s')", argv[first]);
    char dirs[N_DIRS][PATH_MAX];
    machine_dirs(dirs);
    char *names[256];
    int n = 0;
    for (int i = 0; i < N_DIRS; i++) {
        DIR *d = opendir(dirs[i]);
        if (!d)
            continue;
        for (struct dirent *e; (e = readdir(d)) && n < (int)(sizeof names / sizeof names[0]);) {
            if (e->d_name[0] == '.' || !ends_with(e->d_name, ".ini"))
                continue;
            char *name = strndup(e->d_name, strlen(e->d_name) - 4);
            if (!name)
                cli_die(1, "out of memory");
            bool dup = false;
            for (int k = 0; k < n && !dup; k++)
                dup = !strcmp(names[k], name);
            if (dup)
                free(name);
            else
                names[n++] = name;
        }
        closedir(d);
    }
    if (!n)
        cli_die(2, "machines: no machine files in %s, %s or %s", dirs[0], dirs[1], dirs[2]);
    qsort(names, (size_t)n, sizeof names[0], by_name);
    int width = 0; /* the longest name's: the files line up in one column */
    for (int i = 0; i < n; i++)
        width = (int)strlen(names[i]) > width ? (int)strlen(names[i]) : width;
    for (int i = 0; i < n; i++) {
        const char *path = cli_machine_path(names[i]);
        char desc[512];
        describe(path, desc, sizeof desc);
        printf("%-*s %s\n%-*s   %s\n", width, names[i], path, width, "", desc);
        free(names[i]);
    }
    return 0;
}
