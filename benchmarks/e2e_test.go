package benchmarks

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// e2eRouters are the routers BenchmarkEndToEnd measures: cairn, the
// standard library and the two most used peers are enough to put the
// router's cost in proportion.
var e2eRouters = []string{"cairn", "servemux", "chi", "httprouter"}

// e2eMinRequests is the fewest requests a BenchmarkEndToEnd run sends,
// however small b.N, so that its percentiles mean something.
const e2eMinRequests = 200

// BenchmarkEndToEnd serves the GitHub API's 203 routes over loopback with
// each router of e2eRouters and sends them max(b.N, 200) requests, cycling
// through all routes, from 8 concurrent keep-alive clients (see LoadTest).
// Handlers write their parameter values to the response. An op is one
// request: ns/op is the run's wall time divided by its requests, the
// inverse of req/s; p50-ns and p99-ns are latency percentiles, which
// include the wait behind the other requests in flight.
//
// The router's share of a request's cost: BenchmarkAPI/github measures
// one lookup of each of the 203 routes per op on one core, so a lookup
// costs its ns/op / 203. The end-to-end ns/op is wall time with the client
// and the server sharing GOMAXPROCS busy cores, so a request costs about
// ns/op × GOMAXPROCS of CPU time, client included. The share is then
//
//	(BenchmarkAPI/github ns/op / 203) / (BenchmarkEndToEnd ns/op × GOMAXPROCS)
//
// for instance (14 µs / 203) / (25 µs × 2) ≈ 0.14%. Counting the server's
// half of the CPU time only roughly doubles it. The difference between two
// routers' end-to-end ns/op is a direct, if noisy, measure of the same.
func BenchmarkEndToEnd(b *testing.B) {
	routes, err := LoadRoutes("github")
	if err != nil {
		b.Fatal(err)
	}
	targets := Targets(routes)
	b.Run("github", func(b *testing.B) {
		for _, r := range Routers() {
			if !slices.Contains(e2eRouters, r.Name) {
				continue
			}
			b.Run("router="+r.Name, func(b *testing.B) {
				h, err := r.New(routes, Options{Write: true})
				if err != nil {
					b.Fatal(err)
				}
				cfg := LoadConfig{
					Concurrency: 8,
					MaxRequests: max(b.N, e2eMinRequests),
					Duration:    time.Minute,
					Warmup:      8,
				}
				res, err := LoadTest(context.Background(), h, targets, cfg)
				if err != nil {
					b.Fatal(err)
				}
				if res.Errors > 0 || res.Requests == 0 {
					b.Fatalf("%s: %v; first error: %v", r.Name, res, res.Err)
				}
				b.ReportMetric(float64(res.Elapsed.Nanoseconds())/float64(res.Requests), "ns/op")
				b.ReportMetric(res.RPS, "req/s")
				b.ReportMetric(float64(res.P50.Nanoseconds()), "p50-ns")
				b.ReportMetric(float64(res.P99.Nanoseconds()), "p99-ns")
			})
		}
	})
}

// loadCounter counts the requests it serves, then passes them to h.
type loadCounter struct {
	n atomic.Int64
	h http.Handler
}

// ServeHTTP counts req and serves it with c.h.
func (c *loadCounter) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	c.n.Add(1)
	c.h.ServeHTTP(w, req)
}

// TestLoadTest runs short load tests of cairn over loopback and checks
// what they count: every request sent reaches the handler, failures are
// errors, and the duration bounds a run that the request count does not.
func TestLoadTest(t *testing.T) {
	routes, err := LoadRoutes("github")
	if err != nil {
		t.Fatal(err)
	}
	cairnHandler, err := Cairn.New(routes, Options{Write: true})
	if err != nil {
		t.Fatal(err)
	}
	slow := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		select {
		case <-time.After(20 * time.Millisecond):
		case <-req.Context().Done():
		}
	})
	for _, tt := range []struct {
		name      string
		h         http.Handler
		targets   []Target
		cfg       LoadConfig
		requests  int  // exact count wanted, or -1 for some but not all
		errors    bool // whether every request must fail
		maxServed int  // most requests the handler may see
	}{
		{
			name:      "github",
			h:         cairnHandler,
			targets:   Targets(routes),
			cfg:       LoadConfig{Concurrency: 4, MaxRequests: 200, Duration: 10 * time.Second, Warmup: 2},
			requests:  200,
			maxServed: 200 + 4*2,
		},
		{
			name:      "not found",
			h:         cairnHandler,
			targets:   []Target{{"GET", "/no/such/route"}},
			cfg:       LoadConfig{Concurrency: 2, MaxRequests: 20, Duration: 10 * time.Second},
			requests:  0,
			errors:    true,
			maxServed: 20,
		},
		{
			name:      "duration",
			h:         slow,
			targets:   []Target{{"GET", "/"}},
			cfg:       LoadConfig{Concurrency: 2, MaxRequests: 1e6, Duration: 200 * time.Millisecond},
			requests:  -1,
			maxServed: 2 * 12,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			c := &loadCounter{h: tt.h}
			res, err := LoadTest(ctx, c, tt.targets, tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			t.Log(res)
			served := int(c.n.Load())
			switch {
			case tt.requests >= 0 && res.Requests != tt.requests:
				t.Errorf("got %d requests, want %d", res.Requests, tt.requests)
			case tt.requests < 0 && (res.Requests == 0 || res.Requests >= tt.cfg.MaxRequests):
				t.Errorf("got %d requests, want some but fewer than %d", res.Requests, tt.cfg.MaxRequests)
			}
			if tt.errors {
				if res.Errors != tt.cfg.MaxRequests || res.Err == nil || !strings.Contains(res.Err.Error(), "404") {
					t.Errorf("got %d errors (first %v), want %d errors for status 404", res.Errors, res.Err, tt.cfg.MaxRequests)
				}
			} else if res.Errors != 0 {
				t.Errorf("got %d errors, first %v, want none", res.Errors, res.Err)
			}
			if served < res.Requests+res.Errors || served > tt.maxServed {
				t.Errorf("handler served %d requests, want between %d and %d", served, res.Requests+res.Errors, tt.maxServed)
			}
			if res.Requests > 0 && (res.P50 <= 0 || res.P50 > res.P99 || res.RPS <= 0) {
				t.Errorf("got p50 %v, p99 %v, %v req/s: want 0 < p50 <= p99 and a positive rate", res.P50, res.P99, res.RPS)
			}
			if res.Elapsed > tt.cfg.Duration+time.Second {
				t.Errorf("run took %v, want at most about %v", res.Elapsed, tt.cfg.Duration)
			}
		})
	}
}

// TestLoadTestConfig checks that LoadTest refuses unbounded runs.
func TestLoadTestConfig(t *testing.T) {
	h := http.NotFoundHandler()
	targets := []Target{{"GET", "/"}}
	for _, cfg := range []LoadConfig{
		{Concurrency: 0, MaxRequests: 1, Duration: time.Second},
		{Concurrency: 1, MaxRequests: 0, Duration: time.Second},
		{Concurrency: 1, MaxRequests: 1, Duration: 0},
		{Concurrency: 1, MaxRequests: 1, Duration: time.Second, Warmup: -1},
	} {
		if _, err := LoadTest(context.Background(), h, targets, cfg); err == nil {
			t.Errorf("%+v: got no error, want one", cfg)
		}
	}
	cfg := LoadConfig{Concurrency: 1, MaxRequests: 1, Duration: time.Second}
	if _, err := LoadTest(context.Background(), h, nil, cfg); err == nil {
		t.Errorf("no targets: got no error, want one")
	}
}

// TestPercentile checks the nearest-rank percentiles.
func TestPercentile(t *testing.T) {
	ten := []time.Duration{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, tt := range []struct {
		sorted []time.Duration
		p      float64
		want   time.Duration
	}{
		{nil, 50, 0},
		{[]time.Duration{7}, 50, 7},
		{[]time.Duration{7}, 99, 7},
		{ten, 50, 5},
		{ten, 99, 10},
		{ten, 10, 1},
		{ten, 11, 2},
		{ten, 100, 10},
	} {
		if got := percentile(tt.sorted, tt.p); got != tt.want {
			t.Errorf("percentile(%v, %v): got %v, want %v", tt.sorted, tt.p, got, tt.want)
		}
	}
}
