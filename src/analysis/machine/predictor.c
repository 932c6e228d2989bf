#include "analysis/machine/predictor.h"

#include <stdlib.h>
#include <string.h>

int edan_predictor_init(edan_predictor *p, edan_predictor_kind kind, uint32_t entries, edan_error *err)
{
    memset(p, 0, sizeof *p);
    if (entries < 4 || (entries & (entries - 1)) || entries > (1u << 24)) {
        edan_error_set(err, "branch predictor: %u entries is not a power of two from 4 to 2^24", entries);
        return -1;
    }
    p->kind = kind;
    p->global_mask = entries - 1;
    p->global = calloc(entries, 1);
    bool ok = p->global != NULL;
    if (kind == EDAN_PRED_TOURNAMENT) {
        p->local_mask = entries / 4 - 1;
        p->choice = calloc(entries, 1);
        p->local = calloc(entries / 4, 1);
        p->local_history = calloc(entries / 4, sizeof *p->local_history);
        ok = ok && p->choice && p->local && p->local_history;
    } else if (ok) {
        memset(p->global, 1, entries); /* weakly not taken */
    }
    if (!ok) {
        edan_predictor_free(p);
        edan_error_set(err, "out of memory for the branch predictor");
        return -1;
    }
    return 0;
}

void edan_predictor_free(edan_predictor *p)
{
    free(p->global);
    free(p->choice);
    free(p->local);
    free(p->local_history);
    memset(p, 0, sizeof *p);
}

static void train(uint8_t *c, bool taken)
{
    if (taken && *c < 3)
        (*c)++;
    else if (!taken && *c > 0)
        (*c)--;
}

/* The counters one branch at pc reads: the single definition of the predictors' indexing, used both to predict
 * (edan_predictor_predict(), for the wrong path) and to predict and train (edan_predictor_branch()). */
typedef struct {
    uint32_t global, local, history; /* bimodal: only global */
} slots;

static inline slots lookup(const edan_predictor *p, uint64_t pc)
{
    if (p->kind == EDAN_PRED_BIMODAL)
        return (slots){.global = (uint32_t)((pc >> 1) & p->global_mask)};
    const uint32_t h = (uint32_t)((pc >> 2) & p->local_mask);
    return (slots){
        .global = p->global_history & p->global_mask, .local = p->local_history[h] & p->local_mask, .history = h};
}

/* gem5's TournamentBP: a counter predicts taken above 1; the choice counter above 1 picks the global one */
static inline bool predicted(const edan_predictor *p, slots s)
{
    if (p->kind == EDAN_PRED_BIMODAL)
        return p->global[s.global] >= 2;
    return p->choice[s.global] > 1 ? p->global[s.global] > 1 : p->local[s.local] > 1;
}

bool edan_predictor_predict(const edan_predictor *p, uint64_t pc)
{
    return predicted(p, lookup(p, pc));
}

bool edan_predictor_branch(edan_predictor *p, uint64_t pc, bool taken)
{
    const slots s = lookup(p, pc);
    const bool wrong = predicted(p, s) != taken;
    if (p->kind == EDAN_PRED_BIMODAL) {
        train(&p->global[s.global], taken);
        return wrong;
    }
    const bool local_taken = p->local[s.local] > 1, global_taken = p->global[s.global] > 1;
    if (local_taken != global_taken)
        train(&p->choice[s.global], global_taken == taken);
    train(&p->local[s.local], taken);
    train(&p->global[s.global], taken);
    uint16_t *hist = &p->local_history[s.history];
    *hist = (uint16_t)(((unsigned)*hist << 1 | taken) & p->local_mask);
    p->global_history = (p->global_history << 1 | taken) & p->global_mask;
    return wrong;
}

void edan_predictor_jump(edan_predictor *p)
{
    if (p->kind == EDAN_PRED_TOURNAMENT)
        p->global_history = (p->global_history << 1 | 1u) & p->global_mask;
}
