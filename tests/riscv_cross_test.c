/*
 * riscv_cross_test.c - the encoding sweeps (every legal encoding of each
 * format decodes, disassembles and parses back to the same instruction) and
 * the cross-check of edan's disassembly against GNU objdump on programs
 * compiled for the test.
 */
#define _POSIX_C_SOURCE 200809L

#include "isa/riscv.h"
#include "isa/riscv_ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "riscv_test.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
    /* xorshift64*: deterministic so failures reproduce. */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}

static void sweep_report(const char *name, unsigned long legal, unsigned long bad, const char *first)
{
    char msg[1024];
    snprintf(msg, sizeof msg, "%s: %lu legal encodings round-tripped, %lu mismatches%s%s", name, legal, bad,
             bad ? "; first: " : "", bad ? first : "");
    check(bad == 0 && legal > 0, msg);
    printf("  %s: %lu legal encodings, %lu round-trip mismatches\n", name, legal, bad);
}

static void rt_one(uint32_t raw, unsigned long *legal, unsigned long *bad, char *first, size_t fcap)
{
    uint8_t b[4] = {(uint8_t)raw, (uint8_t)(raw >> 8), (uint8_t)(raw >> 16), (uint8_t)(raw >> 24)};
    edan_insn d;
    char text[128], err[128];
    if (edan_rv_decode(b, 4, 0x1000, &d) != EDAN_DECODE_OK) {
        return;
    }
    (*legal)++;
    const char *diff = round_trip(&d, text, sizeof text, err, sizeof err);
    if (diff) {
        if (*bad < 8) {
            printf("    rt mismatch %08x \"%s\": %s %s\n", (unsigned)raw, text, diff, err);
        }
        if ((*bad)++ == 0) {
            snprintf(first, fcap, "%08x \"%s\": %s %s", (unsigned)raw, text, diff, err);
        }
    }
}

void test_sweeps(void)
{
    char first[300] = "";
    unsigned long legal = 0, bad = 0;
    for (uint32_t h = 0; h < 0x10000; h++) {
        if ((h & 3) != 3) {
            rt_one(h, &legal, &bad, first, sizeof first);
        }
    }
    sweep_report("all 16-bit encodings", legal, bad, first);

    /* Random 32-bit words, biased to valid major opcodes so most of them decode. */
    static const uint8_t majors[] = {0x03, 0x07, 0x0f, 0x13, 0x17, 0x1b, 0x23, 0x27, 0x2f, 0x33, 0x37,
                                     0x3b, 0x43, 0x47, 0x4b, 0x4f, 0x53, 0x63, 0x67, 0x6f, 0x73};
    legal = bad = 0;
    first[0] = '\0';
    for (unsigned long i = 0; i < 3000000; i++) {
        uint32_t w = (uint32_t)rng();
        w = (w & ~0x7fu) | majors[(w >> 7) % sizeof majors];
        if (i % 4 == 0) {
            w = (w & 0xfffff07fu) | ((uint32_t)(rng() % 3) << 12); /* favour funct3 0..2 */
        }
        rt_one(w, &legal, &bad, first, sizeof first);
    }
    sweep_report("3M random 32-bit encodings", legal, bad, first);

    /* Parser fuzz: arbitrary bytes and mutated valid lines must never crash. */
    static const char *const seeds[] = {"lw a4,0(a5)",
                                        "beq a5,s2,1047c <abort+0x44>",
                                        "fadd.d dyn,fa0,fa1,fa2",
                                        "amoswap.w.aq a0,a1,(a2)",
                                        "csrrw a0,fflags,a1",
                                        "c.addi16sp sp,-16",
                                        "fence iorw,ow",
                                        "jalr ra,0(a5)"};
    static const char alphabet[] = "abcdefstxz0123456789(),.<>#- \t\xff";
    unsigned long ok = 0;
    for (unsigned long i = 0; i < 300000; i++) {
        char buf[64];
        size_t n;
        if (i & 1) {
            n = rng() % (sizeof buf - 1);
            for (size_t k = 0; k < n; k++) {
                uint64_t r = rng();
                buf[k] = (r & 8) ? (char)(1 + r % 255) : alphabet[(r >> 8) % (sizeof alphabet - 1)];
            }
        } else {
            const char *s = seeds[rng() % (sizeof seeds / sizeof seeds[0])];
            n = strlen(s);
            memcpy(buf, s, n);
            for (int m = 0; m < 3; m++) {
                size_t pos = (size_t)(rng() % n);
                buf[pos] = alphabet[rng() % (sizeof alphabet - 1)];
            }
        }
        buf[n] = '\0';
        edan_insn p;
        char err[64];
        if (edan_rv_parse(buf, 0, &p, err, sizeof err) == 0) {
            ok++;
        }
    }
    printf("  parser fuzz: 300000 inputs, %lu parsed\n", ok);
    check(true, "parser fuzz survived");
}

/* ---- 4. objdump cross-check ---- */

static const char *const prog_fp_int =
    "#include <stdio.h>\n"
    "#include <stdlib.h>\n"
    "#include <math.h>\n"
    "#include <string.h>\n"
    "#include <setjmp.h>\n"
    "struct big { long a[9]; short s; signed char c; };\n"
    "static jmp_buf jb;\n"
    "__attribute__((noinline)) double dd(double a, double b, double c) {\n"
    "  return fma(a, b, c) - a * b / (c + 1.0) + sqrt(fabs(a)) + fmin(a, b) + fmax(b, c) + copysign(a, -b);\n"
    "}\n"
    "__attribute__((noinline)) float ff(float a, float b, float c) {\n"
    "  return fmaf(a, b, -c) + a / b - sqrtf(fabsf(c)) + fminf(a, c) - (float)(long)a + (float)(unsigned)b;\n"
    "}\n"
    "__attribute__((noinline)) long divs(long a, long b, int c, int d, unsigned long e, unsigned f) {\n"
    "  return a / b + a % b + c / d + c % d + (long)(e / (unsigned long)b) + (long)(e % 7u) + f / (unsigned)d\n"
    "       + f % (unsigned)c + (a * b) + (long)((__int128)a * b >> 64) + (long)((unsigned __int128)e * e >> 64)\n"
    "       + (c * d) + (a >> (c & 63)) + (long)(e >> (d & 63)) + (c << (d & 31)) + (int)((unsigned)c >> 3);\n"
    "}\n"
    "__attribute__((noinline)) int classify(double x, float y) {\n"
    "  return isnan(x) + isinf(y) * 2 + (x < y) + (x <= 2.0) + (y == 1.0f) + (int)x + (unsigned)y\n"
    "       + (long)y + (int)(unsigned long)x + signbit(x);\n"
    "}\n"
    "__attribute__((noinline)) int sw(int k, struct big *b) {\n"
    "  switch (k) { case 0: return b->a[1]; case 1: return b->s; case 2: return b->c; case 3: return 7;\n"
    "  case 4: return b->a[8] * 3; case 5: return -b->a[2]; case 6: return ~b->a[3]; default: return k; }\n"
    "}\n"
    "static int (*fp)(int, struct big *) = sw;\n"
    "int main(int argc, char **argv) {\n"
    "  struct big b; memset(&b, argc, sizeof b); b.s = (short)argc; b.c = (signed char)-argc;\n"
    "  double s = 0; float t = 1.5f; long acc = 0;\n"
    "  for (int i = 1; i < 20 + argc; i++) {\n"
    "    s += dd(i, 0.5, s / i); t = ff(t, (float)i, 3.0f);\n"
    "    acc += divs(i * 1000L, i + 1, i, 3, (unsigned long)i * 99, (unsigned)i + 5) + fp(i % 8, &b);\n"
    "    acc += classify(s, t);\n"
    "  }\n"
    "  if (setjmp(jb) == 0 && argc > 5) longjmp(jb, 1);\n"
    "  char *m = malloc(100); snprintf(m, 100, \"%f %f %ld %s\", s, (double)t, acc, argv[0]);\n"
    "  puts(m); free(m); return (int)(acc & 1);\n"
    "}\n";

static const char *const prog_atomic =
    "#include <stdio.h>\n"
    "#include <fenv.h>\n"
    "#include <stdint.h>\n"
    "static long g64; static int g32; static short g16; static unsigned char g8;\n"
    "__attribute__((noinline)) long atom(long v) {\n"
    "  long r = __atomic_fetch_add(&g64, v, __ATOMIC_RELAXED);\n"
    "  r += __atomic_fetch_sub(&g32, (int)v, __ATOMIC_ACQUIRE);\n"
    "  r += __atomic_fetch_and(&g64, v, __ATOMIC_RELEASE);\n"
    "  r += __atomic_fetch_or(&g32, (int)v, __ATOMIC_ACQ_REL);\n"
    "  r += __atomic_fetch_xor(&g64, v, __ATOMIC_SEQ_CST);\n"
    "  r += __atomic_exchange_n(&g32, (int)v, __ATOMIC_SEQ_CST);\n"
    "  long e = 5; __atomic_compare_exchange_n(&g64, &e, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);\n"
    "  int e2 = 3; __atomic_compare_exchange_n(&g32, &e2, 9, 1, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE);\n"
    "  r += __atomic_fetch_add(&g16, 1, __ATOMIC_SEQ_CST) + __atomic_exchange_n(&g8, 3, __ATOMIC_SEQ_CST);\n"
    "  r += __atomic_load_n(&g64, __ATOMIC_SEQ_CST); __atomic_store_n(&g32, 4, __ATOMIC_SEQ_CST);\n"
    "  __atomic_thread_fence(__ATOMIC_SEQ_CST); __sync_synchronize();\n"
    "  return r;\n"
    "}\n"
    "/* Never executed: rare encodings for coverage of the decoder and parser. */\n"
    "__attribute__((noinline)) void rare(void) {\n"
    "  __asm__ volatile(\n"
    "    \"amomin.w a0,a1,(a2)\\n amomax.w.aqrl a0,a1,(a2)\\n amominu.d.rl a0,a1,(a2)\\n\"\n"
    "    \"amomaxu.d a0,a1,(a2)\\n amoxor.d a0,a1,(a2)\\n amoand.w a0,a1,(a2)\\n amoor.d.aq a0,a1,(a2)\\n\"\n"
    "    \"amomin.d a0,a1,(a2)\\n amomax.d a0,a1,(a2)\\n amominu.w a0,a1,(a2)\\n amomaxu.w a0,a1,(a2)\\n\"\n"
    "    \"lr.d.aqrl a0,(a2)\\n sc.w.rl a0,a1,(a2)\\n\"\n"
    "    \"fnmadd.d fa0,fa1,fa2,fa3\\n fnmsub.s fa0,fa1,fa2,fa3,rtz\\n fmsub.d fa0,fa1,fa2,fa3,rne\\n\"\n"
    "    \"fnmadd.s fa0,fa1,fa2,fa3\\n fnmsub.d ft0,ft1,ft2,ft11\\n fmadd.s fs0,fs1,fs2,fs11\\n\"\n"
    "    \"fclass.d a0,fa1\\n fclass.s a0,fa1\\n fmv.x.w a0,fa1\\n fmv.w.x fa0,a1\\n fcvt.w.s a0,fa1,rtz\\n\"\n"
    "    \"fcvt.wu.d a0,fa1,rup\\n fcvt.l.s a0,fa1\\n fcvt.lu.d a0,fa1,rmm\\n fcvt.s.wu fa0,a1\\n\"\n"
    "    \"fcvt.d.lu fa0,a1\\n fcvt.s.d fa0,fa1\\n fcvt.d.w fa0,a1\\n fcvt.d.wu fa0,a1\\n fcvt.s.lu fa0,a1\\n\"\n"
    "    \"fcvt.wu.s a0,fa1\\n fcvt.lu.s a0,fa1\\n fcvt.l.d a0,fa1\\n fcvt.w.d a0,fa1\\n fcvt.s.w fa0,a1\\n\"\n"
    "    \"fmin.s fa0,fa1,fa2\\n fmax.d fa0,fa1,fa2\\n fmax.s fa0,fa1,fa2\\n fmin.d fa0,fa1,fa2\\n\"\n"
    "    \"fsgnjn.s fa0,fa1,fa1\\n fsgnj.s fa0,fa1,fa2\\n fsgnjx.s fa0,fa1,fa1\\n fsgnjn.d fa0,fa1,fa1\\n\"\n"
    "    \"fsgnjn.d fa0,fa1,fa2\\n fsgnjx.s fa0,fa1,fa2\\n fsgnj.d fa0,fa1,fa1\\n fsgnj.s fa0,fa1,fa1\\n\"\n"
    "    \"fle.s a0,fa1,fa2\\n feq.s a0,fa1,fa2\\n flt.s a0,fa1,fa2\\n fle.d a0,fa1,fa2\\n\"\n"
    "    \"fsqrt.s fa0,fa1\\n fmul.s fa0,fa1,fa2,rdn\\n fsub.d fa0,fa1,fa2\\n fsub.s fa0,fa1,fa2\\n\"\n"
    "    \"fadd.s fa0,fa1,fa2\\n fdiv.d fa0,fa1,fa2,rmm\\n flw ft3,-4(sp)\\n fsw ft3,-4(sp)\\n\"\n"
    "    \"csrrw a0,fcsr,a1\\n csrrc a0,frm,a1\\n csrrwi a0,frm,3\\n csrrci zero,fflags,1\\n\"\n"
    "    \"csrrs a0,cycle,zero\\n csrrs a0,time,zero\\n csrrs a0,instret,zero\\n csrrs a0,0x7c0,zero\\n\"\n"
    "    \"csrrw zero,fcsr,a1\\n csrrw zero,frm,a1\\n csrrs a0,fcsr,zero\\n csrrs a0,frm,a1\\n\"\n"
    "    \"csrrwi zero,fflags,0\\n csrrsi a0,frm,2\\n csrrc zero,fflags,a2\\n\"\n"
    "    \"fence.i\\n fence r,w\\n fence.tso\\n fence w,r\\n ebreak\\n\"\n"
    "    \"mulh a0,a1,a2\\n mulhsu a0,a1,a2\\n mulw a0,a1,a2\\n divuw a0,a1,a2\\n sraw a0,a1,a2\\n\"\n"
    "    \"slt a0,a1,a2\\n sltu a0,a1,zero\\n slt a0,zero,a1\\n slt a0,a1,zero\\n sltiu a0,a1,1\\n\"\n"
    "    \"xori a0,a1,-1\\n sub a0,zero,a1\\n subw a0,zero,a1\\n addi zero,zero,0\\n addi a0,zero,-7\\n\"\n"
    "    \"addiw a0,a1,0\\n lb a0,-1(a1)\\n lh a0,-2(a1)\\n lwu a0,4(a1)\\n lhu a0,6(a1)\\n sh a0,2(a1)\\n\"\n"
    "    \"jalr t0,0(a1)\\n jalr zero,0(t0)\\n jalr zero,8(ra)\\n jalr a0,4(a1)\\n jalr ra,-8(t1)\\n\"\n"
    "    \"jal t0,1f\\n 1: beq a0,zero,1b\\n bge zero,a0,1b\\n blt zero,a0,1b\\n bge a0,zero,1b\\n\"\n"
    "    \"blt a0,zero,1b\\n bne zero,a1,1b\\n bltu a0,a1,1b\\n bgeu a1,a0,1b\\n jal zero,1b\\n jal a3,1b\\n\"\n"
    "    \"c.nop\\n c.addi4spn a0,sp,16\\n c.lui a0,0xfffff\\n c.lui a1,1\\n c.fld fa0,8(a1)\\n\"\n"
    "    \"c.fsd fa0,8(a1)\\n c.fldsp fa0,8(sp)\\n c.fsdsp fa0,8(sp)\\n c.lw a0,4(a1)\\n c.sw a0,4(a1)\\n\"\n"
    "    \"c.lwsp a0,4(sp)\\n c.swsp a0,4(sp)\\n c.srai a0,3\\n c.subw a0,a1\\n c.addw a0,a1\\n\"\n"
    "    \"c.ebreak\\n c.addiw a0,-1\\n c.li a0,-32\\n c.andi a0,31\\n c.slli a0,63\\n c.srli a0,1\\n\"\n"
    "    \"c.addi16sp sp,496\\n c.beqz a0,1b\\n c.bnez a5,1b\\n c.j 1b\\n c.jr t0\\n c.jalr t1\\n\"\n"
    "    ::: \"memory\");\n"
    "}\n"
    "int main(int argc, char **argv) {\n"
    "  feclearexcept(FE_ALL_EXCEPT); int rm = fegetround(); fesetround(FE_TOWARDZERO);\n"
    "  volatile double x = argc / 3.0; int ex = fetestexcept(FE_INEXACT); fesetround(rm);\n"
    "  if (argc > 100) rare();\n"
    "  long r = atom(argc); printf(\"%ld %d %d %f %s\\n\", r, ex, rm, (double)x, argv[0]);\n"
    "  return 0;\n"
    "}\n";

typedef struct xstats {
    unsigned long checked;  /* objdump instructions compared */
    unsigned long mismatch; /* decode vs objdump-text mismatches */
    unsigned long rt_bad;   /* round-trip failures */
    unsigned long skipped;  /* non-instruction lines (.word, (bad)) */
} xstats;

static bool write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        return false;
    }
    bool ok = fputs(text, f) >= 0;
    return (fclose(f) == 0) && ok;
}

/* One objdump line: "   10438:\t7131                \tc.addi16sp\tsp,-192". */
static void cross_line(char *line, bool aliases, xstats *st)
{
    char *tab1 = strchr(line, '\t');
    if (!tab1 || tab1 == line || tab1[-1] != ':') {
        return;
    }
    char *tab2 = strchr(tab1 + 1, '\t');
    if (!tab2) {
        return;
    }
    uint64_t pc = strtoull(line, NULL, 16);
    /* Encoding: objdump prints the instruction as one little-endian number. */
    char hex[16];
    size_t hn = 0;
    for (char *q = tab1 + 1; q < tab2 && hn < sizeof hex - 1; q++) {
        if (*q != ' ') {
            hex[hn++] = *q;
        }
    }
    hex[hn] = '\0';
    char *text = tab2 + 1;
    text[strcspn(text, "\n")] = '\0';
    /* Turn objdump's mnemonic/operand tab into a space (the parser takes either). */
    if (hn != 4 && hn != 8) {
        st->skipped++;
        return;
    }
    if (strncmp(text, ".insn", 5) == 0 || strncmp(text, ".word", 5) == 0 || strncmp(text, ".short", 6) == 0 ||
        strncmp(text, "(bad)", 5) == 0 || strncmp(text, "unimp", 5) == 0 || strncmp(text, "c.unimp", 7) == 0) {
        st->skipped++;
        return;
    }
    uint32_t raw = (uint32_t)strtoul(hex, NULL, 16);
    uint8_t b[4] = {(uint8_t)raw, (uint8_t)(raw >> 8), (uint8_t)(raw >> 16), (uint8_t)(raw >> 24)};
    edan_insn d, p;
    char err[128], mine[128];
    st->checked++;
    edan_decode_status ds = edan_rv_decode(b, hn / 2, pc, &d);
    int pr = edan_rv_parse(text, pc, &p, err, sizeof err);
    if (aliases) {
        /* GNU's alias output drops the c. prefix, so the text cannot tell the size. */
        p.size = d.size;
    }
    const char *diff = ds != EDAN_DECODE_OK ? "decode failed" : pr != 0 ? err : sem_diff(&d, &p, true);
    if (diff) {
        if (st->mismatch++ < 25) {
            edan_rv_disas(&d, mine, sizeof mine);
            printf("  mismatch at %llx [%s]: objdump \"%s\" vs decoded \"%s\": %s\n", (unsigned long long)pc, hex, text,
                   mine, diff);
        }
        return;
    }
    const char *rt = round_trip(&d, mine, sizeof mine, err, sizeof err);
    if (rt && st->rt_bad++ < 25) {
        printf("  round trip at %llx [%s] \"%s\" -> \"%s\": %s %s\n", (unsigned long long)pc, hex, text, mine, rt,
               rt[0] == 'p' ? err : "");
    }
}

void test_cross(const char *gcc, const char *objdump)
{
    char cmd[1024], msg[1024];
    snprintf(cmd, sizeof cmd, "%s --version >/dev/null 2>&1 && %s --version >/dev/null 2>&1", gcc, objdump);
    if (system(cmd) != 0) {
        printf("SKIP: cross tools '%s' / '%s' not found; objdump cross-check not run\n", gcc, objdump);
        check(false, "objdump cross-check skipped: cross tools missing");
        return;
    }
    char dir[] = "/tmp/edan_rvtest.XXXXXX";
    if (!mkdtemp(dir)) {
        check(false, "mkdtemp");
        return;
    }
    static const struct {
        const char *name;
        const char *const *src;
        const char *flags;
        const char *dflags; /* objdump: raw mnemonics, or GNU's default alias output */
    } progs[] = {
        {"fpint", &prog_fp_int, "-O2", "-M no-aliases"},
        {"atomic", &prog_atomic, "-O2", "-M no-aliases"},
        {"fpint_o0", &prog_fp_int, "-O0 -fno-inline", "-M no-aliases"},
        {"atomic_aliases", &prog_atomic, "-O2", ""},
    };
    unsigned long total = 0;
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++) {
        char src[256], bin[256];
        snprintf(src, sizeof src, "%s/%s.c", dir, progs[i].name);
        snprintf(bin, sizeof bin, "%s/%s", dir, progs[i].name);
        if (!write_file(src, *progs[i].src)) {
            check(false, "write test source");
            continue;
        }
        snprintf(cmd, sizeof cmd, "%s %s -static -o %s %s -lm -latomic 2>&1", gcc, progs[i].flags, bin, src);
        if (system(cmd) != 0) {
            snprintf(msg, sizeof msg, "cross-compile %s", progs[i].name);
            check(false, msg);
            unlink(src);
            continue;
        }
        snprintf(cmd, sizeof cmd, "%s -d %s -j .text %s", objdump, progs[i].dflags, bin);
        FILE *f = popen(cmd, "r");
        if (!f) {
            check(false, "popen objdump");
            continue;
        }
        xstats st = {0, 0, 0, 0};
        char line[1024];
        while (fgets(line, sizeof line, f)) {
            cross_line(line, progs[i].dflags[0] == '\0', &st);
        }
        int rc = pclose(f);
        total += st.checked;
        printf("  %s: %lu objdump instructions cross-checked, %lu mismatches, %lu round-trip failures, "
               "%lu non-instruction lines skipped\n",
               progs[i].name, st.checked, st.mismatch, st.rt_bad, st.skipped);
        snprintf(msg, sizeof msg, "objdump cross-check %s (%lu insns, %lu mismatches)", progs[i].name, st.checked,
                 st.mismatch);
        check(rc == 0 && st.checked > 1000 && st.mismatch == 0, msg);
        snprintf(msg, sizeof msg, "disas/parse round trip %s (%lu failures)", progs[i].name, st.rt_bad);
        check(rc == 0 && st.rt_bad == 0, msg);
        unlink(bin);
        unlink(src);
    }
    rmdir(dir);
    printf("  total objdump instructions cross-checked: %lu\n", total);
}
