/*
 * x86_wide.S - the x86-64 accesses the one-lane analysis takes on its short paths (tests/native_test.py
 * x86_wide): 16-byte SSE loads and stores (at multiples of 16, 8 and 4 bytes), loads and stores with
 * an index register (three sources), a load that also writes the flags (add r, [m]), and loads of
 * units rep stosb split into bytes. Looped often enough that its pages become full pages, where the
 * short paths apply. No C library: _start calls kernel and exits.
 */
    .text
    .globl kernel
    .type kernel, @function
kernel:
    lea     words(%rip), %rbx   /* written in whole words only: a page of words */
    lea     units(%rip), %rsi   /* written at multiples of 4: a page of units */
    mov     %rsi, %rdi          /* every unit of the page written: a full page of units from the start */
    mov     $1024, %ecx
    xor     %eax, %eax
    rep stosl
    mov     %rbx, %rdi          /* every word: a full page of words */
    mov     $512, %ecx
    rep stosq
    mov     $1500, %r8d
    xor     %edx, %edx          /* carried from iteration to iteration, through memory (D grows with them) */
1:
    lea     64(%rbx), %rdi      /* 24 bytes a byte at a time: split units */
    mov     $24, %ecx
    mov     %r8b, %al
    rep stosb
    xor     %ecx, %ecx
    add     64(%rbx,%rcx,8), %rdx    /* three sources, split units */
    add     72(%rbx,%rcx,8), %rdx    /* writes rdx and the flags */
    mov     80(%rbx,%rcx,8), %r9     /* two sources */
    add     %r9, %rdx
    movups  80(%rbx), %xmm0          /* 16 bytes: split units and one word */
    movups  %xmm0, 128(%rbx)         /* 16 bytes at a multiple of 16 */
    movups  %xmm0, 200(%rbx)         /* at a multiple of 8 */
    movups  136(%rbx), %xmm1         /* straddling the two stores */
    movups  196(%rbx), %xmm2         /* at 4 past a word: three words */
    mov     %rdx, 512(%rbx,%rcx,8)   /* a store of three sources */
    addsd   512(%rbx,%rcx,8), %xmm1  /* a load of three sources into a vector register */
    movups  %xmm1, 20(%rsi)          /* units page: 16 bytes at 4 past a word */
    movups  %xmm2, 36(%rsi)
    movups  24(%rsi), %xmm3          /* over both stores */
    movups  %xmm3, 64(%rsi,%rcx,4)
    mov     68(%rsi), %eax           /* 4 bytes inside it (a unit between its first and last) */
    add     %eax, %edx
    mov     %rdx, 520(%rbx)
    movups  512(%rbx), %xmm4         /* the store of three sources and the last word */
    movups  %xmm4, 1024(%rbx)
    dec     %r8d
    jnz     1b
    ret
    .size kernel, .-kernel

    .globl _start
    .type _start, @function
_start:
    call    kernel
    mov     $60, %eax           /* exit(0) */
    xor     %edi, %edi
    syscall

    .bss
    .balign 4096
words:  .zero 4096
units:  .zero 4096
    .section .note.GNU-stack,"",@progbits
