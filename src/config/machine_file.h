/*
 * machine_file.h - read a machine description (analysis/machine/machine.h) from an
 * INI file (libinih): the format of the files in machines/, documented in
 * docs/machines.md. Every key of every section is required, an unknown
 * section or key is an error, and so is a value of the wrong type or out of
 * range; the message names the file and the line.
 */
#ifndef EDAN_CONFIG_MACHINE_FILE_H
#define EDAN_CONFIG_MACHINE_FILE_H

#include "analysis/machine/machine.h"
#include "util/error.h"

/* The largest machine file read (a description is a few dozen lines). */
#define EDAN_MACHINE_FILE_MAX (64 * 1024)
/* A core clock in GHz, in a machine file (clock_ghz) and --clock: from 1 MHz to 100 GHz. */
#define EDAN_CLOCK_GHZ_MIN 0.001
#define EDAN_CLOCK_GHZ_MAX 100.0

/* Read path into *m: 0, or -1 with err set to "PATH:LINE: what is wrong" (or "PATH: ..."). */
int edan_machine_load(const char *path, edan_machine *m, edan_error *err);

#endif
