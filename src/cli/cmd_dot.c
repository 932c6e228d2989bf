/*
 * cmd_dot.c - edan dot: the eDAG of a small traced region, drawn by the dot tool.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "util/files.h"

int cli_cmd_dot(int argc, char **argv)
{
    cli c = {0};
    int i;
    if (!cli_begin_command(argc, argv, "dot", &c, &i))
        return 0;
    if (i + 1 != argc)
        cli_die(2, "dot: usage: edan dot [options] [-o OUT.dot] TRACE");
    cli_refuse_overwrite(&c, argv[i]);
    cli_check_trace_file(argv[i]);
    /* the DOT goes to -o, to a temporary file for the image alone, or to standard output */
    char tmp_dot[PATH_MAX + 16] = "";
    const char *dot_path = c.trace_out && strcmp(c.trace_out, "-") ? c.trace_out : NULL;
    if (!dot_path && c.image) {
        snprintf(tmp_dot, sizeof tmp_dot, "%s/report", cli_tmpdir());
        dot_path = tmp_dot;
    }
    edan_error err = {0};
    /* -o was declared as an output when parsed: the option only tells the tool where it goes */
    if (edan_options_add_raw(&c.o, "dot", dot_path ? dot_path : "-", &err))
        cli_die(2, "dot: %s", err.msg);
    static const char *const only[] = {"dot", NULL};
    edan_trace_source *src;
    edan_session *s = cli_analyze_trace(&c, argv[i], "trace", argv[i], only, &src);
    if (edan_session_outputs(s, &err))
        cli_die(2, "%s", err.msg);
    edan_session_free(s);
    edan_trace_source_close(src);
    if (c.image) {
        const char *ext = strrchr(c.image, '.');
        const char *fmt = ext && !strcmp(ext, ".png") ? "-Tpng" : "-Tsvg";
        /* Graphviz writes the temporary; it takes the image's name only when it succeeded */
        static edan_output image;
        if (edan_output_open(&image, c.image, "--image", &err))
            cli_die(2, "dot: %s", err.msg);
        close(image.fd);
        image.fd = -1;
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            execlp("dot", "dot", fmt, "-o", edan_output_where(&image), dot_path, (char *)NULL);
            fprintf(stderr, "edan: cannot run Graphviz's dot: %s (install the graphviz package)\n", strerror(errno));
            _exit(127);
        }
        int ws;
        if (pid < 0 || waitpid(pid, &ws, 0) < 0 || !WIFEXITED(ws) || WEXITSTATUS(ws))
            cli_die(2, "dot: rendering %s with Graphviz failed", c.image);
        if (edan_output_commit(&image, &err))
            cli_die(1, "dot: %s", err.msg);
    }
    return 0;
}
