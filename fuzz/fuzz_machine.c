/*
 * fuzz_machine.c - libFuzzer target for machine files: the input is written
 * to a file and read by edan_machine_load(), as --machine does. Whatever the
 * bytes, nothing may crash, overflow or leak; a machine that is accepted
 * must be one the timing model takes, and the model must schedule a small
 * stream (loads, stores, branches, arithmetic) on it at three latencies
 * without a fault, with times that do not fall as the latency grows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/timing/timing.h"
#include "config/machine_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];

/* 64 instructions over 4 KiB of data: a chain, strided loads, stores, a loop branch. */
static void schedule(const edan_machine *m)
{
    static edan_insn code[4];
    static edan_exec recs[512];
    memset(code, 0, sizeof code);
    for (int i = 0; i < 4; i++) {
        code[i].pc = 0x10000 + 4 * (uint64_t)i;
        code[i].size = 4;
        code[i].n_src = 1;
        code[i].src[0] = EDAN_REG_X(5);
        code[i].n_dst = i == 2 ? 0 : 1;
        code[i].dst = i == 2 ? 0 : EDAN_REG_X(5);
    }
    code[0].cls = EDAN_CLASS_LOAD, code[0].mem = EDAN_MEM_LOAD, code[0].mem_size = 8;
    code[1].cls = EDAN_CLASS_FDIV;
    code[2].cls = EDAN_CLASS_STORE, code[2].mem = EDAN_MEM_STORE, code[2].mem_size = 8;
    code[3].cls = EDAN_CLASS_BRANCH, code[3].flow = EDAN_FLOW_BRANCH;
    for (size_t i = 0; i < 512; i++) {
        memset(&recs[i], 0, sizeof recs[i]);
        recs[i].id = (uint32_t)(i % 4);
        recs[i].insn = &code[i % 4];
        recs[i].addr = 0x800000 + (i * 72) % 4096;
    }
    const double lat[3] = {0, 80, 1e6};
    edan_error err = {0};
    edan_timing *t = edan_timing_new(m, lat, 3, &err);
    if (!t)
        abort(); /* an accepted machine file must make a model */
    edan_consumer c = edan_timing_consumer(t);
    for (size_t i = 0; i < 512; i += 100)
        c.consume(c.ctx, recs + i, 512 - i < 100 ? 512 - i : 100);
    if (!c.finish(c.ctx) && !(edan_timing_lane_get(t, 0).cycles <= edan_timing_lane_get(t, 1).cycles &&
                              edan_timing_lane_get(t, 1).cycles <= edan_timing_lane_get(t, 2).cycles))
        abort();
    edan_timing_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/edan_fuzz_machine_%d.ini", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    edan_machine m;
    edan_error err = {0};
    if (edan_machine_load(path, &m, &err) == 0)
        schedule(&m);
    else if (!err.set || !strstr(err.msg, path))
        abort(); /* a refusal names the file */
    unlink(path);
    return 0;
}
