/*
 * riscv_parse.c - parse one disassembled RV64GC instruction back into an
 * edan_insn with the same dependency view as decoding its bytes.
 *
 * Accepts QEMU's style (what edan_rv_disas prints, including QEMU's leading
 * hex encoding and rounding-mode-first FP operands), GNU objdump's style
 * (-M no-aliases "c.xxx" forms, hex shift amounts, "lui a0,0x12", absolute
 * branch targets followed by "<symbol>", trailing rounding modes) and the
 * usual assembler pseudo-instructions.
 *
 * Called once per trace line, so: no allocation, one binary search over a
 * sorted mnemonic table, and every scan bounded by the NUL terminator.
 */
#include "isa/riscv_parse_internal.h"

#include <stdio.h>
#include <string.h>

#define MAX_OPS 6
#define MAX_MN 24

typedef struct tok {
    const char *s;
    size_t n;
} tok;

typedef struct perr {
    char *buf;
    size_t cap;
} perr;

static int fail(perr *e, const char *fmt, const char *a, size_t alen, const char *b)
{
    if (e->buf && e->cap > 0) {
        int n = (int)(alen > 40 ? 40 : alen);
        snprintf(e->buf, e->cap, fmt, n, a ? a : "", b ? b : "");
    }
    return -1;
}

static inline bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static inline bool is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static inline unsigned hex_val(char c)
{
    return c <= '9' ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
}

static tok trim(const char *s, size_t n)
{
    while (n > 0 && is_space(*s)) {
        s++;
        n--;
    }
    while (n > 0 && is_space(s[n - 1])) {
        n--;
    }
    return (tok){s, n};
}

static inline bool tok_eq(tok t, const char *lit)
{
    size_t n = strlen(lit);
    return t.n == n && memcmp(t.s, lit, n) == 0;
}

/* Number in [lo, hi] from digits[0..n): returns -1 if not all digits. */
static int small_num(const char *d, size_t n, int hi)
{
    if (n == 0 || n > 2) {
        return -1;
    }
    int v = 0;
    for (size_t i = 0; i < n; i++) {
        if (d[i] < '0' || d[i] > '9') {
            return -1;
        }
        v = v * 10 + (d[i] - '0');
    }
    if (n == 2 && d[0] == '0') {
        return -1;
    }
    return v <= hi ? v : -1;
}

/* x register by ABI or xN name, or -1. */
static int xreg(tok t)
{
    const char *s = t.s;
    size_t n = t.n;
    if (n < 2 || n > 4) {
        return -1;
    }
    int k;
    switch (s[0]) {
    case 'z':
        return tok_eq(t, "zero") ? 0 : -1;
    case 'r':
        return tok_eq(t, "ra") ? 1 : -1;
    case 'g':
        return tok_eq(t, "gp") ? 3 : -1;
    case 'x':
        return small_num(s + 1, n - 1, 31);
    case 'f':
        return tok_eq(t, "fp") ? 8 : -1;
    case 's':
        if (tok_eq(t, "sp")) {
            return 2;
        }
        k = small_num(s + 1, n - 1, 11);
        return k < 0 ? -1 : k < 2 ? 8 + k : 16 + k;
    case 't':
        if (tok_eq(t, "tp")) {
            return 4;
        }
        k = small_num(s + 1, n - 1, 6);
        return k < 0 ? -1 : k < 3 ? 5 + k : 25 + k;
    case 'a':
        k = small_num(s + 1, n - 1, 7);
        return k < 0 ? -1 : 10 + k;
    default:
        return -1;
    }
}

/* f register number (0..31) by ABI or fN name, or -1. */
static int freg(tok t)
{
    const char *s = t.s;
    size_t n = t.n;
    if (n < 2 || n > 4 || s[0] != 'f') {
        return -1;
    }
    int k;
    switch (s[1]) {
    case 't':
        k = small_num(s + 2, n - 2, 11);
        return k < 0 ? -1 : k < 8 ? k : 20 + k;
    case 's':
        k = small_num(s + 2, n - 2, 11);
        return k < 0 ? -1 : k < 2 ? 8 + k : 16 + k;
    case 'a':
        k = small_num(s + 2, n - 2, 7);
        return k < 0 ? -1 : 10 + k;
    default:
        return small_num(s + 1, n - 1, 31);
    }
}

/* Signed integer: optional sign, decimal or 0x hex. hex_plain: bare digits are hex. */
static bool parse_int(tok t, bool hex_plain, int64_t *out)
{
    const char *s = t.s;
    size_t n = t.n;
    bool neg = false;
    if (n > 0 && (s[0] == '-' || s[0] == '+')) {
        neg = s[0] == '-';
        s++;
        n--;
    }
    bool hex = hex_plain;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        hex = true;
        s += 2;
        n -= 2;
    }
    if (n == 0 || n > (hex ? 16u : 20u)) {
        return false;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (hex) {
            if (!is_hex(s[i])) {
                return false;
            }
            v = (v << 4) | hex_val(s[i]);
        } else {
            if (s[i] < '0' || s[i] > '9') {
                return false;
            }
            v = v * 10u + (uint64_t)(s[i] - '0');
        }
    }
    *out = (int64_t)(neg ? 0u - v : v);
    return true;
}

static bool has_hex_prefix(tok t)
{
    size_t i = (t.n > 0 && (t.s[0] == '-' || t.s[0] == '+')) ? 1 : 0;
    return t.n > i + 2 && t.s[i] == '0' && (t.s[i + 1] == 'x' || t.s[i + 1] == 'X');
}

static int rm_name(tok t)
{
    static const char *const names[8] = {"rne", "rtz", "rdn", "rup", "rmm", "", "", "dyn"};
    if (t.n != 3) {
        return -1;
    }
    for (int i = 0; i < 8; i++) {
        if (names[i][0] && memcmp(t.s, names[i], 3) == 0) {
            return i;
        }
    }
    return -1;
}

static int csr_by_name(tok t)
{
    return edan_rv_csr_by_name(t.s, t.n);
}

static bool fence_set(tok t, unsigned *out)
{
    unsigned v = 0;
    if (tok_eq(t, "0")) {
        *out = 0;
        return true;
    }
    for (size_t i = 0; i < t.n; i++) {
        switch (t.s[i]) {
        case 'i':
            v |= 8;
            break;
        case 'o':
            v |= 4;
            break;
        case 'r':
            v |= 2;
            break;
        case 'w':
            v |= 1;
            break;
        default:
            return false;
        }
    }
    *out = v;
    return true;
}

/* "imm(reg)" or "(reg)": split at the parenthesis. */
static bool split_mem(tok t, tok *imm, tok *reg)
{
    if (t.n < 3 || t.s[t.n - 1] != ')') {
        return false;
    }
    size_t open = t.n;
    for (size_t i = 0; i < t.n; i++) {
        if (t.s[i] == '(') {
            open = i;
            break;
        }
    }
    if (open >= t.n - 1) {
        return false;
    }
    *imm = trim(t.s, open);
    *reg = trim(t.s + open + 1, t.n - open - 2);
    return true;
}

static size_t form_len(const char *form)
{
    return strlen(form);
}

/* Fill operands from tokens according to form; returns 0 or -1 with message. */
static int apply_form(const char *form, const tok *ops, const parse_entry *pe, uint64_t pc, edan_insn *out, perr *e)
{
    unsigned fence_n = 0;
    for (size_t i = 0; form[i]; i++) {
        tok t = ops[i];
        char f = form[i];
        int r;
        int64_t v;
        tok a, b;
        switch (f) {
        case 'd':
        case 's':
        case 't':
        case 'b':
            r = xreg(t);
            if (r < 0) {
                return fail(e, "expected integer register, got '%.*s'%s", t.s, t.n, "");
            }
            if (f == 'd' || f == 'b') {
                out->rd = (uint8_t)r;
            }
            if (f == 's' || f == 'b') {
                out->rs1 = (uint8_t)r;
            }
            if (f == 't') {
                out->rs2 = (uint8_t)r;
            }
            break;
        case 'D':
        case 'S':
        case 'T':
        case 'R':
            r = freg(t);
            if (r < 0 && (pe->flags & P_LAXF)) {
                r = xreg(t);
            }
            if (r < 0) {
                return fail(e, "expected FP register, got '%.*s'%s", t.s, t.n, "");
            }
            if (f == 'D') {
                out->rd = (uint8_t)r;
            } else if (f == 'S') {
                out->rs1 = (uint8_t)r;
            } else if (f == 'T') {
                out->rs2 = (uint8_t)r;
            } else {
                out->rs3 = (uint8_t)r;
            }
            break;
        case 'i':
        case 'z':
            if (!parse_int(t, false, &v)) {
                return fail(e, "expected immediate, got '%.*s'%s", t.s, t.n, "");
            }
            if (f == 'z' && (v < 0 || v > 31)) {
                return fail(e, "CSR immediate out of range: '%.*s'%s", t.s, t.n, "");
            }
            out->imm = v;
            break;
        case 'u':
            if (!parse_int(t, false, &v)) {
                return fail(e, "expected immediate, got '%.*s'%s", t.s, t.n, "");
            }
            /* GNU prints the 20-bit field in hex, QEMU the shifted value in decimal. */
            if (has_hex_prefix(t)) {
                v = (int64_t)(int32_t)(uint32_t)((uint64_t)v << 12);
            }
            out->imm = v;
            break;
        case 'o': {
            /* "-6" (QEMU: byte offset) or "1047c <sym+0x4>" (objdump: absolute hex target). */
            size_t lt = t.n;
            for (size_t k = 0; k < t.n; k++) {
                if (t.s[k] == '<') {
                    lt = k;
                    break;
                }
            }
            tok num = trim(t.s, lt);
            bool absolute = lt < t.n;
            if (!parse_int(num, absolute, &v)) {
                return fail(e, "expected branch offset, got '%.*s'%s", t.s, t.n, "");
            }
            out->imm = absolute ? (int64_t)((uint64_t)v - pc) : v;
            break;
        }
        case 'L':
        case 'A':
            if (!split_mem(t, &a, &b)) {
                return fail(e, "expected 'offset(register)', got '%.*s'%s", t.s, t.n, "");
            }
            r = xreg(b);
            if (r < 0) {
                return fail(e, "expected base register, got '%.*s'%s", b.s, b.n, "");
            }
            out->rs1 = (uint8_t)r;
            if (a.n == 0) {
                v = 0;
            } else if (!parse_int(a, false, &v) || (f == 'A' && v != 0)) {
                return fail(e, "bad address offset '%.*s'%s", a.s, a.n, "");
            }
            if (f == 'L') {
                out->imm = v;
            }
            break;
        case 'c':
            r = csr_by_name(t);
            if (r < 0) {
                if (!parse_int(t, false, &v) || v < 0 || v > 0xfff) {
                    return fail(e, "unknown CSR '%.*s'%s", t.s, t.n, "");
                }
                r = (int)v;
            }
            out->csr = (uint16_t)r;
            break;
        case 'f': {
            unsigned set;
            if (!fence_set(t, &set)) {
                return fail(e, "bad fence set '%.*s'%s", t.s, t.n, "");
            }
            out->rm = (uint8_t)(fence_n++ == 0 ? (set << 4) | (out->rm & 15) : (out->rm & 0xf0) | set);
            break;
        }
        default:
            return fail(e, "internal: bad form%.*s%s", "", 0, "");
        }
    }
    return 0;
}

static uint16_t imm_twin(uint16_t op)
{
    switch (op) {
    case EDAN_OP_ADD:
        return EDAN_OP_ADDI;
    case EDAN_OP_ADDW:
        return EDAN_OP_ADDIW;
    case EDAN_OP_AND:
        return EDAN_OP_ANDI;
    case EDAN_OP_OR:
        return EDAN_OP_ORI;
    case EDAN_OP_XOR:
        return EDAN_OP_XORI;
    case EDAN_OP_SLT:
        return EDAN_OP_SLTI;
    case EDAN_OP_SLTU:
        return EDAN_OP_SLTIU;
    case EDAN_OP_SLL:
        return EDAN_OP_SLLI;
    case EDAN_OP_SRL:
        return EDAN_OP_SRLI;
    case EDAN_OP_SRA:
        return EDAN_OP_SRAI;
    case EDAN_OP_SLLW:
        return EDAN_OP_SLLIW;
    case EDAN_OP_SRLW:
        return EDAN_OP_SRLIW;
    case EDAN_OP_SRAW:
        return EDAN_OP_SRAIW;
    default:
        return 0;
    }
}

int edan_rv_parse(const char *text, uint64_t pc, edan_insn *out, char *err, size_t errcap)
{
    perr e = {err, errcap};
    if (err && errcap > 0) {
        err[0] = '\0';
    }
    if (out == NULL) {
        return -1;
    }
    edan_insn_clear(out);
    out->pc = pc;
    out->size = 4;
    if (text == NULL) {
        return fail(&e, "no text%.*s%s", "", 0, "");
    }

    const char *p = text;
    while (is_space(*p)) {
        p++;
    }
    /* The operand text ends at a comment or end of line. */
    const char *end = p;
    while (*end && *end != '#' && *end != '\n') {
        end++;
    }

    /* Mnemonic; skip a leading 4- or 8-digit hex encoding as QEMU prints it. */
    tok mn;
    for (int pass = 0;; pass++) {
        const char *m = p;
        while (p < end && !is_space(*p)) {
            p++;
        }
        mn = (tok){m, (size_t)(p - m)};
        while (p < end && is_space(*p)) {
            p++;
        }
        bool all_hex = mn.n == 4 || mn.n == 8;
        for (size_t i = 0; all_hex && i < mn.n; i++) {
            all_hex = is_hex(mn.s[i]);
        }
        if (pass > 0 || !all_hex || p >= end) {
            break;
        }
    }
    if (mn.n == 0) {
        return fail(&e, "empty instruction%.*s%s", "", 0, "");
    }
    if (mn.n >= MAX_MN) {
        return fail(&e, "unknown mnemonic '%.*s'%s", mn.s, mn.n, "");
    }
    char lower[MAX_MN];
    for (size_t i = 0; i < mn.n; i++) {
        char c = mn.s[i];
        lower[i] = (c >= 'A' && c <= 'Z') ? (char)(c | 0x20) : c;
    }
    size_t mlen = mn.n;
    const parse_entry *pe = edan_rv_parse_lookup(lower, mlen);
    unsigned aqrl = 0;
    if (!pe) {
        /* A-extension ordering suffixes: .aq, .rl, .aqrl */
        static const struct {
            const char *sfx;
            unsigned bits;
        } sfx[4] = {{".aqrl", 3}, {".aq.rl", 3}, {".aq", 2}, {".rl", 1}};
        for (int i = 0; i < 4 && !pe; i++) {
            size_t n = strlen(sfx[i].sfx);
            if (mlen > n && memcmp(lower + mlen - n, sfx[i].sfx, n) == 0) {
                pe = edan_rv_parse_lookup(lower, mlen - n);
                if (pe && !(edan_rv_ops[pe->op].flags & EDAN_RV_AQRL)) {
                    pe = NULL;
                }
                aqrl = sfx[i].bits;
            }
        }
        if (!pe) {
            return fail(&e, "unknown mnemonic '%.*s'%s", mn.s, mn.n, "");
        }
    }

    /* Split operands at commas; a "<symbol>" swallows the rest (it may contain commas). */
    tok ops[MAX_OPS + 1];
    size_t nops = 0;
    if (p < end) {
        const char *s = p;
        for (const char *q = p;; q++) {
            if (q < end && *q == '<') {
                q = end;
            }
            if (q >= end || *q == ',') {
                if (nops > MAX_OPS) {
                    return fail(&e, "too many operands for '%.*s'%s", mn.s, mn.n, "");
                }
                ops[nops++] = trim(s, (size_t)(q - s));
                if (q >= end) {
                    break;
                }
                s = q + 1;
            }
        }
        for (size_t i = 0; i < nops; i++) {
            if (ops[i].n == 0) {
                /* Only "fence ,w" style (QEMU, empty set) legitimately has an empty operand. */
                if (pe->op != EDAN_OP_FENCE) {
                    return fail(&e, "empty operand in '%.*s'%s", text, (size_t)(end - text), "");
                }
            }
        }
    }

    const edan_rv_opinfo *info = &edan_rv_ops[pe->op];
    out->op = pe->op;
    if (pe->flags & P_C) {
        out->size = 2;
    }
    if (info->flags & EDAN_RV_HAS_RM) {
        /* QEMU puts the rounding mode first, GNU last; absent means dynamic. */
        out->rm = 7;
        int rm;
        if (nops > 0 && (rm = rm_name(ops[0])) >= 0) {
            out->rm = (uint8_t)rm;
            memmove(&ops[0], &ops[1], (nops - 1) * sizeof ops[0]);
            nops--;
        } else if (nops > 0 && (rm = rm_name(ops[nops - 1])) >= 0) {
            out->rm = (uint8_t)rm;
            nops--;
        }
    }
    if (info->flags & EDAN_RV_AQRL) {
        out->rm = (uint8_t)aqrl;
    }

    /* GNU objdump's default (alias) output writes e.g. c.addi16sp as "add sp,sp,-192":
     * a register-register op with an immediate last operand means its immediate twin. */
    if (pe->forms[0] == NULL && info->fmt == EDAN_FMT_R && !(info->flags & EDAN_RV_FRD) && nops == 3 &&
        xreg(ops[2]) < 0) {
        uint16_t twin = imm_twin(pe->op);
        if (twin) {
            out->op = twin;
            info = &edan_rv_ops[twin];
        }
    }

    /* Candidate forms with the right operand count; the first that applies wins. */
    const char *cands[6];
    size_t n_cands = 0;
    if (pe->forms[0] == NULL) {
        if (form_len(info->form) == nops) {
            cands[n_cands++] = info->form;
        }
    } else {
        for (size_t i = 0; i < 6 && pe->forms[i]; i++) {
            if (form_len(pe->forms[i]) == nops) {
                cands[n_cands++] = pe->forms[i];
            }
        }
    }
    if (n_cands == 0) {
        char n[8];
        snprintf(n, sizeof n, "%u", (unsigned)nops);
        return fail(&e, "wrong number of operands for '%.*s' (got %s)", mn.s, mn.n, n);
    }

    /* Likewise "csrs fflags,16" (GNU alias output) is csrrsi. */
    const char *form = cands[0];
    char csr_form[8];
    size_t flen = form_len(form);
    if (out->op >= EDAN_OP_CSRRW && out->op <= EDAN_OP_CSRRC && flen > 0 && flen < sizeof csr_form &&
        form[flen - 1] == 's' && xreg(ops[flen - 1]) < 0) {
        memcpy(csr_form, form, flen - 1);
        csr_form[flen - 1] = 'z';
        csr_form[flen] = '\0';
        form = csr_form;
        out->op = (uint16_t)(out->op + (EDAN_OP_CSRRWI - EDAN_OP_CSRRW));
    }

    if (pe->rd >= 0) {
        out->rd = (uint8_t)pe->rd;
    }
    if (pe->rs1 >= 0) {
        out->rs1 = (uint8_t)pe->rs1;
    }
    if (pe->rs2 >= 0) {
        out->rs2 = (uint8_t)pe->rs2;
    }
    if (pe->flags & P_IMM) {
        out->imm = pe->imm;
    }
    if (pe->csr) {
        out->csr = pe->csr;
    }
    if ((pe->flags & P_FENCE) && nops == 0) {
        out->rm = 0xff;
    }
    if (pe->flags & P_TSO) {
        out->rm = 0x33;
    }
    if (pe->flags & P_PAUSE) {
        out->rm = 0x10;
    }
    cands[0] = form;
    if (n_cands > 1) {
        /* Try the alternatives in order; report the first one's error if none fits. */
        edan_insn base = *out;
        perr quiet = {NULL, 0};
        for (size_t i = 0; i < n_cands; i++) {
            if (apply_form(cands[i], ops, pe, pc, out, &quiet) == 0) {
                goto applied;
            }
            *out = base;
        }
    }
    if (apply_form(form, ops, pe, pc, out, &e) != 0) {
        return -1;
    }
applied:
    if (pe->flags & P_TIE) {
        out->rs2 = out->rs1;
    }
    edan_rv_finish(out);
    return 0;
}
