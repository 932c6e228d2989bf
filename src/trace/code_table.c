/*
 * code_table.c - dense ids -> decoded static instructions.
 *
 * Entries live in fixed-size chunks that are never moved or freed before the
 * table, so pointers handed out in edan_exec.insn stay valid while the table
 * grows. An open-addressing index on (pc, raw) serves edan_code_table_find
 * without allocating.
 */
#include "trace/exec.h"

#include <stdlib.h>
#include <string.h>

const edan_insn edan_kernel_write_insn = {
    .cls = EDAN_CLASS_STORE, .mem = EDAN_MEM_STORE, .mem_size = EDAN_KERNEL_LINE, .flow = EDAN_FLOW_NONE};

#define CHUNK_SHIFT 12
#define CHUNK_SIZE (1u << CHUNK_SHIFT)
#define CHUNK_MASK (CHUNK_SIZE - 1)

struct edan_code_table {
    edan_insn **chunks;
    uint32_t n_chunks;
    uint32_t chunk_cap;
    uint32_t size;
    /* Index slots hold id + 1; 0 marks an empty slot. Capacity is a power of
     * two kept at most half full, so probes stay short. */
    uint32_t *index;
    uint32_t index_cap;
};

static uint64_t key_hash(uint64_t pc, uint32_t raw)
{
    uint64_t h = pc * 0x9e3779b97f4a7c15ull ^ ((uint64_t)raw * 0xc2b2ae3d27d4eb4full);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 29;
    return h;
}

edan_code_table *edan_code_table_new(void)
{
    edan_code_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->index_cap = 1024;
    t->index = calloc(t->index_cap, sizeof *t->index);
    if (!t->index) {
        free(t);
        return NULL;
    }
    return t;
}

void edan_code_table_free(edan_code_table *t)
{
    if (!t)
        return;
    for (uint32_t i = 0; i < t->n_chunks; i++)
        free(t->chunks[i]);
    free(t->chunks);
    free(t->index);
    free(t);
}

static void index_insert(uint32_t *index, uint32_t cap, uint64_t pc, uint32_t raw, uint32_t id)
{
    uint32_t mask = cap - 1;
    uint32_t i = (uint32_t)key_hash(pc, raw) & mask;
    while (index[i])
        i = (i + 1) & mask;
    index[i] = id + 1;
}

static int index_grow(edan_code_table *t)
{
    uint32_t cap = t->index_cap * 2;
    uint32_t *index = calloc(cap, sizeof *index);
    if (!index)
        return -1;
    for (uint32_t id = 0; id < t->size; id++) {
        const edan_insn *in = edan_code_table_get(t, id);
        index_insert(index, cap, in->pc, in->raw, id);
    }
    free(t->index);
    t->index = index;
    t->index_cap = cap;
    return 0;
}

/*
 * Out of memory here cannot be reported through the contract's return type;
 * aborting is preferable to handing out an id that points nowhere.
 */
uint32_t edan_code_table_add(edan_code_table *t, const edan_insn *insn)
{
    uint32_t id = t->size;
    if (id == UINT32_MAX)
        abort();
    if ((id >> CHUNK_SHIFT) == t->n_chunks) {
        if (t->n_chunks == t->chunk_cap) {
            uint32_t cap = t->chunk_cap ? t->chunk_cap * 2 : 16;
            edan_insn **c = realloc(t->chunks, (size_t)cap * sizeof *c);
            if (!c)
                abort();
            t->chunks = c;
            t->chunk_cap = cap;
        }
        edan_insn *chunk = malloc((size_t)CHUNK_SIZE * sizeof *chunk);
        if (!chunk)
            abort();
        t->chunks[t->n_chunks++] = chunk;
    }
    t->chunks[id >> CHUNK_SHIFT][id & CHUNK_MASK] = *insn;
    t->size = id + 1;
    if ((uint64_t)t->size * 2 > t->index_cap && t->index_cap < (1u << 31)) {
        if (index_grow(t) != 0)
            abort();
    } else {
        index_insert(t->index, t->index_cap, insn->pc, insn->raw, id);
    }
    return id;
}

int64_t edan_code_table_find(const edan_code_table *t, uint64_t pc, uint32_t raw)
{
    uint32_t mask = t->index_cap - 1;
    uint32_t i = (uint32_t)key_hash(pc, raw) & mask;
    for (;;) {
        uint32_t v = t->index[i];
        if (!v)
            return -1;
        const edan_insn *in = &t->chunks[(v - 1) >> CHUNK_SHIFT][(v - 1) & CHUNK_MASK];
        if (in->pc == pc && in->raw == raw)
            return (int64_t)(v - 1);
        i = (i + 1) & mask;
    }
}

const edan_insn *edan_code_table_get(const edan_code_table *t, uint32_t id)
{
    if (id >= t->size)
        return NULL;
    return &t->chunks[id >> CHUNK_SHIFT][id & CHUNK_MASK];
}

uint32_t edan_code_table_size(const edan_code_table *t)
{
    return t->size;
}
