/*
 * trace_decode.c - the binary trace's events decoded into records: the
 * general decoder, and the fast loops for runs of next-in-sequence
 * instructions (format: trace_format.h).
 */
#include "trace/trace_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define EV_FAIL(at, ...)                                                                                               \
    do {                                                                                                               \
        char why_[512];                                                                                                \
        snprintf(why_, sizeof why_, __VA_ARGS__);                                                                      \
        edan_trace_reader_fail(r, "block at byte %" PRIu64 ", offset %zu of its %u decompressed bytes: %s",            \
                               r->blk_off, (size_t)(at), r->blk_raw_len, why_);                                        \
    } while (0)

static bool get_varint(edan_trace_reader *r, const uint8_t **pp, const uint8_t *end, uint64_t *v, const char *what)
{
    const uint8_t *p = *pp;
    if (p < end && *p < 0x80) {
        *v = *p;
        *pp = p + 1;
        return true;
    }
    bool big = false;
    int n = edan_varint_get_ext(p, end, v, false, &big);
    size_t at = (size_t)(p - r->raw);
    if (n == 0)
        EV_FAIL(at, "the %s varint runs past the end of the block", what);
    else if (n == -1)
        EV_FAIL(at, "the %s varint is longer than 10 bytes", what);
    else if (n < 0)
        EV_FAIL(at, "the %s varint overflows 64 bits", what);
    if (n <= 0)
        return false;
    *pp = p + n;
    return true;
}

/* A definition's instruction: raw (riscv64), or the len bytes at enc (x86-64, aarch64: isa/native.h). */
static int add_insn(edan_trace_reader *r, uint64_t pc, uint64_t raw, const uint8_t *enc, size_t at)
{
    edan_insn in;
    if (r->isa != EDAN_ISA_RISCV64) {
        /* an encoding the decoder does not know is kept as the tracer kept it (EDAN_NATIVE_UNDECODED) */
        edan_native_decode(r->isa, enc, (size_t)raw, pc, &in);
        if (in.size != raw) {
            EV_FAIL(at, "the %s instruction at pc 0x%" PRIx64 " is %u bytes long, not %" PRIu64, edan_isa_name(r->isa),
                    pc, in.size, raw);
            return -1;
        }
    } else if (raw > UINT32_MAX) {
        EV_FAIL(at, "instruction encoding 0x%" PRIx64 " at pc 0x%" PRIx64 " exceeds 32 bits", raw, pc);
        return -1;
    } else if (edan_trace_decode_raw(pc, (uint32_t)raw, &in) != 0) {
        EV_FAIL(at, "illegal instruction encoding 0x%" PRIx64 " at pc 0x%" PRIx64, raw, pc);
        return -1;
    } else {
        in.pc = pc;
        in.raw = (uint32_t)raw;
    }
    if (r->n_defined >= UINT32_MAX - 2) {
        EV_FAIL(at, "too many static instructions");
        return -1;
    }
    if (r->n_defined + 1 >= r->id_cap) { /* room for a second part too */
        size_t n = r->id_cap ? r->id_cap * 2 : 1024;
        uint64_t *la = realloc(r->last_addr, n * sizeof *la);
        if (la)
            r->last_addr = la;
        const edan_insn **ip = realloc(r->insn, n * sizeof *ip);
        if (ip)
            r->insn = ip;
        uintptr_t *it = realloc(r->insn_tagged, n * sizeof *it);
        if (it)
            r->insn_tagged = it;
        if (!la || !ip || !it) {
            edan_trace_reader_fail(r, "out of memory");
            return -1;
        }
        r->id_cap = n;
    }
    for (int part = 0;; part++) {
        uint32_t id = edan_code_table_add(r->code, &in);
        r->insn[id] = edan_code_table_get(r->code, id);
        r->last_addr[id] = 0;
        _Static_assert(_Alignof(edan_insn) > 1, "bit 0 of an instruction's address is free");
        r->insn_tagged[id] = (uintptr_t)r->insn[id] | (in.mem != EDAN_MEM_NONE);
        r->n_defined = id + 1;
        if (part || !(in.native & EDAN_NATIVE_TWO_PLACES))
            break;
        /* the second part of an instruction that accesses two places: the next id (trace_format.h) */
        edan_native_decode_part(r->isa, enc, (size_t)raw, pc, 1, &in);
    }
    r->blk_new_seen++;
    return 0;
}

/*
 * The common case, kept in registers: an executed instruction that is
 * already defined, with varints of at most 9 bytes. Anything else
 * (definitions, control events, long varints, the block's tail, errors)
 * returns to the general loop below, which checks everything. Returns the
 * records decoded; *pp (and *pa, the address stream's cursor, when split)
 * advance past them. The next instruction in sequence (a zero byte), most
 * records, skips the varint and its zigzag.
 *
 * A record here takes at most FAST_RECORD_MAX bytes of each stream (two
 * 9-byte varints), so while FAST_TAIL bytes remain in each, the next
 * (room - FAST_TAIL) / FAST_RECORD_MAX + 1 records can be read with no
 * bounds check at all: the inner loop tests only its record count.
 */
#define FAST_RECORD_MAX 18
#define FAST_TAIL 20

/* The 7-bit groups of the bytes of x (high bits clear), packed into 56 bits. */
static inline uint64_t varint_pack(uint64_t x)
{
    x = (x & 0x007f007f007f007full) | (x & 0x7f007f007f007f00ull) >> 1;
    x = (x & 0x00003fff00003fffull) | (x & 0x3fff00003fff0000ull) >> 2;
    return (x & 0x000000000fffffffull) | (x & 0x0fffffff00000000ull) >> 4;
}

/*
 * A varint of at most 9 bytes whose first byte (high bit set) is at *pq - 1,
 * already read by the caller; false if longer. Its bytes are read as one
 * word, without a branch per byte: the irregular addresses of a pointer
 * chase have varints of every length in turn, which a loop per byte
 * mispredicts. 8 bytes from *pq - 1 must be readable (9 if they are all
 * continuation bytes).
 */
static inline bool fast_varint_tail(const uint8_t **pq, uint64_t *out)
{
    const uint8_t *const start = *pq - 1;
    const uint64_t x = edan_get_u64(start);
    const uint64_t stop = ~x & 0x8080808080808080ull; /* the high bit of the bytes that end a varint */
    if (__builtin_expect(!stop, 0)) {
        if (start[8] >= 0x80)
            return false;
        *out = varint_pack(x & 0x7f7f7f7f7f7f7f7full) | (uint64_t)start[8] << 56;
        *pq = start + 9;
        return true;
    }
    const unsigned bits = (unsigned)__builtin_ctzll(stop) + 1; /* through the last byte: 8, 16, ..., 64 */
    *out = varint_pack(x & ((2ull << (bits - 1)) - 1) & 0x7f7f7f7f7f7f7f7full);
    *pq = start + bits / 8;
    return true;
}

/*
 * The address of a record of an instruction with one, from the varint at
 * *pa (which advances past it), with last its previous address (updated);
 * false, with nothing consumed, for a varint longer than 9 bytes.
 */
static inline __attribute__((always_inline)) bool fast_address(const uint8_t **pa, uint64_t *last, uint64_t *addr,
                                                               uint16_t *flags)
{
    const uint8_t *q = *pa;
    uint64_t av = *q++;
    if (av >= 0x80 && !fast_varint_tail(&q, &av))
        return false;
    if (__builtin_expect(av != 0, 1)) {
        *addr = *last + (uint64_t)edan_unzigzag(av - 1);
        *last = *addr;
    } else {
        *flags = EDAN_EXEC_NO_ACCESS;
    }
    *pa = q;
    return true;
}

/*
 * The zero bytes at p, up to 16: the next instructions in sequence. 16
 * bytes at p must be readable. With the addresses apart (version 2), a run
 * of them is read without looking at each byte.
 */
static inline unsigned zero_run(const uint8_t *p)
{
#ifdef __SSE2__
    const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    const unsigned zero = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128()));
    return (unsigned)__builtin_ctz(~zero); /* bits 16 and up of ~zero are set */
#else
    unsigned z = 0;
    while (z < 16 && !p[z])
        z++;
    return z;
#endif
}

static inline __attribute__((always_inline)) size_t decode_fast(edan_trace_reader *r, const uint8_t **pp,
                                                                const uint8_t *end, const uint8_t **pa,
                                                                const uint8_t *aend, edan_exec *out, size_t cap,
                                                                const bool split)
{
    const uint8_t *p = *pp, *a = split ? *pa : NULL;
    const uint64_t room = r->blk_records - r->blk_records_seen;
    const size_t lim = cap < room ? cap : (size_t)room;
    const uint64_t n_defined = (uint64_t)r->n_defined;
    const uintptr_t *insn_tagged = r->insn_tagged;
    uint64_t *last_addr = r->last_addr;
    const uint16_t vcpu = r->vcpu, warm = r->warm;
    int64_t prev = r->prev_id;
    /* a record's vcpu and flags, side by side: one 4-byte store (with NO_ACCESS: an access not made) */
    const edan_exec with = {.vcpu = vcpu, .flags = warm}, without = {.vcpu = vcpu, .flags = warm | EDAN_EXEC_NO_ACCESS};
    _Static_assert(offsetof(edan_exec, flags) == offsetof(edan_exec, vcpu) + 2, "vcpu and flags adjacent");
    uint32_t vf, vf_no_access;
    memcpy(&vf, &with.vcpu, sizeof vf);
    memcpy(&vf_no_access, &without.vcpu, sizeof vf_no_access);
    edan_exec *o = out;
    edan_exec *const o_lim = out + lim;
    while (o < o_lim && end - p >= FAST_TAIL && (!split || aend - a >= FAST_TAIL)) {
        size_t k = (size_t)(end - p - FAST_TAIL) / FAST_RECORD_MAX + 1;
        if (split) {
            const size_t ka = (size_t)(aend - a - FAST_TAIL) / FAST_RECORD_MAX + 1;
            k = ka < k ? ka : k;
        }
        edan_exec *const o_stop = (size_t)(o_lim - o) < k ? o_lim : o + k;
        for (; o < o_stop; o++) {
            if (split) {
                /* a run of next-in-sequence instructions, ids below n_defined, records within o_stop */
                size_t z = zero_run(p);
                if (z > (size_t)(o_stop - o))
                    z = (size_t)(o_stop - o);
                if ((uint64_t)prev + z >= n_defined)
                    z = (size_t)(n_defined - 1 - (uint64_t)prev); /* prev + 1 <= n_defined always */
                if (z) {
                    /*
                     * One induction variable, the id: p and prev follow from it after the run. An
                     * instruction without memory (its tag bit 0) is its untagged pointer and the
                     * run's invariant vcpu and flags, with no test of an address.
                     */
                    const int64_t first = prev + 1, stop = first + (int64_t)z;
                    int64_t id = first;
                    for (; id < stop; id++, o++) {
                        const uintptr_t tagged = insn_tagged[id];
                        o->id = (uint32_t)id;
                        if (!(tagged & 1)) {
                            o->insn = (const edan_insn *)tagged;
                            o->addr = 0;
                            memcpy(&o->vcpu, &vf, sizeof vf);
                            continue;
                        }
                        uint64_t addr = 0;
                        uint16_t flags = 0;
                        if (!fast_address(&a, &last_addr[id], &addr, &flags))
                            break;
                        o->insn = (const edan_insn *)(tagged - 1);
                        o->addr = addr;
                        memcpy(&o->vcpu, flags ? &vf_no_access : &vf, sizeof vf);
                    }
                    p += id - first;
                    prev = id - 1;
                    if (id < stop)
                        goto out; /* an address varint longer than 9 bytes: the general loop reads it */
                    if (o == o_stop)
                        break;
                }
            }
            const uint8_t *q = p, *qa = a;
            uint64_t v = *q++;
            int64_t id = prev + 1;
            if (v) {
                if (v >= 0x80 && !fast_varint_tail(&q, &v))
                    goto out;
                if (v & 1)
                    goto out;
                const uint64_t x = v >> 1;
                id += (int64_t)((x >> 1) ^ -(x & 1));
            }
            if ((uint64_t)id >= n_defined)
                goto out;
            const uintptr_t tagged = insn_tagged[id];
            const edan_insn *in = (const edan_insn *)(tagged & ~(uintptr_t)1);
            uint64_t addr = 0;
            uint16_t flags = 0;
            if ((tagged & 1) && !fast_address(split ? &qa : &q, &last_addr[id], &addr, &flags))
                goto out;
            *o = (edan_exec){
                .insn = in, .addr = addr, .id = (uint32_t)id, .vcpu = vcpu, .flags = (uint16_t)(flags | warm)};
            prev = id;
            p = q;
            a = qa;
        }
    }
out:;
    const size_t n = (size_t)(o - out);
    r->prev_id = prev;
    r->blk_records_seen += n;
    r->n_records += n;
    r->last_warm += warm ? n : 0; /* every record of the loop has the run's warm flag */
    *pp = p;
    if (split)
        *pa = a;
    return n;
}

/* noinline: one copy of the loop per layout, each with its registers */
static __attribute__((noinline)) size_t decode_fast_split(edan_trace_reader *r, const uint8_t **pp, const uint8_t *end,
                                                          const uint8_t **pa, const uint8_t *aend, edan_exec *out,
                                                          size_t cap)
{
    return decode_fast(r, pp, end, pa, aend, out, cap, true);
}

static __attribute__((noinline)) size_t decode_fast_inline(edan_trace_reader *r, const uint8_t **pp, const uint8_t *end,
                                                           edan_exec *out, size_t cap)
{
    return decode_fast(r, pp, end, NULL, NULL, out, cap, false);
}

/* An EDAN_EV_OBJECT event's fields after its kind (trace_format.h), into r->objects; false on an error. */
static bool decode_object(edan_trace_reader *r, const uint8_t *ev, const uint8_t **pp, const uint8_t *end)
{
    uint64_t lo, size, base, len;
    if (!get_varint(r, pp, end, &lo, "object start") || !get_varint(r, pp, end, &size, "object size") ||
        !get_varint(r, pp, end, &base, "object base") || !get_varint(r, pp, end, &len, "object path length"))
        return false;
    if (!size || size > UINT64_MAX - lo || !len || len > EDAN_OBJMAP_MAX_PATH) {
        EV_FAIL(ev - r->raw,
                "shared object [0x%" PRIx64 ", +0x%" PRIx64 ") with a %" PRIu64
                "-byte path is impossible (a size above 0, a path of 1 to %u bytes)",
                lo, size, len, EDAN_OBJMAP_MAX_PATH);
        return false;
    }
    if ((uint64_t)(end - *pp) < len) {
        EV_FAIL(ev - r->raw, "shared object path of %" PRIu64 " bytes runs past the block's events", len);
        return false;
    }
    char path[EDAN_OBJMAP_MAX_PATH + 1];
    memcpy(path, *pp, len);
    path[len] = '\0';
    *pp += len;
    if (strlen(path) != len) {
        EV_FAIL(ev - r->raw, "shared object path holds a NUL byte");
        return false;
    }
    if (edan_objmap_add(&r->objects, path, lo, lo + size, base)) { /* a new object, or one grown */
        if (r->objects.n >= EDAN_OBJMAP_MAX)
            EV_FAIL(ev - r->raw, "more than %u shared objects", EDAN_OBJMAP_MAX);
        else
            EV_FAIL(ev - r->raw, "out of memory for the shared objects");
        return false;
    }
    return true;
}

/*
 * Decode records of the current block into out[0..cap); returns how many.
 * Events come from [pos, ev_end); addresses from [apos, blk_raw_len) when
 * split (version 2), else inline after their event (version 1).
 */
static size_t decode_events(edan_trace_reader *r, edan_exec *out, size_t cap)
{
    const uint8_t *p = r->raw + r->pos, *end = r->raw + r->ev_end;
    const uint8_t *a = r->raw + (r->split ? r->apos : r->pos), *const aend = r->raw + r->blk_raw_len;
    size_t n = 0;
    while (n < cap && p < end) {
        n += r->split ? decode_fast_split(r, &p, end, &a, aend, out + n, cap - n)
                      : decode_fast_inline(r, &p, end, out + n, cap - n);
        if (n == cap || p >= end)
            break;
        const uint8_t *ev = p;
        uint64_t v;
        if (!get_varint(r, &p, end, &v, "event"))
            break;
        if (v & 1) {
            uint64_t kind = v >> 1;
            if (kind == EDAN_EV_WARM && r->warm_ok) {
                uint64_t on;
                if (!get_varint(r, &p, end, &on, "warm"))
                    break;
                if (on > 1) {
                    EV_FAIL(ev - r->raw, "warm event %" PRIu64 " is neither 0 nor 1", on);
                    break;
                }
                r->warm = on ? EDAN_EXEC_WARM : 0;
                continue;
            }
            if (kind == EDAN_EV_KERNEL && r->kernel_ok) { /* one record: the kernel wrote a line */
                uint64_t d;
                if (!get_varint(r, &p, end, &d, "kernel write"))
                    break;
                if (r->blk_records_seen == r->blk_records) {
                    EV_FAIL(ev - r->raw, "more records than the block header's %" PRIu64, r->blk_records);
                    break;
                }
                r->kernel_line += (uint64_t)edan_unzigzag(d);
                out[n++] = edan_exec_kernel_write(r->kernel_line * EDAN_KERNEL_LINE, r->vcpu);
                r->blk_records_seen++;
                r->n_records++;
                r->last_warm++; /* a kernel write is always warm (trace/exec.h) */
                r->last_kernel++;
                continue;
            }
            if (kind == EDAN_EV_OBJECT && r->objects_ok) {
                if (!decode_object(r, ev, &p, end))
                    break;
                continue;
            }
            if (kind != EDAN_EV_VCPU) {
                EV_FAIL(ev - r->raw, "reserved control event kind %" PRIu64, kind);
                break;
            }
            uint64_t vcpu;
            if (!get_varint(r, &p, end, &vcpu, "vcpu"))
                break;
            if (vcpu > UINT16_MAX) {
                EV_FAIL(ev - r->raw, "vcpu %" PRIu64 " out of range (at most %u)", vcpu, UINT16_MAX);
                break;
            }
            r->vcpu = (uint16_t)vcpu;
            continue;
        }
        int64_t delta = edan_unzigzag(v >> 1);
        int64_t base = r->prev_id + 1;
        if (delta < -base || delta > (int64_t)r->n_defined - base) {
            EV_FAIL(ev - r->raw,
                    "instruction id delta %" PRId64 " after id %" PRId64 " is out of range (%" PRIu32 " ids defined)",
                    delta, r->prev_id, r->n_defined);
            break;
        }
        uint32_t id = (uint32_t)(base + delta);
        if (id == r->n_defined) {
            uint64_t pc, raw;
            if (!get_varint(r, &p, end, &pc, "pc") ||
                !get_varint(r, &p, end, &raw, r->isa == EDAN_ISA_RISCV64 ? "encoding" : "encoding length"))
                break;
            const uint8_t *enc = p;
            if (r->isa != EDAN_ISA_RISCV64) {
                if (raw < 1 || raw > EDAN_TRACE_MAX_ENC || raw > (uint64_t)(end - p)) {
                    EV_FAIL(p - r->raw, "an encoding of %" PRIu64 " bytes (expected 1 to %u, within the block)", raw,
                            EDAN_TRACE_MAX_ENC);
                    break;
                }
                p += raw;
            }
            if (add_insn(r, pc, raw, enc, (size_t)(ev - r->raw)) != 0)
                break;
        }
        const edan_insn *in = r->insn[id];
        edan_exec *o = &out[n];
        o->insn = in;
        o->id = id;
        o->vcpu = r->vcpu;
        o->flags = r->warm;
        o->addr = 0;
        if (r->insn_tagged[id] & 1) {
            const uint8_t **ap = r->split ? &a : &p, *const a_end = r->split ? aend : end;
            uint64_t av;
            bool big = false;
            if (*ap < a_end && **ap < 0x80) {
                av = *(*ap)++;
            } else {
                int k = edan_varint_get_ext(*ap, a_end, &av, true, &big);
                if (k <= 0) {
                    EV_FAIL(*ap - r->raw, "the address varint %s",
                            k == 0    ? (r->split ? "runs past the end of the block's addresses"
                                                  : "runs past the end of the block")
                            : k == -1 ? "is longer than 10 bytes"
                                      : "overflows 64 bits");
                    break;
                }
                *ap += k;
            }
            if (!big && av == 0) {
                o->flags |= EDAN_EXEC_NO_ACCESS;
            } else {
                /* av == 2^64 (big) encodes the one delta, -2^63, whose zigzag is 2^64 - 1. */
                o->addr = r->last_addr[id] + (uint64_t)edan_unzigzag(big ? UINT64_MAX : av - 1);
                r->last_addr[id] = o->addr;
            }
        }
        if (r->blk_records_seen == r->blk_records) {
            EV_FAIL(ev - r->raw, "more records than the block header's %" PRIu64, r->blk_records);
            break;
        }
        r->blk_records_seen++;
        r->n_records++;
        r->last_warm += r->warm != 0;
        r->prev_id = id;
        n++;
    }
    r->pos = (size_t)(p - r->raw);
    if (r->split)
        r->apos = (size_t)(a - r->raw);
    return n;
}

long edan_trace_reader_next(edan_trace_reader *r, edan_exec *out, size_t cap, edan_error *err)
{
    size_t n = 0;
    r->last_warm = r->last_kernel = 0;
    while (n < cap && r->state == RD_OK) {
        if (!r->in_block) {
            int rc = edan_trace_load_block(r);
            if (rc == 1)
                r->state = RD_DONE;
            continue;
        }
        if (r->pos < r->ev_end) {
            n += decode_events(r, out + n, cap - n);
            continue;
        }
        /* End of the block: the header's counts must match what it held. */
        if (r->blk_records_seen != r->blk_records) {
            edan_trace_reader_fail(r,
                                   "block at byte %" PRIu64 ": header says %" PRIu64 " records but its "
                                   "events hold %" PRIu64,
                                   r->blk_off, r->blk_records, r->blk_records_seen);
            break;
        }
        if (r->blk_new_seen != r->blk_new) {
            edan_trace_reader_fail(r,
                                   "block at byte %" PRIu64 ": header says %" PRIu32 " new instructions "
                                   "but its events define %" PRIu32,
                                   r->blk_off, r->blk_new, r->blk_new_seen);
            break;
        }
        if (r->split && r->apos != r->blk_raw_len) {
            edan_trace_reader_fail(r,
                                   "block at byte %" PRIu64 ": %zu bytes of addresses (from offset %zu of its %u "
                                   "decompressed bytes) belong to no memory access",
                                   r->blk_off, r->blk_raw_len - r->apos, r->apos, r->blk_raw_len);
            break;
        }
        r->in_block = false;
    }
    if (n > 0)
        return (long)n;
    if (r->state == RD_ERROR) {
        edan_error_set(err, "%s", r->msg);
        return -1;
    }
    return 0;
}

void edan_trace_reader_last_counts(const edan_trace_reader *r, size_t *warm, size_t *kernel)
{
    *warm = (size_t)r->last_warm;
    *kernel = (size_t)r->last_kernel;
}
