/*
 * x86_deps.S - exact dependencies of hand-written x86-64 code (tests/native_test.py).
 * kernel's vertices are numbered in the comments; the test holds edan dot's edges
 * to the list it expects. No C library: _start calls kernel and exits.
 */
    .text
    .globl kernel
    .type kernel, @function
kernel:                         /* rdi: 16 bytes to copy from, rsi: 16 bytes to copy to */
    mov     $7, %eax            /* 0  writes rax */
    mov     $3, %ecx            /* 1  writes rcx */
    mov     %al, %ah            /* 2  an 8-bit write merges: reads rax (0) */
    add     %ecx, %eax          /* 3  reads rax (2), rcx (1); writes rax, flags */
    adc     $0, %r8d            /* 4  reads flags (3) */
    setc    %r9b                /* 5  reads flags (4) */
    mov     $100, %eax          /* 6  a 32-bit write: no read */
    xor     %edx, %edx          /* 7  a zero idiom: no read */
    mov     $5, %ecx            /* 8 */
    div     %rcx                /* 9  reads rax (6), rdx (7), rcx (8); writes rax, rdx, flags */
    mov     %rdx, %r10          /* 10 reads rdx (9) */
    push    %r10                /* 11 reads r10 (10); stores; moves rsp (an address update: no vertex's) */
    pop     %r11                /* 12 reads the stored bytes (11) */
    lea     1(%r11), %r11       /* 13 reads r11 (12), no memory */
    mov     %r11, (%rdi)        /* 14 reads r11 (13); stores 8 bytes at the source */
    mov     %rsi, %rax          /* 15 */
    mov     %rdi, %rsi          /* 16 */
    mov     %rax, %rdi          /* 17 reads rax (15) */
    mov     $8, %ecx            /* 18 */
    rep movsb                   /* 19..36: 8 iterations and the last test of rcx, each a load (reads 16, 17,
                                   18, whose updates are address updates, and the byte 14 stored) and a store
                                   (reads the load) */
    mov     -8(%rdi), %rax      /* 37 reads rdi (17) and the 8 bytes (the 8 stores) */
    ret                         /* 38 reads rsp, as before the kernel */
    .size kernel, .-kernel

    .globl _start
    .type _start, @function
_start:
    lea     src(%rip), %rdi
    lea     dst(%rip), %rsi
    call    kernel
    mov     $60, %eax           /* exit(0) */
    xor     %edi, %edi
    syscall

    .bss
    .balign 64
src:    .zero 16
dst:    .zero 16
    .section .note.GNU-stack,"",@progbits
