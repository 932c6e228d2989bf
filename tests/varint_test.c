/*
 * The one varint module (util/varint.h): round trips at every length from
 * 1 to 10 bytes and at 2^64-1, the bounds (a varint cut short, one longer
 * than 10 bytes, one whose value needs 65 bits, the trace format's 2^64),
 * zigzag at the extremes, and little-endian fields.
 */
#include <string.h>

#include "check.h"
#include "util/varint.h"

int main(void)
{
    uint8_t buf[16];
    for (int bits = 0; bits <= 64; bits++) {
        const uint64_t v = bits == 64 ? UINT64_MAX : bits ? (1ull << bits) - 1 : 0;
        for (uint64_t w = v ? v - 1 : 0; w <= v && w + 1 != 0; w++) {
            const uint8_t *end = edan_varint_put(buf, w);
            const int len = (int)(end - buf);
            CHECK(len == (bits ? (bits + 6) / 7 : 1) || w != v, "length of 2^%d-1: %d", bits, len);
            uint64_t got = 0;
            CHECK(edan_varint_get(buf, end, &got) == len && got == w, "round trip of %llu", (unsigned long long)w);
            CHECK(edan_varint_get(buf, end - 1, &got) == 0, "cut short at %d bytes", len - 1);
            if (w == v)
                break;
        }
    }
    uint64_t got = 0;
    uint8_t *end = edan_varint_put(buf, UINT64_MAX);
    CHECK(end - buf == EDAN_VARINT_MAX && edan_varint_get(buf, end, &got) == 10 && got == UINT64_MAX, "2^64-1");
    memset(buf, 0x80, 10);
    buf[10] = 0;
    CHECK(edan_varint_get(buf, buf + 11, &got) == -1, "longer than 10 bytes");
    memset(buf, 0x80, 9);
    buf[9] = 2; /* bit 64 */
    CHECK(edan_varint_get(buf, buf + 10, &got) == -2, "a value of 65 bits");
    bool big = false;
    CHECK(edan_varint_get_ext(buf, buf + 10, &got, true, &big) == 10 && big && got == 0, "2^64 where allowed");
    buf[9] = 3;
    big = false;
    CHECK(edan_varint_get_ext(buf, buf + 10, &got, true, &big) == -2 && !big, "2^64 + 2^63 is not 2^64");
    const int64_t zs[] = {0, -1, 1, INT64_MIN, INT64_MAX, -123456789};
    for (size_t i = 0; i < sizeof zs / sizeof zs[0]; i++)
        CHECK(edan_unzigzag(edan_zigzag(zs[i])) == zs[i], "zigzag of %lld", (long long)zs[i]);
    CHECK(edan_zigzag(-1) == 1 && edan_zigzag(1) == 2 && edan_zigzag(INT64_MIN) == UINT64_MAX, "zigzag order");
    edan_put_u64(buf, 0x0123456789abcdefull);
    CHECK(buf[0] == 0xef && buf[7] == 0x01 && edan_get_u64(buf) == 0x0123456789abcdefull, "u64");
    edan_put_u32(buf, 0xdeadbeef);
    edan_put_u16(buf + 4, 0xcafe);
    CHECK(edan_get_u32(buf) == 0xdeadbeef && edan_get_u16(buf + 4) == 0xcafe && buf[4] == 0xfe, "u32, u16");
    return check_summary();
}
