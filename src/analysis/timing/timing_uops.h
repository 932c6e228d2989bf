/*
 * timing_uops.h - the parts of the timing model's step (timing_lanes.h) that
 * a vertex's micro-operations share with a whole one, and the step of a
 * vertex the decoder split into micro-operations (edan_insn.uops: an x86
 * instruction with a memory operand and an operation). Included by
 * timing_lanes.h only, after its lane stages: every name here is static, one
 * copy per width's build.
 *
 * A split vertex is one vertex of the eDAG (its F is its last
 * micro-operation's, its commit its last one's) but, as gem5's x86 O3 core
 * has it, up to three micro-operations, each with its own reorder-buffer
 * entry, dispatch slot, issue-queue entry and commit slot, in this order:
 *  - load: with a load-queue entry; starts when it is dispatched and its
 *    address registers (edan_insn.rs1 and mem_index) and the bytes it reads
 *    are ready, and reads the hierarchy as any load does;
 *  - operation (op_cls): starts after the load and its other sources;
 *  - store: with a store-queue entry; its data into the store queue a cycle
 *    after it starts, after the operation; it writes after commit.
 * The instruction is fetched once. docs/model.md states the choice.
 */
#ifndef EDAN_ANALYSIS_TIMING_UOPS_H
#define EDAN_ANALYSIS_TIMING_UOPS_H

/* The commit row micro-operation x waits for in the reorder buffer (rob_entries back), or NULL. When that is one of
 * its own instruction's (a reorder buffer smaller than the instruction), every older one: the last committed. */
STEP_INLINE const tick *rob_wait(const edan_timing *t, uint64_t x)
{
    const int Kp = STEP_KP(t);
    if (x < t->m.rob_entries)
        return NULL;
    const uint64_t back = x - t->m.rob_entries;
    if (back >= t->u)
        return t->u ? ROW(t->C, (t->u - 1) & t->rmask) : NULL;
    return ROW(t->C, back & t->rmask);
}

/*
 * The vertex's fetch (into ft) and its first micro-operation's dispatch (into
 * d), for every lane: the stages of each lane one after the other where
 * nothing in between is shared (the lanes share no state), in one loop,
 * unless an L1i miss (ilevel >= 0: the level its line comes from, ibytes the
 * bytes it moves; iline its line), looked up for every lane at once, comes between. ilevel -2:
 * the line is the one a wrong-path fetch sent for (wrong_path()): fetch waits for t->wp_fill. tmp:
 * scratch lanes.
 */
STEP_INLINE void fetch_dispatch(edan_timing *t, const front *c, uint64_t iline, int ilevel, uint32_t ibytes, tick *ft,
                                tick *d, tick *tmp)
{
    const int Kp = STEP_KP(t);
    if (ilevel == -2) { /* the line is on its way after a wrong-path fetch: fetch waits for its fill */
        for (int j = 0; j < Kp; j += TIMING_LW) {
            const lv f = lane_fetch(t, j, c), w = lv_ld(t->wp_fill + j) + t->l1i_hit, late = lv_gt(w, f);
            lv_st(t->fetch.at + j, lv_sel(late, w, lv_ld(t->fetch.at + j)));
            lv_st(t->fetch.taken + j, lv_sel(late, lv_splat(1), lv_ld(t->fetch.taken + j)));
            const lv g = lv_max(f, w);
            lv_st(ft + j, g);
            lv_st(d + j, lane_dispatch(t, j, g, c));
        }
        return;
    }
    if (ilevel < 0) {
        for (int j = 0; j < Kp; j += TIMING_LW) {
            const lv f = lane_fetch(t, j, c);
            lv_st(ft + j, f);
            lv_st(d + j, lane_dispatch(t, j, f, c));
        }
        return;
    }
    for (int j = 0; j < Kp; j += TIMING_LW) {
        const lv f = lane_fetch(t, j, c);
        lv_st(ft + j, f);
        lv_st(tmp + j, f + (t->l1i_hit + t->mem.hit[1]));
    }
    edan_memtime_read(&t->mem, iline, 1, ilevel, ibytes, tmp, ft);
    for (int j = 0; j < Kp; j += TIMING_LW) {
        const lv f = lv_ld(ft + j) + t->l1i_hit; /* the L1i's response */
        lv_st(t->fetch.at + j, f);
        lv_st(t->fetch.taken + j, lv_splat(1));
        lv_st(ft + j, f);
        lv_st(d + j, lane_dispatch(t, j, f, c));
    }
}

/*
 * Store-to-load forwarding: the lanes (bits) where a load starting at a[k]
 * takes all its bytes from its one store in the window (src: its index + 1;
 * 0 none, UINT64_MAX several) still waiting in the store queue (not yet sent
 * to the L1d, which it is after it commits): in an L1 hit's time, without
 * waiting for a line the store's write-allocate miss will bring. Once the
 * store is sent, the load reads the L1d and waits for that line as any access.
 * The store leaves the queue a cycle after the drain reaches it (gem5: the
 * commit reaches IEW commitToIEWDelay = 1 cycle later, and IEW::tick sends
 * stores after that cycle's loads have executed), so a load that starts
 * before the end of that cycle still forwards: as gem5's load waiting for
 * the store it depends on, which issues in the cycle the store commits.
 */
STEP_INLINE uint32_t forwarded_lanes(const edan_timing *t, const edan_exec *rec, uint64_t src, const tick *a)
{
    const int Kp = STEP_KP(t);
    uint32_t forwarded = 0;
    if (!src || src == UINT64_MAX)
        return 0;
    const uint32_t sw = (uint32_t)((src - 1) & t->rmask);
    if (t->st_addr[sw] <= rec->addr && rec->addr + rec->insn->mem_size <= t->st_addr[sw] + t->stores[sw])
        for (int k = 0; k < t->K; k++)
            if (a[k] < ROW(t->st_write, sw)[k] + 2 * t->cyc)
                forwarded |= 1u << k;
    return forwarded;
}

/* Whether p's result goes to register slot r (an address update keeps the register's last writer: not p). */
static inline bool writes_reg(const edan_insn *p, uint8_t r)
{
    if (!r || !p || !p->n_dst)
        return false;
    if (p->dst == r)
        return !(p->addr_dst & 1u);
    for (int i = 0; i < p->n_more_dst; i++)
        if (p->more[p->n_more_src + i] == r)
            return !(p->addr_dst & (1u << (i + 1)));
    return false;
}

/* acc[k] = max(acc[k], rows[p][k]) over p < n, for every lane. */
STEP_INLINE void max_rows(const edan_timing *t, const tick *const *rows, size_t n, tick *acc)
{
    (void)t; /* with the lanes a constant (STEP_KP()) */
    for (int j = 0; j < STEP_KP(t); j += TIMING_LW) {
        lv x = lv_ld(acc + j);
        for (size_t p = 0; p < n; p++)
            x = lv_max(x, lv_ld(rows[p] + j));
        lv_st(acc + j, x);
    }
}

/* The predecessor groups of a split vertex: the load's address registers, the bytes it reads, the operation's. */
enum { UG_ADDR, UG_MEM, UG_OP, UG_N };

/*
 * The latest finish of each group's predecessors, per lane, into ready[g];
 * *src the load's one store in the window (forwarded_lanes()). A predecessor
 * is the load's when it is a store whose bytes overlap the load's (UG_MEM) or
 * it wrote one of the address registers (UG_ADDR; also when a later
 * instruction wrote that register again and it reaches the vertex through
 * another one: the load then waits for it too, never less); the others, and
 * all of them without a load, are the operation's. On an in-order core,
 * ready[UG_N] is the latest commit of the load's address predecessors: its
 * request goes once they have committed (inorder_access(), timing_inorder.h).
 */
STEP_INLINE void uop_ready(edan_timing *t, const edan_exec *rec, const uint64_t *preds, size_t n_preds,
                           tick (*ready)[MAXK], uint64_t *src)
{
    const edan_insn *in = rec->insn;
    const int Kp = STEP_KP(t);
    const bool load = in->uops & EDAN_UOP_LOAD;
    const tick *rows[UG_N][PRED_CHUNK];
    size_t n[UG_N] = {0, 0, 0};
    *src = 0;
    for (int g = 0; g <= UG_N; g++)
        memset(ready[g], 0, sizeof ready[g]);
    for (size_t i = 0; i < n_preds; i++) {
        const uint64_t p = preds[i];
        if (t->v - p > t->rmask)
            continue; /* committed before v dispatched */
        const uint32_t w = (uint32_t)(p & t->rmask);
        const bool mem = load && t->stores[w] && t->st_addr[w] < rec->addr + in->mem_size &&
                         rec->addr < t->st_addr[w] + t->stores[w];
        const bool addr = load && (writes_reg(t->win_insn[w], in->rs1) || writes_reg(t->win_insn[w], in->mem_index));
        const int g = mem ? UG_MEM : addr ? UG_ADDR : UG_OP;
        if (mem)
            *src = *src ? UINT64_MAX : p + 1;
        if (g == UG_ADDR && INORDER(t)) /* once per address predecessor: not the common case's cost */
            max_rows(t, (const tick *const[]){ROW(t->Cx, w)}, 1, ready[UG_N]);
        rows[g][n[g]++] = ROW(t->F, w);
        if (n[g] == PRED_CHUNK) {
            max_rows(t, rows[g], n[g], ready[g]);
            n[g] = 0;
        }
    }
    for (int g = 0; g < UG_N; g++)
        max_rows(t, rows[g], n[g], ready[g]);
}

/*
 * One split vertex (in->uops, an access made, not serializing): fetch, then
 * per micro-operation dispatch, start and finish, then their commits. c is
 * the vertex's front (step()); ilevel, ibytes: an L1i miss (fetch_dispatch()).
 */
STEP_INLINE int step_uops(edan_timing *t, const edan_exec *rec, const uint64_t *preds, size_t n_preds, const front *c,
                          int ilevel, uint32_t ibytes)
{
    const edan_insn *in = rec->insn;
    const int Kp = STEP_KP(t);
    const uint64_t v = t->v;
    const bool has_load = in->uops & EDAN_UOP_LOAD, has_store = in->uops & EDAN_UOP_STORE;
    _Alignas(32) lanes ft, tmp, dL, aL, bL, dO, fO, dS, aS, fS;
    _Alignas(32) tick ready[UG_N + 1][MAXK]; /* + 1: the address predecessors' commits, in order (uop_ready()) */
    uint64_t src = 0;
    /* each is written before it is read (dO without a load, fS with a store): so that the compiler sees it too */
    for (int j = 0; j < Kp; j += TIMING_LW) {
        lv_st(dO + j, lv_splat(0));
        lv_st(fS + j, lv_splat(0));
    }
    uop_ready(t, rec, preds, n_preds, ready, &src);
    uint64_t u = t->u; /* the next micro-operation's number */

    /* ---- the load: fetch with it, dispatch, start, the hierarchy ---- */
    front cu = *c;
    cu.rob = rob_wait(t, u);
    cu.lq = has_load && t->n_loads >= t->m.lq_entries ? ROW(t->lq, t->lq_at) : NULL;
    cu.sq = NULL;
    edan_cache_result rd = {false, false, 0, 0}, wr = {false, false, 0, 0};
    tick tlb_t = 0; /* the TLB's time for the instruction's access (tlb_time()) */
    bool from_ram = false;
    if (has_load) {
        fetch_dispatch(t, &cu, in->pc >> t->line_shift, ilevel, ibytes, ft, dL, tmp);
        u++;
        for (int j = 0; j < Kp; j += TIMING_LW)
            lv_st(aL + j, lv_max(lv_ld(dL + j), lv_ld(ready[UG_ADDR] + j)));
        if (t->m.store_set_bytes) /* a load cannot wait for its stores before they execute (step()) */
            store_sets(t, rec, true, aL);
        for (int j = 0; j < Kp; j += TIMING_LW) {
            const lv x = lv_max(lv_ld(aL + j), lv_ld(ready[UG_MEM] + j));
            /* in order: it issues in order, and its request waits for its address registers' writers' commits */
            lv_st(aL + j, INORDER(t) ? lv_max(inorder_start(t, j, x), lv_ld(ready[UG_N] + j)) : x);
        }
        rd = edan_cache_access(&t->dc, rec->addr, in->mem_size, false);
        count_access(t, &rd);
        t->n.loads++;
        tlb_t = tlb_time(t, rec->addr); /* one translation for the instruction's load and store */
        mem_access(t, rec->addr >> t->line_shift, (int)rd.level, rd.ram_bytes, aL, forwarded_lanes(t, rec, src, aL),
                   bL);
        from_ram = (int)rd.level == t->nlev;
        for (int j = 0; j < Kp; j += TIMING_LW) {
            /* the dump: the load's issue (its reason without the predecessor) and access */
            DUMP_IF(t, j, {
                dump_bound(t, DUMP_ISSUE, WHY_DISPATCH, dL[j], UINT64_MAX);
                dump_bound(t, DUMP_ISSUE, WHY_DEP, aL[j], UINT64_MAX);
                edan_timing_dump_stage(t, DUMP_ISSUE, aL[j]);
                edan_timing_dump_mem(t, (int)rd.level, aL[j], bL[j], false);
            });
            lv_st(bL + j, lv_ld(bL + j) + t->cyc + tlb_t); /* the loaded value written back, for its users */
            iq_enter(t, j, lv_ld(dL + j), lv_ld(bL + j));  /* a load leaves the issue queue when it completes */
        }
    }
    if (has_store) {
        wr = edan_cache_access(&t->dc, rec->addr, in->mem_size, true);
        count_access(t, &wr);
        t->n.stores++;
        if (!has_load)
            tlb_t = tlb_time(t, rec->addr);
    }

    /* ---- the operation, after the load ---- */
    cu.rob = rob_wait(t, u);
    cu.lq = NULL;
    cu.serial = has_load ? NULL : c->serial;
    if (!has_load)
        fetch_dispatch(t, &cu, in->pc >> t->line_shift, ilevel, ibytes, ft, dO, tmp);
    const int op = in->op_cls < EDAN_CLASS_COUNT ? in->op_cls : 0;
    const bool div = op == EDAN_CLASS_DIV || op == EDAN_CLASS_FDIV || op == EDAN_CLASS_FSQRT;
    const int fp = op != EDAN_CLASS_DIV;
    for (int j = 0; j < Kp; j += TIMING_LW) {
        const lv d = has_load ? lane_dispatch(t, j, lv_ld(ft + j), &cu) : lv_ld(dO + j);
        lv a = lv_max(lv_max(d, lv_ld(ready[UG_OP] + j)), has_load ? lv_ld(bL + j) : lv_splat(0));
        const lv f = start_finish(t, j, &a, div, t->div_units[fp], fp ? t->m.fp_div_units : t->m.int_div_units,
                                  t->lat[op], t->busy[op]);
        iq_enter(t, j, d, a); /* it leaves the issue queue when it starts */
        DUMP_IF(
            t, j, if (!has_load) {
                dump_bound(t, DUMP_ISSUE, WHY_DISPATCH, d[0], UINT64_MAX);
                dump_bound(t, DUMP_ISSUE, WHY_DEP, a[0], UINT64_MAX);
                edan_timing_dump_stage(t, DUMP_ISSUE, a[0]);
            });
        lv_st(dO + j, d);
        lv_st(fO + j, f);
    }
    u++;

    /* ---- the store, after the operation ---- */
    bool sq_mem = false; /* the lanes where the full store queue held the store: sq_held() */
    if (has_store) {
        cu.rob = rob_wait(t, u);
        cu.sq = t->n_stores >= t->m.sq_entries ? ROW(t->sq, t->sq_at) : NULL;
        cu.serial = NULL;
        sq_mem = cu.sq && t->sq_ram[t->sq_at];
        if (__builtin_expect(sq_mem, 0))
            sq_held(t, cu.sq, ft);
        for (int j = 0; j < Kp; j += TIMING_LW) {
            const lv d = lane_dispatch(t, j, lv_ld(ft + j), &cu);
            lv_st(dS + j, d);
            lv_st(aS + j, lv_max(d, lv_ld(fO + j)));
        }
        if (t->m.store_set_bytes)
            store_sets(t, rec, false, aS);
        for (int j = 0; j < Kp; j += TIMING_LW) {
            if (INORDER(t))
                lv_st(aS + j, inorder_start(t, j, lv_ld(aS + j)));
            const lv f = lv_ld(aS + j) + t->cyc + (has_load ? 0 : tlb_t); /* into the store queue, translated */
            iq_enter(t, j, lv_ld(dS + j), f);
            lv_st(fS + j, f);
        }
        u++;
    }

    /* ---- commit, each micro-operation in order ---- */
    t->id_count[rec->id]++;
    t->id_pc[rec->id] = in->pc;
    const uint32_t w = (uint32_t)(v & t->rmask);
    const uint64_t u0 = t->u;
    tick *Fv = ROW(t->F, w), *lqrow = ROW(t->lq, t->lq_at);
    tick *own = t->measuring ? ROW(t->id_time, rec->id) : t->junk;
    tick *own_stall = t->measuring ? ROW(t->id_stall, rec->id) : t->junk_stall;
    tick *stall = t->measuring ? t->stall : t->junk_stall;
    const bool mem_wait = from_ram || c->fetch_ram; /* its data or its code line came from memory (add_stall()) */
    for (int j = 0; j < Kp; j += TIMING_LW) {
        const lv last = lv_ld(t->last_commit + j);
        lv cm = last;
        uint64_t x = u0;
        if (has_load) {
            cm = slot_take(&t->commit, j, lv_max(lv_ld(bL + j), cm), t->m.commit_width, t->cyc);
            lv_st(ROW(t->C, x++ & t->rmask) + j, cm);
            lv_st(lqrow + j, cm); /* the load queue holds a load's commit */
        }
        cm = slot_take(&t->commit, j, lv_max(lv_ld(fO + j), cm), t->m.commit_width, t->cyc);
        lv_st(ROW(t->C, x++ & t->rmask) + j, cm);
        if (has_store) {
            cm = slot_take(&t->commit, j, lv_max(lv_ld(fS + j), cm), t->m.commit_width, t->cyc);
            lv_st(ROW(t->C, x++ & t->rmask) + j, cm);
            lv_st(t->drain + j, lv_max(cm, lv_ld(t->drain + j))); /* its write, in order after commit */
        }
        lv_st(own + j, lv_ld(own + j) + (cm - last));
        add_stall(t, j, stall, own_stall, cm - last, mem_wait, sq_mem);
        lv_st(t->last_commit + j, cm);
        inorder_commit(t, v, j, cm);
        lv_st(Fv + j, lv_ld((has_store ? fS : fO) + j));
    }
    t->stores[w] = has_store ? in->mem_size : 0;
    t->st_addr[w] = rec->addr;
    t->win_insn[w] = in;
    if (has_load) {
        t->lq_at = t->lq_at + 1 == t->m.lq_entries ? 0 : t->lq_at + 1;
        t->n_loads++;
    }
    if (has_store) { /* the write, in order after commit (drain); its queue entry is free when it is done */
        mem_access(t, rec->addr >> t->line_shift, (int)wr.level, wr.ram_bytes, t->drain, 0, tmp);
        for (int j = 0; j < Kp; j += TIMING_LW)
            DUMP_IF(t, j, if (!has_load) edan_timing_dump_mem(t, (int)wr.level, t->drain[j], tmp[j], false));
        for (int j = 0; j < Kp; j += TIMING_LW) {
            lv_st(ROW(t->st_write, w) + j, lv_ld(t->drain + j));
            lv_st(ROW(t->sq, t->sq_at) + j, lv_ld(tmp + j));
        }
        t->sq_ram[t->sq_at] = (int)wr.level == t->nlev;
        t->sq_at = t->sq_at + 1 == t->m.sq_entries ? 0 : t->sq_at + 1;
        t->n_stores++;
    }
    t->u = u - 1; /* step_end() counts the last */
    return step_end(t, rec, c->row);
}

#endif
