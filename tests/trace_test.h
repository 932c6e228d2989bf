/*
 * trace_test.h - what the trace format test's files share: the harness,
 * synthetic instruction streams and the helpers that write and compare
 * traces (trace_test.c), used by the hand-made payload checks
 * (trace_format_test.c).
 */
#ifndef EDAN_TESTS_TRACE_TEST_H
#define EDAN_TESTS_TRACE_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace/exec.h"
#include "trace/trace_file.h"
#include "util/error.h"

extern int n_pass, n_fail;
extern char tmpdir[512];

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (cond) {                                                                                                    \
            n_pass++;                                                                                                  \
        } else {                                                                                                       \
            n_fail++;                                                                                                  \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                                            \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
        }                                                                                                              \
    } while (0)

/* A synthetic program: a code table of n instructions. */
typedef struct synth {
    edan_code_table *code;
    uint32_t n;
} synth;

/* A path in the test's temporary directory (eight rotating buffers). */
char *tmp_path(const char *name);
uint64_t rnd(void);
uint64_t rnd_below(uint64_t n);
synth make_code(unsigned n);
/* n records over s's instructions; seq: the share of next-in-sequence instructions (0..100). */
edan_exec *make_stream(const synth *s, size_t n, unsigned seq);
bool same_record(const edan_exec *a, const edan_exec *b, bool check_raw, char *why, size_t cap);
int write_binary(const char *path, const edan_exec *v, size_t n, size_t block, int level, edan_error *err);
long compare_source(edan_trace_source *s, const edan_exec *v, size_t n, bool check_raw, edan_error *err);
uint32_t header_len_of(const uint8_t *b);
uint8_t *slurp(const char *path, size_t *n);
size_t read_mem(const uint8_t *b, size_t n, const char *name, int *rc, edan_error *err);

/* trace_format_test.c */
void test_event_checks(void);
void test_version1_round_trip(void);
void test_write_errors(void);
/* The kernel's writes (EDAN_EXEC_KERNEL, version 5): a round trip among warm and measured records; refused before. */
void test_kernel_writes(void);
void test_exec_runs(void);
void test_objects(void);
void test_objects_ahead(void);

#endif
