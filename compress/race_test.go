//go:build race

package compress

// raceEnabled reports whether the race detector is on. It makes sync.Pool
// drop a quarter of what it is given, so allocation counts do not hold.
const raceEnabled = true
