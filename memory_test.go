package cairn

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestStructSizes keeps the structures that every route or tree node has
// within the size classes they were fitted to: each byte over a class
// boundary costs the whole next class for every route.
func TestStructSizes(t *testing.T) {
	for _, c := range []struct {
		name      string
		size, max uintptr
	}{
		{"route", unsafe.Sizeof(route{}), 48},
		{"leaf", unsafe.Sizeof(leaf{}), 24},
		{"lookupNode", unsafe.Sizeof(lookupNode{}), 48},
		{"pattern", unsafe.Sizeof(pattern{}), 32},
		{"segment", unsafe.Sizeof(segment{}), 24},
		{"ident", unsafe.Sizeof(ident{}), 48}, // with its pattern
		{"layout", unsafe.Sizeof(layout{}), 64},
	} {
		if c.size > c.max {
			t.Errorf("%s is %d bytes, more than %d", c.name, c.size, c.max)
		}
	}
}

// TestRegistrationAllocations bounds the allocations that registering a
// route costs, static and with a wildcard, averaged over a router of 1000
// routes: what a route keeps comes from slabs (see slab), so what is
// left is the arrays of slabs and tables as they grow.
func TestRegistrationAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes what escapes to the heap; CI runs this test without it")
	}
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	for _, c := range []struct {
		name   string
		suffix string
		max    float64
	}{
		{"static", "", 0.5},
		{"param", "/{id}", 0.5},
	} {
		patterns := make([]string, 1000)
		for i := range patterns {
			patterns[i] = "GET /api/r" + strconv.Itoa(i) + c.suffix
		}
		allocs := testing.AllocsPerRun(3, func() {
			r := New()
			for _, p := range patterns {
				r.Handle(p, h)
			}
		}) / float64(len(patterns))
		t.Logf("%s: %.2f allocations per route", c.name, allocs)
		if allocs > c.max {
			t.Errorf("%s: %.2f allocations per route, more than %v", c.name, allocs, c.max)
		}
	}
}

// TestCopyPattern checks that the copies of patterns a router packs into
// blocks keep their bytes as more are added, and that no two share a first
// byte, within a router or across two that copy the same strings.
func TestCopyPattern(t *testing.T) {
	patterns := make([]string, 3000)
	for i := range patterns {
		// From 1 to 600 bytes, and a few longer than a block.
		patterns[i] = strings.Repeat("p", i%200*3) + strconv.Itoa(i)
		if i%500 == 0 {
			patterns[i] = strings.Repeat("q", maxPatternBlock+i)
		}
	}
	var copies []string
	for range 2 {
		r := New()
		r.mu.Lock()
		for _, s := range patterns {
			copies = append(copies, r.copyPattern(s))
		}
		r.mu.Unlock()
	}
	seen := make(map[*byte]bool)
	for i, c := range copies {
		if want := patterns[i%len(patterns)]; c != want {
			t.Fatalf("copy %d is %.20q..., want %.20q...", i, c, want)
		}
		k := unsafe.StringData(c)
		if seen[k] {
			t.Fatalf("copy %d shares its first byte with another", i)
		}
		seen[k] = true
	}
}
