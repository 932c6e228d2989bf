/*
 * plugin_internal.h - the state the plugin's files share (edan_plugin.c,
 * plugin_sample.c). Not a contract between stages: only the plugin's own
 * files include it, last, since it defines P, the name the plugin's code
 * gives its one state.
 */
#ifndef EDAN_PLUGIN_PLUGIN_INTERNAL_H
#define EDAN_PLUGIN_PLUGIN_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "config/options.h"
#include "plugin/qemu_plugin_api.h"
#include "tool/memory/memory.h"
#include "tool/session.h"
#include "trace/activity.h"
#include "trace/async.h"
#include "trace/exec.h"
#include "trace/trace_file.h"
#include "trace/trace_text.h"
#include "util/symbols/symbols.h"

#define BATCH 65536
#define ASYNC_BUFFERS 4
#define SLOT_CHUNK 4096

typedef struct slot {
    const edan_insn *insn;
    const edan_insn *second; /* parts == 2: the second part's instruction (id + 1) */
    uint32_t id;
    uint8_t entry; /* first instruction of a filtered function */
    uint8_t in_fn; /* inside a filtered function's range */
    uint8_t flow;
    uint8_t load;  /* a load with bytes: what samples count (tool/sampled_tool.c) */
    uint8_t parts; /* records per execution: 2 for a native instruction that accesses two places (id, id + 1) */
    uint32_t fn1;  /* sampling: 1 + the function the sampled tool attributes it to; 0 not yet known */
} slot;

/*
 * What a block does to the stack pointer (section "Frames" of
 * plugin_frame.c): the sum of its addi sp,sp,imm, whether it writes sp
 * otherwise (a load into sp, an add of a register: the value is not known
 * from the code), whether it also returns (its last instruction), and the
 * filter's state of its first instruction.
 */
typedef struct sp_block {
    int32_t delta;
    uint8_t unknown, ret_unknown, in_fn, entry; /* ret_unknown: it returns with sp written otherwise */
} sp_block;

/*
 * A translation block whose records are appended when it starts (on_tb):
 * its records as they are before any access (recs; memory instructions
 * marked EDAN_EXEC_NO_ACCESS until their memory callback gives the
 * address). That is exactly what one callback per instruction would append,
 * and in the same order, provided the block runs to its end (a guest fault
 * in the middle leaves the records of the instructions after it) and the
 * filter's state is the same for all its instructions: only its first can
 * be a function's entry, only its last a call or a return (which end a
 * block anyway), and its instructions lie all in or all out of the filtered
 * functions. Other blocks take one callback per instruction. Plans live as
 * long as QEMU may run their blocks, like the slots: until the process ends.
 */
typedef struct tb_plan {
    uint32_t n;                 /* records (an instruction of two parts has two) */
    uint32_t n_insns;           /* instructions */
    uint8_t entry, flow, in_fn; /* of the first, of the last, of all */
    sp_block sp;
    edan_exec recs[]; /* n records; with warm state (P.warming) n more, the same flagged EDAN_EXEC_WARM */
} tb_plan;

/* at most this many instructions in a block that on_tb() appends (QEMU's own limit is 512) */
#define TB_PLAN_MAX 512

enum mode { MODE_ONLINE, MODE_RECORD, MODE_TEXT, MODE_PROFILE };

#define FRAME_UNKNOWN UINT64_MAX

/* The filtered region's frame (plugin_frame.c). */
typedef struct frame_state {
    uint64_t frame; /* sp at the entry of the region's function; FRAME_UNKNOWN */
    union {         /* the block callback tests the three at once (busy) */
        struct {
            uint8_t pending; /* the region started at this block: its first sp-based access tells the frame */
            uint8_t leaving; /* sp was loaded above the frame: the region ends at the next block */
            uint8_t suspect; /* sp is unknown since a block that returned: did the region end there? */
            uint8_t spare;
        };
        uint32_t busy;
    };
    int checking;          /* frames are checked (a filter, records appended; not profile or sampling) */
    sp_block last;         /* the block that ran last */
    size_t suspect_pos;    /* where that block's records start in P.buf */
    int64_t suspect_rel;   /* sp of the current block's start minus sp at the suspect block's start */
    uint8_t suspect_in_fn; /* the suspect block is the filtered function's own code */
    int entry_seen;        /* the function was entered again while suspect: */
    size_t entry_pos;      /* its records start here, */
    int64_t entry_rel;     /* its sp relative to the suspect's, */
    int64_t entry_depth;   /* and the call depth there */
    uint64_t ended;        /* regions ended by the frame check */
} frame_state;

typedef struct edan_plugin_state {
    enum mode mode;
    int isa;                       /* edan_isa of QEMU's target */
    int native_ready;              /* edan_native_setup() ran */
    uint64_t native_bias;          /* a native position-independent program's load bias, */
    uint64_t native_lo, native_hi; /* and the guest addresses its file is mapped at (0, 0: none) */
    uint64_t unseen;               /* static instructions the decoder did not know (isa/native.h) */
    uint64_t guest_base;           /* user mode: guest address a is at host address a + guest_base */
    int guest_known;               /* guest_base is known (the first translation) */
    uint64_t unseen_pc;            /* the first of them */
    /* a dynamically linked native program: the shared objects it mapped (util/symbols/objects.h), learnt at translation
     */
    int objects_wanted;
    edan_objmap objects;
    uint64_t bin_dev, bin_ino;  /* the program's file, which is not one of them */
    uint64_t objects_miss_page; /* the last page a scan found in no object (code outside files) */
    unsigned objects_misses;    /* scans that found nothing new: a bounded number */
    /* filter names the program does not define: looked up in each shared object as it is learnt */
    bool filter_pending[EDAN_MAX_FILTER];
    bool filter_found[EDAN_MAX_FILTER];
    char out[1024], opts[1024], status[1024], binary[1024];
    int filter_ready;
    edan_options options;
    edan_code_table *code;
    slot **slot_chunks;
    size_t n_slot_chunks;
    /* function filter */
    int filtering;
    int per_insn; /* blocks=off */
    edan_elf_func ranges[256];
    size_t n_ranges;
    uint64_t bias;
    edan_activity activity;
    /*
     * Warm state (docs/model.md): the consumer (the session) warms, so the
     * records outside the filtered region go into the stream too, flagged
     * EDAN_EXEC_WARM (trace/exec.h), the same records the region would have.
     */
    int warming;
    uint64_t warmed; /* warm records appended */
    frame_state fr;
    uint64_t entered; /* executions of a filtered function's first instruction */
    /* stream: records are written straight into the async consumer's buffers */
    edan_async *async;
    int threaded;
    edan_exec *buf, *sync_buf;
    size_t n;
    edan_exec *cur;
    edan_exec sink;
    edan_exec *tb;                      /* the records of the block on_tb() appended last (or tb_sink) */
    edan_exec tb_sink[2 * TB_PLAN_MAX]; /* where the memory callbacks of a block outside the filter write */
    uint64_t total;
    atomic_uint_fast64_t other_vcpu_insns;
    uint64_t forks; /* guest fork()s of the traced process */
    int child;      /* this is a forked child: nothing is traced */
    edan_consumer consumer;
    edan_session *session; /* online */
    edan_trace_writer *writer;
    edan_text_writer *text;
    int progress;
    uint64_t expect; /* expect=N: the instructions a first run counted, for the progress line's percentage */
    struct timespec t0, last_progress;
    edan_error err;
    /* --sample-only (section "Sampling") */
    qemu_plugin_id_t id;
    int sampling;
    int recording, next_recording; /* blocks are translated to record (else to count); after the reset */
    int switching;                 /* a reset is pending */
    int in_sample;
    uint64_t period, window, loads, sample_start, sample_end, resets, late;
    edan_sampled *sampled_tool;
    uint32_t n_fns;         /* the tool's functions (0: no symbols) */
    uint64_t *fn_loads;     /* the loads of each */
    edan_program_exit exit; /* how the program ended, for the report (plugin_exit.c) */
} edan_plugin_state;

extern edan_plugin_state edan_plug;

/* plugin_exit.c: how the program ends, into edan_plug.exit; called at install and after every reset. */
void edan_plugin_watch_exit(qemu_plugin_id_t id);
#define P edan_plug

/* ---- frames (plugin_frame.c) ---- */

/* The static facts of the block of these n slots; *obs_delta[i] is sp at instruction i minus sp at the block's
 * start, for sp-based accesses whose sp is so known (else INT32_MIN), *loads_sp[i] for a load into sp. */
void edan_frame_analyse(slot *const *slots, size_t n, sp_block *b, int32_t *obs_delta, bool *loads_sp);
/* Slow paths of the block start and of the observations below. */
void edan_frame_block_slow(const sp_block *b);
void edan_frame_observe(uint64_t sp_at_block_start);
void edan_frame_sp_loaded(uint64_t value);
/* Before the region's step at an entry (a filtered function's first instruction; at the block's start or not). */
void edan_plugin_entry(bool at_block_start);
/* The buffer is handed on: a suspect is kept as it is. */
void edan_frame_flushing(void);

/* At the start of every block of a filtered run, before its records or its first step. */
static inline void edan_frame_block(const sp_block *b)
{
    if (P.fr.busy | P.fr.last.ret_unknown)
        edan_frame_block_slow(b);
    P.fr.last = *b;
}

/* One executed filtered step: whether it is in the region (the entry counted, the frame noted). */
static inline bool edan_plugin_region(bool entry, uint8_t flow, bool in_fn, bool at_block_start)
{
    if (entry)
        edan_plugin_entry(at_block_start);
    const bool inside = edan_activity_step(&P.activity, entry, flow);
    if (P.fr.suspect && !P.activity.active)
        P.fr.suspect = 0; /* the depth ended the region: nothing to decide */
    return inside && (!P.options.exclude_callees || in_fn);
}

/* Hand the buffer's records to the consumer (analyzer or writer). */
void edan_plugin_flush(void);

/* Append the record of slot s (its address, if any, comes from the memory callback, through P.cur), or its
 * two (an instruction that accesses two places); flags EDAN_EXEC_WARM or 0. */
static inline void edan_plugin_append(const slot *s, uint16_t flags)
{
    if (P.n + s->parts > BATCH)
        edan_plugin_flush();
    edan_exec *r = &P.buf[P.n];
    P.n += s->parts;
    r->insn = s->insn;
    r->id = s->id;
    r->addr = 0;
    r->vcpu = 0;
    r->flags = (uint16_t)(flags | (s->insn->mem != EDAN_MEM_NONE ? EDAN_EXEC_NO_ACCESS : 0));
    P.cur = r;
    if (__builtin_expect(s->parts > 1, 0)) {
        r[1].insn = s->second;
        r[1].id = s->id + 1;
        r[1].addr = 0;
        r[1].vcpu = 0;
        r[1].flags = (uint16_t)(flags | EDAN_EXEC_NO_ACCESS);
    }
}

/* A block's access based on sp (plugin_frame.c): ud holds the instruction's number (bits 0-15), its offset
 * (16-31) and sp there minus sp at the block's start (32-63). */
#define SP_OBS(i, imm, d) ((uintptr_t)(i) | (uintptr_t)(uint16_t)(int16_t)(imm) << 16 | (uintptr_t)(uint32_t)(d) << 32)
#define SP_OBS_I(u) ((u)&0xffffu)
#define SP_OBS_IMM(u) ((int64_t)(int16_t)(uint16_t)((u) >> 16))
#define SP_OBS_D(u) ((int64_t)(int32_t)(uint32_t)((u) >> 32))

/* An access of the instruction of record r: its first one gives the record its address (an instruction that
 * makes several, ldp or rep stos, keeps the first). */
static inline void edan_plugin_fill(edan_exec *r, uint64_t vaddr)
{
    if (r->flags & EDAN_EXEC_NO_ACCESS) {
        r->addr = vaddr;
        r->flags &= (uint16_t)~EDAN_EXEC_NO_ACCESS;
    }
}

/* The memory callback of a block's instruction number ud (edan_plugin.c), and those of accesses based on sp that
 * the frame check observes (plugin_frame.c; ud as SP_OBS, or the instruction's number). */
void edan_plugin_on_mem_tb(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *ud);
void edan_frame_on_mem_tb_sp(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *ud);
void edan_frame_on_mem_tb_load_sp(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *ud);
void edan_frame_on_tb(unsigned int vcpu, void *ud);
void edan_frame_on_mem_sp(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *ud);
void edan_frame_on_mem_load_sp(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *ud);

/* Whether the filter's state is the same for all n instructions of a block (tb_plan). */
bool edan_plugin_one_filter_state(slot *const *slots, size_t n);
/* The callbacks QEMU calls: translation, exit, and an access of an instruction with its own callback. */
void edan_plugin_on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
void edan_plugin_on_exit(qemu_plugin_id_t id, void *ud);
void edan_plugin_on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *ud);

/* ---- native programs (plugin_native.c) ---- */

/*
 * The static instruction QEMU translates at pc (x86-64, AArch64: isa/native.h), decoded and added the first
 * time. Its record's pc is the program's link address where the program's own file is mapped (a
 * position-independent program: pc - P.native_bias), so symbols and lines are found as in a trace.
 */
uint32_t edan_native_insn_id(struct qemu_plugin_insn *qi, const uint8_t *data, size_t size, uint64_t pc);
/* At the first translation: where QEMU mapped the program (guest_base: the host address of guest address 0). */
void edan_native_setup(uint64_t guest_base);
/* At translation, code at pc outside the program: the shared object it is in, learnt from the maps if new. */
void edan_native_object_at(uint64_t pc);

/* ---- plugin_filter.c --------------------------------------------------- */

/* At the first translation: the filter's ranges in the program bin; its names a dynamically linked program does not
 * define wait for the shared objects (edan_filter_object). 0, or -1 with err set. */
int edan_filter_setup(const char *bin, edan_error *err);
/* A shared object just learnt: the functions of it the filter's waiting names name join the ranges. */
void edan_filter_object(const edan_object *o);
/* At exit: the filter's names found in neither the program nor a shared object it loaded, as an error; 0 if none. */
int edan_filter_unfound(edan_error *err);
/* At exit: the instructions the decoder did not know, if any. */
void edan_native_warnings(void);

/* ---- sampling (--sample-only, plugin_sample.c) ---- */

/* Set up from the session's sampled tool; 0, or -1 with P.err set. */
int edan_sample_setup(void);
/* Translate a block to count its loads with one callback; false when it needs one per instruction. */
bool edan_sample_count_block(struct qemu_plugin_tb *tb, slot *const *slots, size_t n);
/* The callback per instruction: counting, or recording the samples. */
void edan_sample_on_insn_count(unsigned int vcpu, void *ud);
void edan_sample_on_insn_record(unsigned int vcpu, void *ud);
/* At exit, before the report: the run's loads to the tool, a warning for late samples. */
void edan_sample_finish(void);

/* ---- profile (mode=profile, plugin_profile.c) ---- */

/* Translate a block to count its executions with one callback; false when it needs one per instruction. */
bool edan_profile_count_block(struct qemu_plugin_tb *tb, slot *const *slots, size_t n);
/* Room to count static instruction id per instruction (at translation); false when out of memory. */
bool edan_profile_room(uint32_t id);
void edan_profile_on_insn(unsigned int vcpu, void *ud);
/* At exit: choose the functions of binary and write their list to P.out; 0, or -1 with P.err set. */
int edan_profile_finish(const char *binary);

#endif
