package cairn

import (
	"math/rand/v2"
	"testing"
)

// TestStrTableOracle checks strTable against a Go map, the simple version
// it replaced: random keys of every length up to 40, set, overwritten and
// looked up with keys present and absent, and iterated, in tables grown
// from empty and made to size.
func TestStrTableOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	randomKey := func() string {
		b := make([]byte, rng.IntN(41))
		for i := range b {
			b[i] = "/ab%."[rng.IntN(5)]
		}
		return string(b)
	}
	for range 300 {
		// Half the tables are made to size, and must not grow.
		n := rng.IntN(200)
		tbl, sized := &strTable[int]{}, rng.IntN(2) == 0
		if sized {
			tbl = newStrTable[int](n)
		}
		slots := len(tbl.slots)
		want := map[string]int{}
		for i := range n {
			k := randomKey()
			tbl.set(k, i)
			want[k] = i
			if tbl.len() != len(want) {
				t.Fatalf("after set(%q): len %d, want %d", k, tbl.len(), len(want))
			}
		}
		if sized && (len(tbl.slots) != slots || cap(tbl.entries) != n) {
			t.Fatalf("a table made for %d keys grew: %d slots, room for %d entries", n, len(tbl.slots), cap(tbl.entries))
		}
		if sized && slots > 8 && slots/2 >= 2*n {
			t.Fatalf("a table made for %d keys has %d slots; half as many take them", n, slots)
		}
		for range 200 {
			k := randomKey()
			got, ok := tbl.get(k)
			w, wok := want[k]
			if got != w || ok != wok {
				t.Fatalf("get(%q) = %d, %v; want %d, %v", k, got, ok, w, wok)
			}
		}
		seen := 0
		for k, v := range tbl.all {
			if want[k] != v {
				t.Fatalf("all yields %q: %d, want %d", k, v, want[k])
			}
			seen++
		}
		if seen != len(want) {
			t.Fatalf("all yields %d entries, want %d", seen, len(want))
		}
	}
	var empty *strTable[int]
	if v, ok := empty.get("x"); v != 0 || ok || empty.len() != 0 {
		t.Errorf("nil table: get = %d, %v; len %d", v, ok, empty.len())
	}
}
