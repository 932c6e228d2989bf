/*
 * varint.h - the one coder of LEB128 varints, zigzag signed values and
 * little-endian fields: the trace format, the critical-path spill file and
 * the tools that write traces all use these.
 *
 * A varint is 1 to 10 bytes, 7 bits each, low bits first, the high bit set
 * on every byte but the last. Decoding is bounded by `end` and rejects a
 * varint longer than 10 bytes or one whose value needs more than 64 bits.
 */
#ifndef EDAN_UTIL_VARINT_H
#define EDAN_UTIL_VARINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most bytes one varint takes. */
#define EDAN_VARINT_MAX 10

/* Write v at p (room for EDAN_VARINT_MAX bytes); returns the byte after it. */
static inline uint8_t *edan_varint_put(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

/*
 * Read a varint from [p, end): its length in bytes, 0 when it runs past
 * end, -1 when it is longer than 10 bytes, -2 when its value needs more than
 * 64 bits. With allow_2_64, the one value 2^64 is accepted as *big = true
 * and *out = 0 (the trace format's address delta of a wrap-around).
 */
static inline int edan_varint_get_ext(const uint8_t *p, const uint8_t *end, uint64_t *out, bool allow_2_64, bool *big)
{
    uint64_t v = 0;
    for (int i = 0; i < EDAN_VARINT_MAX; i++) {
        if (p + i >= end)
            return 0;
        const uint8_t b = p[i];
        if (i == EDAN_VARINT_MAX - 1) {
            if (b & 0x80)
                return -1;
            if (b > 1) {
                if (allow_2_64 && b == 2 && v == 0) {
                    *big = true;
                    *out = 0;
                    return EDAN_VARINT_MAX;
                }
                return -2;
            }
        }
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            *out = v;
            return i + 1;
        }
    }
    return -1; /* not reached */
}

static inline int edan_varint_get(const uint8_t *p, const uint8_t *end, uint64_t *out)
{
    bool big = false;
    return edan_varint_get_ext(p, end, out, false, &big);
}

static inline uint64_t edan_zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t edan_unzigzag(uint64_t v)
{
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* Little-endian fields. */
static inline void edan_put_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void edan_put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline void edan_put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint16_t edan_get_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t edan_get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t edan_get_u64(const uint8_t *p)
{
    return (uint64_t)edan_get_u32(p) | (uint64_t)edan_get_u32(p + 4) << 32;
}

#endif
