//go:build !amd64 || !gc

package cairn

import "runtime"

// callerPC returns the return address of the call of its caller: the
// program counter, in the code that called a method that registers, just
// after the call, as runtime.Callers gives it. (On amd64, with the gc
// compiler, it reads the frame pointer instead; see callerpc_amd64.go.)
//
//go:noinline
func callerPC() uintptr {
	var pc [1]uintptr
	// Skipped: runtime.Callers, callerPC, and the registering method.
	runtime.Callers(3, pc[:])
	return pc[0]
}
