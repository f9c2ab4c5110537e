package metrics_test

import (
	"net/http/httptest"
	"testing"

	"github.com/cairn-go/cairn/metrics"
	"github.com/prometheus/client_golang/prometheus"
)

// allocRequests are the requests of the allocation test and the benchmark:
// a matched route with a wildcard, a 404, a 405, a group's route and a
// route of a mounted Router. bare is the allocation count of the router
// alone, which the middleware must not raise.
var allocRequests = []struct {
	name, method, target string
	bare                 float64
}{
	{"matched", "GET", "/users/7", 0},
	{"404", "GET", "/nothing/here", 0},
	{"405", "DELETE", "/users/7", 0},
	{"group", "GET", "/api/items/3", 0},
	{"mounted", "GET", "/orgs/acme/repos/9", 3}, // the request copy and the prefix's wildcard value
}

// TestAllocations asserts that the middleware allocates nothing per
// request once its series exist, around the router and added with Use.
func TestAllocations(t *testing.T) {
	for _, tt := range allocRequests {
		req := httptest.NewRequest(tt.method, tt.target, nil)
		w := newNopWriter()
		bare := newRouter()
		if got := testing.AllocsPerRun(100, func() { bare.ServeHTTP(w, req) }); got != tt.bare {
			t.Errorf("%s without metrics: got %v allocations, want %v", tt.name, got, tt.bare)
		}
		for _, p := range []placement{wrapRouter, useRouter} {
			h := instrument(newRouter(), metrics.New(&metrics.Options{Registerer: prometheus.NewRegistry()}), p)
			h.ServeHTTP(w, req) // makes the series
			if got := testing.AllocsPerRun(100, func() { h.ServeHTTP(w, req) }); got != tt.bare {
				t.Errorf("%s, %v: got %v allocations, want %v", tt.name, p, got, tt.bare)
			}
		}
	}
}

// BenchmarkServeHTTP measures a request through the router alone, and
// with the middleware around it and added with Use.
func BenchmarkServeHTTP(b *testing.B) {
	for _, tt := range allocRequests {
		for _, p := range []placement{noMetrics, wrapRouter, useRouter} {
			b.Run(tt.name+"/metrics="+p.String(), func(b *testing.B) {
				h := instrument(newRouter(), metrics.New(&metrics.Options{Registerer: prometheus.NewRegistry()}), p)
				req := httptest.NewRequest(tt.method, tt.target, nil)
				w := newNopWriter()
				b.ReportAllocs()
				for b.Loop() {
					h.ServeHTTP(w, req)
				}
			})
		}
	}
}

// BenchmarkParallel measures the middleware around the router with
// requests for one series from all Ps at once, where the series' atomic
// counters are shared.
func BenchmarkParallel(b *testing.B) {
	h := instrument(newRouter(), metrics.New(&metrics.Options{Registerer: prometheus.NewRegistry()}), wrapRouter)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		req := httptest.NewRequest("GET", "/users/7", nil)
		w := newNopWriter()
		for pb.Next() {
			h.ServeHTTP(w, req)
		}
	})
}
