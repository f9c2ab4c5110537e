package compress

import (
	"net/http"
	"testing"
)

// TestAllocs asserts the steady-state allocations of a request through the
// compressor, with warm pools, a handler that allocates nothing and a
// ResponseWriter that discards the body.
func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop filters, and their encoders")
	}
	json4k := jsonBody(4 << 10)
	json256k := jsonBody(256 << 10)
	for _, tt := range []struct {
		name  string
		ae    string
		body  []byte
		flush bool
		max   float64
	}{
		{"gzip 4 KiB", "gzip", json4k, false, 0},
		{"zstd 4 KiB", "zstd", json4k, false, 0},
		{"below MinSize", "gzip", json4k[:100], false, 0},
		{"not accepted", "-", json4k, false, 0},
		// Documented in the package: zstd writes the frame header and
		// the checksum of a stream of more than one block through an
		// interface, which allocates them.
		{"gzip 256 KiB", "gzip", json256k, false, 0},
		{"zstd 256 KiB", "zstd", json256k, false, 2},
		{"gzip flushed", "gzip", json4k, true, 0},
		{"zstd flushed", "zstd", json4k, true, 2},
	} {
		h := New(nil)(writeJSON(tt.body))
		if tt.flush {
			h = New(nil)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header()["Content-Type"] = jsonType
				w.Write(tt.body[:100])
				w.(http.Flusher).Flush()
				w.Write(tt.body[100:])
			}))
		}
		req := newRequest(http.MethodGet, tt.ae)
		w := newNopWriter()
		run := func() {
			w.reset()
			h.ServeHTTP(w, req)
		}
		for range 10 {
			run() // warm the pools
		}
		allocs := testing.AllocsPerRun(100, run)
		t.Logf("%s: %v allocations per request", tt.name, allocs)
		if allocs > tt.max {
			t.Errorf("%s: %v allocations per request, want at most %v", tt.name, allocs, tt.max)
		}
	}
}
