/*
 * x86_uops.S - the timing model's micro-operations (tests/native_test.py, uops): each kernel runs N turns
 * (N from the preprocessor: gcc -DN=...) of a loop whose one instruction with a memory operand the model
 * splits, beside the same work written as separate instructions. No C library: _start calls each and exits.
 */
#ifndef N
#define N 1000
#endif
    .text
    .globl rmw
    .type rmw, @function
rmw:                            /* a read-modify-write: load, add, store; each turn waits for the last store */
    mov     $N, %ecx
1:  add     %rax, (%rbx)
    dec     %rcx                /* dec keeps CF: no read of the flags, and jnz reads dec's */
    jnz     1b
    ret
    .size rmw, .-rmw

    .globl rmw3
    .type rmw3, @function
rmw3:                           /* the same as three instructions */
    mov     $N, %ecx
1:  mov     (%rbx), %rdx
    add     %rax, %rdx
    mov     %rdx, (%rbx)
    dec     %rcx
    jnz     1b
    ret
    .size rmw3, .-rmw3

    .globl ldop
    .type ldop, @function
ldop:                           /* a load-operation: the sum's chain is the add alone, the load goes ahead */
    mov     $N, %ecx
1:  add     8(%rbx), %rax
    dec     %rcx
    jnz     1b
    ret
    .size ldop, .-ldop

    .globl ldop2
    .type ldop2, @function
ldop2:                          /* the same as two instructions */
    mov     $N, %ecx
1:  mov     8(%rbx), %rdx
    add     %rdx, %rax
    dec     %rcx
    jnz     1b
    ret
    .size ldop2, .-ldop2

    .globl _start
    .type _start, @function
_start:
    lea     buf(%rip), %rbx
    mov     $3, %eax
    call    rmw
    call    rmw3
    call    ldop
    call    ldop2
    mov     $60, %eax           /* exit(0) */
    xor     %edi, %edi
    syscall

    .bss
    .balign 64
buf:    .zero 64
    .section .note.GNU-stack,"",@progbits
