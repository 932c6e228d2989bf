/*
 * plot.h - plots with gnuplot (Debian's gnuplot-nox), as PNG and SVG.
 *
 * Each plot writes its data (.dat), the gnuplot script (.gp) that draws it,
 * and the images, so a user can restyle a figure by editing the script.
 */
#ifndef EDAN_REPORT_PLOT_H
#define EDAN_REPORT_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/edag/edag.h"
#include "analysis/timing/timing.h"
#include "config/options.h"
#include "util/error.h"
#include "util/files.h"

/*
 * Every plot's title is two lines: what it shows, and ident (the program,
 * region and machine: edan_session_plot_ident), drawn literally (noenhanced:
 * '_' is no subscript). name is the files' base (edan_session_file_base).
 * Byte axes read in binary prefixes (1Ki, 32Mi), count axes in decimal ones
 * (10k, 2M); keys sit below the plot, outside the data.
 */

/*
 * Into dir: <name>-movement.{dat,gp,png,svg}, data movement over time (U_i of
 * the first --tau) of every configuration in one plot, like the paper's
 * Figures 15 and 16; and <name>-latency.{dat,gp,png,svg}, the predicted
 * runtime bounds against the memory latency alpha for every --m (the upper
 * bound's slope is lambda). Returns 0, or -1 with err set (gnuplot missing or
 * failing, unwritable directory).
 */
int edan_plot_analysis(const edan_edag *e, const edan_options *o, const char *dir, const char *name, const char *ident,
                       edan_error *err);

/*
 * Into dir: <name>-prediction.{dat,gp,png,svg}: the timing model's run time
 * against memory latency, with the eDAG's runtime upper bound (first
 * configuration and m, alpha = the latency in cycles; its slope is lambda)
 * beside it when e is not NULL. 0, or -1 with err set.
 */
int edan_plot_prediction(const edan_timing *m, const edan_edag *e, const edan_options *o, const char *dir,
                         const char *name, const char *ident, edan_error *err);

/*
 * A plot of up to four series y_i(x) over the same x, as lines with points:
 * into dir, <name>-<suffix>.{dat,gp,png,svg}. Log scales where asked (then
 * points at x or y <= 0 are left out by gnuplot). 0, or -1 with err set.
 */
#define EDAN_PLOT_MAX_SERIES 4
typedef enum edan_plot_axis { EDAN_AXIS_PLAIN, EDAN_AXIS_COUNT, EDAN_AXIS_BYTES } edan_plot_axis;
/* bars: one cluster of bars per x, labelled with x in K/M/G (zero rows at either end left out), not lines */
typedef struct edan_plot_xy_spec {
    const char *suffix, *title, *xlabel, *ylabel;
    bool logx, logy;
    int n_series;
    const char *series[EDAN_PLOT_MAX_SERIES];
    size_t n;
    const double *x, *y[EDAN_PLOT_MAX_SERIES];
    const char *ident;
    edan_plot_axis xaxis, yaxis;
    bool bars;
} edan_plot_xy_spec;
int edan_plot_xy(const char *dir, const char *name, const edan_plot_xy_spec *p, edan_error *err);
/*
 * A bar chart: into dir, <name>-<suffix>.{dat,gp,png,svg}, a bar per label
 * (value[i] high, in order; labels are data, quoted and stripped of
 * quotes, backslashes and control characters). 0, or -1 with err set.
 */
int edan_plot_bars(const char *dir, const char *name, const char *suffix, const char *title, const char *ident,
                   const char *ylabel, size_t n, const char *const *labels, const double *values, edan_error *err);

/*
 * A roofline (Williams et al.): the attainable flop rate min(peak, I x
 * bandwidth) against the arithmetic intensity I (flops per byte), log-log,
 * and a labelled point (x[i], y[i]) per item (labels: letters, digits and
 * ._:#+-, anything else becomes '_'): into dir,
 * <name>-<suffix>.{dat,gp,png,svg}. Points at x or y <= 0 are left out. 0,
 * or -1 with err set.
 */
typedef struct edan_plot_roofline_spec {
    const char *suffix, *title;
    double peak, bandwidth; /* flop/s, bytes/s */
    size_t n;
    const double *x, *y;
    const char *const *label;
    const char *ident;
} edan_plot_roofline_spec;
int edan_plot_roofline(const char *dir, const char *name, const edan_plot_roofline_spec *p, edan_error *err);

/*
 * Run gnuplot on a script with its data file and the PNG and SVG to write
 * as arguments (args: data, png, svg; ARG1..ARG3 in the script): paths are
 * never script text, so no file name can inject a gnuplot command. 0, or
 * -1 with err naming the script.
 */
int edan_plot_run_gnuplot(const char *script, const char *const args[3], edan_error *err);
/*
 * The four files of one plot, dir/base.{dat,gp,png,svg}, written under
 * temporary names (util/files.h) and put in place together, only when
 * gnuplot drew both images: a failure leaves no partial plot and the old
 * files as they were. edan_plot_open gives the data and script streams
 * (0, or -1 with err); edan_plot_close runs gnuplot and renames (0, or -1
 * with err, everything removed); edan_plot_abort removes them.
 */
typedef struct edan_plot_files {
    edan_output dat, gp, png, svg;
} edan_plot_files;
int edan_plot_open(edan_plot_files *p, const char *dir, const char *base, FILE **data, FILE **script, edan_error *err);
int edan_plot_close(edan_plot_files *p, edan_error *err);
void edan_plot_abort(edan_plot_files *p);
/* A script's first lines: what it draws and how to run it. */
void edan_plot_script_header(FILE *gp, const char *what);
/* "set title" of what (the tool's text) and ident (data: quoted), drawn literally. */
void edan_plot_title(FILE *gp, const char *what, const char *ident);
/* A --machine value as a plot's identity names it: the file's name without directory and extension. */
void edan_plot_machine_name(const char *machine, char *buf, size_t cap);
/* Tick labels of an axis ("x", "y") in K/M/G as kind asks, on a log or linear scale. */
void edan_plot_axis_format(FILE *gp, const char *axis, edan_plot_axis kind, bool log);
/* Its last lines: plot_cmd drawn into ARG2 (PNG) and ARG3 (SVG). */
void edan_plot_script_outputs(FILE *gp, const char *plot_cmd);

#endif
