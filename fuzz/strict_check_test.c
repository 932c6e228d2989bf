/*
 * strict_check_test.c - the validators of fuzz_outputs (strict_check.h)
 * accept valid JSON and CSV and refuse each kind of invalid text they are
 * there to catch, so that a fuzzing run without a report means something.
 * Prints "N passed, N failed".
 */
#include <stdio.h>
#include <string.h>

#include "strict_check.h"

static int passed, failed;

static void expect(int (*check)(const char *, size_t, char *, size_t), const char *kind, const char *text, size_t n,
                   int want)
{
    char why[256] = "";
    int got = check(text, n, why, sizeof why);
    if (got == want) {
        passed++;
        return;
    }
    failed++;
    fprintf(stderr, "FAILED: %s %s accepted as %s: ", kind, want ? "invalid" : "valid", got ? "invalid" : "valid");
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, (unsigned char)text[i] >= 0x20 && (unsigned char)text[i] < 0x7f ? "%c" : "\\x%02x",
                (unsigned char)text[i]);
    fprintf(stderr, " (%s)\n", why);
}

#define JSON(text, want) expect(strict_json, "JSON", text, sizeof text - 1, want)
#define CSV(text, want) expect(strict_csv, "CSV", text, sizeof text - 1, want)

int main(void)
{
    /* JSON that must pass */
    JSON("{}\n", 0);
    JSON("{\"a\":[1,-0,0.5,1e9,2.5E-3,true,false,null,\"\"],\"b\":{\"c\":\"\\u00e9\\ud83d\\ude00\\n\\\"\"}}", 0);
    JSON("{\"path\":\"b\xef\xbf\xbd\xc3\xa9.edt\"}", 0);
    JSON(" [ ] ", 0);
    /* JSON that must not */
    JSON("", -1);
    JSON("{\"a\":1,}", -1);
    JSON("{\"a\":1,\"a\":2}", -1);
    JSON("{\"a\":1,\"\\u0061\":2}", -1);
    JSON("{\"a\":NaN}", -1);
    JSON("{\"a\":inf}", -1);
    JSON("{\"a\":-nan}", -1);
    JSON("{\"a\":01}", -1);
    JSON("{\"a\":+1}", -1);
    JSON("{\"a\":1.}", -1);
    JSON("{\"a\":.5}", -1);
    JSON("{\"a\":1e}", -1);
    JSON("{\"a\":\"x\ny\"}", -1);
    JSON("{\"a\":\"\x1b[31m\"}", -1);
    JSON("{\"a\":\"\\x41\"}", -1);
    JSON("{\"a\":\"\\ud800\"}", -1);
    JSON("{\"a\":\"\\udc00\"}", -1);
    JSON("{\"a\":\"\\u12\"}", -1);
    JSON("{\"a\":\"b\xff.edt\"}", -1);
    JSON("{\"a\":\"\xc0\xaf\"}", -1);
    JSON("{\"a\":\"\xed\xa0\x80\"}", -1);
    JSON("{\"a\":\"\xe2\x82\"}", -1);
    JSON("{\"a\":1}{}", -1);
    JSON("{\"a\":1", -1);
    JSON("{a:1}", -1);
    JSON("[1 2]", -1);
    JSON("\"open", -1);
    {
        char deep[600];
        memset(deep, '[', 300);
        memset(deep + 300, ']', 300);
        expect(strict_json, "JSON", deep, 600, -1);
    }

    /* CSV that must pass */
    CSV("a,b,c\n1,2,3\n", 0);
    CSV("a,b\r\n\"x,y\",\"say \"\"hi\"\"\"\r\n", 0);
    CSV("name,n\n\"line\nbreak\",1\n,\n", 0);
    CSV("name\n\xc3\xa9t\xc3\xa9\n", 0);
    /* CSV that must not */
    CSV("", -1);
    CSV("a,b\n1,2", -1);
    CSV("a,b\n1,2,3\n", -1);
    CSV("a,b\n1\n", -1);
    CSV("a,b\nx\"y,2\n", -1);
    CSV("a,b\n\"x\"y,2\n", -1);
    CSV("a,b\n\"open,2\n", -1);
    CSV("a,b\nx\ry,2\n", -1);
    CSV("a,b\nx,\xff\n", -1);
    CSV("a,b\n\"\xc3\",2\n", -1);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
