package cairn

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/debug"
	"testing"
	"unsafe"
)

// TestBlock checks that a block hands out distinct zero values, and that
// its arrays fill their size classes: the heap grows by the values' own
// size, not by the next class up, for each kind of value that routers
// allocate from blocks.
func TestBlock(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	const n = 10000
	check := func(name string, size uintptr, alloc func() unsafe.Pointer) {
		t.Helper()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		seen := make(map[unsafe.Pointer]bool, n)
		runtime.ReadMemStats(&before) // after the map
		ptrs := make([]unsafe.Pointer, n)
		for i := range ptrs {
			ptrs[i] = alloc()
		}
		runtime.ReadMemStats(&after)
		for _, p := range ptrs {
			if seen[p] {
				t.Fatalf("%s: a value handed out twice", name)
			}
			seen[p] = true
		}
		// The slice of pointers, and the values.
		got := float64(after.HeapAlloc-before.HeapAlloc-uint64(cap(ptrs))*8) / n
		// An array that overflowed its size class would cost 4% more for
		// a value of 48 bytes.
		if max := float64(size) * 1.035; got > max {
			t.Errorf("%s: %.1f bytes a value of %d, more than %.1f", name, got, size, max)
		}
		runtime.KeepAlive(ptrs)
	}
	var b blocks
	check("ident", unsafe.Sizeof(ident{}), func() unsafe.Pointer {
		v := b.idents.new()
		if *v != (ident{}) {
			t.Fatal("ident: not zero")
		}
		return unsafe.Pointer(v)
	})
	check("route", unsafe.Sizeof(route{}), func() unsafe.Pointer {
		v := b.routes.new()
		if v.handler != nil || v.id != nil || v.group != nil || v.more != nil {
			t.Fatal("route: not zero")
		}
		return unsafe.Pointer(v)
	})
	check("lookupNode", unsafe.Sizeof(lookupNode{}), func() unsafe.Pointer {
		v := b.nodes.new()
		if v.lits != nil || v.wild != nil || v.leaf != nil || v.more != nil {
			t.Fatal("lookupNode: not zero")
		}
		return unsafe.Pointer(v)
	})
	check("leaf", unsafe.Sizeof(leaf{}), func() unsafe.Pointer {
		v := b.leaves.new()
		if *v != (leaf{}) {
			t.Fatal("leaf: not zero")
		}
		return unsafe.Pointer(v)
	})
}

// TestBlocksBeforeServing checks that a router allocates from its blocks
// only before it serves: once a lookup may read its table, it makes what
// a change adds one value at a time.
func TestBlocksBeforeServing(t *testing.T) {
	r := New()
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	r.Handle("GET /a", h)
	if r.blocks == nil || len(r.blocks.routes.free) == 0 {
		t.Fatal("no blocks before serving")
	}
	r.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/a", nil))
	if r.blocks != nil {
		t.Error("blocks kept once the router serves")
	}
	r.Handle("GET /b", h) // must not panic on the nil blocks
	w := httptest.NewRecorder()
	r.ServeHTTP(w, httptest.NewRequest("GET", "/b", nil))
	if w.Code != 200 {
		t.Errorf("GET /b: %d", w.Code)
	}
}
