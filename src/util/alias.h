/*
 * alias.h - integer types that may alias any object, for records kept in
 * raw char storage and read and written as 16-, 32- and 64-bit words.
 *
 * C's effective-type rules let a compiler assume that a uint32_t lvalue and a
 * uint64_t one never refer to the same bytes, and GCC (-O2, strict aliasing)
 * acts on it: when one record's bytes are written as one type and read as the
 * other (a narrow shadow record is F and md, two uint32_t, and a sparse page
 * moves it as one uint64_t), it may reorder or drop the store. It did: the
 * 64-bit zeroing of a shadow lookup's scratch record, read back as 32-bit
 * words, vanished in the rep string run (edag_bytes.c). An lvalue of these
 * types aliases every object, as a char does, so such code is defined; they
 * are the same integers otherwise, and the loads and stores the same moves
 * (the analyzer's instruction count is unchanged).
 *
 * Only the lvalue's type matters: a pointer to them converted to a plain
 * uint32_t * loses the property (the compiler does not warn), so pointers
 * into such records are kept in these types.
 */
#ifndef EDAN_UTIL_ALIAS_H
#define EDAN_UTIL_ALIAS_H

#include <stdint.h>

typedef uint16_t edan_u16a __attribute__((may_alias));
typedef uint32_t edan_u32a __attribute__((may_alias));
typedef uint64_t edan_u64a __attribute__((may_alias));
typedef uintptr_t edan_uptra __attribute__((may_alias));

#endif
