package benchmarks

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"testing"
	"time"
)

// growthKinds and growthSizes are the route sets of BenchmarkGrowth and
// BenchmarkRegister, and growthDepths the path depths of BenchmarkDepth. The
// report generator parses the names they make: <kind>/routes=<n> and
// depth=<d>.
var (
	growthKinds  = []string{GrowthStatic, GrowthParam}
	growthSizes  = []int{10, 100, 1000, 10000, 100000}
	growthDepths = []int{1, 2, 4, 8, 16, 32}
)

// growthWriter is an http.ResponseWriter that discards everything, so that
// the growth benchmarks measure routing rather than response recording.
type growthWriter struct{ h http.Header }

// newGrowthWriter returns a growthWriter with an empty, reusable header map.
func newGrowthWriter() *growthWriter { return &growthWriter{h: make(http.Header)} }

// Header returns the writer's reusable header map.
func (w *growthWriter) Header() http.Header { return w.h }

// Write discards p and reports it fully written.
func (w *growthWriter) Write(p []byte) (int, error) { return len(p), nil }

// WriteHeader does nothing.
func (w *growthWriter) WriteHeader(int) {}

// A growthRequest is a request for one route of a set, with what its
// handler must see.
//
// Invariant: req is a template that is never served itself: each request
// served is a fresh copy of it (see copyTo), as a server makes a new
// http.Request for each request. A request served again would carry what
// the router stored in it the last time, and a router that keeps path
// values in the request's map, as http.Request.SetPathValue does for
// names the request's pattern lacks, would reuse that map instead of
// paying for a new one.
type growthRequest struct {
	req    *http.Request
	route  int      // index of the route
	values []string // its parameter values, in order
}

// copyTo copies the template request into slot and returns slot.
//
// Optimization: copying into a slot allocated once keeps the copy, some
// 250 bytes moved, from allocating; it costs every router alike.
func (gr growthRequest) copyTo(slot *http.Request) *http.Request {
	*slot = *gr.req
	return slot
}

// newGrowthRequests returns a request for each of the routes at indices idx.
func newGrowthRequests(routes []Route, idx []int) []growthRequest {
	reqs := make([]growthRequest, len(idx))
	for j, i := range idx {
		path, values := routes[i].Request()
		reqs[j] = growthRequest{httptest.NewRequest(routes[i].Method, path, nil), i, values}
	}
	return reqs
}

// serve has h serve gr and returns an error unless the handler of gr's
// route ran and saw its values, as p records.
func (gr growthRequest) serve(h http.Handler, w http.ResponseWriter, p *Probe) error {
	*p = Probe{Route: -1}
	h.ServeHTTP(w, gr.copyTo(new(http.Request)))
	if got := p.Values[:p.N]; p.Route != gr.route || !slices.Equal(got, gr.values) {
		return fmt.Errorf("%s %s: got route %d with %q, want route %d with %q",
			gr.req.Method, gr.req.URL.Path, p.Route, got, gr.route, gr.values)
	}
	return nil
}

// growthBuildBudget is the longest that building one router for a
// growth benchmark may be expected to take. A router predicted to take
// longer is skipped at that size rather than holding up the whole run for
// hours: bunrouter, for one, takes time that grows faster than the square
// of the number of routes to register them (some 3 s for 10,000 routes and
// 20 s for 20,000 on our machine), while the others build 100,000 routes
// in a second or so.
const growthBuildBudget = time.Minute

// growthBuildTimes holds how long building a router took, by
// "kind/routes=n/router=name", for skipSlowBuild to predict from. Only the
// growth benchmarks, which do not run in parallel, use it.
var growthBuildTimes = map[string]time.Duration{}

// growthBuildKey returns the key of growthBuildTimes for building r with
// n routes of kind.
func growthBuildKey(kind string, n int, r Router) string {
	return fmt.Sprintf("%s/routes=%d/router=%s", kind, n, r.Name)
}

// growthBuildTime returns how long building r with n routes of kind took,
// building it now if no earlier benchmark did, and false if r cannot.
func growthBuildTime(r Router, kind string, n int) (time.Duration, bool) {
	key := growthBuildKey(kind, n, r)
	if t, ok := growthBuildTimes[key]; ok {
		return t, true
	}
	start := time.Now()
	if _, err := r.New(GrowthRoutes(kind, n), Options{Probe: new(Probe)}); err != nil {
		return 0, false
	}
	growthBuildTimes[key] = time.Since(start)
	return growthBuildTimes[key], true
}

// skipSlowBuild skips b if building r with n routes of kind is predicted
// to take longer than growthBuildBudget. Above 10,000 routes it predicts
// from the times a tenth and a hundredth as many took, extrapolating the
// growth between them, or quadratic growth if that was slower; no
// prediction is made at smaller sizes, where every router builds in well
// under the budget.
func skipSlowBuild(b *testing.B, r Router, kind string, n int) {
	b.Helper()
	if n <= 10000 {
		return
	}
	t10, ok10 := growthBuildTime(r, kind, n/10)
	t100, ok100 := growthBuildTime(r, kind, n/100)
	if !ok10 || !ok100 {
		return // building n will report why
	}
	factor := 100.0
	if t100 > 0 {
		factor = max(factor, float64(t10)/float64(t100))
	}
	if predicted := time.Duration(float64(t10) * factor); predicted > growthBuildBudget {
		b.Skipf("benchmarks: %s: building %d routes would take about %v, extrapolated from %v for %d and %v for %d, more than the budget of %v",
			r.Name, n, predicted.Round(time.Second), t10.Round(time.Millisecond), n/10, t100.Round(time.Millisecond), n/100, growthBuildBudget)
	}
}

// buildGrowth returns r's handler for routes of kind, skipping b if r
// cannot express them or would take too long to build them, and checks
// that it serves reqs.
func buildGrowth(b *testing.B, r Router, kind string, routes []Route, reqs []growthRequest) (http.Handler, *Probe) {
	b.Helper()
	skipSlowBuild(b, r, kind, len(routes))
	p := new(Probe)
	start := time.Now()
	h, err := r.New(routes, Options{Probe: p})
	growthBuildTimes[growthBuildKey(kind, len(routes), r)] = time.Since(start)
	if errors.Is(err, ErrUnsupported) {
		b.Skip(err)
	}
	if err != nil {
		b.Fatal(err)
	}
	w := newGrowthWriter()
	for _, gr := range reqs {
		if err := gr.serve(h, w, p); err != nil {
			b.Fatalf("%s: %v", r.Name, err)
		}
	}
	// The garbage of building, collected now rather than by a cycle that
	// would run during the measurement: with 100 000 routes, such a cycle
	// doubled the time of some runs, for one router and not another.
	runtime.GC()
	return h, p
}

// BenchmarkGrowth measures how the cost of a lookup grows with the number
// of routes. An op is one request, through ServeHTTP, for one of 64 routes
// spread over the set, taken in turn so that caches and branch predictors
// do not learn a single path. Building the router is not timed.
func BenchmarkGrowth(b *testing.B) {
	for _, kind := range growthKinds {
		b.Run(kind, func(b *testing.B) {
			for _, n := range growthSizes {
				b.Run(fmt.Sprintf("routes=%d", n), func(b *testing.B) {
					routes := GrowthRoutes(kind, n)
					reqs := newGrowthRequests(routes, growthSample(n))
					for _, r := range Routers() {
						b.Run("router="+r.Name, func(b *testing.B) {
							benchmarkLookup(b, r, kind, routes, reqs)
						})
					}
				})
			}
		})
	}
}

// benchmarkLookup builds r's handler for routes of kind, once, and
// measures requests cycling through reqs.
func benchmarkLookup(b *testing.B, r Router, kind string, routes []Route, reqs []growthRequest) {
	h, _ := buildGrowth(b, r, kind, routes, reqs)
	w := newGrowthWriter()
	slot := new(http.Request)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		h.ServeHTTP(w, reqs[i%len(reqs)].copyTo(slot))
		i++
	}
}

// BenchmarkRegister measures building a router. An op is registering all
// the routes of a set and serving one request, so that routers that
// compile their lookup structures on the first request, as cairn does, pay
// for it as those that build them while registering. It reports the time
// per route (ns/route) and the heap a built router retains per route
// (B/route), measured once, between two garbage collections around the
// building of one router. Both include what the benchmarks' own handlers
// cost, a closure per route, alike for every router; the routes' patterns
// and parameter names are made with the route list, as those of a program
// are written in its source (see Route).
func BenchmarkRegister(b *testing.B) {
	for _, kind := range growthKinds {
		b.Run(kind, func(b *testing.B) {
			for _, n := range growthSizes {
				b.Run(fmt.Sprintf("routes=%d", n), func(b *testing.B) {
					routes := GrowthRoutes(kind, n)
					reqs := newGrowthRequests(routes, growthSample(n))
					for _, r := range Routers() {
						b.Run("router="+r.Name, func(b *testing.B) {
							benchmarkRegister(b, r, kind, routes, reqs[0])
						})
					}
				})
			}
		})
	}
}

// settledHeap returns the bytes of live heap objects once the heap has
// settled: after a collection, and after the cleanups that collections
// start have run. A router may keep what it made until a cleanup runs
// (cairn's registry of pattern identities holds a router's identities
// until the cleanup attached to the router removes them), so the heap
// read right after one collection can still hold the routers of earlier
// benchmarks, and lose them while the next router is built, which would
// understate what that router keeps.
func settledHeap() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	for range 50 {
		prev := m.HeapAlloc
		time.Sleep(time.Millisecond)
		runtime.GC()
		runtime.ReadMemStats(&m)
		if m.HeapAlloc+64<<10 > prev {
			break // less than 64 KiB freed: settled
		}
	}
	return m.HeapAlloc
}

// benchmarkRegister measures building r's handler for routes of kind and
// serving first with it.
func benchmarkRegister(b *testing.B, r Router, kind string, routes []Route, first growthRequest) {
	skipSlowBuild(b, r, kind, len(routes))
	p := new(Probe)
	w := newGrowthWriter()
	build := func() (http.Handler, error) {
		h, err := r.New(routes, Options{Probe: p})
		if err != nil {
			return nil, err
		}
		h.ServeHTTP(w, first.copyTo(new(http.Request)))
		return h, nil
	}

	before := settledHeap()
	start := time.Now()
	h, err := build()
	growthBuildTimes[growthBuildKey(kind, len(routes), r)] = time.Since(start)
	after := settledHeap()
	if errors.Is(err, ErrUnsupported) {
		b.Skip(err)
	}
	if err != nil {
		b.Fatal(err)
	}
	if err := first.serve(h, w, p); err != nil {
		b.Fatalf("%s: %v", r.Name, err)
	}
	runtime.KeepAlive(h)
	retained := float64(after) - float64(before)
	h = nil

	b.ReportAllocs()
	for b.Loop() {
		if _, err := build(); err != nil {
			b.Fatal(err)
		}
	}
	n := float64(len(routes))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/route")
	b.ReportMetric(retained/n, "B/route")
}

// BenchmarkDepth measures how the cost of a lookup grows with the depth of
// the path: one route of d segments, alternating a literal and a parameter
// (see DepthRoute), and an op is one request for it.
func BenchmarkDepth(b *testing.B) {
	for _, d := range growthDepths {
		b.Run(fmt.Sprintf("depth=%d", d), func(b *testing.B) {
			routes := []Route{DepthRoute(d)}
			reqs := newGrowthRequests(routes, []int{0})
			for _, r := range Routers() {
				b.Run("router="+r.Name, func(b *testing.B) {
					benchmarkLookup(b, r, fmt.Sprintf("depth=%d", d), routes, reqs)
				})
			}
		})
	}
}

// TestGrowthRoutes checks the generated route sets: their size, that their
// routes are distinct GET routes of the right shape, and that every router
// serves a sample of a set of 1000 and every depth route correctly.
func TestGrowthRoutes(t *testing.T) {
	for _, kind := range growthKinds {
		for _, n := range []int{0, 1, 10, 1000} {
			routes := GrowthRoutes(kind, n)
			if len(routes) != n {
				t.Errorf("%s: got %d routes, want %d", kind, len(routes), n)
			}
			seen := make(map[string]bool)
			for _, rt := range routes {
				wantParams := 0
				if kind == GrowthParam {
					wantParams = 1
				}
				if rt.Method != "GET" || len(rt.Params()) != wantParams || seen[rt.Path] {
					t.Errorf("%s, routes=%d: %q: want a new GET route with %d parameter(s)", kind, n, rt, wantParams)
				}
				seen[rt.Path] = true
			}
		}
	}
	for _, tt := range []struct {
		name   string
		routes []Route
		sample []int
	}{
		{"static/routes=1000", GrowthRoutes(GrowthStatic, 1000), growthSample(1000)},
		{"param/routes=1000", GrowthRoutes(GrowthParam, 1000), growthSample(1000)},
		{"depth=1", []Route{DepthRoute(1)}, []int{0}},
		{"depth=7", []Route{DepthRoute(7)}, []int{0}},
		{"depth=32", []Route{DepthRoute(32)}, []int{0}},
	} {
		reqs := newGrowthRequests(tt.routes, tt.sample)
		for _, r := range Routers() {
			t.Run(tt.name+"/router="+r.Name, func(t *testing.T) {
				p := new(Probe)
				h, err := r.New(tt.routes, Options{Probe: p})
				if err != nil {
					t.Fatal(err)
				}
				w := newGrowthWriter()
				for _, gr := range reqs {
					if err := gr.serve(h, w, p); err != nil {
						t.Error(err)
					}
				}
			})
		}
	}
}

// TestDepthRoute checks the shape of depth routes.
func TestDepthRoute(t *testing.T) {
	for _, tt := range []struct {
		d    int
		want string
	}{
		{1, "/s0"},
		{2, "/s0/:p1"},
		{5, "/s0/:p1/s2/:p3/s4"},
	} {
		if got := DepthRoute(tt.d).Path; got != tt.want {
			t.Errorf("DepthRoute(%d): got %q, want %q", tt.d, got, tt.want)
		}
	}
	if got := len(DepthRoute(32).Params()); got != 16 {
		t.Errorf("DepthRoute(32): got %d parameters, want 16", got)
	}
}

// TestGrowthSample checks that samples stay in range and spread over the
// whole set.
func TestGrowthSample(t *testing.T) {
	for _, n := range []int{1, 10, 64, 1000, 100000} {
		s := growthSample(n)
		if len(s) != growthSampleSize || s[0] < 0 || s[len(s)-1] >= n || !slices.IsSorted(s) {
			t.Errorf("growthSample(%d) = %v: want %d sorted indices in [0, %d)", n, s, growthSampleSize, n)
		}
		if n >= growthSampleSize && (s[0] > n/growthSampleSize || s[len(s)-1] < n-n/growthSampleSize) {
			t.Errorf("growthSample(%d) = %v: does not span the set", n, s)
		}
	}
}
