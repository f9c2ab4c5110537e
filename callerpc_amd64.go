//go:build gc

package cairn

// callerPC returns the return address of the call of its caller: the
// program counter, in the code that called a method that registers, just
// after the call. It is what runtime.Callers(2, pc) gives in that method,
// but for the wrappers that runtime.Callers leaves out (see locationOf),
// for a few instructions instead of a walk of three frames, which took a
// third of the instructions of registering a static route.
//
// Soundness: the caller must be a function that calls others, not
// inlined (go:noinline), and call callerPC itself. On amd64 the compiler
// then gives it a frame pointer: its prologue pushes BP, just below the
// return address that its call pushed, and points BP there, so 8(BP) is
// that address for as long as it runs. callerPC, in assembly and without
// a frame of its own, reads BP as its caller left it. TestLocations checks
// the locations of every method that calls it, called directly, through a
// method value and through an interface.
func callerPC() uintptr
