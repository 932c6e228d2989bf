/*
 * guest_unwind.S - a filtered function left as an exception's unwinder
 * leaves it (issue 35): its callee sets sp from a register and returns
 * into the caller's landing pad, which calls the function again before it
 * touches the stack. With --filter=kernel each region ends at the landing
 * pad (plugin_frame.c, a suspect decided at the next access based on sp,
 * here the prologue of the next call): no instruction of _start's (its
 * xori and ecall) is in a region.
 * Usage: guest_unwind N MODE (MODE 0 returns normally, 1 unwinds; N < 10).
 * Built with -nostdlib: no C library, only the Linux exit system call.
 */
    .text
    .globl _start
_start:
    ld t1, 8(sp)            /* argv[0]; argv[1] and argv[2] follow */
    ld t1, 16(sp)
    lbu s0, 0(t1)
    addi s0, s0, -'0'       /* calls */
    ld t1, 24(sp)
    lbu s1, 0(t1)
    addi s1, s1, -'0'       /* mode */
    addi sp, sp, -16        /* _start's frame: what the regions must end at */
1:  mv a0, s1
    call kernel
landing:
    xori s2, s0, 1          /* _start's own code: in no region */
    addi s0, s0, -1
    bnez s0, 1b
    sd s2, 0(sp)            /* an access based on sp after the last call */
    xori s3, s0, 3
    li a0, 0
    li a7, 93               /* exit */
    ecall

    .globl kernel
    .type kernel, @function
kernel:
    addi sp, sp, -32
    sd ra, 24(sp)
    sd s0, 16(sp)
    li t2, 3
2:  sd t2, 8(sp)
    addi t2, t2, -1
    bnez t2, 2b
    call leave
    ld s0, 16(sp)
    ld ra, 24(sp)
    addi sp, sp, 32
    ret
    .size kernel, .-kernel

    .type leave, @function
leave:                      /* a0 = 0: return; else to the landing pad with _start's sp, as an unwinder does */
    addi sp, sp, -16
    sd ra, 8(sp)
    ld ra, 8(sp)
    addi sp, sp, 16
    beqz a0, 3f
    li t0, 32               /* kernel's frame, in a register */
    add sp, sp, t0
    la ra, landing
3:  ret
    .size leave, .-leave
