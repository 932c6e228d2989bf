/*
 * cmd_annotate.c - edan annotate: source files with per-line counts in the
 * margin, like Valgrind's cg_annotate (the annotate tool, with the critical
 * path beside it).
 *
 *   edan annotate [options] TRACE
 *   edan annotate [options] [--] PROGRAM [ARGS...]     traced first, into a temporary trace
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "tool/graph/graph.h"
#include "tool/registry.h"
#include "tool/session.h"
#include "util/symbols/symbols.h"

int cli_cmd_annotate(int argc, char **argv)
{
    cli c = {0};
    int i;
    if (!cli_begin_command(argc, argv, "annotate", &c, &i))
        return 0;
    if (i >= argc)
        cli_die(2, "annotate: usage: edan annotate [options] TRACE | PROGRAM [ARGS...]");
    const char *input = argv[i];
    cli_refuse_overwrite(&c, input);
    const char *trace = input;
    char tmp_trace[PATH_MAX + 32] = "";
    edan_elf elf;
    edan_error err = {0};
    if (edan_elf_open(input, &elf, &err) == 0) {
        edan_elf_close(&elf);
        if (!c.program_output) /* the annotation alone on standard output */
            c.program_output = "stderr";
        cli_check_program(&c, input);
        snprintf(tmp_trace, sizeof tmp_trace, "%s/annotate.edt", cli_tmpdir());
        cli_run_qemu(&c, "record", tmp_trace, argv + i, argc - i);
        trace = tmp_trace;
    } else {
        if (i + 1 != argc)
            cli_die(2, "annotate: %s is not a program (an ELF executable), so it takes no arguments (a trace?)", input);
        cli_check_trace_file(input);
    }
    /* the timing model too when --machine asks for it (its memory stall cycles per line); only[] runs every tool named
     */
    const char *const only[] = {edan_critpath_tool.name, edan_annotate_tool.name,
                                edan_timing_tool.wanted(&c.o) ? edan_timing_tool.name : NULL, NULL};
    edan_trace_source *src;
    edan_session *s = cli_analyze_trace(&c, trace, "trace", input, only, &src);
    FILE *out = cli_open_output(&c.o);
    if (c.o.json) {
        fputs("{\"schema\":\"edan.annotate/1\"", out);
        edan_session_report_tool(s, &edan_annotate_tool, EDAN_FORMAT_JSON, out);
        fputs("}\n", out);
    } else {
        edan_session_report_tool(s, &edan_annotate_tool, EDAN_FORMAT_TEXT, out);
    }
    cli_close_output(out, &c.o);
    if (edan_session_html(s, &err))
        cli_die(2, "%s", err.msg);
    edan_session_free(s);
    edan_trace_source_close(src);
    if (tmp_trace[0])
        unlink(tmp_trace);
    return 0;
}
