package metrics_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"

	"github.com/cairn-go/cairn"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// nopWriter is a ResponseWriter that discards everything and keeps one
// header map, so that allocation counts and benchmarks measure the router
// and the middleware alone.
type nopWriter struct{ h http.Header }

// newNopWriter returns a nopWriter with an empty, reusable header map.
func newNopWriter() *nopWriter { return &nopWriter{h: make(http.Header)} }

// Header returns the writer's reusable header map.
func (w *nopWriter) Header() http.Header { return w.h }

// Write discards p and reports it fully written.
func (w *nopWriter) Write(p []byte) (int, error) { return len(p), nil }

// WriteHeader does nothing.
func (w *nopWriter) WriteHeader(int) {}

// A placement is where the middleware sits relative to a cairn Router.
type placement uint8

const (
	noMetrics  placement = iota // the router alone
	wrapRouter                  // metrics.New(...)(router)
	useRouter                   // router.Use(metrics.New(...))
)

// String returns the placement's name.
func (p placement) String() string {
	switch p {
	case noMetrics:
		return "none"
	case wrapRouter:
		return "wrap"
	case useRouter:
		return "use"
	}
	return fmt.Sprintf("placement(%d)", uint8(p))
}

// status returns a handler that answers with code.
func status(code int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(code) }
}

// newRouter returns a router with plain routes, a group with middleware and
// a mounted router, with path values off so that its routes allocate
// nothing:
//
//	GET /users/{id}, POST /users, GET /boom (500), GET /teapot (418),
//	GET /old (302), GET /docs/ (so /docs redirects),
//	GET /api/items/{id} (a group with middleware),
//	GET /orgs/{org}/repos/{id} (a route of a Router mounted at /orgs/{org})
func newRouter() *cairn.Router {
	r := cairn.New()
	r.PopulatePathValues(false)
	r.HandleFunc("GET /users/{id}", status(http.StatusOK))
	r.HandleFunc("POST /users", status(http.StatusCreated))
	r.HandleFunc("GET /boom", status(http.StatusInternalServerError))
	r.HandleFunc("GET /teapot", status(http.StatusTeapot))
	r.HandleFunc("GET /old", status(http.StatusFound))
	r.HandleFunc("GET /docs/", status(http.StatusOK))
	api := r.Group("/api", func(next http.Handler) http.Handler { return next })
	api.HandleFunc("GET /items/{id}", status(http.StatusOK))
	org := cairn.New()
	org.PopulatePathValues(false)
	org.HandleFunc("GET /repos/{id}", status(http.StatusOK))
	r.Mount("/orgs/{org}", org)
	return r
}

// instrument returns r measured by mw, placed as p.
func instrument(r *cairn.Router, mw func(http.Handler) http.Handler, p placement) http.Handler {
	switch p {
	case wrapRouter:
		return mw(r)
	case useRouter:
		r.Use(mw)
	}
	return r
}

// serve serves a request for method and target with h.
func serve(tb testing.TB, h http.Handler, method, target string) *httptest.ResponseRecorder {
	tb.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(method, target, nil))
	return w
}

// family returns the metric family called name from g, or nil.
func family(tb testing.TB, g prometheus.Gatherer, name string) *dto.MetricFamily {
	tb.Helper()
	mfs, err := g.Gather()
	if err != nil {
		tb.Fatalf("gather: %v", err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			return mf
		}
	}
	return nil
}

// seriesName returns "label=value,..." for the labels of m, in the order
// Prometheus keeps them (sorted by name).
func seriesName(m *dto.Metric) string {
	var b strings.Builder
	for i, lp := range m.GetLabel() {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s=%s", lp.GetName(), lp.GetValue())
	}
	return b.String()
}

// requestCounts returns the value of each series of the requests counter
// and the sample count of each series of the duration histogram in g, by
// series name. The two must have the same series.
func requestCounts(tb testing.TB, g prometheus.Gatherer) map[string]float64 {
	tb.Helper()
	counts := make(map[string]float64)
	if mf := family(tb, g, "http_server_requests_total"); mf != nil {
		for _, m := range mf.GetMetric() {
			counts[seriesName(m)] = m.GetCounter().GetValue()
		}
	}
	samples := make(map[string]float64)
	if mf := family(tb, g, "http_server_request_duration_seconds"); mf != nil {
		for _, m := range mf.GetMetric() {
			samples[seriesName(m)] = float64(m.GetHistogram().GetSampleCount())
		}
	}
	if got, want := sortedKeys(samples), sortedKeys(counts); got != want {
		tb.Errorf("histogram series %s, counter series %s", got, want)
	}
	for k, n := range counts {
		if samples[k] != n {
			tb.Errorf("%s: %v samples, %v requests", k, samples[k], n)
		}
	}
	return counts
}

// sortedKeys returns the keys of m, sorted and joined.
func sortedKeys(m map[string]float64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, " ")
}

// key returns the series name of the labels method, route and status.
func key(method, route, status string) string {
	return "method=" + method + ",route=" + route + ",status=" + status
}

// mustPanic calls f and returns what it panicked with, failing tb if it
// did not panic.
func mustPanic(tb testing.TB, f func()) (v any) {
	tb.Helper()
	defer func() { v = recover() }()
	f()
	tb.Fatalf("no panic")
	return nil
}
