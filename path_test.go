package cairn

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// escapesSlashOrDotSimple is escapesSlashOrDot as a loop over the '%'
// bytes of s, the oracle of TestEscapesSlashOrDot.
func escapesSlashOrDotSimple(s string) bool {
	for {
		i := strings.IndexByte(s, '%')
		if i < 0 || i+2 >= len(s) {
			return false
		}
		if s[i+1] == '2' && (s[i+2]|0x20 == 'f' || s[i+2]|0x20 == 'e') {
			return true
		}
		s = s[i+1:]
	}
}

// TestEscapesSlashOrDot checks escapesSlashOrDot against the simple loop:
// every string of up to four bytes over the bytes that matter, and random
// ones of up to 40 bytes, so that escapes fall across and at the ends of
// the eight-byte words it reads.
func TestEscapesSlashOrDot(t *testing.T) {
	const alphabet = "%2fFeE/a.\xa5"
	check := func(s string) {
		t.Helper()
		if got, want := escapesSlashOrDot(s), escapesSlashOrDotSimple(s); got != want {
			t.Fatalf("escapesSlashOrDot(%q) = %v, want %v", s, got, want)
		}
	}
	var all func(prefix string, n int)
	all = func(prefix string, n int) {
		check(prefix)
		if n == 0 {
			return
		}
		for i := 0; i < len(alphabet); i++ {
			all(prefix+alphabet[i:i+1], n-1)
		}
	}
	all("", 4)
	rng := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, 40)
	for range 200000 {
		n := rng.IntN(len(b) + 1)
		for i := range n {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		check(string(b[:n]))
	}
	for _, s := range []string{"/%72epos/x/y/z/w/v/u/t/%2e", "/abcdefg%2", "/abcdefg%2F", "/abcdef%2f", "%2E", "/a%2"} {
		check(s)
	}
}
