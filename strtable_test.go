package cairn

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestStrTableLarge checks a table whose positions take most of its
// slots' bits: 100 000 keys, in 1<<18 slots, keep a tag of 14 bits.
func TestStrTableLarge(t *testing.T) {
	const n = 100_000
	tbl := &strTable[int]{}
	for i := range n {
		tbl.set("/api/r"+strconv.Itoa(i), i)
	}
	if len(tbl.slots) != 1<<18 || tbl.pos != 1<<18-1 {
		t.Fatalf("%d keys in %d slots, want 1<<18", n, len(tbl.slots))
	}
	for i := range n {
		if v, ok := tbl.get("/api/r" + strconv.Itoa(i)); v != i || !ok {
			t.Fatalf("get(/api/r%d) = %d, %v", i, v, ok)
		}
		if v, ok := tbl.get("/api/x" + strconv.Itoa(i)); ok {
			t.Fatalf("get(/api/x%d) = %d, %v; want none", i, v, ok)
		}
	}
}

// TestStrTableOracle checks strTable against a Go map, the simple version
// it replaced: random keys of every length up to 40, set, overwritten,
// looked up (every key set, and random keys, mostly absent) and iterated,
// in tables grown from empty and made to size.
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
		for k, w := range want {
			if got, ok := tbl.get(k); got != w || !ok {
				t.Fatalf("get(%q) = %d, %v; want %d, true", k, got, ok, w)
			}
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

// TestStrHashSpread checks that strHash spreads real keys over a table's
// slots: the static paths and segments of the route lists in testdata, and
// keys that differ only in a counter, as generated routes do. With slots
// at most half full, linear probing finds a key of well-spread hashes in
// about 1.5 probes on average; a hash that clusters such keys needs many
// more.
func TestStrHashSpread(t *testing.T) {
	sets := map[string][]string{}
	// The lists large enough for an average to mean something: Google+
	// and Parse have fewer than 50 paths.
	for _, name := range []string{"static", "github"} {
		data, err := os.ReadFile("testdata/" + name + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		paths, segs := map[string]bool{}, map[string]bool{}
		for _, line := range strings.Split(string(data), "\n") {
			f := strings.Fields(line)
			if len(f) != 2 || strings.HasPrefix(f[0], "#") {
				continue
			}
			paths[f[1]] = true
			for _, s := range strings.Split(f[1], "/") {
				segs[s] = true
			}
		}
		sets[name+" paths"] = slices.Collect(maps.Keys(paths))
		sets[name+" segments"] = slices.Collect(maps.Keys(segs))
	}
	for _, n := range []int{1000, 100000} {
		var paths, segs []string
		for i := range n {
			paths = append(paths, "/api/v1/r"+strconv.Itoa(i))
			segs = append(segs, "r"+strconv.Itoa(i))
		}
		sets["generated paths "+strconv.Itoa(n)] = paths
		sets["generated segments "+strconv.Itoa(n)] = segs
	}
	for name, keys := range sets {
		tbl := newStrTable[int](len(keys))
		for i, k := range keys {
			tbl.set(k, i)
		}
		mask := uint64(len(tbl.slots) - 1)
		total := 0
		for i, s := range tbl.slots {
			if s == 0 {
				continue
			}
			home := strHash(tbl.entries[s&tbl.pos-1].key) & mask
			total += 1 + int((uint64(i)-home)&mask)
		}
		if avg := float64(total) / float64(len(keys)); avg > 1.7 {
			t.Errorf("%s: %d keys in %d slots take %.2f probes on average, want about 1.5", name, len(keys), len(tbl.slots), avg)
		}
	}
}

// TestTrimOnPublish checks that the hash tables a router fills before its
// first request, the index of static paths and the literal children of a
// wide node, have entries of their length once it is published, as has its
// list of routes, and still find every route; and that tables made after
// that are left alone.
func TestTrimOnPublish(t *testing.T) {
	r := New()
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	const n = 600 // past 512, the entries grow room for 1024
	for i := range n {
		// Without a method, so that the routes are in the lookup trees
		// too, not only in the indexes of static paths (see
		// change.addRoute).
		r.Handle(fmt.Sprintf("/wide/r%d", i), h)
		r.Handle(fmt.Sprintf("h.example/r%d", i), h)    // a host's index
		r.Handle(fmt.Sprintf("GET h%d.example/", i), h) // the table of hosts
	}
	// The tables to trim, with the entries each must keep.
	type table struct {
		name    string
		entries func() int // len and cap of the entries
		caps    func() int
		want    int
	}
	tab := r.tab
	if len(tab.wide) != 2 {
		t.Fatalf("%d wide tables before publishing, want 2 (/wide/ and h.example's root)", len(tab.wide))
	}
	hostIndex := tab.hosts.get("h.example").static.base
	tables := []table{
		{"static index", func() int { return len(tab.noHost.static.base.entries) }, func() int { return cap(tab.noHost.static.base.entries) }, n},
		{"a host's static index", func() int { return len(hostIndex.entries) }, func() int { return cap(hostIndex.entries) }, n},
		{"hosts", func() int { return len(tab.hosts.base.entries) }, func() int { return cap(tab.hosts.base.entries) }, n + 1},
	}
	for i, lm := range tab.wide {
		tables = append(tables, table{fmt.Sprintf("literal children %d", i), func() int { return len(lm.base.entries) }, func() int { return cap(lm.base.entries) }, n})
	}
	for _, tt := range tables {
		if tt.caps() < 1024 {
			t.Fatalf("%s: room for %d entries before publishing: the test does not test trim", tt.name, tt.caps())
		}
	}
	if cap(r.routes) < 2048 {
		t.Fatalf("room for %d routes before publishing: the test does not test trim", cap(r.routes))
	}
	r.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/wide/r0", nil))
	if r.table.Load() != tab {
		t.Fatal("the published table is not the one filled")
	}
	// The routes too, in the router and in the table.
	wantRoutes := cap(slices.Clone(make([]*route, 3*n)))
	if len(r.routes) != 3*n || cap(r.routes) != wantRoutes || len(tab.routes) != 3*n || &tab.routes[0] != &r.routes[0] {
		t.Errorf("routes: %d, room for %d, the table's %d; want %d, room for %d, the same", len(r.routes), cap(r.routes), len(tab.routes), 3*n, wantRoutes)
	}
	if tab.wide != nil {
		t.Errorf("published table keeps %d wide tables", len(tab.wide))
	}
	// An array of the entries, rounded up to its allocation's size.
	want := cap(slices.Clone(make([]strEntry[*lookupNode], n)))
	wantHosts := cap(slices.Clone(make([]strEntry[*hostTree], n+1)))
	for _, tt := range tables {
		w := want
		if tt.name == "hosts" {
			w = wantHosts
		}
		if tt.entries() != tt.want || tt.caps() != w {
			t.Errorf("%s: %d entries, room for %d, want %d and %d", tt.name, tt.entries(), tt.caps(), tt.want, w)
		}
	}
	for i := range n {
		for _, target := range []string{fmt.Sprintf("/wide/r%d", i), fmt.Sprintf("http://h.example/r%d", i), fmt.Sprintf("http://h%d.example/", i)} {
			w := httptest.NewRecorder()
			r.ServeHTTP(w, httptest.NewRequest("GET", target, nil))
			if w.Code != 200 {
				t.Fatalf("GET %s: %d", target, w.Code)
			}
		}
	}
	for i := range 2 * maxScannedLiterals {
		r.Handle(fmt.Sprintf("GET /late/r%d", i), h)
	}
	if w := r.table.Load().wide; w != nil {
		t.Errorf("a table made after publishing is kept for trim: %d", len(w))
	}
}
