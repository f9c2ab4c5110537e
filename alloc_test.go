package cairn_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cairn-go/cairn"
)

// discardWriter is a ResponseWriter that keeps only its header map, so that
// allocation counts measure the router alone.
type discardWriter struct{ h http.Header }

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *discardWriter) WriteHeader(int)             {}

// paramPattern returns a pattern and a matching path with n wildcards.
func paramPattern(n int) (pattern, path string) {
	var p, u strings.Builder
	p.WriteString("GET /p")
	u.WriteString("/p")
	for i := 0; i < n; i++ {
		p.WriteString("/{p" + string(rune('a'+i)) + "}")
		u.WriteString("/v" + string(rune('a'+i)))
	}
	return p.String(), u.String()
}

// TestAllocations asserts the allocation guarantees of the package
// documentation, with path-value population off.
func TestAllocations(t *testing.T) {
	r := cairn.New()
	r.PopulatePathValues(false)
	var got []string // values read by the last handler run
	read := func(names ...string) http.HandlerFunc {
		return func(w http.ResponseWriter, req *http.Request) {
			got = got[:0]
			for _, n := range names {
				got = append(got, cairn.Param(req, n))
			}
		}
	}
	r.Handle("GET /static/path", read())
	r.Handle("GET api.example.com/users/{id}", read("id"))
	r.Handle("PUT /static/{uuid:uuid}/{ip:ipv4}", read("uuid", "ip"))
	r.Handle("GET /code/{code:[A-Z]{3}}", read("code"))
	r.Handle("GET /files/{path...}", read("path"))
	r.Handle("GET /dot.dir/{id}", read("id"))
	r.Handle("GET /dot.static/path", read())
	for _, n := range []int{1, 5, 20} {
		pat, _ := paramPattern(n)
		var names []string
		for i := 0; i < n; i++ {
			names = append(names, "p"+string(rune('a'+i)))
		}
		r.Handle(pat, read(names...))
	}
	got = make([]string, 0, 32)
	_, p1 := paramPattern(1)
	_, p5 := paramPattern(5)
	_, p20 := paramPattern(20)
	for _, tt := range []struct {
		name, method, url string
		host              string // if set, the request's Host
		code              int
		want              string // the values read, joined by ","
	}{
		{"static", "GET", "/static/path", "", 200, ""},
		{"1 param", "GET", p1, "", 200, "va"},
		{"5 params", "GET", p5, "", 200, "va,vb,vc,vd,ve"},
		{"20 params", "GET", p20, "", 200, "va,vb,vc,vd,ve,vf,vg,vh,vi,vj,vk,vl,vm,vn,vo,vp,vq,vr,vs,vt"},
		{"builtin constraints", "PUT", "/static/123e4567-e89b-12d3-a456-426614174000/10.0.0.1", "", 200, "123e4567-e89b-12d3-a456-426614174000,10.0.0.1"},
		{"regexp constraint", "GET", "/code/ABC", "", 200, "ABC"},
		{"host", "GET", "http://api.example.com/users/42", "", 200, "42"},
		{"multi", "GET", "/files/a/b/c", "", 200, "a/b/c"},
		{"404", "GET", "/nowhere", "", 404, ""},
		{"405", "DELETE", "/static/path", "", 405, ""},
		{"malformed host", "GET", "/users/42", "bad:host:x", 404, ""},
		// Escaped letters: the request is routed by its unescaped path
		// (see requestPath).
		{"escaped letter", "GET", "/st%61tic/path", "", 200, ""},
		{"escaped letter, param", "GET", "/%70/va", "", 200, "va"},
		// An escaped '.': the path is matched escaped, and its literal
		// segment is unescaped into a buffer on the stack (see unescapeTo).
		{"escaped dot", "GET", "/dot%2Edir/42", "", 200, "42"},
		// A static route only the index of static paths holds is found
		// by the path unescaped into a buffer on the stack (see
		// hostTree.staticLeaf).
		{"escaped dot, static", "GET", "/dot%2Estatic/path", "", 200, ""},
		// A path longer than that buffer, whose unescaped length no
		// static path has, is not unescaped whole.
		{"escaped dot, long", "GET", "/dot%2Edir/" + strings.Repeat("v", 70), "", 200, strings.Repeat("v", 70)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, tt.url, nil)
			if tt.host != "" {
				req.Host = tt.host
			}
			w := &discardWriter{h: http.Header{}}
			rec := httptest.NewRecorder()
			got = got[:0]
			r.ServeHTTP(rec, req)
			if rec.Code != tt.code || strings.Join(got, ",") != tt.want {
				t.Fatalf("%s %s: got %d %q, want %d %q", tt.method, tt.url, rec.Code, strings.Join(got, ","), tt.code, tt.want)
			}
			allocs := testing.AllocsPerRun(100, func() { r.ServeHTTP(w, req) })
			if allocs != 0 {
				t.Errorf("%s %s: %v allocations per request, want 0", tt.method, tt.url, allocs)
			}
		})
	}
}

// TestAllocationsPathValues checks what populating r.PathValue costs against
// net/http.ServeMux on the same route. [http.Request.SetPathValue] keeps the
// values of a request it did not route itself in a map: two allocations for
// up to 8 values, 5 up to 14 and 7 up to 20, where ServeMux grows a slice
// (one allocation per doubling). So cairn allocates as much or less for 2 to
// 14 values, two more for 15 and 16, and one more otherwise.
func TestAllocationsPathValues(t *testing.T) {
	for _, n := range []int{0, 1, 2, 5, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 20} {
		pat, path := paramPattern(n)
		r := cairn.New()
		mux := http.NewServeMux()
		var v string
		h := func(w http.ResponseWriter, req *http.Request) { v = req.PathValue("pa") }
		r.HandleFunc(pat, h)
		mux.HandleFunc(pat, h)
		w := &discardWriter{h: http.Header{}}
		req := httptest.NewRequest("GET", path, nil)
		serve := func(hd http.Handler) float64 {
			return testing.AllocsPerRun(100, func() {
				r2 := *req // a fresh request each time, as a server gives
				hd.ServeHTTP(w, &r2)
			})
		}
		got, want := serve(r), serve(mux)
		if n > 0 && v != "va" {
			t.Errorf("params=%d: PathValue = %q, want %q", n, v, "va")
		}
		t.Logf("params=%d: cairn %v allocations, ServeMux %v", n, got, want)
		limit := want + 1
		switch {
		case n >= 2 && n <= 14:
			limit = want
		case n == 15 || n == 16:
			limit = want + 2 // the map has grown twice; the slice has not yet
		}
		if got > limit {
			t.Errorf("params=%d: cairn %v allocations, ServeMux %v, want at most %v", n, got, want, limit)
		}
	}
}

// count returns a middleware that counts the requests it sees, without
// allocating.
func count(n *int) cairn.Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			*n++
			next.ServeHTTP(w, r)
		})
	}
}

// TestAllocationsComposition checks that middleware chains (before routing
// and after), groups, versions, automatic OPTIONS and custom fallbacks add
// no allocation, and that a mount costs the one documented copy of the
// request.
func TestAllocationsComposition(t *testing.T) {
	var n int
	r := cairn.New()
	r.PopulatePathValues(false)
	r.Versioning(cairn.Versioning{Vendor: "acme"})
	r.UseBeforeRouting(count(&n))
	r.Use(count(&n), count(&n), count(&n))
	var id string
	r.NotFound(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		id = cairn.Param(req, "id") // the prefix's value below /o/{id}
		w.WriteHeader(http.StatusNotFound)
	}))
	api := r.Group("/api", count(&n), count(&n))
	read := func(w http.ResponseWriter, req *http.Request) { id = cairn.Param(req, "id") }
	api.HandleFunc("GET /users/{id:int}", read)
	api.With(count(&n)).HandleFunc("POST /users/{id:int}", read)
	api.Version("v1").HandleFunc("GET /users/{id:int}", read)
	api.Version("v2").HandleFunc("GET /users/{id:int}", read)
	r.HandleFunc("GET /health", func(http.ResponseWriter, *http.Request) {})
	r.Group("/o/{id}", count(&n)).HandleFunc("GET /x", read)
	r.Mount("/m/{id}", http.HandlerFunc(read))
	r.Mount("/files", http.HandlerFunc(func(http.ResponseWriter, *http.Request) { id = "42" }))
	const v2 = "application/vnd.acme.v1+json;q=0.5, application/vnd.acme.v2+json"
	for _, tt := range []struct {
		name, method, url, accept string
		code, middleware          int
		allocs                    float64
	}{
		{"route behind 1+3+2 middleware", "GET", "/api/users/42", "", 200, 6, 0},
		{"route behind 1+3+2+1 middleware", "POST", "/api/users/42", "", 200, 7, 0},
		{"versioned route", "GET", "/api/users/42", v2, 200, 6, 0},
		{"406", "GET", "/api/users/42", "application/vnd.acme.v3+json", 406, 6, 0},
		{"automatic OPTIONS", "OPTIONS", "/api/users/42", "", 204, 6, 0},
		{"405", "DELETE", "/api/users/42", "", 405, 6, 0},
		{"405 outside the group", "DELETE", "/health", "", 405, 4, 0},
		{"automatic OPTIONS outside the group", "OPTIONS", "/health", "", 204, 4, 0},
		{"404 below the group", "GET", "/api/nowhere", "", 404, 6, 0},
		{"custom 404", "GET", "/nowhere", "", 404, 4, 0},
		{"404 below a prefix with a wildcard, its value read", "GET", "/o/42/nowhere", "", 404, 5, 0},
		{"mount", "GET", "/files/x", "", 200, 4, 1},
		{"mount with a wildcard", "GET", "/m/42/x", "", 200, 4, 3},
	} {
		req := httptest.NewRequest(tt.method, tt.url, nil)
		if tt.accept != "" {
			req.Header.Set("Accept", tt.accept)
		}
		rec := httptest.NewRecorder()
		n, id = 0, ""
		r.ServeHTTP(rec, req)
		if rec.Code != tt.code || n != tt.middleware || (tt.code == 200 || strings.HasPrefix(tt.url, "/o/")) && id != "42" {
			t.Errorf("%s: got %d, %d middleware, id %q; want %d, %d middleware, id 42", tt.name, rec.Code, n, id, tt.code, tt.middleware)
		}
		// A server gives each response a new header map; clearing this one
		// keeps each run's headers from the last run's.
		w := &discardWriter{h: http.Header{}}
		if allocs := testing.AllocsPerRun(100, func() { clear(w.h); r.ServeHTTP(w, req) }); allocs != tt.allocs {
			t.Errorf("%s: %v allocations per request, want %v", tt.name, allocs, tt.allocs)
		}
	}
}

// TestAllocationsMountPathValues checks what a mount costs with path values
// on: the request copy, and for a prefix with wildcards the outer router's
// path-value map, which the copy shares. Each run serves a request that
// was never served, as the map would otherwise be reused.
func TestAllocationsMountPathValues(t *testing.T) {
	r := cairn.New()
	var org string
	r.Mount("/orgs/{org}", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) { org = cairn.Param(req, "org") }))
	r.Mount("/files", http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	for _, tt := range []struct {
		url    string
		allocs float64
	}{
		{"/files/a/b", 1},
		{"/orgs/acme/x", 3},
	} {
		req := httptest.NewRequest("GET", tt.url, nil)
		pristine := *req
		w := &discardWriter{h: http.Header{}}
		allocs := testing.AllocsPerRun(100, func() { *req = pristine; r.ServeHTTP(w, req) })
		if allocs != tt.allocs {
			t.Errorf("%s: %v allocations per request, want %v", tt.url, allocs, tt.allocs)
		}
	}
	if org != "acme" {
		t.Errorf("mounted handler read org %q, want acme", org)
	}
}

// TestAllocationsHandler checks that Handler finds a route, with
// middleware and groups around it, without allocating, and that serving
// the handler it returns allocates nothing either.
func TestAllocationsHandler(t *testing.T) {
	var n int
	r := cairn.New()
	r.PopulatePathValues(false)
	r.Use(count(&n))
	api := r.Group("/api", count(&n))
	var id string
	api.HandleFunc("GET /users/{id:int}", func(w http.ResponseWriter, req *http.Request) { id = cairn.Param(req, "id") })
	for _, tt := range []struct {
		method, target, pattern string
		code                    int
	}{
		{"GET", "/api/users/42", "GET /api/users/{id:int}", 200},
		{"GET", "/api/nowhere", "", 404},
		{"POST", "/api/users/42", "", 405},
	} {
		req := httptest.NewRequest(tt.method, tt.target, nil)
		h, pattern := r.Handler(req)
		rec := httptest.NewRecorder()
		n, id = 0, ""
		h.ServeHTTP(rec, req)
		if pattern != tt.pattern || rec.Code != tt.code || n != 2 || tt.code == 200 && id != "42" {
			t.Errorf("%s %s: pattern %q, code %d, %d middleware, id %q", tt.method, tt.target, pattern, rec.Code, n, id)
		}
		if allocs := testing.AllocsPerRun(100, func() { r.Handler(req) }); allocs != 0 {
			t.Errorf("%s %s: Handler: %v allocations, want 0", tt.method, tt.target, allocs)
		}
		w := &discardWriter{h: http.Header{}}
		if allocs := testing.AllocsPerRun(100, func() { clear(w.h); h.ServeHTTP(w, req) }); allocs != 0 {
			t.Errorf("%s %s: serving Handler's handler: %v allocations, want 0", tt.method, tt.target, allocs)
		}
	}
}

// TestAllocationsGroupPathValues checks that path values can be turned on
// for one group of a router that has them off, and that the router's other
// routes stay allocation-free.
func TestAllocationsGroupPathValues(t *testing.T) {
	r := cairn.New()
	r.PopulatePathValues(false)
	var pv, param string
	read := func(w http.ResponseWriter, req *http.Request) {
		pv, param = req.PathValue("id"), cairn.Param(req, "id")
	}
	r.HandleFunc("GET /fast/{id}", read)
	r.Group("/lib").PopulatePathValues(true).HandleFunc("GET /items/{id}", read)
	on := cairn.New()
	on.Group("/off").PopulatePathValues(false).HandleFunc("GET /{id}", read)
	for _, tt := range []struct {
		h      http.Handler
		target string
		want   string
		allocs float64
	}{
		{r, "/fast/7", ",7", 0},
		{r, "/lib/items/7", "7,7", 2},
		{on, "/off/7", ",7", 0},
	} {
		req := httptest.NewRequest("GET", tt.target, nil)
		pristine := *req
		w := &discardWriter{h: http.Header{}}
		tt.h.ServeHTTP(w, req)
		if got := pv + "," + param; got != tt.want {
			t.Errorf("%s: PathValue,Param = %q, want %q", tt.target, got, tt.want)
		}
		if allocs := testing.AllocsPerRun(100, func() { *req = pristine; tt.h.ServeHTTP(w, req) }); allocs != tt.allocs {
			t.Errorf("%s: %v allocations, want %v", tt.target, allocs, tt.allocs)
		}
	}
}

// TestAllocationsThroughMount checks that a route of a mounted router,
// named by its full pattern for the outer middleware, costs only the
// request copy of the mount once its full pattern has been made.
func TestAllocationsThroughMount(t *testing.T) {
	inner := cairn.New()
	inner.PopulatePathValues(false)
	var name string
	inner.HandleFunc("GET /things/{name}", func(w http.ResponseWriter, req *http.Request) { name = cairn.Param(req, "name") })
	r := cairn.New()
	r.PopulatePathValues(false)
	var seen string
	r.Use(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			seen = req.Pattern
			next.ServeHTTP(w, req)
		})
	})
	r.Mount("/orgs/{org}", inner)
	req := httptest.NewRequest("GET", "/orgs/acme/things/gizmo", nil)
	w := &discardWriter{h: http.Header{}}
	r.ServeHTTP(w, req)
	if seen != "GET /orgs/{org}/things/{name}" || name != "gizmo" {
		t.Fatalf("seen %q, name %q", seen, name)
	}
	if allocs := testing.AllocsPerRun(100, func() { r.ServeHTTP(w, req) }); allocs != 3 {
		t.Errorf("%v allocations, want 3 (the request copy and the map of the prefix's value)", allocs)
	}
}
