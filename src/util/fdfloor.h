/*
 * fdfloor.h - descriptors out of the traced program's reach.
 *
 * Under qemu-user the traced program and edan's plugin are one process: a
 * program's write(3, ...) or close(3) reaches whatever the plugin opened at
 * 3 (QEMU passes both straight to the host). The plugin therefore sets a
 * floor before the program runs, and every file the trace writers open
 * (trace/outfile.c) is moved at or above it, close-on-exec: near the hard
 * limit of descriptors (at most 65536), far above the soft limit a program
 * sees and loops to when it closes "every" descriptor. A program that aims
 * at that very number can still reach it; a write that then fails is
 * reported as the trace file's failure, never lost in silence.
 * Without a floor (the edan command) nothing is moved.
 */
#ifndef EDAN_UTIL_FDFLOOR_H
#define EDAN_UTIL_FDFLOOR_H

/* Set the floor from the limits of descriptors; returns it (0: no room above the soft limit, nothing moves). */
int edan_fd_set_floor(void);
/* fd itself, or a close-on-exec copy at or above the floor (fd is then closed); fd when it cannot move. */
int edan_fd_lift(int fd);

#endif
