package cairn

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"runtime/debug"
	"testing"
	"unsafe"
)

// TestSlab checks that a slab hands out distinct zero values, that the
// values it leaves unused in its last array are at most a quarter of those
// in use (or those of its smallest size class), and that its arrays fill
// their size classes: the heap grows by the values' own size, not by the
// next class up, for each kind of value that routers allocate from slabs.
func TestSlab(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var b slabs
	checkSlab(t, "ident", &b.idents)
	checkSlab(t, "route", &b.routes)
	checkSlab(t, "lookupNode", &b.nodes)
	checkSlab(t, "leaf", &b.leaves)
}

// checkSlab is TestSlab for the slab s of values of one type.
func checkSlab[T any](t *testing.T, name string, s *slab[T]) {
	const n = 10000
	size := int(unsafe.Sizeof(*new(T)))
	var before, after runtime.MemStats
	ptrs := make([]*T, n)
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range ptrs {
		ptrs[i] = s.new()
		if !reflect.ValueOf(ptrs[i]).Elem().IsZero() {
			t.Fatalf("%s: value %d is not zero", name, i)
		}
		// The values in use are those made less those left.
		if unused, used := len(s.free)*size, (s.made-len(s.free))*size; unused > max(used/4, slabClasses[len(slabClasses)-1]) {
			t.Fatalf("%s: %d values in use, %d bytes unused", name, s.made-len(s.free), unused)
		}
	}
	runtime.ReadMemStats(&after)
	seen := make(map[*T]bool, n)
	for _, p := range ptrs {
		if seen[p] {
			t.Fatalf("%s: a value handed out twice", name)
		}
		seen[p] = true
	}
	// An array that overflowed its size class would cost 4% more for a
	// value of 48 bytes.
	got := float64(after.HeapAlloc-before.HeapAlloc) / n
	if max := float64(size) * 1.035; got > max {
		t.Errorf("%s: %.1f bytes a value of %d, more than %.1f", name, got, size, max)
	}
	runtime.KeepAlive(ptrs)
}

// TestSlabsBeforeServing checks that a router allocates from its slabs
// only before it serves: once a lookup may read its table, it makes what
// a change adds one value at a time.
func TestSlabsBeforeServing(t *testing.T) {
	r := New()
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	r.Handle("GET /a", h)
	if r.slabs == nil || r.slabs.routes.made == 0 {
		t.Fatal("no slabs before serving")
	}
	// A router of one route keeps nothing unused.
	if sl := r.slabs; len(sl.idents.free)+len(sl.routes.free)+len(sl.nodes.free)+len(sl.leaves.free) != 0 {
		t.Errorf("a router of one route leaves values unused: %d identities, %d routes, %d nodes, %d leaves",
			len(sl.idents.free), len(sl.routes.free), len(sl.nodes.free), len(sl.leaves.free))
	}
	r.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/a", nil))
	if r.slabs != nil {
		t.Error("slabs kept once the router serves")
	}
	r.Handle("GET /b", h) // must not panic on the nil slabs
	w := httptest.NewRecorder()
	r.ServeHTTP(w, httptest.NewRequest("GET", "/b", nil))
	if w.Code != 200 {
		t.Errorf("GET /b: %d", w.Code)
	}
}
