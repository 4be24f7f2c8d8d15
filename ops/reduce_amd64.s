#include "textflag.h"

// The vector folds of min, max, ptp, nanmin, nanmax (reduce_extreme.go)
// and count_nonzero, any, all (reduce_nonzero.go). Each is the Go loop
// named in its doc comment in reduce_amd64.go; the Go code folds what is
// left over and redoes, in Go, whatever met a NaN.
//
// Operand order: Go writes AVX's sources reversed, so `VMINPS (DI), Y1,
// Y2` is Intel's `vminps ymm2, ymm1, [rdi]`: ymm1 < [rdi] ? ymm1 : [rdi],
// the second source on a tie and whenever either is a NaN. The column
// folds name the row's value first and the result second, so a result
// keeps its value on a tie (+0 against -0) and a result that is a NaN
// stays one, as rangeRow does.

// Permutations that double each of the low and the high half of a
// row's elements into the (least, greatest) pairs they fold into.
DATA pairIdx32<>+0(SB)/8, $0x0000000000000000
DATA pairIdx32<>+8(SB)/8, $0x0000000100000001
DATA pairIdx32<>+16(SB)/8, $0x0000000200000002
DATA pairIdx32<>+24(SB)/8, $0x0000000300000003
DATA pairIdx32<>+32(SB)/8, $0x0000000400000004
DATA pairIdx32<>+40(SB)/8, $0x0000000500000005
DATA pairIdx32<>+48(SB)/8, $0x0000000600000006
DATA pairIdx32<>+56(SB)/8, $0x0000000700000007
DATA pairIdx32<>+64(SB)/8, $0x0000000800000008
DATA pairIdx32<>+72(SB)/8, $0x0000000900000009
DATA pairIdx32<>+80(SB)/8, $0x0000000a0000000a
DATA pairIdx32<>+88(SB)/8, $0x0000000b0000000b
DATA pairIdx32<>+96(SB)/8, $0x0000000c0000000c
DATA pairIdx32<>+104(SB)/8, $0x0000000d0000000d
DATA pairIdx32<>+112(SB)/8, $0x0000000e0000000e
DATA pairIdx32<>+120(SB)/8, $0x0000000f0000000f
GLOBL pairIdx32<>(SB), RODATA|NOPTR, $128

// The AVX2 halves of a row of 8 float32s: pairIdx32 cut at 4 elements.
DATA pairIdxLo32<>+0(SB)/8, $0x0000000000000000
DATA pairIdxLo32<>+8(SB)/8, $0x0000000100000001
DATA pairIdxLo32<>+16(SB)/8, $0x0000000200000002
DATA pairIdxLo32<>+24(SB)/8, $0x0000000300000003
DATA pairIdxLo32<>+32(SB)/8, $0x0000000400000004
DATA pairIdxLo32<>+40(SB)/8, $0x0000000500000005
DATA pairIdxLo32<>+48(SB)/8, $0x0000000600000006
DATA pairIdxLo32<>+56(SB)/8, $0x0000000700000007
GLOBL pairIdxLo32<>(SB), RODATA|NOPTR, $64

DATA pairIdx64<>+0(SB)/8, $0
DATA pairIdx64<>+8(SB)/8, $0
DATA pairIdx64<>+16(SB)/8, $1
DATA pairIdx64<>+24(SB)/8, $1
DATA pairIdx64<>+32(SB)/8, $2
DATA pairIdx64<>+40(SB)/8, $2
DATA pairIdx64<>+48(SB)/8, $3
DATA pairIdx64<>+56(SB)/8, $3
DATA pairIdx64<>+64(SB)/8, $4
DATA pairIdx64<>+72(SB)/8, $4
DATA pairIdx64<>+80(SB)/8, $5
DATA pairIdx64<>+88(SB)/8, $5
DATA pairIdx64<>+96(SB)/8, $6
DATA pairIdx64<>+104(SB)/8, $6
DATA pairIdx64<>+112(SB)/8, $7
DATA pairIdx64<>+120(SB)/8, $7
GLOBL pairIdx64<>(SB), RODATA|NOPTR, $128

DATA ones32<>+0(SB)/4, $1
GLOBL ones32<>(SB), RODATA|NOPTR, $4

// ONECOLS2 is an AVX2 fold of a row into one extreme a result (OP: min
// or max, the row's value first, so a tie or a NaN keeps the result),
// n elements, 32 bytes (1<<SHIFTN elements) a step; AX: a NaN was met.
#define ONECOLS2(SHIFTN, MOV, OP, CMP) \
	MOVQ   acc+0(FP), DI \
	MOVQ   xs+8(FP), SI \
	MOVQ   n+16(FP), CX \
	VXORPS Y10, Y10, Y10 \
	SHRQ   $SHIFTN, CX \
	JZ     done \
loop: \
	MOV    (SI), Y0 \
	CMP    $3, Y0, Y0, Y8 \
	VORPS  Y8, Y10, Y10 \
	OP     (DI), Y0, Y1 \
	MOV    Y1, (DI) \
	ADDQ   $32, SI \
	ADDQ   $32, DI \
	DECQ   CX \
	JNZ    loop \
done: \
	VMOVMSKPS Y10, AX \
	TESTL  AX, AX \
	SETNE  ret+24(FP) \
	VZEROUPPER \
	RET

// ONECOLS512 is ONECOLS2 with 64-byte vectors, the NaN flags in K2.
#define ONECOLS512(SHIFTN, MOV, OP, CMP) \
	MOVQ   acc+0(FP), DI \
	MOVQ   xs+8(FP), SI \
	MOVQ   n+16(FP), CX \
	KXORW  K2, K2, K2 \
	SHRQ   $SHIFTN, CX \
	JZ     done \
loop: \
	MOV    (SI), Z0 \
	CMP    $3, Z0, Z0, K1 \
	KORW   K1, K2, K2 \
	OP     (DI), Z0, Z1 \
	MOV    Z1, (DI) \
	ADDQ   $64, SI \
	ADDQ   $64, DI \
	DECQ   CX \
	JNZ    loop \
done: \
	KMOVW  K2, AX \
	TESTL  AX, AX \
	SETNE  ret+24(FP) \
	VZEROUPPER \
	RET

// ARITHCOLS2 is an AVX2 column step acc[i] = acc[i] OP xs[i] (add or
// multiply: an exact IEEE operation a lane, so the same bits as the Go
// loop for every finite result), n elements, 32 bytes (1<<SHIFTN
// elements) a step.
#define ARITHCOLS2(SHIFTN, MOV, OP) \
	MOVQ   acc+0(FP), DI \
	MOVQ   xs+8(FP), SI \
	MOVQ   n+16(FP), CX \
	SHRQ   $SHIFTN, CX \
	JZ     done \
loop: \
	MOV    (SI), Y0 \
	OP     (DI), Y0, Y0 \
	MOV    Y0, (DI) \
	ADDQ   $32, SI \
	ADDQ   $32, DI \
	DECQ   CX \
	JNZ    loop \
done: \
	VZEROUPPER \
	RET

// ARITHCOLS512 is ARITHCOLS2 with 64-byte vectors.
#define ARITHCOLS512(SHIFTN, MOV, OP) \
	MOVQ   acc+0(FP), DI \
	MOVQ   xs+8(FP), SI \
	MOVQ   n+16(FP), CX \
	SHRQ   $SHIFTN, CX \
	JZ     done \
loop: \
	MOV    (SI), Z0 \
	OP     (DI), Z0, Z0 \
	MOV    Z0, (DI) \
	ADDQ   $64, SI \
	ADDQ   $64, DI \
	DECQ   CX \
	JNZ    loop \
done: \
	VZEROUPPER \
	RET

// DEVCOLS2 is an AVX2 column step of the squared deviations, acc[i] +=
// (xs[i] - means[i])², each operation rounded apart (no fused multiply-
// add), n elements, 32 bytes (1<<SHIFTN elements) a step.
#define DEVCOLS2(SHIFTN, MOV, SUB, MUL, ADD) \
	MOVQ   acc+0(FP), DI \
	MOVQ   xs+8(FP), SI \
	MOVQ   means+16(FP), DX \
	MOVQ   n+24(FP), CX \
	SHRQ   $SHIFTN, CX \
	JZ     done \
loop: \
	MOV    (SI), Y0 \
	SUB    (DX), Y0, Y0 \
	MUL    Y0, Y0, Y0 \
	ADD    (DI), Y0, Y0 \
	MOV    Y0, (DI) \
	ADDQ   $32, SI \
	ADDQ   $32, DX \
	ADDQ   $32, DI \
	DECQ   CX \
	JNZ    loop \
done: \
	VZEROUPPER \
	RET

// DEVCOLS512 is DEVCOLS2 with 64-byte vectors.
#define DEVCOLS512(SHIFTN, MOV, SUB, MUL, ADD) \
	MOVQ   acc+0(FP), DI \
	MOVQ   xs+8(FP), SI \
	MOVQ   means+16(FP), DX \
	MOVQ   n+24(FP), CX \
	SHRQ   $SHIFTN, CX \
	JZ     done \
loop: \
	MOV    (SI), Z0 \
	SUB    (DX), Z0, Z0 \
	MUL    Z0, Z0, Z0 \
	ADD    (DI), Z0, Z0 \
	MOV    Z0, (DI) \
	ADDQ   $64, SI \
	ADDQ   $64, DX \
	ADDQ   $64, DI \
	DECQ   CX \
	JNZ    loop \
done: \
	VZEROUPPER \
	RET

// RUNSTEP2 folds the four vectors at SI into the least (Y4, Y5) and
// greatest (Y6, Y7) lanes and ors "a NaN is among them" into Y10.
#define RUNSTEP2(MOV, MIN, MAX, CMP) \
	MOV  (SI), Y0 \
	MOV  32(SI), Y1 \
	MOV  64(SI), Y2 \
	MOV  96(SI), Y3 \
	MIN  Y0, Y4, Y4 \
	MAX  Y0, Y6, Y6 \
	MIN  Y1, Y5, Y5 \
	MAX  Y1, Y7, Y7 \
	MIN  Y2, Y4, Y4 \
	MAX  Y2, Y6, Y6 \
	MIN  Y3, Y5, Y5 \
	MAX  Y3, Y7, Y7 \
	CMP  $3, Y1, Y0, Y8 \
	CMP  $3, Y3, Y2, Y9 \
	VORPS Y8, Y10, Y10 \
	VORPS Y9, Y10, Y10

// RUNBODY2 is a whole AVX2 run kernel: lanes (DI) holds the least lanes
// at 0 and the greatest at 64, loaded, folded into and stored back; the
// run is SI, n elements of 1<<SHIFT bytes (128 bytes' worth a step); AX returns the NaN flag.
#define RUNBODY2(SHIFT, MOV, MIN, MAX, CMP) \
	MOVQ  lanes+0(FP), DI \
	MOVQ  xs+8(FP), SI \
	MOVQ  n+16(FP), CX \
	SHLQ  $SHIFT, CX \
	MOV   (DI), Y4 \
	MOV   (DI), Y5 \
	MOV   64(DI), Y6 \
	MOV   64(DI), Y7 \
	VXORPS Y10, Y10, Y10 \
	TESTQ CX, CX \
	JZ    done \
loop: \
	RUNSTEP2(MOV, MIN, MAX, CMP) \
	ADDQ  $128, SI \
	SUBQ  $128, CX \
	JNZ   loop \
done: \
	MIN   Y5, Y4, Y4 \
	MAX   Y7, Y6, Y6 \
	MOV   Y4, (DI) \
	MOV   Y6, 64(DI) \
	VMOVMSKPS Y10, AX \
	TESTL AX, AX \
	SETNE ret+24(FP) \
	VZEROUPPER \
	RET

// func rangeRun32AVX2(lanes *rangeLanes, xs unsafe.Pointer, n int) bool
TEXT ·rangeRun32AVX2(SB), NOSPLIT, $0-25
	RUNBODY2(2, VMOVUPS, VMINPS, VMAXPS, VCMPPS)

// func rangeRun64AVX2(lanes *rangeLanes, xs unsafe.Pointer, n int) bool
TEXT ·rangeRun64AVX2(SB), NOSPLIT, $0-25
	RUNBODY2(3, VMOVUPD, VMINPD, VMAXPD, VCMPPD)

// RUNSTEP512 is RUNSTEP2 with 64-byte vectors and the NaN flags in K2.
#define RUNSTEP512(MOV, MIN, MAX, CMP) \
	MOV  (SI), Z0 \
	MOV  64(SI), Z1 \
	MOV  128(SI), Z2 \
	MOV  192(SI), Z3 \
	MIN  Z0, Z4, Z4 \
	MAX  Z0, Z6, Z6 \
	MIN  Z1, Z5, Z5 \
	MAX  Z1, Z7, Z7 \
	MIN  Z2, Z4, Z4 \
	MAX  Z2, Z6, Z6 \
	MIN  Z3, Z5, Z5 \
	MAX  Z3, Z7, Z7 \
	CMP  $3, Z1, Z0, K1 \
	KORW K1, K2, K2 \
	CMP  $3, Z3, Z2, K1 \
	KORW K1, K2, K2

#define RUNBODY512(SHIFT, MOV, MIN, MAX, CMP) \
	MOVQ  lanes+0(FP), DI \
	MOVQ  xs+8(FP), SI \
	MOVQ  n+16(FP), CX \
	SHLQ  $SHIFT, CX \
	MOV   (DI), Z4 \
	MOV   (DI), Z5 \
	MOV   64(DI), Z6 \
	MOV   64(DI), Z7 \
	KXORW K2, K2, K2 \
	TESTQ CX, CX \
	JZ    done \
loop: \
	RUNSTEP512(MOV, MIN, MAX, CMP) \
	ADDQ  $256, SI \
	SUBQ  $256, CX \
	JNZ   loop \
done: \
	MIN   Z5, Z4, Z4 \
	MAX   Z7, Z6, Z6 \
	MOV   Z4, (DI) \
	MOV   Z6, 64(DI) \
	KMOVW K2, AX \
	TESTL AX, AX \
	SETNE ret+24(FP) \
	VZEROUPPER \
	RET

// func rangeRun32AVX512(lanes *rangeLanes, xs unsafe.Pointer, n int) bool
TEXT ·rangeRun32AVX512(SB), NOSPLIT, $0-25
	RUNBODY512(2, VMOVUPS, VMINPS, VMAXPS, VCMPPS)

// func rangeRun64AVX512(lanes *rangeLanes, xs unsafe.Pointer, n int) bool
TEXT ·rangeRun64AVX512(SB), NOSPLIT, $0-25
	RUNBODY512(3, VMOVUPD, VMINPD, VMAXPD, VCMPPD)

// func rangeCols32AVX2(pairs, xs unsafe.Pointer, n int) bool
TEXT ·rangeCols32AVX2(SB), NOSPLIT, $0-25
	MOVQ    pairs+0(FP), DI
	MOVQ    xs+8(FP), SI
	MOVQ    n+16(FP), CX
	VMOVDQU pairIdxLo32<>+0(SB), Y14
	VMOVDQU pairIdxLo32<>+32(SB), Y15
	VXORPS  Y10, Y10, Y10
	SHRQ    $3, CX
	JZ      done

loop:
	VMOVUPS   (SI), Y0
	VCMPPS    $3, Y0, Y0, Y8
	VORPS     Y8, Y10, Y10
	VPERMPS   Y0, Y14, Y1
	VPERMPS   Y0, Y15, Y4
	VMINPS    (DI), Y1, Y2
	VMAXPS    (DI), Y1, Y3
	VBLENDPS  $0xaa, Y3, Y2, Y2
	VMOVUPS   Y2, (DI)
	VMINPS    32(DI), Y4, Y5
	VMAXPS    32(DI), Y4, Y6
	VBLENDPS  $0xaa, Y6, Y5, Y5
	VMOVUPS   Y5, 32(DI)
	ADDQ      $32, SI
	ADDQ      $64, DI
	DECQ      CX
	JNZ       loop

done:
	VMOVMSKPS Y10, AX
	TESTL     AX, AX
	SETNE     ret+24(FP)
	VZEROUPPER
	RET

// func rangeCols64AVX2(pairs, xs unsafe.Pointer, n int) bool
TEXT ·rangeCols64AVX2(SB), NOSPLIT, $0-25
	MOVQ    pairs+0(FP), DI
	MOVQ    xs+8(FP), SI
	MOVQ    n+16(FP), CX
	VXORPD  Y10, Y10, Y10
	SHRQ    $2, CX
	JZ      done

loop:
	VMOVUPD   (SI), Y0
	VCMPPD    $3, Y0, Y0, Y8
	VORPD     Y8, Y10, Y10
	VPERMPD   $0x50, Y0, Y1
	VPERMPD   $0xfa, Y0, Y4
	VMINPD    (DI), Y1, Y2
	VMAXPD    (DI), Y1, Y3
	VBLENDPD  $0xa, Y3, Y2, Y2
	VMOVUPD   Y2, (DI)
	VMINPD    32(DI), Y4, Y5
	VMAXPD    32(DI), Y4, Y6
	VBLENDPD  $0xa, Y6, Y5, Y5
	VMOVUPD   Y5, 32(DI)
	ADDQ      $32, SI
	ADDQ      $64, DI
	DECQ      CX
	JNZ       loop

done:
	VMOVMSKPD Y10, AX
	TESTL     AX, AX
	SETNE     ret+24(FP)
	VZEROUPPER
	RET

// COLS512 folds the 64-byte row vector at SI into the pairs at DI and
// 64(DI): the greatest in every lane, then the least merged into the even
// lanes (K3), NaN flags into K2; Z14 and Z15 double the halves.
#define COLS512(MOV, MIN, MAX, CMP, PERM) \
	MOV   (SI), Z0 \
	CMP   $3, Z0, Z0, K1 \
	KORW  K1, K2, K2 \
	PERM  Z0, Z14, Z1 \
	PERM  Z0, Z15, Z4 \
	MAX   (DI), Z1, Z2 \
	MIN   (DI), Z1, K3, Z2 \
	MOV   Z2, (DI) \
	MAX   64(DI), Z4, Z5 \
	MIN   64(DI), Z4, K3, Z5 \
	MOV   Z5, 64(DI)

// func rangeCols32AVX512(pairs, xs unsafe.Pointer, n int) bool
TEXT ·rangeCols32AVX512(SB), NOSPLIT, $0-25
	MOVQ      pairs+0(FP), DI
	MOVQ      xs+8(FP), SI
	MOVQ      n+16(FP), CX
	VMOVDQU32 pairIdx32<>+0(SB), Z14
	VMOVDQU32 pairIdx32<>+64(SB), Z15
	MOVL      $0x5555, AX
	KMOVW     AX, K3
	KXORW     K2, K2, K2
	SHRQ      $4, CX
	JZ        done

loop:
	COLS512(VMOVUPS, VMINPS, VMAXPS, VCMPPS, VPERMPS)
	ADDQ $64, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  loop

done:
	KMOVW K2, AX
	TESTL AX, AX
	SETNE ret+24(FP)
	VZEROUPPER
	RET

// func rangeCols64AVX512(pairs, xs unsafe.Pointer, n int) bool
TEXT ·rangeCols64AVX512(SB), NOSPLIT, $0-25
	MOVQ      pairs+0(FP), DI
	MOVQ      xs+8(FP), SI
	MOVQ      n+16(FP), CX
	VMOVDQU64 pairIdx64<>+0(SB), Z14
	VMOVDQU64 pairIdx64<>+64(SB), Z15
	MOVL      $0x55, AX
	KMOVW     AX, K3
	KXORW     K2, K2, K2
	SHRQ      $3, CX
	JZ        done

loop:
	COLS512(VMOVUPD, VMINPD, VMAXPD, VCMPPD, VPERMPD)
	ADDQ $64, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  loop

done:
	KMOVW K2, AX
	TESTL AX, AX
	SETNE ret+24(FP)
	VZEROUPPER
	RET

// func countCols32AVX2(counts, xs unsafe.Pointer, n int, mask uint32)
TEXT ·countCols32AVX2(SB), NOSPLIT, $0-28
	MOVQ         counts+0(FP), DI
	MOVQ         xs+8(FP), SI
	MOVQ         n+16(FP), CX
	MOVL         mask+24(FP), AX
	VMOVD        AX, X15
	VPBROADCASTD X15, Y15
	VPBROADCASTD ones32<>(SB), Y14
	SHRQ         $3, CX
	JZ           done

loop:
	VPAND        (SI), Y15, Y0
	VPMINUD      Y14, Y0, Y0
	VPMOVZXDQ    X0, Y1
	VEXTRACTI128 $1, Y0, X2
	VPMOVZXDQ    X2, Y2
	VPADDQ       (DI), Y1, Y1
	VPADDQ       32(DI), Y2, Y2
	VMOVDQU      Y1, (DI)
	VMOVDQU      Y2, 32(DI)
	ADDQ         $32, SI
	ADDQ         $64, DI
	DECQ         CX
	JNZ          loop

done:
	VZEROUPPER
	RET

// func countCols32AVX512(counts, xs unsafe.Pointer, n int, mask uint32)
TEXT ·countCols32AVX512(SB), NOSPLIT, $0-28
	MOVQ          counts+0(FP), DI
	MOVQ          xs+8(FP), SI
	MOVQ          n+16(FP), CX
	MOVL          mask+24(FP), AX
	VMOVD         AX, X15
	VPBROADCASTD  X15, Z15
	VPBROADCASTD  ones32<>(SB), Z14
	SHRQ          $4, CX
	JZ            done

loop:
	VPANDD        (SI), Z15, Z0
	VPMINUD       Z14, Z0, Z0
	VPMOVZXDQ     Y0, Z1
	VEXTRACTI64X4 $1, Z0, Y2
	VPMOVZXDQ     Y2, Z2
	VPADDQ        (DI), Z1, Z1
	VPADDQ        64(DI), Z2, Z2
	VMOVDQU64     Z1, (DI)
	VMOVDQU64     Z2, 64(DI)
	ADDQ          $64, SI
	ADDQ          $128, DI
	DECQ          CX
	JNZ           loop

done:
	VZEROUPPER
	RET

// func minCols32AVX2(acc, xs unsafe.Pointer, n int) bool
TEXT ·minCols32AVX2(SB), NOSPLIT, $0-25
	ONECOLS2(3, VMOVUPS, VMINPS, VCMPPS)

// func maxCols32AVX2(acc, xs unsafe.Pointer, n int) bool
TEXT ·maxCols32AVX2(SB), NOSPLIT, $0-25
	ONECOLS2(3, VMOVUPS, VMAXPS, VCMPPS)

// func minCols64AVX2(acc, xs unsafe.Pointer, n int) bool
TEXT ·minCols64AVX2(SB), NOSPLIT, $0-25
	ONECOLS2(2, VMOVUPD, VMINPD, VCMPPD)

// func maxCols64AVX2(acc, xs unsafe.Pointer, n int) bool
TEXT ·maxCols64AVX2(SB), NOSPLIT, $0-25
	ONECOLS2(2, VMOVUPD, VMAXPD, VCMPPD)

// func minCols32AVX512(acc, xs unsafe.Pointer, n int) bool
TEXT ·minCols32AVX512(SB), NOSPLIT, $0-25
	ONECOLS512(4, VMOVUPS, VMINPS, VCMPPS)

// func maxCols32AVX512(acc, xs unsafe.Pointer, n int) bool
TEXT ·maxCols32AVX512(SB), NOSPLIT, $0-25
	ONECOLS512(4, VMOVUPS, VMAXPS, VCMPPS)

// func minCols64AVX512(acc, xs unsafe.Pointer, n int) bool
TEXT ·minCols64AVX512(SB), NOSPLIT, $0-25
	ONECOLS512(3, VMOVUPD, VMINPD, VCMPPD)

// func maxCols64AVX512(acc, xs unsafe.Pointer, n int) bool
TEXT ·maxCols64AVX512(SB), NOSPLIT, $0-25
	ONECOLS512(3, VMOVUPD, VMAXPD, VCMPPD)

// func addCols32AVX2(acc, xs unsafe.Pointer, n int)
TEXT ·addCols32AVX2(SB), NOSPLIT, $0-24
	ARITHCOLS2(3, VMOVUPS, VADDPS)

// func addCols64AVX2(acc, xs unsafe.Pointer, n int)
TEXT ·addCols64AVX2(SB), NOSPLIT, $0-24
	ARITHCOLS2(2, VMOVUPD, VADDPD)

// func mulCols32AVX2(acc, xs unsafe.Pointer, n int)
TEXT ·mulCols32AVX2(SB), NOSPLIT, $0-24
	ARITHCOLS2(3, VMOVUPS, VMULPS)

// func mulCols64AVX2(acc, xs unsafe.Pointer, n int)
TEXT ·mulCols64AVX2(SB), NOSPLIT, $0-24
	ARITHCOLS2(2, VMOVUPD, VMULPD)

// func addCols32AVX512(acc, xs unsafe.Pointer, n int)
TEXT ·addCols32AVX512(SB), NOSPLIT, $0-24
	ARITHCOLS512(4, VMOVUPS, VADDPS)

// func addCols64AVX512(acc, xs unsafe.Pointer, n int)
TEXT ·addCols64AVX512(SB), NOSPLIT, $0-24
	ARITHCOLS512(3, VMOVUPD, VADDPD)

// func mulCols32AVX512(acc, xs unsafe.Pointer, n int)
TEXT ·mulCols32AVX512(SB), NOSPLIT, $0-24
	ARITHCOLS512(4, VMOVUPS, VMULPS)

// func mulCols64AVX512(acc, xs unsafe.Pointer, n int)
TEXT ·mulCols64AVX512(SB), NOSPLIT, $0-24
	ARITHCOLS512(3, VMOVUPD, VMULPD)

// func devCols32AVX2(acc, xs, means unsafe.Pointer, n int)
TEXT ·devCols32AVX2(SB), NOSPLIT, $0-32
	DEVCOLS2(3, VMOVUPS, VSUBPS, VMULPS, VADDPS)

// func devCols64AVX2(acc, xs, means unsafe.Pointer, n int)
TEXT ·devCols64AVX2(SB), NOSPLIT, $0-32
	DEVCOLS2(2, VMOVUPD, VSUBPD, VMULPD, VADDPD)

// func devCols32AVX512(acc, xs, means unsafe.Pointer, n int)
TEXT ·devCols32AVX512(SB), NOSPLIT, $0-32
	DEVCOLS512(4, VMOVUPS, VSUBPS, VMULPS, VADDPS)

// func devCols64AVX512(acc, xs, means unsafe.Pointer, n int)
TEXT ·devCols64AVX512(SB), NOSPLIT, $0-32
	DEVCOLS512(3, VMOVUPD, VSUBPD, VMULPD, VADDPD)

// The leaves of NumPy's pairwise sum (pairwiseSum, pairwiseSquares): eight
// accumulators, r[j] the sum in order of the elements whose index is j
// modulo 8, one lane each, then ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)).
// VHADDPS and VHADDPD add each pair high lane first (r1+r0): an IEEE sum
// is the same either way round but for which NaN it keeps, and the Go
// side redoes a leaf that is not finite.

// LEAFEND32 combines the eight float32 lanes of Y0 into X0's lowest:
// VHADDPS gives r0+r1, r2+r3, r4+r5, r6+r7, then (r0+r1)+(r2+r3) and
// (r4+r5)+(r6+r7), which the last addition adds.
#define LEAFEND32 \
	VEXTRACTF128 $1, Y0, X1 \
	VHADDPS      X1, X0, X0 \
	VHADDPS      X0, X0, X0 \
	VMOVSHDUP    X0, X1 \
	VADDSS       X1, X0, X0 \
	VZEROUPPER

// LEAFEND64 combines the float64 lanes of Y0 (r0-r3) and Y1 (r4-r7) into
// X2's lowest: VHADDPD gives r0+r1, r4+r5, r2+r3, r6+r7, the halves
// added give (r0+r1)+(r2+r3) and (r4+r5)+(r6+r7).
#define LEAFEND64 \
	VHADDPD      Y1, Y0, Y2 \
	VEXTRACTF128 $1, Y2, X3 \
	VADDPD       X3, X2, X2 \
	VUNPCKHPD    X2, X2, X3 \
	VADDSD       X3, X2, X2 \
	VZEROUPPER

// func leafSum32AVX2(xs unsafe.Pointer, n int) float32
TEXT ·leafSum32AVX2(SB), NOSPLIT, $0-20
	MOVQ    xs+0(FP), SI
	MOVQ    n+8(FP), CX
	LEAQ    (SI)(CX*4), DX
	VMOVUPS (SI), Y0
	ADDQ    $32, SI
	CMPQ    SI, DX
	JAE     sum32done
sum32loop:
	VADDPS  (SI), Y0, Y0
	ADDQ    $32, SI
	CMPQ    SI, DX
	JB      sum32loop
sum32done:
	LEAFEND32
	MOVSS   X0, ret+16(FP)
	RET

// func leafSum64AVX2(xs unsafe.Pointer, n int) float64
TEXT ·leafSum64AVX2(SB), NOSPLIT, $0-24
	MOVQ    xs+0(FP), SI
	MOVQ    n+8(FP), CX
	LEAQ    (SI)(CX*8), DX
	VMOVUPD (SI), Y0
	VMOVUPD 32(SI), Y1
	ADDQ    $64, SI
	CMPQ    SI, DX
	JAE     sum64done
sum64loop:
	VADDPD  (SI), Y0, Y0
	VADDPD  32(SI), Y1, Y1
	ADDQ    $64, SI
	CMPQ    SI, DX
	JB      sum64loop
sum64done:
	LEAFEND64
	MOVSD   X2, ret+16(FP)
	RET

// func leafSquares32AVX2(xs unsafe.Pointer, n int, m float32) float32
TEXT ·leafSquares32AVX2(SB), NOSPLIT, $0-28
	MOVQ    xs+0(FP), SI
	MOVQ    n+8(FP), CX
	VBROADCASTSS m+16(FP), Y15
	LEAQ    (SI)(CX*4), DX
	VMOVUPS (SI), Y0
	VSUBPS  Y15, Y0, Y0
	VMULPS  Y0, Y0, Y0
	ADDQ    $32, SI
	CMPQ    SI, DX
	JAE     sq32done
sq32loop:
	VMOVUPS (SI), Y1
	VSUBPS  Y15, Y1, Y1
	VMULPS  Y1, Y1, Y1
	VADDPS  Y1, Y0, Y0
	ADDQ    $32, SI
	CMPQ    SI, DX
	JB      sq32loop
sq32done:
	LEAFEND32
	MOVSS   X0, ret+24(FP)
	RET

// func leafSquares64AVX2(xs unsafe.Pointer, n int, m float64) float64
TEXT ·leafSquares64AVX2(SB), NOSPLIT, $0-32
	MOVQ    xs+0(FP), SI
	MOVQ    n+8(FP), CX
	VBROADCASTSD m+16(FP), Y15
	LEAQ    (SI)(CX*8), DX
	VMOVUPD (SI), Y0
	VMOVUPD 32(SI), Y1
	VSUBPD  Y15, Y0, Y0
	VSUBPD  Y15, Y1, Y1
	VMULPD  Y0, Y0, Y0
	VMULPD  Y1, Y1, Y1
	ADDQ    $64, SI
	CMPQ    SI, DX
	JAE     sq64done
sq64loop:
	VMOVUPD (SI), Y2
	VMOVUPD 32(SI), Y3
	VSUBPD  Y15, Y2, Y2
	VSUBPD  Y15, Y3, Y3
	VMULPD  Y2, Y2, Y2
	VMULPD  Y3, Y3, Y3
	VADDPD  Y2, Y0, Y0
	VADDPD  Y3, Y1, Y1
	ADDQ    $64, SI
	CMPQ    SI, DX
	JB      sq64loop
sq64done:
	LEAFEND64
	MOVSD   X2, ret+24(FP)
	RET
