#include "analysis/timing/dram.h"

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
 * column command (read) may issue from col_at on, an activate from act_at,
 * a precharge from pre_at (gem5's rdAllowedAt, actAllowedAt,
 * preAllowedAt); last_cmd: the last read's column command (a request that
 * arrived by then was queued while it issued: the adaptive page policies
 * decide on the queue).
 */
typedef struct bank {
    uint64_t row;
    tick col_at, act_at, pre_at, last_cmd;
} bank;

/*
 * A channel of one lane. Its data bus is a calendar: the intervals taken
 * (sorted, disjoint, not touching: touching ones merge), at most
 * EDAN_DRAM_BUS_SPANS; when one more would not fit the oldest goes and its
 * end becomes the floor, before which nothing is booked. A request takes
 * the first gap from its ready time that holds its burst, so one that is
 * ready earlier than a request asked before it can go first (FR-FCFS: a
 * ready bank's request before a waiting one); FCFS issues in the order
 * asked (last_cmd). rq: when each of the last read_queue reads left the
 * queue (its burst's end), a ring; wq: the writes queued.
 */
typedef struct channel {
    tick from[EDAN_DRAM_BUS_SPANS], to[EDAN_DRAM_BUS_SPANS];
    uint32_t n;
    tick floor, last_cmd;
    uint32_t wq, rq_at;
} channel;

struct edan_dram {
    edan_machine_dram p;
    int K;
    uint32_t nbank; /* banks per channel: ranks x banks */
    uint64_t cols;  /* bursts per row */
    tick tburst, tccd, trcd, tcl, trp, tras, twr, trtp, trtw, twtr, resp;
    uint32_t high, low; /* write queue: a drain starts above `high`, an idle one above `low` */
    channel *ch;        /* [lane * channels + c] */
    bank *bk;           /* [(lane * channels + c) * nbank + b] */
    tick *rq;           /* [(lane * channels + c) * read_queue + i] */
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
    d->resp = ticks(p->frontend_ns + p->backend_ns, ticks_per_ns);
    if (!d->tburst)
        d->tburst = 1;
    /* gem5: writeHighThreshold = write_buffer_size x percent / 100 (a real number; a drain above it) */
    d->high = (uint32_t)((uint64_t)p->write_queue * p->write_high_percent / 100);
    d->low = (uint32_t)((uint64_t)p->write_queue * p->write_low_percent / 100);
    const size_t nch = (size_t)K * p->channels;
    d->ch = calloc(nch, sizeof *d->ch);
    d->bk = calloc(nch * d->nbank, sizeof *d->bk);
    d->rq = calloc(nch * p->read_queue, sizeof *d->rq);
    d->n = calloc((size_t)K, sizeof *d->n);
    if (!d->ch || !d->bk || !d->rq || !d->n) {
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
    free(d->rq);
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

/*
 * n queued writes go to the banks from `at` on, in one turn of the bus:
 * the read-to-write turnaround (tRTW), a burst each, then the write-to-read
 * turnaround (tWTR, and the next read's CAS latency before its data).
 * Writes go in bursts without row misses (the controller orders them by
 * row, FR-FCFS, and their addresses are not known): a drain costs bus time.
 */
static void drain(edan_dram *d, edan_dram_counts *cnt, channel *c, tick at, uint32_t n)
{
    const tick len = d->trtw + (tick)n * d->tburst + d->twtr + d->tcl;
    const tick t = bus_find(c, at, len);
    bus_take(c, t, t + len);
    c->wq -= n;
    cnt->drains++;
}

/* ===================================================================== */
/* A read                                                                 */
/* ===================================================================== */

edan_dram_tick edan_dram_read(edan_dram *d, int k, uint64_t line, uint32_t writes, edan_dram_tick x)
{
    const edan_machine_dram *p = &d->p;
    /* the address's fields (gem5's decodeAddr), bursts being lines: row | rank | bank | column | channel, ... */
    uint64_t a = line, ch, bnk, rank, row;
    if (p->map == EDAN_DRAM_ROCORABACH) { /* row | column | rank | bank | channel: lines spread over the banks */
        ch = a % p->channels, a /= p->channels;
        bnk = a % p->banks, a /= p->banks;
        rank = a % p->ranks, a /= p->ranks;
        row = a / d->cols;
    } else {
        if (p->map == EDAN_DRAM_RORABACHCO) /* row | rank | bank | channel | column: a row per channel in turn */
            a /= d->cols, ch = a % p->channels, a /= p->channels;
        else /* row | rank | bank | column | channel: lines spread over the channels, a row's in one bank */
            ch = a % p->channels, a /= p->channels, a /= d->cols;
        bnk = a % p->banks, a /= p->banks;
        rank = a % p->ranks, a /= p->ranks;
        row = a;
    }
    const size_t ci = (size_t)k * p->channels + ch;
    channel *c = &d->ch[ci];
    const uint32_t bi = (uint32_t)(rank * p->banks + bnk);
    bank *b = &d->bk[ci * d->nbank + bi];
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
        drain(d, cnt, c, idle, n > least ? n : least);
    }

    /* the bank: a row hit, a closed bank (activate) or another row open (precharge, activate) */
    const bool queued = x <= b->last_cmd && b->row; /* it waited while the bank's last read issued */
    bool hit = b->row == row + 1;
    if (p->page == EDAN_DRAM_CLOSE_ADAPTIVE && !(hit && queued)) { /* closed after the last read, unless a hit waited */
        if (b->row) {
            b->act_at = max_t(b->act_at, b->pre_at + d->trp);
            b->row = 0;
        }
        hit = false;
    }
    tick ready;
    if (hit) {
        ready = max_t(x, b->col_at);
        cnt->row_hits++;
    } else {
        tick act = max_t(x, b->act_at);
        if (b->row) { /* a conflict: precharge first */
            act = max_t(act, max_t(x, b->pre_at) + d->trp);
            cnt->row_conflicts++;
        } else {
            cnt->row_misses++;
        }
        b->row = row + 1;
        b->pre_at = act + d->tras;
        ready = max_t(act + d->trcd, b->col_at);
    }
    if (p->sched == EDAN_DRAM_FCFS)
        ready = max_t(ready, c->last_cmd);
    /* the data bus: the first gap for the burst from the CAS latency on */
    const tick data = bus_find(c, ready + d->tcl, d->tburst);
    const tick cmd = data - d->tcl, end = data + d->tburst;
    bus_take(c, data, end);
    c->last_cmd = max_t(c->last_cmd, cmd);
    /* the next column command to this bank, and with bank groups to its group, tCCD_L later */
    if (p->bank_groups) { /* gem5: bank b of a rank is in group b % bank_groups */
        bank *r = &d->bk[ci * d->nbank + (uint32_t)rank * p->banks];
        for (uint32_t i = (uint32_t)bnk % p->bank_groups; i < p->banks; i += p->bank_groups)
            r[i].col_at = max_t(r[i].col_at, cmd + d->tccd);
    } else {
        b->col_at = max_t(b->col_at, cmd + d->tburst);
    }
    b->pre_at = max_t(b->pre_at, cmd + d->trtp);
    b->last_cmd = max_t(b->last_cmd, cmd);
    if (p->page == EDAN_DRAM_CLOSE) { /* auto-precharge */
        b->act_at = max_t(b->act_at, b->pre_at + d->trp);
        b->row = 0;
    }
    rq[c->rq_at] = end;
    c->rq_at = c->rq_at + 1 == p->read_queue ? 0 : c->rq_at + 1;
    cnt->reads++;
    cnt->wait_ns += (double)(cmd - arrived) * d->ns_per_tick;

    /* the write-backs, posted: queued; above the high threshold a drain of min_writes_per_switch */
    cnt->writes += writes;
    c->wq += writes;
    while (c->wq > d->high)
        drain(d, cnt, c, x, c->wq < p->min_writes_per_switch ? c->wq : p->min_writes_per_switch);
    return end + d->resp;
}
