/*
 * edan_plugin.c - edan's TCG plugin for qemu-riscv64 (plugin API v1).
 *
 * Usage: qemu-riscv64 -plugin libedan.so,mode=MODE,out=PATH[,opts=FILE]
 *        [,filter=f:g][,callees=include|exclude][,status=FILE][,progress=on][,expect=N][,blocks=off] prog args
 *   mode=online  analyse in-process and write the report to out (no trace)
 *   mode=record  write a binary trace (trace_format.h) to out
 *   mode=text    write a trace in the original EDAN text format to out
 *   mode=profile choose the functions --per-function breaks down and write
 *                their list to out (plugin_profile.c; no trace)
 *   blocks=off   one callback per instruction in every block (the same
 *                records, slower: a check of the blocks' plans, tb_plan)
 *   status=FILE  the result, one line written at exit: "ok RECORDS ENTRIES"
 *                (ENTRIES: executions of a filtered function's first
 *                instruction; edan refuses a filter that never ran) or
 *                "error: MESSAGE"; said on standard error if it cannot be
 *                written
 *
 * The traced program shares this process: the files the plugin keeps open
 * while it runs (the trace) sit near the hard limit of descriptors, out of
 * its reach (util/fdfloor.h); the others are written by path at exit.
 * With a filter, a region also ends by its frame (plugin_frame.c: longjmp,
 * exceptions).
 *
 * Every instruction is decoded once, when QEMU translates it; at execution
 * the callbacks only append {static instruction, address} records to a
 * buffer, which is handed to the consumer (analyzer or writer) when full.
 * Most translation blocks append all their records at once, when they start
 * (tb_plan): one callback per block instead of one per instruction, and the
 * memory callbacks fill in the addresses.
 * Only vCPU 0 (the main thread) is traced: the eDAG model is sequential;
 * instructions of other threads are counted and reported.
 * With --sample-only (mode=online) only MemGaze's samples are traced
 * (section "Sampling" below).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "isa/native.h"
#include "isa/riscv.h"
#include "tool/graph/graph.h"
#include "util/fdfloor.h"
#include "util/files.h"
#include "util/progress.h"

#include "plugin/plugin_internal.h"
#include "plugin/plugin_syscall.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = EDAN_QEMU_PLUGIN_VERSION;

edan_plugin_state edan_plug;

/*
 * The run's result, for edan (status=FILE): written by path at exit, when
 * the program has stopped. When it cannot be written (edan's temporary
 * directory was removed) the result goes to standard error with the reason,
 * so that a finished run never ends without a word.
 */
static void write_status(const char *msg)
{
    if (!P.status[0])
        return;
    FILE *f = fopen(P.status, "we");
    const bool ok = f && fprintf(f, "%s\n", msg) > 0;
    if ((f && fclose(f)) || !ok)
        fprintf(stderr, "edan plugin: cannot write the status file %s (%s); the run ended with: %s\n", P.status,
                strerror(errno), msg);
}

/*
 * Standard error as edan gave it: the program may close or replace its
 * descriptor 2, so a copy out of its reach (util/fdfloor.h) is put back
 * at exit, before the plugin's messages.
 */
static int saved_stderr = -1;

static void restore_stderr(void)
{
    if (saved_stderr >= 0) {
        fflush(stderr);
        dup2(saved_stderr, STDERR_FILENO);
    }
}

static double seconds_since(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) * 1e-9;
}

/*
 * A guest fork() forks QEMU: the child has this plugin's state but none of
 * its threads (the analysis or compression thread), so it must neither
 * hand records on nor finish anything: it drops its records into a buffer
 * of its own and leaves at exit without a word. Only the first process is
 * traced; the parent counts its forks and says so.
 */
static edan_exec child_buf[BATCH];

static void forked_parent(void)
{
    P.forks++;
}

static void forked_child(void)
{
    P.child = 1;
    P.async = NULL;
    P.buf = child_buf;
    P.n = 0;
    P.progress = 0;
    P.status[0] = '\0';
}

/* The progress line's phase (util/progress.h). */
static const char *phase(void)
{
    return P.mode == MODE_PROFILE ? "counting" : P.mode == MODE_ONLINE ? "tracing" : "recording";
}

void edan_plugin_flush(void)
{
    if (P.child) {
        P.n = 0;
        return;
    }
    if (P.fr.suspect)
        edan_frame_flushing();
    if (P.n && !P.err.set) {
        if (P.async) {
            edan_async_submit(P.async, P.n);
            P.buf = edan_async_buffer(P.async);
        } else {
            P.consumer.consume(P.consumer.ctx, P.buf, P.n);
        }
    }
    P.total += P.n;
    P.n = 0;
    if (P.progress) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (seconds_since(&P.last_progress, &now) >= 1.0) {
            char line[160];
            edan_progress_format(line, sizeof line, phase(), P.total - P.warmed, P.expect, seconds_since(&P.t0, &now));
            fprintf(stderr, "\redan: %s   ", line);
            fflush(stderr);
            P.last_progress = now;
        }
    }
}

static void on_insn(unsigned int vcpu, void *ud)
{
    if (vcpu) {
        atomic_fetch_add_explicit(&P.other_vcpu_insns, 1, memory_order_relaxed);
        return;
    }
    edan_plugin_append(ud, 0);
}

static void on_insn_filtered(unsigned int vcpu, void *ud)
{
    const slot *s = ud;
    if (vcpu) {
        atomic_fetch_add_explicit(&P.other_vcpu_insns, 1, memory_order_relaxed);
        return;
    }
    if (edan_plugin_region(s->entry, s->flow, s->in_fn, P.fr.last.entry)) {
        edan_plugin_append(s, 0);
    } else if (P.warming) {
        edan_plugin_append(s, EDAN_EXEC_WARM);
        P.warmed += s->parts;
    } else {
        P.cur = &P.sink;
    }
}

/* the block's records: the region's (warm 0) or the warm ones (warm 1, tb_plan) */
static void append_tb(const tb_plan *t, size_t warm)
{
    if (P.n + t->n > BATCH)
        edan_plugin_flush();
    P.tb = memcpy(&P.buf[P.n], t->recs + warm * t->n, t->n * sizeof *t->recs);
    P.n += t->n;
}

static void on_tb(unsigned int vcpu, void *ud)
{
    const tb_plan *t = ud;
    if (vcpu) {
        atomic_fetch_add_explicit(&P.other_vcpu_insns, t->n_insns, memory_order_relaxed);
        return;
    }
    append_tb(t, 0);
}

/* the block's instructions one by one: the entry at the first, the call or return at the last */
static void on_tb_filtered(unsigned int vcpu, void *ud)
{
    const tb_plan *t = ud;
    if (vcpu) {
        atomic_fetch_add_explicit(&P.other_vcpu_insns, t->n_insns, memory_order_relaxed);
        return;
    }
    if (P.fr.checking)
        edan_frame_block(&t->sp);
    if (edan_plugin_region(t->entry, t->flow, t->in_fn, true)) {
        append_tb(t, 0);
    } else if (P.warming) {
        append_tb(t, 1);
        P.warmed += t->n;
    } else {
        P.tb = P.tb_sink;
    }
}

/* the memory access of the block's instruction number ud */
void edan_plugin_on_mem_tb(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *ud)
{
    (void)info;
    if (vcpu)
        return;
    edan_plugin_fill(&P.tb[(uintptr_t)ud], vaddr);
}

/* The access of an instruction of two parts: the first to its first record, the second to its second. */
static inline void fill_two(edan_exec *r, uint64_t vaddr)
{
    edan_plugin_fill(r + !(r->flags & EDAN_EXEC_NO_ACCESS), vaddr);
}

static void on_mem_tb_two(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *ud)
{
    (void)info;
    if (!vcpu)
        fill_two(&P.tb[(uintptr_t)ud], vaddr);
}

static void on_mem_two(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *ud)
{
    (void)info;
    (void)ud;
    if (!vcpu)
        fill_two(P.cur, vaddr);
}

void edan_plugin_on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *ud)
{
    (void)info;
    (void)ud;
    if (vcpu)
        return;
    edan_plugin_fill(P.cur, vaddr);
}

static slot *slot_for(uint32_t id)
{
    size_t chunk = id / SLOT_CHUNK;
    if (chunk >= P.n_slot_chunks) {
        size_t n = P.n_slot_chunks ? P.n_slot_chunks * 2 : 16;
        while (n <= chunk)
            n *= 2;
        slot **c = realloc(P.slot_chunks, n * sizeof *c);
        if (!c)
            return NULL;
        memset(c + P.n_slot_chunks, 0, (n - P.n_slot_chunks) * sizeof *c);
        P.slot_chunks = c;
        P.n_slot_chunks = n;
    }
    if (!P.slot_chunks[chunk]) {
        P.slot_chunks[chunk] = calloc(SLOT_CHUNK, sizeof(slot));
        if (!P.slot_chunks[chunk])
            return NULL;
    }
    return &P.slot_chunks[chunk][id % SLOT_CHUNK];
}

static int setup_filter(void);
static const char *binary_path(void);
static slot *slot_of(uint32_t sid, uint64_t pc);

/* The slot of a translated instruction, decoded and added to the code table the first time; NULL when out of memory. */
static slot *insn_slot(struct qemu_plugin_insn *qi)
{
    const uint8_t *data = qemu_plugin_insn_data(qi);
    size_t size = qemu_plugin_insn_size(qi);
    uint64_t pc = qemu_plugin_insn_vaddr(qi);
    if (P.isa != EDAN_ISA_RISCV64)
        return slot_of(edan_native_insn_id(qi, data, size, pc), pc);
    uint8_t bytes[4] = {0, 0, 0, 0};
    memcpy(bytes, data, size < 4 ? size : 4);
    uint32_t raw = size == 2 ? (uint32_t)(bytes[0] | bytes[1] << 8)
                             : (uint32_t)(bytes[0] | bytes[1] << 8 | bytes[2] << 16 | (uint32_t)bytes[3] << 24);
    int64_t found = edan_code_table_find(P.code, pc, raw);
    uint32_t sid;
    if (found >= 0) {
        sid = (uint32_t)found;
    } else {
        edan_insn insn;
        edan_rv_decode(bytes, size, pc, &insn);
        sid = edan_code_table_add(P.code, &insn);
    }
    return slot_of(sid, pc);
}

/* The slot of static instruction sid at pc, filled the first time. */
static slot *slot_of(uint32_t sid, uint64_t pc)
{
    slot *s = slot_for(sid);
    if (s && !s->insn) {
        s->insn = edan_code_table_get(P.code, sid);
        s->id = sid;
        s->parts = s->insn->native & EDAN_NATIVE_TWO_PLACES ? 2 : 1;
        s->second = s->parts == 2 ? edan_code_table_get(P.code, sid + 1) : NULL;
        s->flow = s->parts == 2 ? s->second->flow : s->insn->flow; /* the second part carries it */
        s->load = s->insn->mem == EDAN_MEM_LOAD && s->insn->mem_size;
        for (size_t r = 0; r < P.n_ranges; r++) {
            uint64_t lo = P.ranges[r].start + P.bias, hi = P.ranges[r].end + P.bias;
            if (pc == lo)
                s->entry = 1;
            if (pc >= lo && pc < hi)
                s->in_fn = 1;
        }
    }
    return s;
}

/* Whether the filter's state is the same for all n instructions of a block (tb_plan). */
bool edan_plugin_one_filter_state(slot *const *slots, size_t n)
{
    for (size_t i = 0; P.filtering && i < n; i++) {
        const bool calls_or_returns = slots[i]->flow == EDAN_FLOW_CALL || slots[i]->flow == EDAN_FLOW_RETURN;
        if ((i > 0 && slots[i]->entry) || (i + 1 < n && calls_or_returns) ||
            (P.options.exclude_callees && slots[i]->in_fn != slots[0]->in_fn))
            return false;
    }
    return true;
}

/* A plan for the block of these n slots (tb_plan), or NULL when it takes a callback per instruction. */
static tb_plan *plan_block(slot *const *slots, size_t n)
{
    if (!edan_plugin_one_filter_state(slots, n))
        return NULL;
    size_t n_recs = 0;
    for (size_t i = 0; i < n; i++)
        n_recs += slots[i]->parts;
    const size_t copies = P.warming ? 2 : 1;
    tb_plan *t = n ? malloc(sizeof *t + copies * n_recs * sizeof t->recs[0]) : NULL;
    if (!t)
        return NULL; /* out of memory: the callbacks per instruction need none */
    t->n = (uint32_t)n_recs;
    t->n_insns = (uint32_t)n;
    t->entry = slots[0]->entry;
    t->flow = slots[n - 1]->flow;
    t->in_fn = slots[0]->in_fn;
    for (size_t i = 0, k = 0; i < n; i++) {
        const bool mem = slots[i]->insn->mem != EDAN_MEM_NONE;
        t->recs[k++] = (edan_exec){.insn = slots[i]->insn, .id = slots[i]->id, .flags = mem ? EDAN_EXEC_NO_ACCESS : 0};
        if (slots[i]->parts == 2)
            t->recs[k++] = (edan_exec){.insn = slots[i]->second, .id = slots[i]->id + 1, .flags = EDAN_EXEC_NO_ACCESS};
    }
    for (size_t j = 0; P.warming && j < n_recs; j++) { /* the warm copy (append_tb) */
        t->recs[n_recs + j] = t->recs[j];
        t->recs[n_recs + j].flags |= EDAN_EXEC_WARM;
    }
    return t;
}

void edan_plugin_on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    if (!P.guest_known) { /* user mode: guest address a is the host's a + guest_base */
        P.guest_base =
            (uint64_t)(uintptr_t)qemu_plugin_insn_haddr(qemu_plugin_tb_get_insn(tb, 0)) - qemu_plugin_tb_vaddr(tb);
        P.guest_known = 1;
    }
    if (P.isa != EDAN_ISA_RISCV64 && !P.native_ready)
        edan_native_setup(P.guest_base);
    if (P.options.n_filter && !P.filter_ready) {
        P.filter_ready = 1;
        if (setup_filter())
            _exit(2);
    }
    const size_t n = qemu_plugin_tb_n_insns(tb);
    slot *slots[TB_PLAN_MAX];
    for (size_t i = 0; i < n && n <= TB_PLAN_MAX; i++) {
        slots[i] = insn_slot(qemu_plugin_tb_get_insn(tb, i));
        if (!slots[i]) {
            edan_error_set(&P.err, "out of memory in the tracer");
            return;
        }
    }
    if (P.sampling && !P.recording && n <= TB_PLAN_MAX && edan_sample_count_block(tb, slots, n))
        return;
    if (P.mode == MODE_PROFILE && n <= TB_PLAN_MAX && edan_profile_count_block(tb, slots, n))
        return;
    /* frames (plugin_frame.c): what the block does to sp, where its accesses tell sp */
    int32_t obs[TB_PLAN_MAX];
    bool load_sp[TB_PLAN_MAX];
    sp_block spb = {0};
    const bool frames = P.fr.checking && n && n <= TB_PLAN_MAX;
    if (frames)
        edan_frame_analyse(slots, n, &spb, obs, load_sp);
    tb_plan *t = n <= TB_PLAN_MAX && !P.per_insn && !P.sampling ? plan_block(slots, n) : NULL;
    if (t) {
        t->sp = spb;
        qemu_plugin_register_vcpu_tb_exec_cb(tb, P.filtering ? on_tb_filtered : on_tb, QEMU_PLUGIN_CB_NO_REGS, t);
    } else if (frames) {
        sp_block *b = malloc(sizeof *b); /* lives as long as QEMU may run the block, as a plan */
        if (!b) {
            edan_error_set(&P.err, "out of memory in the tracer");
            return;
        }
        *b = spb;
        qemu_plugin_register_vcpu_tb_exec_cb(tb, edan_frame_on_tb, QEMU_PLUGIN_CB_NO_REGS, b);
    }
    for (size_t i = 0, rec = 0; i < n; i++) {
        struct qemu_plugin_insn *qi = qemu_plugin_tb_get_insn(tb, i);
        slot *s = n <= TB_PLAN_MAX ? slots[i] : insn_slot(qi);
        if (!s) {
            edan_error_set(&P.err, "out of memory in the tracer");
            return;
        }
        const bool mem = s->insn->mem != EDAN_MEM_NONE;
        const bool sp_obs = frames && obs[i] != INT32_MIN, sp_load = frames && load_sp[i];
        if (t) {
            /* the block's record of instruction i (frames, RISC-V: one record per instruction, rec == i) */
            if (s->parts == 2)
                qemu_plugin_register_vcpu_mem_cb(qi, on_mem_tb_two, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
                                                 (void *)(uintptr_t)rec);
            else if (mem)
                qemu_plugin_register_vcpu_mem_cb(qi,
                                                 sp_obs    ? edan_frame_on_mem_tb_sp
                                                 : sp_load ? edan_frame_on_mem_tb_load_sp
                                                           : edan_plugin_on_mem_tb,
                                                 QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
                                                 (void *)(sp_obs ? SP_OBS(rec, s->insn->imm, obs[i]) : (uintptr_t)rec));
            rec += s->parts;
            continue;
        }
        qemu_plugin_vcpu_udata_cb_t cb = P.filtering ? on_insn_filtered : on_insn;
        if (P.mode == MODE_PROFILE) {
            if (!edan_profile_room(s->id)) {
                edan_error_set(&P.err, "out of memory in the tracer");
                return;
            }
            qemu_plugin_register_vcpu_insn_exec_cb(qi, edan_profile_on_insn, QEMU_PLUGIN_CB_NO_REGS, s);
            continue;
        }
        if (P.sampling && !P.filtering && !s->load)
            continue; /* sampling counts and records loads alone (plugin_sample.c) */
        if (P.sampling)
            cb = P.recording ? edan_sample_on_insn_record : edan_sample_on_insn_count;
        qemu_plugin_register_vcpu_insn_exec_cb(qi, cb, QEMU_PLUGIN_CB_NO_REGS, s);
        if (mem && (!P.sampling || (P.recording && s->load)))
            qemu_plugin_register_vcpu_mem_cb(qi, s->parts == 2 ? on_mem_two : edan_plugin_on_mem,
                                             QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
        /* after the record's own callback: an observation may move the records (plugin_frame.c) */
        if (sp_obs || sp_load)
            qemu_plugin_register_vcpu_mem_cb(qi, sp_obs ? edan_frame_on_mem_sp : edan_frame_on_mem_load_sp,
                                             QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
                                             (void *)(sp_obs ? SP_OBS(i, s->insn->imm, obs[i]) : (uintptr_t)i));
    }
}

void edan_plugin_on_exit(qemu_plugin_id_t id, void *ud)
{
    (void)id;
    (void)ud;
    if (P.child)
        return;
    restore_stderr();
    edan_plugin_flush();
    if (P.forks)
        fprintf(stderr,
                "edan: warning: the program forked %" PRIu64 " time%s; only its first process was traced (the "
                "eDAG model is sequential)\n",
                P.forks, P.forks == 1 ? "" : "s");
    edan_native_warnings();
    if (P.filtering && !P.err.set)
        edan_filter_unfound(&P.err); /* said with the status below */
    uint64_t others = atomic_load(&P.other_vcpu_insns);
    if (others)
        fprintf(stderr,
                "edan: warning: %" PRIu64 " %s of other threads were not traced (the eDAG "
                "model is sequential; only the main thread is analysed)\n",
                others, P.sampling ? "loads" : "instructions");
    int finished = P.async ? edan_async_finish(P.async) : P.consumer.finish ? P.consumer.finish(P.consumer.ctx) : 0;
    if (finished && P.session)
        edan_session_finish(P.session, &P.err);
    edan_async_free(P.async);
    P.async = NULL;
    free(P.sync_buf);
    edan_sample_finish();
    if (P.mode == MODE_PROFILE && !P.err.set && (!P.filtering || P.entered))
        edan_profile_finish(binary_path()); /* a filter that never ran is edan's error to tell */
    if (P.mode == MODE_ONLINE && P.session && !P.err.set) {
        FILE *f = fopen(P.out, "we");
        if (!f) {
            edan_error_set(&P.err, "%s: cannot write the report: %s", P.out, strerror(errno));
        } else {
            edan_report_source src = *edan_session_source(P.session);
            src.binary = binary_path();
            src.warm = !P.options.cold;
            src.exit = P.exit;
            edan_session_set_source(P.session, &src);
            edan_error ignored = {0};
            int rc = edan_session_report(P.session, f, &ignored);
            if (fclose(f) || rc)
                edan_error_set(&P.err, "%s: cannot write the report: %s", P.out, strerror(errno));
        }
        if (!P.err.set)
            edan_session_outputs(P.session, &P.err);
        char replaced[1200];
        if (edan_outputs_replaced(replaced, sizeof replaced))
            fprintf(stderr, "edan: %s\n", replaced);
    }
    if (P.writer && edan_trace_writer_close(P.writer, &P.err))
        P.writer = NULL;
    if (P.text && edan_text_writer_close(P.text, &P.err))
        P.text = NULL;
    char msg[1100];
    if (P.err.set) {
        snprintf(msg, sizeof msg, "error: %s", P.err.msg);
        if (!P.status[0])
            fprintf(stderr, "edan: %s\n", P.err.msg);
    } else {
        snprintf(msg, sizeof msg, "ok %" PRIu64 " %" PRIu64, P.total - P.warmed, P.entered);
    }
    if (P.progress) { /* after the profile's count (plugin_profile.c) and the analysis's end */
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        char line[160];
        edan_progress_done(line, sizeof line, phase(), P.total - P.warmed, seconds_since(&P.t0, &now));
        fprintf(stderr, "\redan: %s%20s\n", line, "");
    }
    write_status(msg);
    edan_session_free(P.session);
    P.session = NULL;
    edan_objmap_free(&P.objects);
}

/* The program dies by a signal: QEMU calls no exit callback, libedan_preload.so's kill() calls this (preload.c). */
static void on_fatal_signal(int sig)
{
    P.exit.known = true;
    P.exit.signal = sig;
    edan_plugin_on_exit(0, NULL);
}

static int fail(const char *fmt, const char *a)
{
    char msg[1200];
    snprintf(msg, sizeof msg, fmt, a);
    fprintf(stderr, "edan plugin: %s\n", msg);
    char st[1300];
    snprintf(st, sizeof st, "error: %s", msg);
    write_status(st);
    return -1;
}

static const char *binary_path(void)
{
    /* QEMU only knows the program once it has loaded it: not yet at install time. */
    if (!P.binary[0]) {
        const char *b = qemu_plugin_path_to_binary();
        if (b)
            snprintf(P.binary, sizeof P.binary, "%s", b);
    }
    return P.binary[0] ? P.binary : NULL;
}

static int setup_filter(void)
{
    const char *bin = binary_path();
    edan_error err = {0};
    if (!bin || edan_filter_setup(bin, &err))
        return fail("%s", bin ? err.msg : "QEMU did not tell the program's path");
    return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
    memset(&P, 0, sizeof P);
    P.id = id;
    /* before anything is opened: the files the plugin keeps open while the program runs go above the floor */
    if (edan_fd_set_floor())
        saved_stderr = edan_fd_lift(fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0));
    P.cur = &P.sink;
    edan_options_default(&P.options);
    P.mode = MODE_ONLINE;
    P.threaded = 1;
    const char *filter = NULL;
    for (int i = 0; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq)
            return fail("option '%s' is not key=value (keys: mode out opts status binary filter callees threads "
                        "progress expect blocks ignore_exit)",
                        argv[i]);
        size_t klen = (size_t)(eq - argv[i]);
        const char *v = eq + 1;
#define IS(k) (klen == strlen(k) && !strncmp(argv[i], k, klen))
        if (IS("mode")) {
            if (!strcmp(v, "online"))
                P.mode = MODE_ONLINE;
            else if (!strcmp(v, "record"))
                P.mode = MODE_RECORD;
            else if (!strcmp(v, "text"))
                P.mode = MODE_TEXT;
            else if (!strcmp(v, "profile"))
                P.mode = MODE_PROFILE;
            else
                return fail("mode='%s' must be online, record, text or profile", v);
        } else if (IS("out") || IS("opts") || IS("status")) {
            char *dst = IS("out") ? P.out : IS("opts") ? P.opts : P.status;
            if (strlen(v) >= sizeof P.out)
                return fail("path too long: %s", v);
            strcpy(dst, v);
        } else if (IS("binary")) {
            snprintf(P.binary, sizeof P.binary, "%s", v);
        } else if (IS("filter")) {
            filter = v;
        } else if (IS("callees")) {
            if (!strcmp(v, "exclude"))
                P.options.exclude_callees = true;
            else if (strcmp(v, "include"))
                return fail("callees='%s' must be include or exclude", v);
        } else if (IS("threads")) {
            if (strcmp(v, "1") && strcmp(v, "2"))
                return fail("threads='%s' must be 1 or 2", v);
            P.threaded = !strcmp(v, "2");
        } else if (IS("ignore_exit")) {
            P.exit.ignore_exit = !strcmp(v, "on");
        } else if (IS("progress")) {
            P.progress = !strcmp(v, "on") || !strcmp(v, "1");
        } else if (IS("expect")) {
            char *end;
            errno = 0;
            P.expect = strtoull(v, &end, 10);
            if (errno || *end || !*v)
                return fail("expect='%s' must be a number of instructions", v);
        } else if (IS("blocks")) {
            if (strcmp(v, "on") && strcmp(v, "off"))
                return fail("blocks='%s' must be on or off", v);
            P.per_insn = !strcmp(v, "off");
        } else {
            return fail("unknown option '%s' (keys: mode out opts status binary filter callees threads progress expect "
                        "blocks ignore_exit)",
                        argv[i]);
        }
#undef IS
    }
    if (info->system_emulation)
        return fail("%s", "edan traces user-mode programs (qemu-riscv64, qemu-x86_64, qemu-aarch64), not system "
                          "emulation");
    P.isa = !strcmp(info->target_name, "riscv64")   ? EDAN_ISA_RISCV64
            : !strcmp(info->target_name, "x86_64")  ? EDAN_ISA_X86_64
            : !strcmp(info->target_name, "aarch64") ? EDAN_ISA_AARCH64
                                                    : -1;
    if (P.isa < 0)
        return fail("target '%s' is not supported: edan decodes riscv64, x86_64 and aarch64", info->target_name);
    if (P.isa != EDAN_ISA_RISCV64 && P.mode == MODE_TEXT)
        return fail("%s", "the original EDAN text format holds RISC-V instructions only: record a binary trace");
    if (!P.out[0])
        return fail("%s", "out=PATH is required");
    edan_error err = {0};
    if (P.opts[0] && edan_options_read(&P.options, P.opts, edan_session_option_set, &err))
        return fail("%s", err.msg);
    if (filter) {
        bool ex = P.options.exclude_callees;
        if (edan_options_set(&P.options, "filter", filter, &err))
            return fail("%s", err.msg);
        P.options.exclude_callees = ex;
    }
    P.filtering = P.options.n_filter > 0;
    P.code = edan_code_table_new();
    if (!P.code)
        return fail("%s", "out of memory");
    char filter_text[600] = "";
    for (int i = 0; i < P.options.n_filter; i++) {
        strncat(filter_text, i ? "," : "", sizeof filter_text - strlen(filter_text) - 1);
        strncat(filter_text, P.options.filter[i], sizeof filter_text - strlen(filter_text) - 1);
    }
    if (P.mode == MODE_ONLINE) {
        /* the report's header: the source and the filter; strings that live as long as the plugin */
        static char online_filter[600];
        snprintf(online_filter, sizeof online_filter, "%s", filter_text);
        /* --sample-only: the samples alone, for the sampled tool alone */
        const bool sampled = edan_options_last(&P.options, "sample-only") != NULL;
        static const char *const only_sampled[] = {"sampled", NULL};
        const edan_report_source src = {sampled ? "sampled" : "online",
                                        NULL,
                                        binary_path(),
                                        online_filter,
                                        !P.options.cold, /* a filter's warm records, the kernel's writes */
                                        {0},
                                        !P.filtering, /* the kernel's writes alone, in batches of their own */
                                        0,
                                        &P.objects, /* the shared objects, as the plugin learns them */
                                        true};
        P.session = edan_session_new(&P.options, sampled ? only_sampled : NULL, &src, &err);
        if (!P.session)
            return fail("%s", err.msg);
        if (sampled && edan_sample_setup())
            return fail("%s", P.err.msg);
        P.consumer = edan_session_consumer(P.session);
    } else if (edan_options_last(&P.options, "sample-only")) {
        return fail("%s", "--sample-only traces the samples for an analysis while the program runs (edan run), "
                          "not into a trace");
    } else if (P.mode == MODE_PROFILE) {
        if (!edan_functions_to_choose(&P.options))
            return fail("%s", "mode=profile chooses the functions of --per-function, which the options do not ask for");
        P.consumer = (edan_consumer){NULL, NULL, NULL, NULL, false}; /* nothing is recorded */
        P.threaded = 0;
    } else if (P.mode == MODE_RECORD) {
        edan_trace_meta meta = {0};
        edan_error ignored = {0};
        meta.binary = P.binary[0] ? P.binary : NULL;
        meta.filter = filter_text;
        meta.filter_callees = P.options.exclude_callees ? "exclude" : "include";
        meta.warm = !P.options.cold; /* the records that warm an analysis's caches: a filter's, the kernel's writes */
        meta.isa = edan_isa_name(P.isa);
        /* a dynamically linked native program's libraries: the trace names their code (EDAN_EV_OBJECT) */
        edan_elf elf;
        if (P.isa != EDAN_ISA_RISCV64 && P.binary[0] && !edan_elf_open(P.binary, &elf, &ignored)) {
            meta.objects = elf.is_dynamic;
            meta.objmap = &P.objects; /* each object written before its code's records */
            edan_elf_close(&elf);
        }
        /* the program's digest: an analysis that reads its symbols later notices a rebuilt program */
        static char digest[EDAN_DIGEST_LEN];
        if (P.binary[0] && !edan_file_digest(P.binary, digest, &ignored))
            meta.binary_hash = digest;
        P.writer = edan_trace_writer_open(P.out, &meta, &err);
        if (!P.writer)
            return fail("%s", err.msg);
        P.consumer = edan_trace_writer_consumer(P.writer);
    } else {
        P.text = edan_text_writer_open(P.out, false, &err);
        if (!P.text)
            return fail("%s", err.msg);
        P.consumer = edan_text_writer_consumer(P.text);
    }
    /* outside a filtered region, the records that warm the session's state (trace/exec.h) */
    P.warming = P.filtering && P.consumer.warms;
    /* and the kernel's writes into the program's memory, in the region or out (plugin_syscall.c) */
    edan_syscall_enable(P.consumer.warms && P.mode != MODE_PROFILE && !P.options.no_kernel_writes);
    /* regions end by their frame too where records are appended (plugin_frame.c) */
    /* RISC-V only: the frame analysis reads addi sp (plugin_frame.c); native regions end by the call depth alone */
    P.fr.checking = P.filtering && P.mode != MODE_PROFILE && !P.sampling && P.isa == EDAN_ISA_RISCV64;
    P.fr.frame = FRAME_UNKNOWN;
    /* Analysis or compression runs on a second thread, overlapping with emulation. */
    if (P.threaded) {
        P.async = edan_async_new(P.consumer, BATCH, ASYNC_BUFFERS);
        if (!P.async)
            return fail("%s", "cannot start the analysis thread");
        P.buf = edan_async_buffer(P.async);
    } else {
        P.buf = P.sync_buf = malloc(BATCH * sizeof *P.buf);
        if (!P.buf)
            return fail("%s", "out of memory");
    }
    clock_gettime(CLOCK_MONOTONIC, &P.t0);
    P.last_progress = P.t0;
    qemu_plugin_register_vcpu_tb_trans_cb(id, edan_plugin_on_translate);
    qemu_plugin_register_atexit_cb(id, edan_plugin_on_exit, NULL);
    edan_plugin_watch_exit(id);
    void (*set_fatal_hook)(void (*)(int));
    *(void **)&set_fatal_hook = dlsym(RTLD_DEFAULT, "edan_preload_set_fatal_hook");
    if (set_fatal_hook)
        set_fatal_hook(on_fatal_signal);
    pthread_atfork(NULL, forked_parent, forked_child);
    return 0;
}
