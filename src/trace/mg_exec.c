/*
 * mg_exec.c - MemGaze's load traces as an instruction stream (see mg_exec.h).
 */
#include "trace/mg_exec.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "isa/riscv_ops.h"
#include "memgaze/mg_trace.h"

#define BATCH 1024

struct edan_mg_exec {
    edan_mg_trace *trace;
    edan_code_table *code;
    edan_mg_load loads[BATCH];
    int64_t sample; /* the SAMPLE id of the latest load, -1 before the first */
};

edan_mg_exec *edan_mg_exec_open_file(FILE *f, const char *name, edan_error *err)
{
    edan_mg_exec *m = calloc(1, sizeof *m);
    if (!m || !(m->code = edan_code_table_new())) {
        free(m);
        fclose(f);
        edan_error_set(err, "%s: out of memory", name);
        return NULL;
    }
    m->sample = -1;
    if (!(m->trace = edan_mg_trace_open_file(f, name, err))) {
        edan_code_table_free(m->code);
        free(m);
        return NULL;
    }
    return m;
}

/* The id of the static load at ip, added on its first load. */
static uint32_t id_of(edan_mg_exec *m, uint64_t ip)
{
    const int64_t id = edan_code_table_find(m->code, ip, 0);
    if (id >= 0)
        return (uint32_t)id;
    edan_insn in;
    edan_insn_clear(&in);
    in.pc = ip;
    in.op = EDAN_OP_LB;
    in.size = 4;
    in.cls = EDAN_CLASS_LOAD;
    in.mem = EDAN_MEM_LOAD;
    in.mem_size = 1;
    in.fmt = EDAN_FMT_LOAD;
    return edan_code_table_add(m->code, &in);
}

long edan_mg_exec_next(edan_mg_exec *m, edan_exec *out, size_t cap, edan_error *err)
{
    const long n = edan_mg_trace_next(m->trace, m->loads, cap < BATCH ? cap : BATCH, err);
    for (long i = 0; i < n; i++) {
        const edan_mg_load *l = &m->loads[i];
        const uint32_t id = id_of(m, l->ip);
        const bool starts = l->sample != m->sample;
        m->sample = l->sample;
        out[i] = (edan_exec){edan_code_table_get(m->code, id), l->addr, id, 0,
                             (uint16_t)(starts ? EDAN_EXEC_SAMPLE_START : 0)};
    }
    return n;
}

const edan_code_table *edan_mg_exec_code(const edan_mg_exec *m)
{
    return m->code;
}

void edan_mg_exec_close(edan_mg_exec *m)
{
    if (!m)
        return;
    edan_mg_trace_close(m->trace);
    edan_code_table_free(m->code);
    free(m);
}
