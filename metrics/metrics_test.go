package metrics_test

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-go/cairn"
	"github.com/cairn-go/cairn/metrics"
	"github.com/cairn-go/cairn/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestRouteLabels checks the labels of requests to every kind of route and
// answer, with the middleware around the router and added with Use.
func TestRouteLabels(t *testing.T) {
	requests := []struct {
		method, target string
		code           int
		want           string
	}{
		{"GET", "/users/7", 200, key("GET", "GET /users/{id}", "2xx")},
		{"GET", "/users/8", 200, key("GET", "GET /users/{id}", "2xx")},
		{"HEAD", "/users/7", 200, key("HEAD", "GET /users/{id}", "2xx")},
		{"POST", "/users", 201, key("POST", "POST /users", "2xx")},
		{"GET", "/boom", 500, key("GET", "GET /boom", "5xx")},
		{"GET", "/teapot", 418, key("GET", "GET /teapot", "4xx")},
		{"GET", "/old", 302, key("GET", "GET /old", "3xx")},
		// A redirect of the router: the pattern of the path it leads to.
		{"GET", "/docs", 307, key("GET", "GET /docs/", "3xx")},
		// A group with middleware.
		{"GET", "/api/items/3", 200, key("GET", "GET /api/items/{id}", "2xx")},
		// A route of a mounted Router: the full pattern.
		{"GET", "/orgs/acme/repos/9", 200, key("GET", "GET /orgs/{org}/repos/{id}", "2xx")},
		// 404 and 405 share one series per method and class, whatever the path.
		{"GET", "/nothing", 404, key("GET", "unmatched", "4xx")},
		{"GET", "/nothing/else", 404, key("GET", "unmatched", "4xx")},
		{"GET", "/api/nothing", 404, key("GET", "unmatched", "4xx")},
		{"DELETE", "/users/7", 405, key("DELETE", "unmatched", "4xx")},
		// Methods outside the standard set are one label value.
		{"BREW", "/users/7", 405, key("OTHER", "unmatched", "4xx")},
		{"get", "/users/7", 405, key("OTHER", "unmatched", "4xx")},
		// A CONNECT request the router redirects, to any path below a
		// route without a method (here the mount's), has r.Pattern set to
		// the path redirected to, as ServeMux sets it: unmatched, not a
		// series per path.
		{"CONNECT", "/orgs/x1", 307, key("CONNECT", "unmatched", "3xx")},
		{"CONNECT", "/orgs/x2", 307, key("CONNECT", "unmatched", "3xx")},
		{"CONNECT", "/orgs/a%20b", 307, key("CONNECT", "unmatched", "3xx")},
		// The mounted router's own 405 for CONNECT: the mount's pattern.
		{"CONNECT", "/orgs/acme/repos/9", 405, key("CONNECT", "/orgs/{org}/", "4xx")},
	}
	for _, p := range []placement{wrapRouter, useRouter} {
		t.Run(p.String(), func(t *testing.T) {
			reg := prometheus.NewRegistry()
			h := instrument(newRouter(), metrics.New(&metrics.Options{Registerer: reg}), p)
			want := make(map[string]float64)
			for _, tt := range requests {
				if w := serve(t, h, tt.method, tt.target); w.Code != tt.code {
					t.Errorf("%s %s: got status %d, want %d", tt.method, tt.target, w.Code, tt.code)
				}
				want[tt.want]++
			}
			got := requestCounts(t, reg)
			for k, n := range want {
				if got[k] != n {
					t.Errorf("%q: got %v, want %v", k, got[k], n)
				}
			}
			for k, n := range got {
				if _, ok := want[k]; !ok {
					t.Errorf("%q: got %v, want no such series", k, n)
				}
			}
		})
	}
}

// TestExposition checks the whole text of the counter and the gauge with
// every option set.
func TestExposition(t *testing.T) {
	reg := prometheus.NewRegistry()
	r := newRouter()
	r.Use(metrics.New(&metrics.Options{
		Registerer:  reg,
		Namespace:   "shop",
		Subsystem:   "web",
		ConstLabels: prometheus.Labels{"server": "public"},
	}))
	serve(t, r, "GET", "/users/1")
	serve(t, r, "GET", "/users/2")
	serve(t, r, "PUT", "/users/2")
	const want = `
# HELP shop_web_http_server_requests_in_flight Requests being served.
# TYPE shop_web_http_server_requests_in_flight gauge
shop_web_http_server_requests_in_flight{server="public"} 0
# HELP shop_web_http_server_requests_total Requests served, by method, route and status class.
# TYPE shop_web_http_server_requests_total counter
shop_web_http_server_requests_total{method="GET",route="GET /users/{id}",server="public",status="2xx"} 2
shop_web_http_server_requests_total{method="PUT",route="unmatched",server="public",status="4xx"} 1
`
	err := testutil.GatherAndCompare(reg, strings.NewReader(want),
		"shop_web_http_server_requests_total", "shop_web_http_server_requests_in_flight")
	if err != nil {
		t.Error(err)
	}
}

// TestBuckets checks that the histogram has the buckets asked for, and the
// default ones otherwise.
func TestBuckets(t *testing.T) {
	for _, tt := range []struct {
		name    string
		buckets []float64
		want    []float64
	}{
		{"nil", nil, prometheus.DefBuckets},
		{"empty", []float64{}, prometheus.DefBuckets},
		{"custom", []float64{0.001, 0.01, 1}, []float64{0.001, 0.01, 1}},
	} {
		reg := prometheus.NewRegistry()
		h := metrics.New(&metrics.Options{Registerer: reg, Buckets: tt.buckets})(status(http.StatusOK))
		serve(t, h, "GET", "/")
		var got []float64
		for _, b := range family(t, reg, "http_server_request_duration_seconds").GetMetric()[0].GetHistogram().GetBucket() {
			got = append(got, b.GetUpperBound())
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: got buckets %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestInFlight checks that the gauge counts the requests being served.
func TestInFlight(t *testing.T) {
	reg := prometheus.NewRegistry()
	inFlight := func() float64 {
		return family(t, reg, "http_server_requests_in_flight").GetMetric()[0].GetGauge().GetValue()
	}
	var during float64
	r := cairn.New()
	r.HandleFunc("GET /x", func(w http.ResponseWriter, req *http.Request) { during = inFlight() })
	h := metrics.New(&metrics.Options{Registerer: reg})(r)
	serve(t, h, "GET", "/x")
	if during != 1 {
		t.Errorf("in flight while serving: got %v, want 1", during)
	}
	if got := inFlight(); got != 0 {
		t.Errorf("in flight after serving: got %v, want 0", got)
	}
}

// TestPanic checks that a request whose handler panics is counted as a
// server error, with its route, that the gauge goes back down, and that
// the panic goes on up.
func TestPanic(t *testing.T) {
	for _, p := range []placement{wrapRouter, useRouter} {
		reg := prometheus.NewRegistry()
		r := cairn.New()
		r.HandleFunc("GET /panic", func(w http.ResponseWriter, req *http.Request) { panic("oops") })
		h := instrument(r, metrics.New(&metrics.Options{Registerer: reg}), p)
		if v := mustPanic(t, func() { serve(t, h, "GET", "/panic") }); v != "oops" {
			t.Errorf("%v: got panic %v, want oops", p, v)
		}
		want := key("GET", "GET /panic", "5xx")
		if got := requestCounts(t, reg); got[want] != 1 || len(got) != 1 {
			t.Errorf("%v: got %v, want %s 1", p, got, want)
		}
		if got := family(t, reg, "http_server_requests_in_flight").GetMetric()[0].GetGauge().GetValue(); got != 0 {
			t.Errorf("%v: in flight after a panic: got %v, want 0", p, got)
		}
	}
}

// TestSharedWriter checks that the middleware uses the middleware.Writer
// it is handed, and so sees the status a middleware further out recorded.
func TestSharedWriter(t *testing.T) {
	reg := prometheus.NewRegistry()
	r := cairn.New()
	var seen http.ResponseWriter
	r.HandleFunc("GET /x", func(w http.ResponseWriter, req *http.Request) {
		seen = w
		w.WriteHeader(http.StatusAccepted)
	})
	m := metrics.New(&metrics.Options{Registerer: reg})
	var outer http.ResponseWriter
	h := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		wr, owned := middleware.Acquire(w)
		if owned {
			defer wr.Release()
		}
		outer = wr
		m(r).ServeHTTP(wr, req)
	})
	serve(t, h, "GET", "/x")
	if seen != outer {
		t.Errorf("handler got %T %p, want the outer Writer %p", seen, seen, outer)
	}
	if got := requestCounts(t, reg)[key("GET", "GET /x", "2xx")]; got != 1 {
		t.Errorf("got %v requests, want 1", got)
	}
}

// TestConcurrent serves many series from many goroutines at once, for the
// race detector and the cache's publication, and checks the totals.
func TestConcurrent(t *testing.T) {
	reg := prometheus.NewRegistry()
	h := metrics.New(&metrics.Options{Registerer: reg})(newRouter())
	targets := []struct{ method, target, key string }{
		{"GET", "/users/1", key("GET", "GET /users/{id}", "2xx")},
		{"POST", "/users", key("POST", "POST /users", "2xx")},
		{"GET", "/boom", key("GET", "GET /boom", "5xx")},
		{"GET", "/nothing", key("GET", "unmatched", "4xx")},
		{"PATCH", "/users/1", key("PATCH", "unmatched", "4xx")},
		{"GET", "/orgs/a/repos/1", key("GET", "GET /orgs/{org}/repos/{id}", "2xx")},
	}
	const goroutines, each = 8, 50
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				tt := targets[(g+i)%len(targets)]
				h.ServeHTTP(newNopWriter(), httptest.NewRequest(tt.method, tt.target, nil))
			}
		})
	}
	wg.Wait()
	got := requestCounts(t, reg)
	var total float64
	for _, tt := range targets {
		total += got[tt.key]
	}
	if total != goroutines*each || len(got) != len(targets) {
		t.Errorf("got %v requests in %d series, want %d in %d: %v", total, len(got), goroutines*each, len(targets), got)
	}
}

// TestRegistrationPanics checks that New panics with a "metrics:" error
// for options the registry or the metrics reject, and that it leaves the
// registry as it found it.
func TestRegistrationPanics(t *testing.T) {
	reg := prometheus.NewRegistry()
	metrics.New(&metrics.Options{Registerer: reg})
	v := mustPanic(t, func() { metrics.New(&metrics.Options{Registerer: reg}) })
	err, _ := v.(error)
	var are prometheus.AlreadyRegisteredError
	if err == nil || !strings.HasPrefix(err.Error(), "metrics: registering http_server_requests_total: ") || !errors.As(err, &are) {
		t.Errorf("registered twice: got panic %v, want a metrics: error wrapping an AlreadyRegisteredError", v)
	}

	// The last collector fails: the first two are unregistered again. (The
	// squatter is the same as the gauge, since a registry keeps the label
	// names and help of a name for life.)
	reg = prometheus.NewRegistry()
	squatter := prometheus.NewGauge(prometheus.GaugeOpts{Name: "http_server_requests_in_flight", Help: "Requests being served."})
	reg.MustRegister(squatter)
	v = mustPanic(t, func() { metrics.New(&metrics.Options{Registerer: reg}) })
	if err, _ := v.(error); err == nil || !strings.HasPrefix(err.Error(), "metrics: registering http_server_requests_in_flight: ") {
		t.Errorf("in-flight gauge taken: got panic %v", v)
	}
	reg.Unregister(squatter)
	metrics.New(&metrics.Options{Registerer: reg}) // must not panic

	for _, tt := range []struct {
		name string
		opts metrics.Options
		want string
	}{
		{"decreasing buckets", metrics.Options{Buckets: []float64{1, 0.5}},
			"metrics: Buckets must be in increasing order, but bucket 0 is 1 and bucket 1 is 0.5"},
		{"repeated bucket", metrics.Options{Buckets: []float64{0.1, 1, 1}},
			"metrics: Buckets must be in increasing order, but bucket 1 is 1 and bucket 2 is 1"},
		{"const label route", metrics.Options{ConstLabels: prometheus.Labels{"route": "x"}},
			`metrics: ConstLabels may not hold "route", a label of the metrics`},
		{"const label le", metrics.Options{ConstLabels: prometheus.Labels{"le": "x"}},
			`metrics: ConstLabels may not hold "le", a label of the metrics`},
		{"const label value not UTF-8", metrics.Options{ConstLabels: prometheus.Labels{"server": "\xff"}},
			"metrics: registering http_server_requests_total: "},
	} {
		reg := prometheus.NewRegistry()
		tt.opts.Registerer = reg
		v := mustPanic(t, func() { metrics.New(&tt.opts) })
		err, _ := v.(error)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: got panic %v, want %q", tt.name, v, tt.want)
		}
		if mfs, _ := reg.Gather(); len(mfs) != 0 {
			t.Errorf("%s: the registry holds %d families after the panic, want 0", tt.name, len(mfs))
		}
	}
}

// TestDefaultRegisterer checks that a nil Options registers with the
// default registerer.
func TestDefaultRegisterer(t *testing.T) {
	old := prometheus.DefaultRegisterer
	reg := prometheus.NewRegistry()
	prometheus.DefaultRegisterer = reg
	defer func() { prometheus.DefaultRegisterer = old }()
	h := metrics.New(nil)(status(http.StatusNoContent))
	serve(t, h, "GET", "/")
	if got := requestCounts(t, reg)[key("GET", "unmatched", "2xx")]; got != 1 {
		t.Errorf("got %v, want 1", got)
	}
}

// TestCopiedRequest pins the limit of the middleware around the router: a
// request that reaches routing as a copy made by a middleware before
// routing hides from it the pattern the Router sets on the copy, while the
// middleware added with Use sees it. The copy the SlashServe policy makes
// is the Router's own, and it sets the pattern on both.
func TestCopiedRequest(t *testing.T) {
	for _, tt := range []struct {
		name     string
		setup    func(*cairn.Router)
		target   string
		wrapSees string // the route label when the middleware wraps the router
	}{
		{"copy before routing", func(r *cairn.Router) {
			r.UseBeforeRouting(func(next http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
					next.ServeHTTP(w, req.WithContext(req.Context()))
				})
			})
		}, "/users/1", "unmatched"},
		{"SlashServe", func(r *cairn.Router) { r.TrailingSlash(cairn.SlashServe) }, "/users/1/", "GET /users/{id}"},
	} {
		for _, p := range []struct {
			p    placement
			want string
		}{
			{wrapRouter, key("GET", tt.wrapSees, "2xx")},
			{useRouter, key("GET", "GET /users/{id}", "2xx")},
		} {
			reg := prometheus.NewRegistry()
			r := newRouter()
			tt.setup(r)
			serve(t, instrument(r, metrics.New(&metrics.Options{Registerer: reg}), p.p), "GET", tt.target)
			if got := requestCounts(t, reg); got[p.want] != 1 || len(got) != 1 {
				t.Errorf("%s, %v: got %v, want %s 1", tt.name, p.p, got, p.want)
			}
		}
	}
}

// hijackRecorder is a recorder whose connection can be hijacked: the
// server's end of a pipe, whose other end is closed.
type hijackRecorder struct{ *httptest.ResponseRecorder }

func (h hijackRecorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, other := net.Pipe()
	other.Close()
	return c, bufio.NewReadWriter(bufio.NewReader(c), bufio.NewWriter(c)), nil
}

// TestPanicAfterHijack checks that a handler that panics after it took
// the connection over counts in the class of the status it sent through
// the writer (none: 1xx, as for a WebSocket), not as a server error the
// client never gets.
func TestPanicAfterHijack(t *testing.T) {
	reg := prometheus.NewRegistry()
	r := cairn.New()
	r.HandleFunc("GET /ws", func(w http.ResponseWriter, req *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Errorf("Hijack: %v", err)
			return
		}
		conn.Close()
		panic("after the hijack")
	})
	h := instrument(r, metrics.New(&metrics.Options{Registerer: reg}), useRouter)
	mustPanic(t, func() { h.ServeHTTP(hijackRecorder{httptest.NewRecorder()}, httptest.NewRequest("GET", "/ws", nil)) })
	want := key("GET", "GET /ws", "1xx")
	if got := requestCounts(t, reg); got[want] != 1 || len(got) != 1 {
		t.Errorf("got %v, want %s 1", got, want)
	}
}
