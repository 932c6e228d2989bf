#include "analysis/dram/dram.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef edan_dram_tick tick;

static inline tick max_t(tick a, tick b)
{
    return a > b ? a : b;
}

/* ===================================================================== */
/* State                                                                  */
/* ===================================================================== */

/*
 * A bank of one lane. row: the open row + 1 (0: closed, precharged). A
 * column command (read or write) may issue from col_at on, an activate
 * from act_at, a precharge from pre_at (gem5's rdAllowedAt, actAllowedAt,
 * preAllowedAt); last_cmd: the last column command (a request that arrived
 * by then was queued while it issued: the adaptive page policies decide on
 * the queue); since: the row's activate, or the column command of the
 * last row hit (a refresh after it closed the row).
 */
#define EDAN_DRAM_HIST 16
typedef struct bank {
    uint64_t row;
    tick col_at, act_at, pre_at, last_cmd, since;
    /*
     * last_arr: the latest arrival of a read of the bank. Its last
     * EDAN_DRAM_HIST bursts, a ring from hat: the row each left open + 1
     * (0: closed), its column command, the earliest precharge after it
     * (all 0: the bank closed from time 0). A read that arrives before
     * last_arr (the trace asks it after a later one) finds the bank as
     * the last of them before its arrival left it (bank_past()).
     */
    tick last_arr;
    uint64_t hrow[EDAN_DRAM_HIST];
    tick hcmd[EDAN_DRAM_HIST], hpre[EDAN_DRAM_HIST];
    uint32_t hat;
} bank;

/*
 * A rank of one lane: its last activates (at most EDAN_DRAM_ACTS, at least
 * twice the largest activation_limit machine_dram.c takes), each with its
 * bank group; when one more would not fit, the earliest goes and becomes
 * the floor, before which no activate issues. A calendar, as the data bus
 * is: an activate asked later but due earlier goes in a gap that keeps
 * tRRD and tXAW to the ones on either side of it.
 */
#define EDAN_DRAM_ACTS 16
typedef struct rank_state {
    tick act[EDAN_DRAM_ACTS], floor;
    uint8_t grp[EDAN_DRAM_ACTS];
    uint32_t n;
} rank_state;

/*
 * A channel of one lane. Its data bus is a calendar: the intervals taken
 * (sorted, disjoint, not touching: touching ones merge), at most
 * EDAN_DRAM_BUS_SPANS; when one more would not fit the oldest goes and its
 * end becomes the floor, before which nothing is booked. A request takes
 * the first gap from its ready time that holds its burst, so one that is
 * ready earlier than a request asked before it can go first (FR-FCFS: a
 * ready bank's request before a waiting one); FCFS issues in the order
 * asked (last_cmd). rq: when each of the last read_queue reads left the
 * queue (its burst's end), a ring; the write queue: wq writes from wq_head
 * in the ring wl (line + 1 each, 0: its address not known).
 */
typedef struct channel {
    tick from[EDAN_DRAM_BUS_SPANS], to[EDAN_DRAM_BUS_SPANS];
    uint32_t n;
    tick floor, last_cmd;
    uint32_t wq, wq_head, rq_at;
} channel;

struct edan_dram {
    edan_machine_dram p;
    int K;
    uint32_t nbank; /* banks per channel: ranks x banks */
    uint32_t wcap;  /* the write ring's entries: write_queue + 1 (a write is queued before the drain it causes) */
    uint64_t cols;  /* bursts per row */
    tick tburst, tccd, trcd, tcl, trp, tras, twr, trtp, trtw, twtr, resp;
    tick trrd, trrd_l, txaw;
    bool act_rules;       /* tRRD, tRRD_L or tXAW bind: the ranks' activates are recorded (else not looked at) */
    tick period, ref_len; /* refresh k (k >= 1) of every rank: [k x period, + ref_len) */
    uint32_t high, low;   /* write queue: a drain starts above `high`, an idle one above `low` */
    channel *ch;          /* [lane * channels + c] */
    bank *bk;             /* [(lane * channels + c) * nbank + b] */
    rank_state *rk;       /* [(lane * channels + c) * ranks + r] */
    tick *rq;             /* [(lane * channels + c) * read_queue + i] */
    uint64_t *wl;         /* [(lane * channels + c) * wcap + i] */
    double ns_per_tick;
    edan_dram_counts *n; /* [lane] */
};

static tick ticks(double ns, double ticks_per_ns)
{
    return (tick)llround(ns * ticks_per_ns);
}

edan_dram *edan_dram_new(const edan_machine_dram *p, double ticks_per_ns, uint32_t line, int K, edan_error *err)
{
    edan_dram *d = calloc(1, sizeof *d);
    if (!d) {
        edan_error_set(err, "out of memory for the DRAM model");
        return NULL;
    }
    d->p = *p;
    d->K = K;
    d->ns_per_tick = ticks_per_ns > 0 ? 1.0 / ticks_per_ns : 0;
    d->nbank = p->ranks * p->banks;
    d->wcap = p->write_queue + 1;
    d->cols = p->row_bytes / line ? p->row_bytes / line : 1;
    d->tburst = ticks(p->tburst, ticks_per_ns);
    d->tccd = ticks(p->tccd_l > p->tburst ? p->tccd_l : p->tburst, ticks_per_ns);
    d->trcd = ticks(p->trcd, ticks_per_ns);
    d->tcl = ticks(p->tcl, ticks_per_ns);
    d->trp = ticks(p->trp, ticks_per_ns);
    d->tras = ticks(p->tras, ticks_per_ns);
    d->twr = ticks(p->twr, ticks_per_ns);
    d->trtp = ticks(p->trtp, ticks_per_ns);
    d->trtw = ticks(p->trtw, ticks_per_ns);
    d->twtr = ticks(p->twtr, ticks_per_ns);
    d->trrd = ticks(p->trrd, ticks_per_ns);
    d->trrd_l = ticks(p->trrd_l, ticks_per_ns);
    d->txaw = ticks(p->txaw, ticks_per_ns);
    d->act_rules = d->trrd || d->trrd_l || (p->activation_limit && d->txaw);
    d->resp = ticks(p->frontend_ns + p->backend_ns, ticks_per_ns);
    /* gem5 refreshes every tREFI - tRP (its next refresh is due tREFI after the last was, and it starts to
       precharge tRP early); the file checked tREFI > tRFC + 2 tRP, so a refresh ends before the next */
    d->ref_len = ticks(p->trp + p->trfc, ticks_per_ns);
    d->period = ticks(p->trefi - p->trp, ticks_per_ns);
    if (d->period <= d->ref_len)
        d->period = d->ref_len + 1;
    if (!d->tburst)
        d->tburst = 1;
    /* gem5: writeHighThreshold = write_buffer_size x percent / 100 (a real number; a drain above it) */
    d->high = (uint32_t)((uint64_t)p->write_queue * p->write_high_percent / 100);
    d->low = (uint32_t)((uint64_t)p->write_queue * p->write_low_percent / 100);
    const size_t nch = (size_t)K * p->channels, nrk = nch * p->ranks;
    d->ch = calloc(nch, sizeof *d->ch);
    d->bk = calloc(nch * d->nbank, sizeof *d->bk);
    d->rk = calloc(nrk, sizeof *d->rk);
    d->rq = calloc(nch * p->read_queue, sizeof *d->rq);
    d->wl = calloc(nch * d->wcap, sizeof *d->wl);
    d->n = calloc((size_t)K, sizeof *d->n);
    if (!d->ch || !d->bk || !d->rk || !d->rq || !d->wl || !d->n) {
        edan_error_set(err, "out of memory for the DRAM model");
        edan_dram_free(d);
        return NULL;
    }
    return d;
}

void edan_dram_free(edan_dram *d)
{
    if (!d)
        return;
    free(d->ch);
    free(d->bk);
    free(d->rk);
    free(d->rq);
    free(d->wl);
    free(d->n);
    free(d);
}

edan_dram_counts edan_dram_counts_get(const edan_dram *d)
{
    edan_dram_counts s = {0};
    for (int k = 0; k < d->K; k++) {
        const edan_dram_counts *n = &d->n[k];
        s.reads += n->reads, s.row_hits += n->row_hits, s.row_misses += n->row_misses;
        s.row_conflicts += n->row_conflicts, s.writes += n->writes, s.drains += n->drains;
        s.wait_ns += n->wait_ns;
    }
    return s;
}

edan_dram_counts edan_dram_lane_counts(const edan_dram *d, int k)
{
    return d->n[k];
}

/* ===================================================================== */
/* The data bus                                                           */
/* ===================================================================== */

/* The first t >= at (and >= the floor) with [t, t + len) free on c's bus. */
static tick bus_find(const channel *c, tick at, tick len)
{
    tick t = max_t(at, c->floor);
    for (uint32_t i = 0; i < c->n; i++) {
        if (c->to[i] <= t)
            continue;
        if (c->from[i] >= t + len)
            break;
        t = c->to[i];
    }
    return t;
}

/* Book [t, e) on c's bus (free: bus_find found it), merging with the intervals it touches. */
static void bus_take(channel *c, tick t, tick e)
{
    uint32_t i = 0;
    while (i < c->n && c->to[i] < t)
        i++;
    /* intervals i .. j - 1 touch [t, e): one interval replaces them */
    uint32_t j = i;
    while (j < c->n && c->from[j] <= e) {
        t = c->from[j] < t ? c->from[j] : t;
        e = max_t(e, c->to[j]);
        j++;
    }
    if (j == i && c->n == EDAN_DRAM_BUS_SPANS) { /* no room: the oldest interval goes, below the floor */
        if (i == 0) {                            /* the new one is the oldest */
            c->floor = max_t(c->floor, e);
            return;
        }
        c->floor = max_t(c->floor, c->to[0]); /* <= t: to[0] < t */
        memmove(c->from, c->from + 1, (c->n - 1) * sizeof *c->from);
        memmove(c->to, c->to + 1, (c->n - 1) * sizeof *c->to);
        c->n--;
        i--;
        j--;
    }
    const uint32_t gone = j - i; /* >= 1 when merged */
    if (gone == 0) {
        memmove(c->from + i + 1, c->from + i, (c->n - i) * sizeof *c->from);
        memmove(c->to + i + 1, c->to + i, (c->n - i) * sizeof *c->to);
        c->n++;
    } else if (gone > 1) {
        memmove(c->from + i + 1, c->from + j, (c->n - j) * sizeof *c->from);
        memmove(c->to + i + 1, c->to + j, (c->n - j) * sizeof *c->to);
        c->n -= gone - 1;
    }
    c->from[i] = t;
    c->to[i] = e;
}

/* The end of the last interval booked on c's bus (0: none). */
static tick bus_end(const channel *c)
{
    return c->n ? c->to[c->n - 1] : c->floor;
}

/* ===================================================================== */
/* Addresses, refresh, banks                                              */
/* ===================================================================== */

/* Where a line is (gem5's decodeAddr, bursts being lines): its channel, rank, bank and row. */
typedef struct where {
    uint64_t ch, row;
    uint32_t rank, bank;
} where;

static where decode(const edan_dram *d, uint64_t line)
{
    const edan_machine_dram *p = &d->p;
    uint64_t a = line;
    where w;
    if (p->map == EDAN_DRAM_ROCORABACH) { /* row | column | rank | bank | channel: lines spread over the banks */
        w.ch = a % p->channels, a /= p->channels;
        w.bank = (uint32_t)(a % p->banks), a /= p->banks;
        w.rank = (uint32_t)(a % p->ranks), a /= p->ranks;
        w.row = a / d->cols;
        return w;
    }
    if (p->map == EDAN_DRAM_RORABACHCO) /* row | rank | bank | channel | column: a row per channel in turn */
        a /= d->cols, w.ch = a % p->channels, a /= p->channels;
    else /* row | rank | bank | column | channel: lines spread over the channels, a row's in one bank */
        w.ch = a % p->channels, a /= p->channels, a /= d->cols;
    w.bank = (uint32_t)(a % p->banks), a /= p->banks;
    w.rank = (uint32_t)(a % p->ranks), a /= p->ranks;
    w.row = a;
    return w;
}

/*
 * Refresh: every rank is refreshed from k x period for ref_len (k >= 1):
 * all its banks precharged (tRP), then tRFC. No command issues inside; a
 * command that would is put at the refresh's end.
 */
static tick out_of_refresh(const edan_dram *d, tick t)
{
    const tick k = t / d->period, end = k * d->period + d->ref_len;
    return k && t < end ? end : t;
}

/* Whether a refresh starts in (a, b]: it closed every row open at a. */
static bool refreshed_between(const edan_dram *d, tick a, tick b)
{
    return b / d->period > a / d->period;
}

/*
 * When an activate of bank group g wanted from t can issue in rank rs: not
 * within tRRD of another activate of the rank (tRRD_L of one of its group),
 * not as the (N+1)-th in a window of tXAW (N: activation_limit), not in a
 * refresh (gem5's activateBank, whose activates come in time order: the
 * next no earlier than tRRD after the last, nor than tXAW after the oldest
 * of the last N). A window with too many starts at its earliest activate,
 * which is this one or one before it; a move is always later, to where a
 * conflict ends, so the search ends.
 */
static tick act_time(const edan_dram *d, const rank_state *rs, uint32_t g, tick t)
{
    const edan_machine_dram *p = &d->p;
    const uint32_t lim = p->activation_limit;
    tick a = out_of_refresh(d, max_t(t, rs->floor));
    for (bool moved = true; moved;) {
        moved = false;
        for (uint32_t i = 0; i < rs->n; i++) {
            const tick r = rs->act[i], gap = p->bank_groups && rs->grp[i] == g ? d->trrd_l : d->trrd;
            if (r < a + gap && a < r + gap) {
                a = out_of_refresh(d, r + gap);
                moved = true;
            }
        }
        if (!lim)
            continue;
        for (uint32_t i = 0; i <= rs->n; i++) { /* the windows from a (i == n) and from the activates before it */
            const tick s = i < rs->n ? rs->act[i] : a;
            if (s > a || a >= s + d->txaw)
                continue;
            uint32_t c = 1;
            tick first = UINT64_MAX; /* the earliest other activate in the window */
            for (uint32_t j = 0; j < rs->n; j++)
                if (s <= rs->act[j] && rs->act[j] < s + d->txaw) {
                    c++;
                    first = rs->act[j] < first ? rs->act[j] : first;
                }
            if (c > lim) { /* leave the window: after its start, or after the first one from a on */
                a = out_of_refresh(d, (s < a ? s : first) + d->txaw);
                moved = true;
            }
        }
    }
    return a;
}

/* An activate at a of bank group g recorded in rank rs; with every entry taken the earliest goes. */
static void activated(rank_state *rs, uint32_t g, tick a)
{
    uint32_t at = rs->n;
    if (at == EDAN_DRAM_ACTS) {
        at = 0;
        for (uint32_t i = 1; i < EDAN_DRAM_ACTS; i++)
            if (rs->act[i] < rs->act[at])
                at = i;
        rs->floor = max_t(rs->floor, rs->act[at]);
    } else {
        rs->n++;
    }
    rs->act[at] = a;
    rs->grp[at] = (uint8_t)g;
}

enum { HIT, MISS, CONFLICT };

/*
 * The bank's side of a burst (a read's or a write's) to w.row that may
 * start at x on channel ci: a row hit, a row miss (the bank closed:
 * activate) or a row conflict (another row open: precharge, activate).
 * *out says which. Returns when its column command may issue. A refresh
 * between the row's last use and this burst's first command closed the
 * row. The burst's commands are taken to issue now (it is the one the
 * controller picks): the activate's constraints on the rank are set.
 */
static tick bank_open(edan_dram *d, size_t ci, where w, tick x, int *out)
{
    const edan_machine_dram *p = &d->p;
    bank *b = &d->bk[ci * d->nbank + w.rank * p->banks + w.bank];
    const bool queued = x <= b->last_cmd && b->row; /* it waited while the bank's last burst issued */
    bool hit = b->row == w.row + 1;
    /* close_adaptive: the row was closed after the last burst, unless a hit waited */
    if (p->page == EDAN_DRAM_CLOSE_ADAPTIVE && !(hit && queued)) {
        if (b->row) {
            b->act_at = max_t(b->act_at, b->pre_at + d->trp);
            b->row = 0;
        }
        hit = false;
    }
    /* the first command: a hit's column command, a conflict's precharge */
    tick first = hit ? max_t(x, b->col_at) : max_t(x, b->pre_at);
    if (b->row && refreshed_between(d, b->since, first)) { /* the refresh precharged it: a miss after it */
        b->act_at = max_t(b->act_at, (b->since / d->period + 1) * d->period + d->ref_len);
        b->row = 0;
        hit = false;
    }
    if (hit) {
        *out = HIT;
        b->since = first;
        return first;
    }
    rank_state *rs = &d->rk[ci * p->ranks + w.rank];
    const uint32_t g = p->bank_groups ? w.bank % p->bank_groups : 0;
    tick act = max_t(x, b->act_at);
    if (b->row) { /* a conflict: precharge first */
        act = max_t(act, first + d->trp);
        *out = CONFLICT;
    } else {
        *out = MISS;
    }
    if (d->act_rules) {
        act = act_time(d, rs, g, act);
        activated(rs, g, act);
    } else {
        act = out_of_refresh(d, act);
    }
    b->since = act;
    b->row = w.row + 1;
    b->pre_at = act + d->tras;
    return max_t(act + d->trcd, b->col_at);
}

/*
 * A read that arrives at x before a read of its bank asked earlier (the
 * trace asks reads in program order, an out-of-order core issues them in
 * its own): gem5's controller has it first, so it finds the bank as the
 * last burst of the bank's history before x left it (the latest with its
 * column command at or before x; none: the bank's state now, as
 * bank_open()): a row hit from that burst's column command plus tCCD_L (a
 * burst without bank groups), a miss or conflict as bank_open() says, the
 * activate under the rank's rules and refresh. It leaves the bank's state
 * to the bursts asked before it (they are later). *pre: the earliest
 * precharge after it (its activate's tRAS), for the history.
 */
static tick bank_past(edan_dram *d, size_t ci, where w, tick x, int *out, tick *pre)
{
    const edan_machine_dram *p = &d->p;
    bank *b = &d->bk[ci * d->nbank + w.rank * p->banks + w.bank];
    int j = -1;
    for (int i = 0; i < EDAN_DRAM_HIST; i++)
        if (b->hcmd[i] <= x && (j < 0 || b->hcmd[i] > b->hcmd[j]))
            j = i;
    if (j < 0)
        return bank_open(d, ci, w, x, out);
    uint64_t row = b->hrow[j];
    const tick at = b->hcmd[j], pre_at = b->hpre[j];
    /* close_adaptive: closed after the burst (a hit that waited for it came before x) */
    if (p->page == EDAN_DRAM_CLOSE_ADAPTIVE)
        row = 0;
    tick act = x;
    if (row && refreshed_between(d, at, max_t(x, row == w.row + 1 ? at : pre_at))) {
        act = max_t(act, (at / d->period + 1) * d->period + d->ref_len);
        row = 0;
    }
    if (row == w.row + 1) {
        *out = HIT;
        *pre = pre_at;
        return out_of_refresh(d, max_t(x, at + (p->bank_groups ? d->tccd : d->tburst)));
    }
    if (row) {
        act = max_t(act, max_t(x, pre_at) + d->trp);
        *out = CONFLICT;
    } else {
        if (pre_at) /* closed by the close policy: precharged from its earliest precharge on */
            act = max_t(act, pre_at + d->trp);
        *out = MISS;
    }
    if (d->act_rules) {
        rank_state *rs = &d->rk[ci * p->ranks + w.rank];
        const uint32_t g = p->bank_groups ? w.bank % p->bank_groups : 0;
        act = act_time(d, rs, g, act);
        activated(rs, g, act);
    } else {
        act = out_of_refresh(d, act);
    }
    *pre = act + d->tras;
    return act + d->trcd;
}

/*
 * After a burst's column command at cmd: the next column command to the
 * bank, and with bank groups to its group, tCCD_L later (else a burst);
 * no precharge before pre (tRTP after a read, tWR after a write's data);
 * the close policy precharges at once.
 */
static void bank_used(edan_dram *d, size_t ci, where w, tick cmd, tick pre, tick past_pre)
{
    const edan_machine_dram *p = &d->p;
    bank *r = &d->bk[ci * d->nbank + w.rank * p->banks], *b = &r[w.bank];
    /* the burst in the bank's history: the row it leaves open, the earliest precharge after it */
    b->hrow[b->hat] = p->page == EDAN_DRAM_CLOSE ? 0 : w.row + 1;
    b->hcmd[b->hat] = cmd;
    b->hpre[b->hat] = past_pre ? max_t(past_pre, pre) : max_t(b->pre_at, pre);
    b->hat = b->hat + 1 == EDAN_DRAM_HIST ? 0 : b->hat + 1;
    if (p->bank_groups) { /* gem5: bank b of a rank is in group b % bank_groups */
        for (uint32_t i = w.bank % p->bank_groups; i < p->banks; i += p->bank_groups)
            r[i].col_at = max_t(r[i].col_at, cmd + d->tccd);
    } else {
        b->col_at = max_t(b->col_at, cmd + d->tburst);
    }
    b->pre_at = max_t(b->pre_at, pre);
    b->last_cmd = max_t(b->last_cmd, cmd);
    if (p->page == EDAN_DRAM_CLOSE) { /* auto-precharge */
        b->act_at = max_t(b->act_at, b->pre_at + d->trp);
        b->row = 0;
    }
}

/* ===================================================================== */
/* Writes                                                                 */
/* ===================================================================== */

/*
 * n queued writes of channel ci go from `at` on, oldest first, in one turn
 * of the bus: the read-to-write turnaround (tRTW), a burst each, then the
 * write-to-read turnaround (tWTR, and the next read's CAS latency before
 * its data). A write whose line is known goes to its bank as a read does
 * (row hit, miss or conflict; its data tCL (gem5's tCWL) after its column
 * command; no precharge until tWR after its data), so the turn lasts as
 * long as its banks make it; one whose line is not known takes its burst.
 * The turn is booked from the first gap that holds it with every write a
 * row hit; a longer one covers what it overlaps.
 */
static void drain(edan_dram *d, edan_dram_counts *cnt, size_t ci, tick at, uint32_t n)
{
    channel *c = &d->ch[ci];
    const tick s = bus_find(c, at, d->trtw + (tick)n * d->tburst + d->twtr + d->tcl);
    tick t = s + d->trtw; /* the next write's data */
    for (uint32_t i = 0; i < n; i++) {
        const uint64_t line = d->wl[ci * d->wcap + c->wq_head];
        c->wq_head = c->wq_head + 1 == d->wcap ? 0 : c->wq_head + 1;
        if (line) {
            const where w = decode(d, line - 1);
            int out;
            const tick data = max_t(t, bank_open(d, ci, w, s, &out) + d->tcl);
            bank_used(d, ci, w, data - d->tcl, data + d->tburst + d->twr, 0);
            t = data;
        }
        t += d->tburst;
    }
    bus_take(c, s, t + d->twtr + d->tcl);
    c->wq -= n;
    cnt->drains++;
}

/* A write-back of line + 1 (0: not known) queued on channel ci; above the high threshold a drain. */
static void queue_write(edan_dram *d, edan_dram_counts *cnt, size_t ci, uint64_t line1, tick x)
{
    channel *c = &d->ch[ci];
    uint32_t at = c->wq_head + c->wq;
    d->wl[ci * d->wcap + (at >= d->wcap ? at - d->wcap : at)] = line1;
    c->wq++;
    cnt->writes++;
    while (c->wq > d->high)
        drain(d, cnt, ci, x, c->wq < d->p.min_writes_per_switch ? c->wq : d->p.min_writes_per_switch);
}

/* ===================================================================== */
/* A read                                                                 */
/* ===================================================================== */

edan_dram_tick edan_dram_read(edan_dram *d, int k, uint64_t line, const uint64_t *wb, uint32_t writes, edan_dram_tick x)
{
    const edan_machine_dram *p = &d->p;
    const where w = decode(d, line);
    const size_t ci = (size_t)k * p->channels + w.ch;
    channel *c = &d->ch[ci];
    tick *rq = &d->rq[ci * p->read_queue];
    edan_dram_counts *cnt = &d->n[k];
    const tick arrived = x;

    /* a full read queue: the read enters when the one read_queue before it has left */
    x = max_t(x, rq[c->rq_at]);
    /*
     * Reads go first; with none queued (the bus idle since it was last
     * booked) the controller turns to the writes above the low threshold,
     * at least min_writes_per_switch of them, more while the bus stays idle.
     */
    const tick idle = bus_end(c);
    if (c->wq > d->low && idle < x) {
        const uint32_t least = c->wq < p->min_writes_per_switch ? c->wq : p->min_writes_per_switch;
        const tick room = x - idle, fixed = d->trtw + d->twtr + d->tcl;
        uint32_t fit = room > fixed ? (uint32_t)((room - fixed) / d->tburst) : 0;
        uint32_t n = c->wq - d->low;
        n = n < fit ? n : fit;
        drain(d, cnt, ci, idle, n > least ? n : least);
    }

    int out;
    bank *b = &d->bk[ci * d->nbank + w.rank * p->banks + w.bank];
    tick past_pre = 0;
    tick ready = x < b->last_arr ? bank_past(d, ci, w, x, &out, &past_pre) : bank_open(d, ci, w, x, &out);
    b->last_arr = max_t(b->last_arr, x);
    cnt->row_hits += out == HIT;
    cnt->row_misses += out == MISS;
    cnt->row_conflicts += out == CONFLICT;
    if (p->sched == EDAN_DRAM_FCFS)
        ready = max_t(ready, c->last_cmd);
    /* the data bus: the first gap for the burst from the CAS latency on */
    const tick data = bus_find(c, ready + d->tcl, d->tburst);
    const tick cmd = data - d->tcl, end = data + d->tburst;
    bus_take(c, data, end);
    c->last_cmd = max_t(c->last_cmd, cmd);
    bank_used(d, ci, w, cmd, cmd + d->trtp, past_pre);
    rq[c->rq_at] = end;
    c->rq_at = c->rq_at + 1 == p->read_queue ? 0 : c->rq_at + 1;
    cnt->reads++;
    cnt->wait_ns += (double)(cmd - arrived) * d->ns_per_tick;

    /* the write-backs, posted: each queued on its channel (the read's when not known) */
    for (uint32_t i = 0; i < writes; i++) {
        const size_t wc = wb ? (size_t)k * p->channels + decode(d, wb[i]).ch : ci;
        queue_write(d, cnt, wc, wb ? wb[i] + 1 : 0, x);
    }
    return end + d->resp;
}
