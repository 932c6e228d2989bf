/*
 * a64_deps.S - exact dependencies of hand-written AArch64 code (tests/native_test.py).
 * kernel's vertices are numbered in the comments; the test holds edan dot's edges
 * to the list it expects. No C library: _start calls kernel and exits.
 */
    .arch armv8.1-a             /* the LSE atomics */
    .text
    .globl kernel
    .type kernel, %function
kernel:                         /* x0: 32 bytes of scratch */
    mov     x1, #5              /* 0 */
    mov     x2, #7              /* 1 */
    adds    x3, x1, x2          /* 2  reads x1 (0), x2 (1); writes x3, nzcv */
    cset    x4, ne              /* 3  reads nzcv (2) */
    add     x5, x4, #1          /* 4  reads x4 (3) */
    stp     x3, x5, [x0]        /* 5  reads x3 (2), x5 (4); stores 16 bytes */
    ldp     x6, x7, [x0]        /* 6  loads them (5) */
    str     x7, [x0, #16]!      /* 7  reads x7 (6); stores; moves x0 (an address update: no vertex's) */
    ldr     x8, [x0], #8        /* 8  reads the bytes (7); moves x0 */
    add     x9, x8, x3          /* 9  reads x8 (8), x3 (2) */
    sub     x0, x0, #24         /* 10 reads x0, as before the kernel */
    mov     x10, x9             /* 11 reads x9 (9) */
    ldr     x11, [x0, #8]       /* 12 reads x0 (10) and the second half of the pair (5) */
    cmp     x11, #0             /* 13 reads x11 (12); writes nzcv alone (Capstone 4.0.2: x11 too) */
    csinc   x12, x11, x10, ne   /* 14 reads nzcv (13), x11 (12), x10 (11) */
    tst     x12, x11            /* 15 reads x12 (14), x11 (12); writes nzcv alone */
    cmn     x12, #1             /* 16 reads x12 (14) */
    mov     x13, #3             /* 17 */
    ldadd   x13, x14, [x0]      /* 18 reads x13 (17), x0 (10), the bytes (5); writes them and x14 (LSE: Capstone 4.0.2
                                      decodes none of these) */
    casal   x14, x13, [x0]      /* 19 reads x14 (18), x13 (17), x0 (10), the bytes (18); writes them and x14 */
    add     x15, x14, #1        /* 20 reads x14 (19) */
    stset   x15, [x0]           /* 21 reads x15 (20), x0 (10), the bytes (19); writes them, no register */
    swpal   x14, x16, [x0]      /* 22 reads x14 (19), x0 (10), the bytes (21); writes them and x16 */
    ret                         /* 23 reads x30, written before the kernel */
    .size kernel, .-kernel

    .globl _start
    .type _start, %function
_start:
    adr     x0, scratch
    bl      kernel
    mov     x8, #93             /* exit(0) */
    mov     x0, #0
    svc     #0

    .bss
    .balign 64
scratch: .zero 64
    .section .note.GNU-stack,"",%progbits
