//go:build race

package cairn

// raceEnabled reports whether the race detector is on. Its instrumentation
// keeps the compiler from inlining some calls, whose values then escape
// to the heap, so registration allocation counts do not hold.
const raceEnabled = true
