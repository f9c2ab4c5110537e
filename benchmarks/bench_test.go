package benchmarks

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
)

// The benchmark names are parsed by cmd/benchreport and must keep their
// shape:
//
//	BenchmarkSingle/<case>/router=<name>   case: static, param1, param5, param20,
//	                                       param1-write, param5-write, param20-write
//	BenchmarkAPI/<suite>/router=<name>     suite: static-all, github, gplus, parse
//	BenchmarkConstraints/router=<name>
//
// One operation serves every request of the suite once: one request for
// the single-route suites, every route's for the API suites, and the three
// requests of the constraints suite.

// nopWriter is an http.ResponseWriter that discards everything, so that
// benchmarks measure routing rather than response recording. It implements
// io.StringWriter, so that handlers that write their values (the -write
// cases) do not convert them to []byte. Its header map is allocated once.
type nopWriter struct{ h http.Header }

// newNopWriter returns a nopWriter with an empty, reusable header map.
func newNopWriter() *nopWriter { return &nopWriter{h: make(http.Header)} }

// Header returns the writer's reusable header map.
func (w *nopWriter) Header() http.Header { return w.h }

// Write discards p and reports it fully written.
func (w *nopWriter) Write(p []byte) (int, error) { return len(p), nil }

// WriteString discards s and reports it fully written.
func (w *nopWriter) WriteString(s string) (int, error) { return len(s), nil }

// WriteHeader does nothing.
func (w *nopWriter) WriteHeader(int) {}

// A benchRequest is a request that a benchmark serves over and over, with a
// pristine copy of it.
type benchRequest struct {
	req      *http.Request
	pristine http.Request
}

// newBenchRequests returns the requests of reqs, built with
// httptest.NewRequest.
func newBenchRequests(reqs []Request) []*benchRequest {
	brs := make([]*benchRequest, len(reqs))
	for i, rq := range reqs {
		req := httptest.NewRequest(rq.Method, rq.Path, nil)
		brs[i] = &benchRequest{req: req, pristine: *req}
	}
	return brs
}

// serve restores the request from its pristine copy and serves it with h.
//
// The copy is for fairness. ServeMux and cairn with path values store the
// matched values in the request (http.Request.SetPathValue), and serving
// the same *http.Request again lets them reuse the storage of the previous
// serve, which a server, with a new request each time, never does; after
// the copy, each serve starts from a request that has never been routed,
// without allocating a new one. Every router pays for the same copy, a
// struct assignment of a few nanoseconds, so that it does not skew the
// comparison.
func (br *benchRequest) serve(h http.Handler, w http.ResponseWriter) {
	*br.req = br.pristine
	h.ServeHTTP(w, br.req)
}

// benchSuite measures r serving every request of s once per operation.
// It builds the router, and checks once, with a recorder, that each request
// reaches its route with its values, before the timer starts; it skips the
// benchmark if r cannot express s.
func benchSuite(b *testing.B, s Suite, r Router, write bool) {
	b.Helper()
	probe := Probe{Route: -1}
	h, err := s.New(r, Options{Probe: &probe, Write: write})
	if errors.Is(err, ErrUnsupported) {
		b.Skipf("%s cannot express suite %s: %v", r.Name, s.Name, err)
	}
	if err != nil {
		b.Fatal(err)
	}
	reqs := newBenchRequests(s.Requests)
	for i, br := range reqs {
		probe = Probe{Route: -1}
		rec := httptest.NewRecorder()
		br.serve(h, rec)
		if err := checkServed(rec.Code, &probe, s.Requests[i]); err != nil {
			b.Fatalf("%s: %v", r.Name, err)
		}
	}
	w := newNopWriter()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, br := range reqs {
			br.serve(h, w)
		}
	}
}

// BenchmarkSingle measures one request on a single-route suite: "static",
// "param1", "param5" and "param20" with handlers that only read their
// parameters, and the param cases again, suffixed "-write", with handlers
// that also write each value to the response.
func BenchmarkSingle(b *testing.B) {
	suites := SingleSuites()
	type benchCase struct {
		name  string
		suite Suite
		write bool
	}
	var cases []benchCase
	for _, s := range suites {
		cases = append(cases, benchCase{s.Name, s, false})
	}
	for _, s := range suites[1:] {
		cases = append(cases, benchCase{s.Name + "-write", s, true})
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for _, r := range Routers() {
				b.Run("router="+r.Name, func(b *testing.B) { benchSuite(b, c.suite, r, c.write) })
			}
		})
	}
}

// BenchmarkAPI measures the whole-API suites: one operation serves every
// route's request once, as go-http-routing-benchmark's GithubAll does.
func BenchmarkAPI(b *testing.B) {
	suites, err := APISuites()
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range suites {
		b.Run(s.Name, func(b *testing.B) {
			for _, r := range Routers() {
				b.Run("router="+r.Name, func(b *testing.B) { benchSuite(b, s, r, false) })
			}
		})
	}
}

// BenchmarkConstraints measures the constraints suite: one operation serves
// each of its three requests once, natively or emulated (see
// ConstraintSuite).
func BenchmarkConstraints(b *testing.B) {
	s := ConstraintSuite()
	for _, r := range Routers() {
		b.Run("router="+r.Name, func(b *testing.B) { benchSuite(b, s, r, false) })
	}
}
