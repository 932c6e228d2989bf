/*
 * predictor.h - branch-direction predictors of the timing model: a bimodal
 * table of 2-bit counters, or a tournament predictor as gem5's TournamentBP
 * (a local predictor indexed by each branch's own history, a global one
 * indexed by the global history, and a choice table between them). Only
 * directions: targets are assumed known (the trace shows them).
 */
#ifndef EDAN_ANALYSIS_PREDICTOR_H
#define EDAN_ANALYSIS_PREDICTOR_H

#include <stdbool.h>
#include <stdint.h>

#include "util/error.h"

typedef enum edan_predictor_kind { EDAN_PRED_BIMODAL = 0, EDAN_PRED_TOURNAMENT } edan_predictor_kind;

typedef struct edan_predictor {
    edan_predictor_kind kind;
    uint32_t global_mask, local_mask; /* table sizes - 1 */
    uint32_t global_history;
    uint8_t *global, *choice, *local; /* 2-bit counters; bimodal: global only, indexed by pc */
    uint16_t *local_history;          /* per branch (by pc), local_mask + 1 entries */
} edan_predictor;

/*
 * entries: a power of two >= 4; bimodal: its counters; tournament: the
 * global and choice tables' entries, the local tables a quarter of that
 * (gem5's defaults: 8192 and 2048). 0, or -1 with err set.
 */
int edan_predictor_init(edan_predictor *p, edan_predictor_kind kind, uint32_t entries, edan_error *err);
void edan_predictor_free(edan_predictor *p);
/* A conditional branch at pc went this way: whether the predictor had it wrong (it learns the outcome). */
bool edan_predictor_branch(edan_predictor *p, uint64_t pc, bool taken);
/* Whether the predictor predicts a conditional branch at pc taken now (it learns nothing). */
bool edan_predictor_predict(const edan_predictor *p, uint64_t pc);
/* An unconditional jump, call or return: taken, into the global history. */
void edan_predictor_jump(edan_predictor *p);

#endif
