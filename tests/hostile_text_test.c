/*
 * hostile_text_test.c - a text trace cut short never reads as complete
 * (issue 20, item 7). A trace edan wrote (header, records, end line) is
 * cut at every line boundary and at every byte: each cut is an error naming
 * the file and the line; the whole trace reads back with no warning; the
 * same records without edan's lines (the original EDAN tool's format) read
 * back with a warning naming the file. Joined, edited and foreign end lines
 * are errors; a writer killed before it closes leaves no end line.
 *
 * usage: hostile_text_test GOLDEN_DIR (tests/golden: summation.txt, a trace
 * in the original tracer's layout). Prints "N passed, N failed".
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "trace/trace_file.h"
#include "trace/trace_text.h"
#include "util/files.h"

static char dir[64];

static char *path_in(const char *name)
{
    static char p[8][256];
    static int k;
    char *s = p[k++ % 8];
    snprintf(s, sizeof p[0], "%s/%s", dir, name);
    return s;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, k;
    char *b = malloc(cap + 1);
    while (b && (k = fread(b + n, 1, cap - n, f)) > 0)
        if ((n += k) == cap)
            b = realloc(b, (cap *= 2) + 1);
    fclose(f);
    if (b)
        b[n] = '\0';
    *len = n;
    return b;
}

static void spit(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(data, 1, len, f) == len && fclose(f) == 0, "write %s", path);
}

/* What reading a text trace to its end gave. */
typedef struct result {
    long records;
    int rc; /* 0: read to the end; -1: an error */
    uint64_t sum;
    char msg[1024];
    char warning[1024];
} result;

static result read_text(const char *path)
{
    result res = {0};
    edan_error err = {0};
    edan_text_reader *r = edan_text_reader_open(path, &err);
    if (!r) {
        res.rc = -1;
        snprintf(res.msg, sizeof res.msg, "%s", err.msg);
        return res;
    }
    edan_exec buf[64];
    long n;
    while ((n = edan_text_reader_next(r, buf, 64, &err)) > 0) {
        res.records += n;
        for (long i = 0; i < n; i++)
            res.sum = res.sum * 31 + buf[i].addr + buf[i].vcpu + (uint64_t)buf[i].insn->mem + buf[i].flags;
    }
    res.rc = n < 0 ? -1 : 0;
    snprintf(res.msg, sizeof res.msg, "%s", n < 0 ? err.msg : "");
    const char *w = n == 0 ? edan_text_reader_warning(r) : NULL;
    snprintf(res.warning, sizeof res.warning, "%s", w ? w : "");
    edan_text_reader_close(r);
    return res;
}

/* Write the records of trace `from` repeat times with edan's text writer. */
static long rewrite(const char *from, const char *to, bool with_pc, int repeat)
{
    edan_error err = {0};
    edan_trace_source *src = edan_trace_source_open(from, &err);
    edan_files_forget(); /* a new command: the file it read before may be written now */
    edan_text_writer *w = src ? edan_text_writer_open(to, with_pc, &err) : NULL;
    CHECK(src && w, "open %s -> %s: %s", from, to, err.msg);
    if (!w) {
        edan_trace_source_close(src);
        return -1;
    }
    edan_exec recs[256];
    long n = edan_trace_source_next(src, recs, 256, &err);
    CHECK(n > 0 && n < 256, "%s: %ld records: %s", from, n, err.msg);
    for (int i = 0; i < repeat; i++)
        edan_text_writer_consume(w, recs, (size_t)n);
    CHECK(edan_text_writer_close(w, &err) == 0, "close %s: %s", to, err.msg);
    edan_trace_source_close(src);
    return n * repeat;
}

static int lines_in(const char *data, size_t len)
{
    int k = 0;
    for (size_t i = 0; i < len; i++)
        k += data[i] == '\n';
    return k;
}

static void test_cuts(const char *golden)
{
    const char *full = path_in("full.txt"), *cut = path_in("cut.txt"), *orig = path_in("orig.txt");
    long n = rewrite(golden, full, false, 1);
    result want = read_text(golden);
    CHECK(want.rc == 0 && want.records == n && strstr(want.warning, "summation.txt") &&
              strstr(want.warning, "cannot be checked"),
          "the original tracer's file reads with a warning: %ld records, '%s' '%s'", want.records, want.msg,
          want.warning);

    size_t len;
    char *data = slurp(full, &len);
    CHECK(data && strncmp(data, EDAN_TEXT_HEADER "\n", strlen(EDAN_TEXT_HEADER) + 1) == 0, "the header comes first");
    if (!data)
        return;
    char end[64];
    snprintf(end, sizeof end, EDAN_TEXT_END_PREFIX "%ld" EDAN_TEXT_END_SUFFIX "\n", n);
    CHECK(len > strlen(end) && strcmp(data + len - strlen(end), end) == 0, "the end line comes last: '%s'", end);
    CHECK(!strchr(EDAN_TEXT_HEADER, ';') && !strchr(end, ';'),
          "edan's lines hold no ';' (the original tool skips every line without one)");
    result got = read_text(full);
    CHECK(got.rc == 0 && got.records == n && got.sum == want.sum && !got.warning[0],
          "the whole trace: %ld of %ld records, '%s', warning '%s'", got.records, n, got.msg, got.warning);

    /* every cut: at a line boundary the file and the last line are named; inside a line, too */
    const int lines = lines_in(data, len);
    int line_cuts = 0, byte_cuts = 0;
    for (size_t at = 1; at < len; at++) {
        spit(cut, data, at);
        result r = read_text(cut);
        const int kept = lines_in(data, at) + (data[at - 1] != '\n');
        char where[300];
        snprintf(where, sizeof where, "%s:%d: ", cut, kept);
        const bool named = r.rc < 0 && strncmp(r.msg, where, strlen(where)) == 0;
        if (data[at - 1] == '\n') {
            line_cuts++;
            CHECK(named && strstr(r.msg, "cut off after") && !r.warning[0],
                  "cut after line %d of %d: rc %d, %ld records, '%s'", kept, lines, r.rc, r.records, r.msg);
        } else {
            byte_cuts++;
            CHECK(named, "cut at byte %zu of %zu: rc %d, '%s'", at, len, r.rc, r.msg);
        }
    }
    CHECK(line_cuts == lines - 1 && byte_cuts > 0, "%d line cuts, %d byte cuts", line_cuts, byte_cuts);

    /* the same records without edan's lines: the original tool's format, read whole, with a warning */
    char *o = malloc(len + 1);
    size_t ol = 0;
    for (const char *p = data; p < data + len;) {
        const char *nl = memchr(p, '\n', (size_t)(data + len - p));
        size_t k = (size_t)(nl - p) + 1;
        if (*p != '#') {
            memcpy(o + ol, p, k);
            ol += k;
        }
        p += k;
    }
    spit(orig, o, ol);
    got = read_text(orig);
    CHECK(got.rc == 0 && got.records == n && got.sum == want.sum && strstr(got.warning, orig) &&
              strstr(got.warning, "cannot be checked"),
          "original format: %ld records, '%s', warning '%s'", got.records, got.msg, got.warning);

    /* end lines and headers out of place */
    struct {
        const char *what, *text, *expect; /* expect NULL: read whole, without a warning */
    } cases[] = {
        {"wrong count", EDAN_TEXT_HEADER "\n0;addi a0,a0,1\n" EDAN_TEXT_END_PREFIX "2" EDAN_TEXT_END_SUFFIX "\n",
         ":3: the end line counts 2 instructions, but the trace has 1"},
        {"a count past 2^64",
         EDAN_TEXT_HEADER "\n" EDAN_TEXT_END_PREFIX "99999999999999999999" EDAN_TEXT_END_SUFFIX "\n",
         ":2: malformed end line"},
        {"no count", EDAN_TEXT_HEADER "\n" EDAN_TEXT_END_PREFIX EDAN_TEXT_END_SUFFIX "\n", ":2: malformed end line"},
        {"joined",
         EDAN_TEXT_HEADER "\n0;addi a0,a0,1\n" EDAN_TEXT_END_PREFIX "1" EDAN_TEXT_END_SUFFIX "\n" EDAN_TEXT_HEADER
                          "\n0;addi a0,a0,1\n" EDAN_TEXT_END_PREFIX "1" EDAN_TEXT_END_SUFFIX "\n",
         ":4: edan's header line after the start"},
        {"a record after the end",
         EDAN_TEXT_HEADER "\n" EDAN_TEXT_END_PREFIX "0" EDAN_TEXT_END_SUFFIX "\n0;addi a0,a0,1\n",
         ":3: an instruction after the end line (line 2"},
        {"two end lines",
         EDAN_TEXT_HEADER "\n" EDAN_TEXT_END_PREFIX "0" EDAN_TEXT_END_SUFFIX "\n" EDAN_TEXT_END_PREFIX
                          "0" EDAN_TEXT_END_SUFFIX "\n",
         ":3: a second end line"},
        {"a header after records", "0;addi a0,a0,1\n" EDAN_TEXT_HEADER "\n", ":2: edan's header line after the start"},
        {"a later version", EDAN_TEXT_HEADER_PREFIX " 2\n0;addi a0,a0,1\n",
         ":1: '# edan text trace 2' is not a header"},
        {"only the header", EDAN_TEXT_HEADER "\n", ":1: the trace ends here without the end line"},
        {"a comment before the header, cut", "# made by hand\n" EDAN_TEXT_HEADER "\n0;addi a0,a0,1\n",
         ":3: the trace ends here without the end line"},
        {"empty and whole", EDAN_TEXT_HEADER "\n" EDAN_TEXT_END_PREFIX "0" EDAN_TEXT_END_SUFFIX "\n",
         ":2: no instruction in the trace"},
        {"only comments (issue 35)", "# a comment\n\n   # another\n", ":3: no instruction in the trace"},
        {"blanks, CRs and comments after the end",
         EDAN_TEXT_HEADER "\r\n0;addi a0,a0,1\r\n" EDAN_TEXT_END_PREFIX "1" EDAN_TEXT_END_SUFFIX " \r\n\n# note\n",
         NULL},
        {"an end line without the header, right", "0;addi a0,a0,1\n" EDAN_TEXT_END_PREFIX "1" EDAN_TEXT_END_SUFFIX "\n",
         NULL},
        {"an end line without the header, wrong", "0;addi a0,a0,1\n" EDAN_TEXT_END_PREFIX "3" EDAN_TEXT_END_SUFFIX "\n",
         ":2: the end line counts 3"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        spit(cut, cases[i].text, strlen(cases[i].text));
        result r = read_text(cut);
        if (cases[i].expect)
            CHECK(r.rc < 0 && strstr(r.msg, cases[i].expect) && !strncmp(r.msg, cut, strlen(cut)),
                  "%s: rc %d, '%s' (expected '%s')", cases[i].what, r.rc, r.msg, cases[i].expect);
        else
            CHECK(r.rc == 0 && !r.warning[0], "%s: rc %d, '%s', warning '%s'", cases[i].what, r.rc, r.msg, r.warning);
    }
    free(o);
    free(data);
    unlink(full);
    unlink(cut);
    unlink(orig);
}

/* Every way the writer closes writes the end line: with the pc, and with no record at all. */
static void test_writers(const char *golden)
{
    const char *pc = path_in("pc.txt"), *none = path_in("none.txt");
    long n = rewrite(golden, pc, true, 3);
    result r = read_text(pc);
    CHECK(r.rc == 0 && r.records == n && !r.warning[0], "with the pc: %ld of %ld, '%s'", r.records, n, r.msg);
    edan_error err = {0};
    edan_files_forget(); /* a new command: the file it read before may be written now */
    edan_text_writer *w = edan_text_writer_open(none, false, &err);
    CHECK(w && edan_text_writer_close(w, &err) == 0, "no records: %s", err.msg);
    size_t len;
    char *data = slurp(none, &len);
    CHECK(data && !strcmp(data, EDAN_TEXT_HEADER "\n" EDAN_TEXT_END_PREFIX "0" EDAN_TEXT_END_SUFFIX "\n"),
          "no records: '%s'", data ? data : "");
    free(data);
    unlink(pc);
    unlink(none);
}

/*
 * A writer killed before it closes (kill -9, or edan stopping QEMU) leaves
 * what it flushed, whole lines, and no end line: the reader says where it
 * was cut. The same writer closed leaves a whole trace.
 */
static void test_killed_writer(const char *golden)
{
    for (int closed = 0; closed <= 1; closed++) {
        const char *out = path_in("killed.txt");
        pid_t pid = fork();
        if (pid == 0) {
            /* written to standard output, so the file is the one the writer writes, not renamed at close */
            FILE *f = freopen(out, "wb", stdout);
            edan_error err = {0};
            edan_trace_source *src = f ? edan_trace_source_open(golden, &err) : NULL;
            edan_text_writer *w = src ? edan_text_writer_open("-", false, &err) : NULL;
            edan_exec recs[256];
            long n = w ? edan_trace_source_next(src, recs, 256, &err) : -1;
            if (n <= 0)
                _exit(3);
            for (int i = 0; i < 20000; i++) /* several times the writer's buffer */
                edan_text_writer_consume(w, recs, (size_t)n);
            if (closed)
                _exit(edan_text_writer_close(w, &err) ? 4 : 0);
            raise(SIGKILL);
            _exit(5);
        }
        int ws = 0;
        waitpid(pid, &ws, 0);
        CHECK(closed ? WIFEXITED(ws) && WEXITSTATUS(ws) == 0 : WIFSIGNALED(ws) && WTERMSIG(ws) == SIGKILL,
              "the writer %s: status %d", closed ? "closed" : "killed", ws);
        size_t len;
        char *data = slurp(out, &len);
        result r = read_text(out);
        if (closed)
            CHECK(r.rc == 0 && r.records > 0 && !r.warning[0], "closed: %ld records, '%s'", r.records, r.msg);
        else
            CHECK(data && len > (1u << 20) && data[len - 1] == '\n' && r.rc < 0 && strstr(r.msg, "cut off after") &&
                      r.records > 0,
                  "killed after %zu bytes: %ld records, '%s'", len, r.records, r.msg);
        free(data);
        unlink(out);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: hostile_text_test GOLDEN_DIR\n");
        return 2;
    }
    snprintf(dir, sizeof dir, "/tmp/edan-hostile-text-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    char golden[4096];
    snprintf(golden, sizeof golden, "%s/summation.txt", argv[1]);
    test_cuts(golden);
    test_writers(golden);
    test_killed_writer(golden);
    rmdir(dir);
    return check_summary();
}
