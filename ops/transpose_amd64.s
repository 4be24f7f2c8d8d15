#include "textflag.h"

// func transpose32AVX2(dst, src unsafe.Pointer, nr, nc, cs, rd int)
//
// copyTiled4's blocks: for i in [0, nr) and j in [0, nc), both multiples
// of 8, dst[i*rd + 4*j] = src[4*i + j*cs] (4-byte elements). Each 8×8
// block is eight 32-byte loads (source columns j..j+7, eight consecutive
// elements along rows each), the AVX 8×8 transpose (unpack, shuffle,
// 128-bit permute: 24 instructions on the bits, no arithmetic) and eight
// 32-byte stores (destination rows i..i+7).
TEXT ·transpose32AVX2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ nr+16(FP), R8
	MOVQ nc+24(FP), R9
	MOVQ cs+32(FP), R10
	MOVQ rd+40(FP), R11
	LEAQ (R10)(R10*2), R12 // 3*cs
	LEAQ (R11)(R11*2), R13 // 3*rd
	XORQ AX, AX            // i

rowloop:
	CMPQ AX, R8
	JGE  done
	// s: src + 4*i; d: dst + i*rd
	LEAQ (SI)(AX*4), BX
	MOVQ AX, CX
	IMULQ R11, CX
	ADDQ DI, CX
	XORQ DX, DX            // j

colloop:
	CMPQ DX, R9
	JGE  nextrow
	// Y0..Y7: source columns j..j+7 at rows i..i+7
	MOVQ DX, R14
	IMULQ R10, R14
	ADDQ BX, R14           // src + 4*i + j*cs
	VMOVUPS (R14), Y0
	VMOVUPS (R14)(R10*1), Y1
	VMOVUPS (R14)(R10*2), Y2
	VMOVUPS (R14)(R12*1), Y3
	LEAQ (R14)(R10*4), R15
	VMOVUPS (R15), Y4
	VMOVUPS (R15)(R10*1), Y5
	VMOVUPS (R15)(R10*2), Y6
	VMOVUPS (R15)(R12*1), Y7

	VUNPCKLPS Y1, Y0, Y8
	VUNPCKHPS Y1, Y0, Y9
	VUNPCKLPS Y3, Y2, Y10
	VUNPCKHPS Y3, Y2, Y11
	VUNPCKLPS Y5, Y4, Y12
	VUNPCKHPS Y5, Y4, Y13
	VUNPCKLPS Y7, Y6, Y14
	VUNPCKHPS Y7, Y6, Y15

	VSHUFPS $0x44, Y10, Y8, Y0
	VSHUFPS $0xEE, Y10, Y8, Y1
	VSHUFPS $0x44, Y11, Y9, Y2
	VSHUFPS $0xEE, Y11, Y9, Y3
	VSHUFPS $0x44, Y14, Y12, Y4
	VSHUFPS $0xEE, Y14, Y12, Y5
	VSHUFPS $0x44, Y15, Y13, Y6
	VSHUFPS $0xEE, Y15, Y13, Y7

	VPERM2F128 $0x20, Y4, Y0, Y8
	VPERM2F128 $0x20, Y5, Y1, Y9
	VPERM2F128 $0x20, Y6, Y2, Y10
	VPERM2F128 $0x20, Y7, Y3, Y11
	VPERM2F128 $0x31, Y4, Y0, Y12
	VPERM2F128 $0x31, Y5, Y1, Y13
	VPERM2F128 $0x31, Y6, Y2, Y14
	VPERM2F128 $0x31, Y7, Y3, Y15

	// destination rows i..i+7 at columns j..j+7
	LEAQ (CX)(DX*4), R14
	VMOVUPS Y8, (R14)
	VMOVUPS Y9, (R14)(R11*1)
	VMOVUPS Y10, (R14)(R11*2)
	VMOVUPS Y11, (R14)(R13*1)
	LEAQ (R14)(R11*4), R15
	VMOVUPS Y12, (R15)
	VMOVUPS Y13, (R15)(R11*1)
	VMOVUPS Y14, (R15)(R11*2)
	VMOVUPS Y15, (R15)(R13*1)

	ADDQ $8, DX
	JMP  colloop

nextrow:
	ADDQ $8, AX
	JMP  rowloop

done:
	VZEROUPPER
	RET
