//go:build gc

#include "textflag.h"

// func callerPC() uintptr
//
// It has no frame, so BP is still the frame pointer of its caller, a
// method that registers, which saved the frame pointer before it (at
// 0(BP)) right below the return address that its own call pushed (at
// 8(BP)). See callerpc_amd64.go.
TEXT ·callerPC(SB),NOSPLIT|NOFRAME,$0-8
	MOVQ	8(BP), AX
	MOVQ	AX, ret+0(FP)
	RET
