/*
 * x86_stores.S - x86-64 stores whose destination Capstone 4.0.2 calls read only (tests/native_test.py
 * x86_stores): SSE, AVX, x87 and control-register stores, each followed by a load of its first byte,
 * which must depend on it; then test of a stored word (a load, not a store: the load after it depends
 * on the store before it alone) and cmpxchg (a read and a write). No C library: _start calls kernel.
 */
    .text
    .globl kernel
    .type kernel, @function
kernel:
    lea     buf(%rip), %rbx
    fldz                             /* x87's stack: a value for fst, fstp, fist, fisttp */
    fldz
    fldz
    fldz
    movups      %xmm0, 0(%rbx)
    movzbl      0(%rbx), %eax
    movupd      %xmm0, 64(%rbx)
    movzbl      64(%rbx), %eax
    movdqa      %xmm0, 128(%rbx)
    movzbl      128(%rbx), %eax
    movntps     %xmm0, 192(%rbx)
    movzbl      192(%rbx), %eax
    movntdq     %xmm0, 256(%rbx)
    movzbl      256(%rbx), %eax
    movnti      %rdx, 320(%rbx)
    movzbl      320(%rbx), %eax
    movq        %xmm0, 384(%rbx)
    movzbl      384(%rbx), %eax
    movhps      %xmm0, 448(%rbx)
    movzbl      448(%rbx), %eax
    movlps      %xmm0, 512(%rbx)
    movzbl      512(%rbx), %eax
    vmovups     %ymm0, 576(%rbx)
    movzbl      576(%rbx), %eax
    vmovdqa     %xmm0, 640(%rbx)
    movzbl      640(%rbx), %eax
    vmovsd      %xmm0, 704(%rbx)
    movzbl      704(%rbx), %eax
    vmovq       %xmm0, 768(%rbx)
    movzbl      768(%rbx), %eax
    vextractf128 $1, %ymm0, 832(%rbx)
    movzbl      832(%rbx), %eax
    vextracti128 $1, %ymm0, 896(%rbx)
    movzbl      896(%rbx), %eax
    pextrq      $1, %xmm0, 960(%rbx)
    movzbl      960(%rbx), %eax
    pextrd      $1, %xmm0, 1024(%rbx)
    movzbl      1024(%rbx), %eax
    extractps   $1, %xmm0, 1088(%rbx)
    movzbl      1088(%rbx), %eax
    vpextrq     $1, %xmm0, 1152(%rbx)
    movzbl      1152(%rbx), %eax
    stmxcsr     1216(%rbx)
    movzbl      1216(%rbx), %eax
    fnstcw      1280(%rbx)
    movzbl      1280(%rbx), %eax
    fstl        1344(%rbx)
    movzbl      1344(%rbx), %eax
    fstpl       1408(%rbx)
    movzbl      1408(%rbx), %eax
    fistl       1472(%rbx)
    movzbl      1472(%rbx), %eax
    fisttpl     1536(%rbx)
    movzbl      1536(%rbx), %eax
    mov         %rdx, 1600(%rbx)     /* a store the test does not replace as the last writer */
    testl       $1, 1600(%rbx)
    mov         1600(%rbx), %rcx
    xor         %eax, %eax
    cmpxchg     %ecx, 1664(%rbx)     /* rax = 0 = the word: it writes ecx */
    mov         1664(%rbx), %rsi
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
    .balign 64
buf:    .zero 2048
    .section .note.GNU-stack,"",@progbits
