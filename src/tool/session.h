/*
 * session.h - an analysis session: the tools a command asks for, fed one
 * instruction stream, and one report made of their sections.
 *
 *   s = edan_session_new(&options, NULL, &src, &err);   every wanted tool
 *   producer(edan_session_consumer(s));                 plugin or trace reader
 *   edan_session_finish(s, &err);
 *   edan_session_report(s, out, &err);                  text, JSON or table
 *   edan_session_outputs(s, &err);                      plots, CSV
 *   edan_session_free(s);
 *
 * What the tools read of it (its options and source, the other tools'
 * instances) is tool/base/base.h's, below the tools: they never call the
 * session. The tools run in the registry's order, except that a tool comes after the
 * tools it uses (base.h); the report's sections are in the registry's order.
 * The session's consumer hands each batch to every tool in that order;
 * a tool marked threaded gets a copy on a thread of its own; the first tool
 * whose consumer offers a buffer gets the batch last, so the producer may
 * write into that buffer (zero copy). Its finish() and
 * edan_session_finish() finish every tool once, whichever comes first.
 */
#ifndef EDAN_TOOL_SESSION_H
#define EDAN_TOOL_SESSION_H

#include <stdio.h>

#include "config/options.h"
#include "report/report.h"
#include "tool/base/base.h"
#include "trace/exec.h"
#include "util/error.h"

/*
 * A session with the tools named in only (a NULL-terminated list), or with
 * every tool whose wanted() says yes when only is NULL. o and src are
 * copied (src's strings must outlive the session). NULL with err set.
 */
edan_session *edan_session_new(const edan_options *o, const char *const *only, const edan_report_source *src,
                               edan_error *err);
edan_consumer edan_session_consumer(edan_session *s);
/*
 * The consumer's consume() of a batch whose warm records (EDAN_EXEC_WARM) and kernel writes among them
 * (EDAN_EXEC_KERNEL) the producer counted as it made them (a trace reader:
 * edan_trace_source_last_counts()), so that the session need not read the batch to count them.
 */
void edan_session_consume_counted(edan_session *s, const edan_exec *recs, size_t n, size_t warm, size_t kernel);
/*
 * A producer that leaves each batch unchanged until it has handed over lag
 * more (a ring of lag + 1 batches of its own, edan analyze's): consume()
 * then returns while the threaded tools may still read the last lag batches,
 * so that they work on one batch while the producer decodes the next and the
 * other tools take it (the batches still go to every tool in order, and
 * finish() waits for all). A batch made in a tool's buffer
 * (edan_consumer_buffer() gave one: the batch is that tool's) is waited
 * for as without a lag. Returns the lag granted, at most
 * EDAN_SESSION_MAX_LAG; 0, the default: every tool is waited for at each
 * batch.
 */
#define EDAN_SESSION_MAX_LAG 6
int edan_session_pipeline(edan_session *s, int lag);
/* After the stream: every tool's finish; 0, or -1 with the first error. */
int edan_session_finish(edan_session *s, edan_error *err);
/* The report: text, JSON (--json) or the table (--table). 0, or -1 when writing failed. */
int edan_session_report(edan_session *s, FILE *f, edan_error *err);
/*
 * --html=FILE: the page of report/html.h around the JSON report (all the
 * session's sections, as --json writes them), replacing FILE when complete.
 * 0 (also when --html was not given), or -1 with err.
 */
int edan_session_html(edan_session *s, edan_error *err);
/* Every tool's files besides the report, the --html page first. */
int edan_session_outputs(edan_session *s, edan_error *err);
void edan_session_free(edan_session *s);

/* Name the source again, for what became known during the stream (the plugin learns the program's path late). */
void edan_session_set_source(edan_session *s, const edan_report_source *src);
/* Whether a tool these options ask for reads the traced program's symbols or lines. */
bool edan_session_reads_program(const edan_options *o);
/* Whether the tool runs in this session. */
bool edan_session_runs(const edan_session *s, const edan_tool_def *def);
/*
 * One tool's section of the report in the given format (nothing when the
 * tool does not run), for a command that writes its own report around the
 * sections of the tools it chose (edan annotate, edan locality).
 */
void edan_session_report_tool(const edan_session *s, const edan_tool_def *def, edan_report_format fmt, FILE *f);

/*
 * Options: the configuration's (config/options.h), then every tool's. The
 * same contract as edan_options_set: 0, -1 with a message, 1 if unknown.
 */
int edan_session_option_set(edan_options *o, const char *key, const char *value, edan_error *err);
/* Does this option take a value? -1 if no module defines it. */
int edan_session_option_takes_value(const char *key);
/* What its value is (EDAN_FLAG, EDAN_VALUE, or the file it names: config/options.h); -1 if unknown. */
int edan_session_option_kind(const char *key);
/* Help text: the configuration's options and every tool's. */
void edan_session_options_help(FILE *f);
/*
 * Options that need another: 0, or -1 with a one-line message naming both
 * (--mem-latency and --projection need --machine). Checked once, before any
 * program runs, so a command never starts QEMU for a report it cannot write.
 */
int edan_session_options_check(const edan_options *o, edan_error *err);

#endif
