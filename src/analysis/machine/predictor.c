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

bool edan_predictor_branch(edan_predictor *p, uint64_t pc, bool taken)
{
    if (p->kind == EDAN_PRED_BIMODAL) {
        uint8_t *c = &p->global[(pc >> 1) & p->global_mask];
        bool wrong = (*c >= 2) != taken;
        train(c, taken);
        return wrong;
    }
    /* gem5's TournamentBP: a counter predicts taken above 1; the choice counter above 1 picks the global one */
    uint16_t *hist = &p->local_history[(pc >> 2) & p->local_mask];
    uint8_t *local = &p->local[*hist & p->local_mask];
    uint8_t *global = &p->global[p->global_history & p->global_mask];
    uint8_t *choice = &p->choice[p->global_history & p->global_mask];
    const bool local_taken = *local > 1, global_taken = *global > 1;
    const bool predicted = *choice > 1 ? global_taken : local_taken;
    if (local_taken != global_taken)
        train(choice, global_taken == taken);
    train(local, taken);
    train(global, taken);
    *hist = (uint16_t)(((unsigned)*hist << 1 | taken) & p->local_mask);
    p->global_history = (p->global_history << 1 | taken) & p->global_mask;
    return predicted != taken;
}

bool edan_predictor_predict(const edan_predictor *p, uint64_t pc)
{
    if (p->kind == EDAN_PRED_BIMODAL)
        return p->global[(pc >> 1) & p->global_mask] >= 2;
    const uint16_t hist = p->local_history[(pc >> 2) & p->local_mask];
    const bool local_taken = p->local[hist & p->local_mask] > 1;
    const bool global_taken = p->global[p->global_history & p->global_mask] > 1;
    return p->choice[p->global_history & p->global_mask] > 1 ? global_taken : local_taken;
}

void edan_predictor_jump(edan_predictor *p)
{
    if (p->kind == EDAN_PRED_TOURNAMENT)
        p->global_history = (p->global_history << 1 | 1u) & p->global_mask;
}
