#include "textflag.h"

// The run kernels compare cur[k] with prev[k] = cur[k-1] for 32-bit
// elements: as integers (their bits), or, with float set, as float32 by
// not-equal-unordered (a NaN differs from everything, -0.0 equals 0.0),
// which is Go's != on float32.

// func runsCount32AVX512(prev, cur unsafe.Pointer, n int, float bool) int
//
// countRuns: how many of cur[0:n] differ from their prev.
TEXT ·runsCount32AVX512(SB), NOSPLIT, $0-40
	MOVQ    prev+0(FP), SI
	MOVQ    cur+8(FP), DX
	MOVQ    n+16(FP), CX
	MOVBLZX float+24(FP), R9
	XORQ    AX, AX

c512loop:
	CMPQ    CX, $16
	JB      c512tail
	VMOVDQU32 (DX), Z0
	VMOVDQU32 (SI), Z1
	TESTQ   R9, R9
	JNZ     c512float
	VPCMPD  $4, Z1, Z0, K1
	JMP     c512count

c512float:
	VCMPPS  $4, Z1, Z0, K1

c512count:
	KMOVW   K1, BX
	POPCNTL BX, BX
	ADDQ    BX, AX
	ADDQ    $64, SI
	ADDQ    $64, DX
	SUBQ    $16, CX
	JMP     c512loop

c512tail:
	TESTQ   CX, CX
	JZ      c512done
	MOVL    $1, BX
	SHLL    CX, BX
	DECL    BX
	KMOVW   BX, K2
	VMOVDQU32.Z (DX), K2, Z0
	VMOVDQU32.Z (SI), K2, Z1
	TESTQ   R9, R9
	JNZ     c512tfloat
	VPCMPD  $4, Z1, Z0, K2, K1
	JMP     c512tcount

c512tfloat:
	VCMPPS  $4, Z1, Z0, K2, K1

c512tcount:
	KMOVW   K1, BX
	POPCNTL BX, BX
	ADDQ    BX, AX

c512done:
	VZEROUPPER
	MOVQ    AX, ret+32(FP)
	RET

// func runsTake32AVX512(dst, prev, cur unsafe.Pointer, n int, float bool) int
//
// takeRuns: the cur[k] of cur[0:n] that differ from their prev, in order,
// to dst, compressed (VPCOMPRESSD) and stored through a mask of as many
// lanes: nothing past them is written; it returns how many.
TEXT ·runsTake32AVX512(SB), NOSPLIT, $0-48
	MOVQ    dst+0(FP), DI
	MOVQ    prev+8(FP), SI
	MOVQ    cur+16(FP), DX
	MOVQ    n+24(FP), CX
	MOVBLZX float+32(FP), R9
	MOVQ    DI, R8

t512loop:
	CMPQ    CX, $16
	JB      t512tail
	VMOVDQU32 (DX), Z0
	VMOVDQU32 (SI), Z1
	TESTQ   R9, R9
	JNZ     t512float
	VPCMPD  $4, Z1, Z0, K1
	JMP     t512store

t512float:
	VCMPPS  $4, Z1, Z0, K1

t512store:
	// Compressed in a register, then stored through a mask of the kept
	// count: VPCOMPRESSD to memory is microcoded on some CPUs (AMD Zen 4).
	VPCOMPRESSD Z0, K1, Z2
	KMOVW   K1, BX
	POPCNTL BX, BX
	MOVL    $1, R10
	SHLXL   BX, R10, R10
	DECL    R10
	KMOVW   R10, K3
	VMOVDQU32 Z2, K3, (DI)
	LEAQ    (DI)(BX*4), DI
	ADDQ    $64, SI
	ADDQ    $64, DX
	SUBQ    $16, CX
	JMP     t512loop

t512tail:
	TESTQ   CX, CX
	JZ      t512done
	MOVL    $1, BX
	SHLL    CX, BX
	DECL    BX
	KMOVW   BX, K2
	VMOVDQU32.Z (DX), K2, Z0
	VMOVDQU32.Z (SI), K2, Z1
	TESTQ   R9, R9
	JNZ     t512tfloat
	VPCMPD  $4, Z1, Z0, K2, K1
	JMP     t512tstore

t512tfloat:
	VCMPPS  $4, Z1, Z0, K2, K1

t512tstore:
	VPCOMPRESSD Z0, K1, Z2
	KMOVW   K1, BX
	POPCNTL BX, BX
	MOVL    $1, R10
	SHLXL   BX, R10, R10
	DECL    R10
	KMOVW   R10, K3
	VMOVDQU32 Z2, K3, (DI)
	LEAQ    (DI)(BX*4), DI

t512done:
	VZEROUPPER
	SUBQ    R8, DI
	SHRQ    $2, DI
	MOVQ    DI, ret+40(FP)
	RET

// func runsCount32AVX2(prev, cur unsafe.Pointer, n int, float bool) int
//
// runsCount32AVX512 for n a multiple of 8.
TEXT ·runsCount32AVX2(SB), NOSPLIT, $0-40
	MOVQ    prev+0(FP), SI
	MOVQ    cur+8(FP), DX
	MOVQ    n+16(FP), CX
	MOVBLZX float+24(FP), R9
	XORQ    AX, AX

c2loop:
	CMPQ    CX, $8
	JB      c2done
	VMOVDQU (DX), Y0
	VMOVDQU (SI), Y1
	TESTQ   R9, R9
	JNZ     c2float
	VPCMPEQD Y1, Y0, Y2
	VMOVMSKPS Y2, BX
	XORL    $0xff, BX
	JMP     c2count

c2float:
	VCMPPS  $4, Y1, Y0, Y2
	VMOVMSKPS Y2, BX

c2count:
	POPCNTL BX, BX
	ADDQ    BX, AX
	ADDQ    $32, SI
	ADDQ    $32, DX
	SUBQ    $8, CX
	JMP     c2loop

c2done:
	VZEROUPPER
	MOVQ    AX, ret+32(FP)
	RET

// func runsTake32AVX2(dst, prev, cur unsafe.Pointer, n int, float bool, room int, perm *[256][8]uint32) (written, read int)
//
// runsTake32AVX512 with a permutation per mask of 8 lanes (perm[m] lists
// the set bits of m): each step stores 8 lanes, its kept ones first, so it
// stops while dst has room for 8 (room elements in all), or at the last
// whole 8 of cur; the caller takes the rest.
TEXT ·runsTake32AVX2(SB), NOSPLIT, $0-72
	MOVQ    dst+0(FP), DI
	MOVQ    prev+8(FP), SI
	MOVQ    cur+16(FP), DX
	MOVQ    n+24(FP), CX
	MOVBLZX float+32(FP), R9
	MOVQ    room+40(FP), R10
	MOVQ    perm+48(FP), R11
	MOVQ    DI, R8
	MOVQ    DX, R12
	LEAQ    -32(DI)(R10*4), R10 // the last place a step may store at

t2loop:
	CMPQ    CX, $8
	JB      t2done
	CMPQ    DI, R10
	JA      t2done
	VMOVDQU (DX), Y0
	VMOVDQU (SI), Y1
	TESTQ   R9, R9
	JNZ     t2float
	VPCMPEQD Y1, Y0, Y2
	VMOVMSKPS Y2, BX
	XORL    $0xff, BX
	JMP     t2store

t2float:
	VCMPPS  $4, Y1, Y0, Y2
	VMOVMSKPS Y2, BX

t2store:
	MOVQ    BX, R13
	SHLQ    $5, R13
	VMOVDQU (R11)(R13*1), Y3
	VPERMD  Y0, Y3, Y4
	VMOVDQU Y4, (DI)
	POPCNTL BX, BX
	LEAQ    (DI)(BX*4), DI
	ADDQ    $32, SI
	ADDQ    $32, DX
	SUBQ    $8, CX
	JMP     t2loop

t2done:
	VZEROUPPER
	SUBQ    R8, DI
	SHRQ    $2, DI
	MOVQ    DI, written+56(FP)
	SUBQ    R12, DX
	SHRQ    $2, DX
	MOVQ    DX, read+64(FP)
	RET
