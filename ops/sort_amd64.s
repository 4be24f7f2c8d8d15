#include "textflag.h"

// func scatterNT32(dst, src unsafe.Pointer, n int, off, start *uint32, buf unsafe.Pointer, shift, mask uint)
//
// For each 32-bit key k of src[0:n]: d = k>>shift & mask, dst[off[d]] = k,
// off[d]++ (scatterKeys' loop), through a 64-byte line buffer per digit
// value at buf+64*d: a line of dst is written with non-temporal stores
// when its 16 keys are in the buffer, so no line of dst is read for
// ownership. dst must be 64-byte aligned. A line that starts before the
// digit's first slot start[d] is written key by key (other writers own
// the keys before start[d]); the keys of the last, partial line of each
// digit stay in the buffer for the caller.
TEXT ·scatterNT32(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), R12
	MOVQ off+24(FP), R8
	MOVQ start+32(FP), R9
	MOVQ buf+40(FP), R10
	MOVQ shift+48(FP), CX
	MOVQ mask+56(FP), R14
	LEAQ (SI)(R12*4), R12

loop:
	CMPQ SI, R12
	JAE  done
	MOVL (SI), AX
	MOVL AX, BX
	SHRL CX, BX
	ANDL R14, BX
	MOVL (R8)(BX*4), DX   // o = off[d]
	MOVL DX, R13
	ANDL $15, R13         // its slot in the line
	MOVQ BX, R11
	SHLQ $6, R11
	ADDQ R10, R11         // &buf[d]
	MOVL AX, (R11)(R13*4)
	INCL DX
	MOVL DX, (R8)(BX*4)
	ADDQ $4, SI
	TESTL $15, DX
	JNZ  loop

	// The line ending at o is complete.
	LEAL -16(DX), R13
	CMPL R13, (R9)(BX*4)
	JB   partial
	MOVOU 0(R11), X0
	MOVOU 16(R11), X1
	MOVOU 32(R11), X2
	MOVOU 48(R11), X3
	LEAQ (DI)(R13*4), R13
	MOVNTO X0, 0(R13)
	MOVNTO X1, 16(R13)
	MOVNTO X2, 32(R13)
	MOVNTO X3, 48(R13)
	JMP  loop

partial:
	// The digit's first line: only the slots from start[d] are its own.
	MOVL (R9)(BX*4), R13

ploop:
	CMPL R13, DX
	JAE  loop
	MOVL R13, BX
	ANDL $15, BX
	MOVL (R11)(BX*4), AX
	MOVL AX, (DI)(R13*4)
	INCL R13
	JMP  ploop

done:
	SFENCE
	RET

// func scatterNT64(dst, src unsafe.Pointer, n int, off, start *uint32, buf unsafe.Pointer, shift, mask uint)
//
// scatterNT32 for 64-bit keys: 8 keys a line.
TEXT ·scatterNT64(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), R12
	MOVQ off+24(FP), R8
	MOVQ start+32(FP), R9
	MOVQ buf+40(FP), R10
	MOVQ shift+48(FP), CX
	MOVQ mask+56(FP), R14
	LEAQ (SI)(R12*8), R12

loop64:
	CMPQ SI, R12
	JAE  done64
	MOVQ (SI), AX
	MOVQ AX, BX
	SHRQ CX, BX
	ANDQ R14, BX
	MOVL (R8)(BX*4), DX
	MOVL DX, R13
	ANDL $7, R13
	MOVQ BX, R11
	SHLQ $6, R11
	ADDQ R10, R11
	MOVQ AX, (R11)(R13*8)
	INCL DX
	MOVL DX, (R8)(BX*4)
	ADDQ $8, SI
	TESTL $7, DX
	JNZ  loop64

	LEAL -8(DX), R13
	CMPL R13, (R9)(BX*4)
	JB   partial64
	MOVOU 0(R11), X0
	MOVOU 16(R11), X1
	MOVOU 32(R11), X2
	MOVOU 48(R11), X3
	LEAQ (DI)(R13*8), R13
	MOVNTO X0, 0(R13)
	MOVNTO X1, 16(R13)
	MOVNTO X2, 32(R13)
	MOVNTO X3, 48(R13)
	JMP  loop64

partial64:
	MOVL (R9)(BX*4), R13

ploop64:
	CMPL R13, DX
	JAE  loop64
	MOVL R13, BX
	ANDL $7, BX
	MOVQ (R11)(BX*8), AX
	MOVQ AX, (DI)(R13*8)
	INCL R13
	JMP  ploop64

done64:
	SFENCE
	RET

// func countDigits32(src unsafe.Pointer, n int, c0, c1 *uint32, lo, m0, m1 uint)
//
// For each 32-bit key k of src[0:n]: c0[k&m0]++, c1[k>>lo&m1]++.
TEXT ·countDigits32(SB), NOSPLIT, $0-56
	MOVQ src+0(FP), SI
	MOVQ n+8(FP), R12
	MOVQ c0+16(FP), R8
	MOVQ c1+24(FP), R9
	MOVQ lo+32(FP), CX
	MOVQ m0+40(FP), R10
	MOVQ m1+48(FP), R11
	LEAQ (SI)(R12*4), R12

cloop:
	CMPQ SI, R12
	JAE  cdone
	MOVL (SI), AX
	MOVL AX, BX
	ANDL R10, BX
	INCL (R8)(BX*4)
	SHRL CX, AX
	ANDL R11, AX
	INCL (R9)(AX*4)
	ADDQ $4, SI
	JMP  cloop

cdone:
	RET

// func scatter32(dst, src unsafe.Pointer, n int, off *uint32, shift, mask uint)
//
// For each 32-bit key k of src[0:n]: d = k>>shift & mask, dst[off[d]] = k,
// off[d]++ (scatterKeysGo), with plain stores: dst is in the cache.
TEXT ·scatter32(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), R12
	MOVQ off+24(FP), R8
	MOVQ shift+32(FP), CX
	MOVQ mask+40(FP), R10
	LEAQ (SI)(R12*4), R12

sloop:
	CMPQ SI, R12
	JAE  sdone
	MOVL (SI), AX
	MOVL AX, BX
	SHRL CX, BX
	ANDL R10, BX
	MOVL (R8)(BX*4), DX
	MOVL AX, (DI)(DX*4)
	INCL DX
	MOVL DX, (R8)(BX*4)
	ADDQ $4, SI
	JMP  sloop

sdone:
	RET

// func scatterDecode32(dst, src unsafe.Pointer, n int, off *uint32, shift, mask uint, desc, sign, neg uint32)
//
// scatter32 storing each key's value (decoder32.decode without the byte
// swap): t = k^desc, t ^ sign ^ (neg if t's top bit is clear).
TEXT ·scatterDecode32(SB), NOSPLIT, $0-60
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), R12
	MOVQ off+24(FP), R8
	MOVQ shift+32(FP), CX
	MOVQ mask+40(FP), R10
	MOVL desc+48(FP), R9
	MOVL sign+52(FP), R11
	MOVL neg+56(FP), R14
	LEAQ (SI)(R12*4), R12

dloop:
	CMPQ SI, R12
	JAE  ddone
	MOVL (SI), AX
	MOVL AX, BX
	SHRL CX, BX
	ANDL R10, BX
	XORL R9, AX           // t
	MOVL AX, R13
	NOTL R13
	SARL $31, R13
	ANDL R14, R13
	XORL R11, AX
	XORL R13, AX          // the value
	MOVL (R8)(BX*4), DX
	MOVL AX, (DI)(DX*4)
	INCL DX
	MOVL DX, (R8)(BX*4)
	ADDQ $4, SI
	JMP  dloop

ddone:
	RET

// func scatterEncodeNT32(dst, src unsafe.Pointer, n int, off, start *uint32, buf unsafe.Pointer, shift, mask uint, enc *encoder32)
//
// scatterNT32 over the keys of the native 32-bit values of src: each value
// u becomes k = u ^ flip ^ (neg if u's top bit is set), or, when
// (u & abs) + adj >= special (unsigned; a float's ±0.0 or NaN), the zero
// key when u & abs is 0 and the NaN key otherwise (encoder32.key).
TEXT ·scatterEncodeNT32(SB), NOSPLIT, $0-72
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), R12
	MOVQ off+24(FP), R8
	MOVQ start+32(FP), R9
	MOVQ buf+40(FP), R10
	MOVQ shift+48(FP), CX
	MOVQ mask+56(FP), R14
	MOVQ enc+64(FP), R15
	LEAQ (SI)(R12*4), R12

eloop:
	CMPQ SI, R12
	JAE  edone
	MOVL (SI), AX         // u
	MOVL AX, BX
	SARL $31, BX
	ANDL 4(R15), BX       // neg if u < 0
	XORL AX, BX
	XORL 0(R15), BX       // ^ flip: the key
	MOVL AX, DX
	ANDL 8(R15), DX       // u & abs
	MOVL DX, R13
	ADDL 12(R15), R13     // + adj
	CMPL R13, 16(R15)
	JAE  especial
ekey:
	MOVL BX, AX           // the key, stored
	SHRL CX, BX
	ANDL R14, BX          // its digit
	MOVL (R8)(BX*4), DX
	MOVL DX, R13
	ANDL $15, R13
	MOVQ BX, R11
	SHLQ $6, R11
	ADDQ R10, R11
	MOVL AX, (R11)(R13*4)
	INCL DX
	MOVL DX, (R8)(BX*4)
	ADDQ $4, SI
	TESTL $15, DX
	JNZ  eloop

	LEAL -16(DX), R13
	CMPL R13, (R9)(BX*4)
	JB   epartial
	MOVOU 0(R11), X0
	MOVOU 16(R11), X1
	MOVOU 32(R11), X2
	MOVOU 48(R11), X3
	LEAQ (DI)(R13*4), R13
	MOVNTO X0, 0(R13)
	MOVNTO X1, 16(R13)
	MOVNTO X2, 32(R13)
	MOVNTO X3, 48(R13)
	JMP  eloop

epartial:
	MOVL (R9)(BX*4), R13

eploop:
	CMPL R13, DX
	JAE  eloop
	MOVL R13, BX
	ANDL $15, BX
	MOVL (R11)(BX*4), AX
	MOVL AX, (DI)(R13*4)
	INCL R13
	JMP  eploop

especial:
	MOVL 20(R15), BX      // the zero key
	TESTL DX, DX
	JZ   ekey
	MOVL 24(R15), BX      // the NaN key
	JMP  ekey

edone:
	SFENCE
	RET

// func countKeys32(src unsafe.Pointer, n int, h *uint32, enc *encoder32) int
//
// For each native 32-bit value u of src[0:n], h[key(u)>>16]++, where key is
// encoder32's for a value that is not special; it stops before the first
// special value ((u&abs)+adj >= special: a float's ±0.0 or NaN) and returns
// how many it counted.
TEXT ·countKeys32(SB), NOSPLIT, $0-40
	MOVQ src+0(FP), SI
	MOVQ n+8(FP), R12
	MOVQ h+16(FP), R8
	MOVQ enc+24(FP), R9
	MOVL 0(R9), R10       // flip
	MOVL 4(R9), R11       // neg
	MOVL 8(R9), R13       // abs
	MOVL 12(R9), R14      // adj
	MOVL 16(R9), CX       // special
	MOVQ SI, DI
	LEAQ (SI)(R12*4), R12

kloop:
	CMPQ SI, R12
	JAE  kdone
	MOVL (SI), AX
	MOVL AX, DX
	ANDL R13, DX
	ADDL R14, DX
	CMPL DX, CX
	JAE  kdone
	MOVL AX, BX
	SARL $31, BX
	ANDL R11, BX
	XORL AX, BX
	XORL R10, BX
	SHRL $16, BX
	INCL (R8)(BX*4)
	ADDQ $4, SI
	JMP  kloop

kdone:
	SUBQ DI, SI
	SHRQ $2, SI
	MOVQ SI, ret+32(FP)
	RET
