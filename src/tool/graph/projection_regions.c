/*
 * projection_regions.c - the projection's memory regions in the report:
 * for each region touched (each data object of the program, the rest of its
 * static data, the stack, the heap: analysis/projection/projection.h), its loads and
 * stores, bytes read and written, read/write ratio, distinct lines, working
 * set and DRAM traffic at the machine's cache, as text, as the JSON member
 * "regions" and as CSV (--projection-regions-csv).
 */
#include <math.h>
#include <stdlib.h>

#include "tool/graph/projection_tool.h"

#define TEXT_REGIONS 10

static const char *const kind_names[] = {"stack", "heap", "static", "object"};

/* What a region's row says (the table's bound columns; its addresses are cells). */
static proj_region_row row_of(const proj_tool *t, const proj_row *r)
{
    const edan_proj_region *d = &t->regions.r[r->region];
    const edan_opmix *x = &r->mix;
    proj_region_row v = {
        .name = d->name,
        .kind = kind_names[d->kind],
        .loads = x->loads,
        .stores = x->stores,
        .load_bytes = x->load_bytes,
        .store_bytes = x->store_bytes,
        .block_accesses = r->lru.accesses,
        .read_write = x->store_bytes ? (double)x->load_bytes / (double)x->store_bytes : NAN,
        .lines = r->lru.cold,
        .working_set = r->lru.accesses ? ldexp(1.0, (int)edan_lru_working_set(&r->lru)) * (1u << t->line_shift) : 0};
    proj_row_dram(t, r, t->machine_k, &v.rd, &v.wr, &v.flushed);
    v.dram = v.rd + v.wr;
    return v;
}

/*
 * The regions' table, its rows bound to their structs (an object's addresses
 * cells): as text (the first TEXT_REGIONS), as the JSON member "regions", or
 * (f NULL) as the CSV.
 */
int proj_regions_write(const proj_tool *t, FILE *f, bool json, edan_error *err)
{
    proj_region_row *rows = calloc(t->n_region_rows + 1, sizeof *rows);
    edan_table tab;
    edan_table_init(&tab, &edan_projection_tables[T_REGIONS]);
    for (size_t i = 0; rows && i < t->n_region_rows; i++) {
        const edan_proj_region *d = &t->regions.r[t->region_rows[i].region];
        rows[i] = row_of(t, &t->region_rows[i]);
        edan_value *v = edan_table_row_of(&tab, 0, &rows[i], NULL);
        if (v && d->kind == EDAN_REGION_OBJECT) {
            v[RG_START] = (edan_value){.opt = {d->start, true}};
            v[RG_END] = (edan_value){.opt = {d->end, true}};
        }
    }
    int rc = 0;
    if (!f && (!rows || tab.failed)) {
        edan_error_set(err, "out of memory for the regions");
        rc = -1;
    } else if (!f) {
        rc = edan_table_csv_at(&tab, t->regions_csv, "--projection-regions-csv", err);
    } else if (json) {
        edan_table_json_member(f, &tab, false, 0);
    } else {
        edan_table_text(
            f, &tab,
            &(edan_text_view){.max_rows = TEXT_REGIONS, .more = " regions; --json lists all", .heading_always = true});
    }
    edan_table_free(&tab);
    free(rows);
    return rc;
}
