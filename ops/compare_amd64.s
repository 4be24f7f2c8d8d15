#include "textflag.h"

// foldFinite's loop for contiguous native float32 or float64 pairs, four
// pairs a step in float64 lanes (AVX2). Per lane, with x and y the pair:
//
//	d, ay := |x-y|, |y|
//	bad |= x or y is an infinity or a NaN (exponent all ones)
//	maxAbs = max(maxAbs, d); nonzero |= bits(ay)
//	maxRel = max(maxRel, d/ay) where ay != 0, divided only when some lane
//	    may beat its maximum: d*(1+2^-30) + 2^-1060 >= maxRel*ay
//	mis := d > atol + rtol*ay (two roundings: no fused multiply-add)
//	count += mis; worst = max(worst, d where mis, else 0)
//
// then the lanes are reduced into *out (foldSums). The caller refolds a
// batch whose bad is set pair by pair, so what a NaN does on the way does
// not matter. n is a multiple of 4.

DATA foldConst<>+0(SB)/8, $0x7fffffffffffffff  // |.|
DATA foldConst<>+8(SB)/8, $0x7ff0000000000000  // the exponent
DATA foldConst<>+16(SB)/8, $0x3ff0000004000000 // 1 + 2^-30
DATA foldConst<>+24(SB)/8, $0x0000000000004000 // 2^-1060
DATA foldConst<>+32(SB)/8, $0x7fefffffffffffff // float64's largest
GLOBL foldConst<>(SB), RODATA|NOPTR, $40

// FOLDSETUP loads the arguments (SI: a, DX: d, CX: n, R8: tol, DI: out)
// and the constants, and zeroes the accumulators: Y2 max abs, Y3 max rel,
// Y4 worst, Y5 count, Y10 nonzero, Y11 bad.
#define FOLDSETUP \
	MOVQ a+0(FP), SI \
	MOVQ d+8(FP), DX \
	MOVQ n+16(FP), CX \
	MOVQ tol+24(FP), R8 \
	MOVQ out+32(FP), DI \
	VBROADCASTSD 0(R8), Y6 \
	VBROADCASTSD 8(R8), Y7 \
	VBROADCASTSD foldConst<>+16(SB), Y8 \
	VBROADCASTSD foldConst<>+24(SB), Y9 \
	VBROADCASTSD foldConst<>+8(SB), Y14 \
	VBROADCASTSD foldConst<>+0(SB), Y15 \
	VXORPD Y2, Y2, Y2 \
	VXORPD Y3, Y3, Y3 \
	VXORPD Y4, Y4, Y4 \
	VPXOR Y5, Y5, Y5 \
	VPXOR Y10, Y10, Y10 \
	VPXOR Y11, Y11, Y11

// FOLDSTEP folds the four pairs of x in Y0 and y in Y1; FOLDSTEP32 is it
// for pairs of float32s, where an infinity or a NaN on either side is
// exactly a difference that is not finite (the difference of two finite
// float32s is far from float64's largest), one compare instead of six
// instructions.
#define FOLDSTEP \
	VANDPD    Y14, Y0, Y12 \
	VPCMPEQQ  Y14, Y12, Y12 \
	VPOR      Y12, Y11, Y11 \
	VANDPD    Y14, Y1, Y12 \
	VPCMPEQQ  Y14, Y12, Y12 \
	VPOR      Y12, Y11, Y11 \
	VSUBPD    Y1, Y0, Y0 \
	VANDPD    Y15, Y0, Y0 \
	FOLDREST

#define FOLDSTEP32 \
	VSUBPD    Y1, Y0, Y0 \
	VANDPD    Y15, Y0, Y0 \
	VCMPPD    $6, Y14, Y0, Y12 \
	VPOR      Y12, Y11, Y11 \
	FOLDREST

// FOLDREST folds d in Y0 and y in Y1.
#define FOLDREST \
	VANDPD    Y15, Y1, Y1 \
	VMAXPD    Y0, Y2, Y2 \
	VPOR      Y1, Y10, Y10 \
	VMULPD    Y3, Y1, Y13 \
	VMULPD    Y8, Y0, Y12 \
	VADDPD    Y9, Y12, Y12 \
	VCMPPD    $0x1d, Y13, Y12, Y12 \
	VMOVMSKPD Y12, BX \
	TESTL     BX, BX \
	JZ        norel \
	VDIVPD    Y1, Y0, Y13 \
	VXORPD    Y12, Y12, Y12 \
	VCMPPD    $4, Y12, Y1, Y12 \
	VANDPD    Y12, Y13, Y13 \
	VMAXPD    Y13, Y3, Y3 \
norel: \
	VMULPD    Y7, Y1, Y13 \
	VADDPD    Y6, Y13, Y13 \
	VCMPPD    $0x1e, Y13, Y0, Y13 \
	VPSUBQ    Y13, Y5, Y5 \
	VANDPD    Y13, Y0, Y13 \
	VMAXPD    Y13, Y4, Y4

// FOLDDONE reduces the lanes into *out.
#define FOLDDONE \
	VEXTRACTF128 $1, Y2, X12 \
	VMAXPD    X12, X2, X2 \
	VPERMILPD $1, X2, X12 \
	VMAXSD    X12, X2, X2 \
	MOVSD     X2, 0(DI) \
	VEXTRACTF128 $1, Y3, X12 \
	VMAXPD    X12, X3, X3 \
	VPERMILPD $1, X3, X12 \
	VMAXSD    X12, X3, X3 \
	MOVSD     X3, 8(DI) \
	VEXTRACTF128 $1, Y4, X12 \
	VMAXPD    X12, X4, X4 \
	VPERMILPD $1, X4, X12 \
	VMAXSD    X12, X4, X4 \
	MOVSD     X4, 16(DI) \
	VEXTRACTI128 $1, Y5, X12 \
	VPADDQ    X12, X5, X5 \
	VPSHUFD   $0x4e, X5, X12 \
	VPADDQ    X12, X5, X5 \
	MOVQ      X5, 24(DI) \
	XORQ      AX, AX \
	VPTEST    Y10, Y10 \
	SETNE     AX \
	MOVQ      AX, 32(DI) \
	XORQ      AX, AX \
	VPTEST    Y11, Y11 \
	SETNE     AX \
	MOVQ      AX, 40(DI) \
	VZEROUPPER

// func foldF32AVX2(a, d unsafe.Pointer, n int, tol *foldTol, out *foldSums)
TEXT ·foldF32AVX2(SB), NOSPLIT, $0-40
	FOLDSETUP
	VBROADCASTSD foldConst<>+32(SB), Y14 // float64's largest: d above it (or NaN) is bad

loop:
	CMPQ CX, $4
	JB   done
	VCVTPS2PD (SI), Y0
	VCVTPS2PD (DX), Y1
	FOLDSTEP32
	ADDQ $16, SI
	ADDQ $16, DX
	SUBQ $4, CX
	JMP  loop

done:
	FOLDDONE
	RET

// func foldF64AVX2(a, d unsafe.Pointer, n int, tol *foldTol, out *foldSums)
TEXT ·foldF64AVX2(SB), NOSPLIT, $0-40
	FOLDSETUP

loop:
	CMPQ CX, $4
	JB   done
	VMOVUPD (SI), Y0
	VMOVUPD (DX), Y1
	FOLDSTEP
	ADDQ $32, SI
	ADDQ $32, DX
	SUBQ $4, CX
	JMP  loop

done:
	FOLDDONE
	RET
