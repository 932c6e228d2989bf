/* trace_text.c - reader and writer of the original EDAN text trace format (see trace_text.h). */
#include "trace/trace_text.h"

#include "trace/outfile.h"
#include "util/files.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define READ_BUF (1u << 20)
#define MAX_FIELDS 32
#define ARENA_CHUNK (64u << 10)
/* Producer ids are dense (exec.h); see trace_internal.h. */
#define MAX_PRODUCER_ID (1u << 28)

/* ---- reader ------------------------------------------------------------ */

typedef struct text_entry {
    uint64_t hash; /* 0 marks an empty slot */
    uint64_t pc;
    const char *text;
    uint32_t len;
    uint32_t id;
    const edan_insn *insn;
} text_entry;

typedef struct arena_chunk {
    struct arena_chunk *next;
    size_t used;
    char data[];
} arena_chunk;

enum { RD_OK, RD_DONE, RD_ERROR };

struct edan_text_reader {
    FILE *f;
    bool own;
    char *name;
    char *buf;
    size_t len, pos;
    bool eof;
    uint64_t line;
    int state;
    char msg[1024];

    uint64_t records;  /* records parsed so far */
    bool edan_written; /* edan's header was read: the end line is required */
    uint64_t end_line; /* the line of the end line, 0 before it */
    char warning[1024];

    edan_code_table *code;
    text_entry *tab; /* open addressing, power-of-two capacity, <= half full */
    size_t tab_cap, tab_n;
    arena_chunk *arena;
};

static void reader_fail(edan_text_reader *r, const char *fmt, ...) EDAN_PRINTF(2, 3);

static void reader_fail(edan_text_reader *r, const char *fmt, ...)
{
    if (r->state == RD_ERROR)
        return;
    r->state = RD_ERROR;
    int k = snprintf(r->msg, sizeof r->msg, "%s:%" PRIu64 ": ", r->name, r->line);
    if (k < 0 || (size_t)k >= sizeof r->msg)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->msg + k, sizeof r->msg - (size_t)k, fmt, ap);
    va_end(ap);
}

static const char *arena_dup(edan_text_reader *r, const char *s, size_t n)
{
    if (!r->arena || ARENA_CHUNK - r->arena->used < n + 1) {
        size_t sz = n + 1 > ARENA_CHUNK ? n + 1 : ARENA_CHUNK;
        arena_chunk *c = malloc(sizeof *c + sz);
        if (!c)
            return NULL;
        c->next = r->arena;
        c->used = 0;
        r->arena = c;
    }
    char *d = r->arena->data + r->arena->used;
    memcpy(d, s, n);
    d[n] = '\0';
    r->arena->used += n + 1;
    return d;
}

static uint64_t text_hash(const char *s, size_t n, uint64_t pc)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ (pc * 0xff51afd7ed558ccdull) ^ n;
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
        h ^= h >> 29;
        s += 8;
        n -= 8;
    }
    uint64_t w = 0;
    memcpy(&w, s, n);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 32;
    return h | 1; /* never 0: 0 marks an empty slot */
}

static int tab_grow(edan_text_reader *r)
{
    size_t cap = r->tab_cap ? r->tab_cap * 2 : 1024;
    text_entry *t = calloc(cap, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < r->tab_cap; i++) {
        if (!r->tab[i].hash)
            continue;
        size_t j = r->tab[i].hash & (cap - 1);
        while (t[j].hash)
            j = (j + 1) & (cap - 1);
        t[j] = r->tab[i];
    }
    free(r->tab);
    r->tab = t;
    r->tab_cap = cap;
    return 0;
}

static void reader_free(edan_text_reader *r)
{
    if (!r)
        return;
    if (r->own && r->f)
        fclose(r->f);
    while (r->arena) {
        arena_chunk *n = r->arena->next;
        free(r->arena);
        r->arena = n;
    }
    free(r->tab);
    edan_code_table_free(r->code);
    free(r->buf);
    free(r->name);
    free(r);
}

edan_text_reader *edan_text_reader_open_file(FILE *f, const char *name, edan_error *err)
{
    edan_text_reader *r = calloc(1, sizeof *r);
    if (!r) {
        if (f)
            fclose(f);
        edan_error_set(err, "%s: out of memory", name);
        return NULL;
    }
    r->f = f;
    r->own = true;
    r->name = strdup(name);
    r->buf = malloc(READ_BUF + EDAN_TEXT_MAX_LINE + 2);
    r->code = edan_code_table_new();
    if (!r->name || !r->buf || !r->code || tab_grow(r) != 0) {
        edan_error_set(err, "%s: out of memory", name);
        reader_free(r);
        return NULL;
    }
    return r;
}

edan_text_reader *edan_text_reader_open(const char *path, edan_error *err)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : edan_input_fopen(path, "the trace", EDAN_INPUT_STREAM, err);
    if (!f)
        return NULL;
    edan_text_reader *r = edan_text_reader_open_file(f, strcmp(path, "-") ? path : "<stdin>", err);
    if (r && f == stdin)
        r->own = false;
    return r;
}

const edan_code_table *edan_text_reader_code(const edan_text_reader *r)
{
    return r->code;
}

void edan_text_reader_close(edan_text_reader *r)
{
    reader_free(r);
}

static bool is_space(char c);

/* Next line without its newline; 1 with a line, 0 at the end, -1 on error. */
static int next_line(edan_text_reader *r, char **line, size_t *len)
{
    for (;;) {
        char *start = r->buf + r->pos;
        size_t avail = r->len - r->pos;
        char *nl = memchr(start, '\n', avail);
        if (nl) {
            r->line++;
            *line = start;
            *len = (size_t)(nl - start);
            r->pos += *len + 1;
            if (*len > EDAN_TEXT_MAX_LINE) {
                reader_fail(r, "line is longer than %u bytes", EDAN_TEXT_MAX_LINE);
                return -1;
            }
            return 1;
        }
        if (avail > EDAN_TEXT_MAX_LINE) {
            r->line++;
            reader_fail(r, "line is longer than %u bytes", EDAN_TEXT_MAX_LINE);
            return -1;
        }
        if (r->eof) {
            size_t blank = 0;
            while (blank < avail && is_space(start[blank]))
                blank++;
            if (blank == avail)
                return 0;
            /* every line the writer (and EDAN's tracer) writes ends with a newline: a last line without one
             * was cut off mid-write, and parsing what is left would change the last record */
            r->line++;
            reader_fail(r, "the last line has no newline: the trace was cut off in the middle of a line");
            return -1;
        }
        memmove(r->buf, start, avail);
        r->len = avail;
        r->pos = 0;
        size_t got = fread(r->buf + r->len, 1, READ_BUF, r->f);
        if (got == 0) {
            if (ferror(r->f)) {
                reader_fail(r, "read error: %s", strerror(errno));
                return -1;
            }
            r->eof = true;
        }
        r->len += got;
    }
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_hex_field(const char *s, size_t n)
{
    return n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

/* Parse a 0x-prefixed hex field; -1 if malformed or over 64 bits. */
static int parse_hex(const char *s, size_t n, uint64_t *out)
{
    if (n < 3 || n > 18)
        return -1;
    uint64_t v = 0;
    for (size_t i = 2; i < n; i++) {
        char c = s[i];
        unsigned d;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            return -1;
        v = v << 4 | d;
    }
    *out = v;
    return 0;
}

static const text_entry *lookup(edan_text_reader *r, const char *text, size_t n, uint64_t pc)
{
    uint64_t h = text_hash(text, n, pc);
    size_t mask = r->tab_cap - 1;
    size_t i = h & mask;
    for (;;) {
        text_entry *e = &r->tab[i];
        if (!e->hash)
            break;
        if (e->hash == h && e->pc == pc && e->len == n && memcmp(e->text, text, n) == 0)
            return e;
        i = (i + 1) & mask;
    }
    /* First sighting: parse it once. */
    char copy[EDAN_TEXT_MAX_LINE + 1];
    memcpy(copy, text, n);
    copy[n] = '\0';
    if (memchr(text, '\0', n)) {
        reader_fail(r, "NUL byte in the disassembly");
        return NULL;
    }
    edan_insn in;
    char why[256] = "";
    edan_insn_clear(&in);
    if (edan_rv_parse(copy, pc, &in, why, sizeof why) != 0) {
        reader_fail(r, "%s", why[0] ? why : "cannot parse the instruction");
        return NULL;
    }
    in.pc = pc;
    if ((r->tab_n + 1) * 2 > r->tab_cap) {
        if (tab_grow(r) != 0) {
            reader_fail(r, "out of memory");
            return NULL;
        }
        mask = r->tab_cap - 1;
        i = h & mask;
        while (r->tab[i].hash)
            i = (i + 1) & mask;
    }
    const char *stored = arena_dup(r, text, n);
    if (!stored) {
        reader_fail(r, "out of memory");
        return NULL;
    }
    text_entry *e = &r->tab[i];
    e->hash = h;
    e->pc = pc;
    e->text = stored;
    e->len = (uint32_t)n;
    e->id = edan_code_table_add(r->code, &in);
    e->insn = edan_code_table_get(r->code, e->id);
    r->tab_n++;
    return e;
}

static bool starts_with(const char *s, size_t n, const char *prefix)
{
    size_t k = strlen(prefix);
    return n >= k && memcmp(s, prefix, k) == 0;
}

/*
 * A comment line (s starts with '#', n > 0, leading blanks gone): edan's
 * header and end line are checked, any other comment is skipped. 0, or -1
 * on error.
 */
static int comment_line(edan_text_reader *r, const char *s, size_t n)
{
    while (n > 0 && is_space(s[n - 1]))
        n--;
    if (starts_with(s, n, EDAN_TEXT_HEADER_PREFIX)) {
        if (n != strlen(EDAN_TEXT_HEADER) || memcmp(s, EDAN_TEXT_HEADER, n) != 0) {
            reader_fail(r, "'%.*s' is not a header this edan reads ('%s')", (int)n, s, EDAN_TEXT_HEADER);
            return -1;
        }
        if (r->records || r->edan_written || r->end_line) {
            reader_fail(r, "edan's header line after the start of the trace (two traces joined?)");
            return -1;
        }
        r->edan_written = true;
        return 0;
    }
    if (!starts_with(s, n, EDAN_TEXT_END_PREFIX))
        return 0;
    const char *p = s + strlen(EDAN_TEXT_END_PREFIX), *end = s + n;
    uint64_t count = 0;
    const char *digits = p;
    while (p < end && *p >= '0' && *p <= '9' && count <= (UINT64_MAX - 9) / 10)
        count = count * 10 + (uint64_t)(*p++ - '0');
    const char *tail = EDAN_TEXT_END_SUFFIX;
    if (p == digits || (size_t)(end - p) != strlen(tail) || memcmp(p, tail, strlen(tail)) != 0) {
        reader_fail(r, "malformed end line '%.*s' (expected '" EDAN_TEXT_END_PREFIX "N" EDAN_TEXT_END_SUFFIX "')",
                    (int)n, s);
        return -1;
    }
    if (r->end_line) {
        reader_fail(r, "a second end line (the first is line %" PRIu64 "; two traces joined?)", r->end_line);
        return -1;
    }
    if (count != r->records) {
        reader_fail(r, "the end line counts %" PRIu64 " instructions, but the trace has %" PRIu64, count, r->records);
        return -1;
    }
    r->end_line = r->line;
    return 0;
}

/* Parse one line into *o. Returns 1 with a record, 0 for a skipped line,
 * -1 on error. */
static int parse_line(edan_text_reader *r, char *s, size_t n, edan_exec *o)
{
    while (n > 0 && is_space(*s))
        s++, n--;
    if (n == 0)
        return 0;
    if (*s == '#')
        return comment_line(r, s, n);
    if (r->end_line) {
        reader_fail(r, "an instruction after the end line (line %" PRIu64 "; two traces joined?)", r->end_line);
        return -1;
    }
    const char *f[MAX_FIELDS];
    size_t fl[MAX_FIELDS];
    size_t nf = 0;
    const char *p = s, *end = s + n;
    for (;;) {
        const char *semi = memchr(p, ';', (size_t)(end - p));
        const char *fe = semi ? semi : end;
        if (nf == MAX_FIELDS) {
            reader_fail(r, "more than %d ';'-separated fields", MAX_FIELDS);
            return -1;
        }
        const char *a = p, *b = fe;
        while (a < b && is_space(*a))
            a++;
        while (b > a && is_space(b[-1]))
            b--;
        f[nf] = a;
        fl[nf++] = (size_t)(b - a);
        if (!semi)
            break;
        p = semi + 1;
    }

    size_t i = 0;
    uint64_t vcpu = 0, pc = 0;
    if (fl[0] > 0 && f[0][0] >= '0' && f[0][0] <= '9' && !is_hex_field(f[0], fl[0])) {
        size_t k = 0;
        while (k < fl[0] && f[0][k] >= '0' && f[0][k] <= '9' && vcpu <= UINT16_MAX)
            vcpu = vcpu * 10 + (uint64_t)(f[0][k++] - '0');
        if (k == fl[0]) {
            if (vcpu > UINT16_MAX) {
                reader_fail(r, "vcpu %.*s out of range (at most %u)", (int)fl[0], f[0], UINT16_MAX);
                return -1;
            }
            i = 1;
        } else {
            vcpu = 0;
        }
    }
    if (i < nf && is_hex_field(f[i], fl[i])) {
        if (parse_hex(f[i], fl[i], &pc) != 0) {
            reader_fail(r, "bad program counter '%.*s'", (int)fl[i], f[i]);
            return -1;
        }
        i++;
    }
    if (i >= nf || fl[i] == 0 || is_hex_field(f[i], fl[i])) {
        if (i < nf && fl[i] > 0)
            reader_fail(r, "expected the disassembly, got '%.*s'", (int)fl[i], f[i]);
        else
            reader_fail(r, "missing disassembly");
        return -1;
    }
    /* The comment ("bne a3,a5,-6 # 0x104be") is not part of the identity. */
    const char *dis = f[i];
    size_t dl = fl[i];
    const char *hash = memchr(dis, '#', dl);
    if (hash) {
        dl = (size_t)(hash - dis);
        while (dl > 0 && is_space(dis[dl - 1]))
            dl--;
        if (dl == 0) {
            reader_fail(r, "missing disassembly");
            return -1;
        }
    }
    const text_entry *e = lookup(r, dis, dl, pc);
    if (!e)
        return -1;

    uint64_t addr = 0;
    bool have = false;
    for (i++; i < nf; i++) {
        if (fl[i] == 0)
            continue;
        uint64_t a;
        if (!is_hex_field(f[i], fl[i]) || parse_hex(f[i], fl[i], &a) != 0) {
            reader_fail(r, "expected a 0x data address, got '%.*s'", (int)fl[i], f[i]);
            return -1;
        }
        if (!have) {
            addr = a;
            have = true;
        } else if (a != addr) {
            reader_fail(r, "'%.*s' lists different data addresses 0x%" PRIx64 " and 0x%" PRIx64, (int)dl, dis, addr, a);
            return -1;
        }
    }
    o->insn = e->insn;
    o->id = e->id;
    o->vcpu = (uint16_t)vcpu;
    o->flags = 0;
    o->addr = 0;
    /* Addresses listed for an instruction that does not access memory carry
     * no meaning for the analysis and are ignored. */
    if (e->insn->mem != EDAN_MEM_NONE) {
        if (have)
            o->addr = addr;
        else
            o->flags = EDAN_EXEC_NO_ACCESS;
    }
    r->records++;
    return 1;
}

/* At the end of the input: a trace edan wrote must have its end line; one
 * without edan's header (the original tool's) cannot be checked; either must
 * hold an instruction. 0, or -1 on error. */
static int check_end(edan_text_reader *r)
{
    if (!r->end_line && r->edan_written) {
        reader_fail(
            r,
            "the trace ends here without the end line edan writes when it closes a trace ('" EDAN_TEXT_END_PREFIX
            "N" EDAN_TEXT_END_SUFFIX "'): it was cut off after %" PRIu64
            " instructions (an interrupted record or a truncated copy)",
            r->records);
        return -1;
    }
    /* a file of comments and blank lines is no trace: an analysis of it would report zeros as a result */
    if (r->records == 0) {
        reader_fail(r, "no instruction in the trace (only comments and blank lines): nothing to analyse");
        return -1;
    }
    if (r->end_line)
        return 0;
    snprintf(r->warning, sizeof r->warning,
             "%s: a text trace without edan's header line ('%s'), as the original EDAN tool writes them: whether it is "
             "complete cannot be checked",
             r->name, EDAN_TEXT_HEADER);
    return 0;
}

const char *edan_text_reader_warning(const edan_text_reader *r)
{
    return r->warning[0] ? r->warning : NULL;
}

long edan_text_reader_next(edan_text_reader *r, edan_exec *out, size_t cap, edan_error *err)
{
    size_t n = 0;
    while (n < cap && r->state == RD_OK) {
        char *line;
        size_t len;
        int rc = next_line(r, &line, &len);
        if (rc == 0) {
            if (check_end(r) == 0)
                r->state = RD_DONE;
            break;
        }
        if (rc < 0)
            break;
        rc = parse_line(r, line, len, &out[n]);
        if (rc > 0)
            n++;
    }
    if (n > 0)
        return (long)n;
    if (r->state == RD_ERROR) {
        edan_error_set(err, "%s", r->msg);
        return -1;
    }
    return 0;
}

/* ---- writer ------------------------------------------------------------ */

#define WBUF (1u << 20)
#define MAX_LINE_OUT 512

typedef struct dis_ref {
    uint32_t off; /* into strs; UINT32_MAX if not cached yet */
    uint32_t len;
} dis_ref;

struct edan_text_writer {
    edan_outfile out;
    bool with_pc;
    bool finished;
    char *buf;
    size_t len;
    uint64_t records; /* written, for the end line */
    /* Per producer id: the cached "0xpc;disassembly" or "disassembly". */
    dis_ref *dis;
    size_t dis_cap;
    char *strs;
    size_t strs_len, strs_cap;
};

static void flush_buf(edan_text_writer *w)
{
    edan_outfile_write(&w->out, w->buf, w->len);
    w->len = 0;
}

static void text_writer_free(edan_text_writer *w)
{
    if (!w)
        return;
    if (w->out.path) /* opened but never closed: an error path */
        edan_outfile_close(&w->out, NULL);
    free(w->buf);
    free(w->dis);
    free(w->strs);
    free(w);
}

edan_text_writer *edan_text_writer_open(const char *path, bool with_pc, edan_error *err)
{
    edan_text_writer *w = calloc(1, sizeof *w);
    if (!w) {
        edan_error_set(err, "%s: out of memory", path);
        return NULL;
    }
    w->with_pc = with_pc;
    w->buf = malloc(WBUF);
    if (!w->buf) {
        edan_error_set(err, "%s: out of memory", path);
        text_writer_free(w);
        return NULL;
    }
    if (edan_outfile_open(&w->out, path, "trace file", err)) {
        text_writer_free(w);
        return NULL;
    }
    /* as it always was: a text trace whose writing failed is removed (it would read as cut off) */
    w->out.remove_on_failure = true;
    w->len = (size_t)snprintf(w->buf, WBUF, "%s\n", EDAN_TEXT_HEADER);
    return w;
}

static char *put_hex(char *p, uint64_t v)
{
    static const char digits[] = "0123456789abcdef";
    char tmp[16];
    int n = 0;
    do {
        tmp[n++] = digits[v & 15];
        v >>= 4;
    } while (v);
    *p++ = '0';
    *p++ = 'x';
    while (n)
        *p++ = tmp[--n];
    return p;
}

static char *put_dec(char *p, unsigned v)
{
    char tmp[8];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        *p++ = tmp[--n];
    return p;
}

/* Disassemble producer id's instruction once and keep the text. */
static const dis_ref *cache_dis(edan_text_writer *w, const edan_exec *r)
{
    if (r->id >= MAX_PRODUCER_ID || !r->insn) {
        edan_outfile_fail(&w->out, "instruction id too large or missing instruction (ids must be dense)", 0);
        return NULL;
    }
    if (r->id >= w->dis_cap) {
        size_t n = w->dis_cap ? w->dis_cap : 1024;
        while (n <= r->id)
            n *= 2;
        dis_ref *d = realloc(w->dis, n * sizeof *d);
        if (!d) {
            edan_outfile_fail(&w->out, "out of memory", 0);
            return NULL;
        }
        for (size_t i = w->dis_cap; i < n; i++)
            d[i].off = UINT32_MAX;
        w->dis = d;
        w->dis_cap = n;
    }
    if (r->insn->isa != EDAN_ISA_RISCV64) {
        edan_outfile_fail(&w->out, "the original EDAN text format holds RISC-V instructions only", 0);
        return NULL;
    }
    char text[MAX_LINE_OUT / 2];
    char *p = text;
    if (w->with_pc) {
        p = put_hex(p, r->insn->pc);
        *p++ = ';';
    }
    size_t room = sizeof text - (size_t)(p - text);
    int k = edan_rv_disas(r->insn, p, room);
    if (k < 0 || (size_t)k >= room) {
        edan_outfile_fail(&w->out, "cannot disassemble an instruction", 0);
        return NULL;
    }
    size_t len = (size_t)(p - text) + (size_t)k;
    if (w->strs_len + len > w->strs_cap) {
        size_t cap = w->strs_cap ? w->strs_cap * 2 : 65536;
        while (cap < w->strs_len + len)
            cap *= 2;
        if (cap > UINT32_MAX) {
            edan_outfile_fail(&w->out, "too many distinct instructions", 0);
            return NULL;
        }
        char *s = realloc(w->strs, cap);
        if (!s) {
            edan_outfile_fail(&w->out, "out of memory", 0);
            return NULL;
        }
        w->strs = s;
        w->strs_cap = cap;
    }
    memcpy(w->strs + w->strs_len, text, len);
    w->dis[r->id].off = (uint32_t)w->strs_len;
    w->dis[r->id].len = (uint32_t)len;
    w->strs_len += len;
    return &w->dis[r->id];
}

void edan_text_writer_consume(void *writer, const edan_exec *recs, size_t n)
{
    edan_text_writer *w = writer;
    if (w->out.failed)
        return;
    if (w->finished) {
        edan_outfile_fail(&w->out, "records written after the trace was finished", 0);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const edan_exec *r = &recs[i];
        if (r->flags & EDAN_EXEC_WARM) /* the original format holds the region alone: a cold trace */
            continue;
        const dis_ref *d;
        if (r->id < w->dis_cap && w->dis[r->id].off != UINT32_MAX)
            d = &w->dis[r->id];
        else if (!(d = cache_dis(w, r)))
            return;
        if (WBUF - w->len < MAX_LINE_OUT) {
            flush_buf(w);
            if (w->out.failed)
                return;
        }
        char *p = w->buf + w->len;
        p = put_dec(p, r->vcpu);
        *p++ = ';';
        memcpy(p, w->strs + d->off, d->len);
        p += d->len;
        if (r->insn->mem != EDAN_MEM_NONE && !(r->flags & EDAN_EXEC_NO_ACCESS)) {
            *p++ = ';';
            p = put_hex(p, r->addr);
        }
        *p++ = '\n';
        w->len = (size_t)(p - w->buf);
        w->records++;
    }
}

int edan_text_writer_finish(void *writer)
{
    edan_text_writer *w = writer;
    if (!w->finished) {
        w->finished = true;
        /* the end line, only here: a writer that never finishes (a killed process) leaves a trace without it */
        if (WBUF - w->len < MAX_LINE_OUT)
            flush_buf(w);
        int k = snprintf(w->buf + w->len, WBUF - w->len, EDAN_TEXT_END_PREFIX "%" PRIu64 EDAN_TEXT_END_SUFFIX "\n",
                         w->records);
        w->len += (size_t)k;
        flush_buf(w);
    }
    return w->out.failed ? -1 : 0;
}

int edan_text_writer_close(edan_text_writer *w, edan_error *err)
{
    if (!w)
        return 0;
    edan_text_writer_finish(w);
    int rc = edan_outfile_close(&w->out, err);
    text_writer_free(w);
    return rc;
}

void edan_text_writer_abandon(edan_text_writer *w)
{
    if (!w)
        return;
    edan_outfile_fail(&w->out, "abandoned", 0);
    edan_outfile_close(&w->out, NULL);
    text_writer_free(w);
}

edan_consumer edan_text_writer_consumer(edan_text_writer *w)
{
    edan_consumer c = {.ctx = w, .consume = edan_text_writer_consume, .finish = edan_text_writer_finish};
    return c;
}
