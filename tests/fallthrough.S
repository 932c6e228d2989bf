/*
 * fallthrough.S - a function entered, and one left, by falling through
 * rather than by a call or a return: blocks of instructions in which the
 * filter's state changes in the middle (realrun_test.py, category blocks).
 * Built with -nostdlib: no C library, only the Linux exit system call.
 */
    .text
    .globl _start
_start:
    li s0, 3
1:  call caller
    addi s0, s0, -1
    bnez s0, 1b
    li a0, 0
    li a7, 93               /* exit */
    ecall

    .type caller, @function
caller:
    la t1, buf
    li t0, 4
    /* kernel's entry, in the middle of the block that starts at caller */
    .globl kernel
    .type kernel, @function
kernel:
    lw t2, 0(t1)
    addi t2, t2, 1
    sw t2, 0(t1)
    addi t0, t0, -1
    bnez t0, kernel
    ld t3, 8(t1)
    .size kernel, .-kernel
    /* after: kernel's last instruction and after's first share a block */
    .type after, @function
after:
    addi t3, t3, 1
    sd t3, 8(t1)
    ret
    .size after, .-after
    .size caller, .-caller

    .bss
    .balign 8
buf:
    .zero 16
