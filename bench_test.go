package cairn_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-go/cairn"
)

// nopWriter is an http.ResponseWriter that discards everything, so that
// benchmarks measure routing rather than response recording. Its header map
// is allocated once and reused across requests.
type nopWriter struct{ h http.Header }

// newNopWriter returns a nopWriter with an empty, reusable header map.
func newNopWriter() *nopWriter { return &nopWriter{h: make(http.Header)} }

// Header returns the writer's reusable header map.
func (w *nopWriter) Header() http.Header { return w.h }

// Write discards p and reports it fully written.
func (w *nopWriter) Write(p []byte) (int, error) { return len(p), nil }

// WriteHeader does nothing.
func (w *nopWriter) WriteHeader(int) {}

// benchRoute is a pattern registered for a benchmark together with a request
// that must reach it.
type benchRoute struct {
	Pattern string // cairn pattern, e.g. "GET /user/{name}"
	Method  string // request method
	Path    string // request path
}

// staticBenchRoutes is the route set of BenchmarkStatic: "GET /user/repos"
// (the route requested) among a few static and parameterized neighbours.
var staticBenchRoutes = []string{
	"GET /user",
	"GET /user/repos",
	"POST /user/repos",
	"GET /user/keys",
	"GET /user/emails",
	"GET /users/{user}",
	"GET /users/{user}/repos",
	"GET /repos/{owner}/{repo}",
}

// staticBenchTarget is the route BenchmarkStatic requests.
const staticBenchTarget = "GET /user/repos"

// paramBenchCase is a single-route parameter benchmark modelled on
// go-http-routing-benchmark's Param1, Param5 and Param20.
type paramBenchCase struct {
	n       int      // number of parameters
	pattern string   // cairn pattern
	path    string   // request path
	names   []string // parameter names in path order
	values  []string // expected parameter values in path order
}

// paramBenchValues are the realistic segment values used for the request
// paths of paramBenchCases, taken in order.
var paramBenchValues = []string{
	"julienschmidt", "httprouter", "issues", "1042", "comments",
	"gordon", "2024-05-17", "v1.22.3", "linux-amd64", "README.md",
	"main", "a1b2c3d4e5", "stargazers", "octocat", "hello-world",
	"refs", "heads", "feature-x", "pulls", "42",
}

// newParamBenchCase builds the paramBenchCase with n parameters. n == 1 is
// "/user/{name}" requested as "/user/gordon"; otherwise the pattern is n
// single-letter parameters "/{a}/{b}/..." requested with paramBenchValues.
func newParamBenchCase(n int) paramBenchCase {
	if n == 1 {
		return paramBenchCase{
			n:       1,
			pattern: "GET /user/{name}",
			path:    "/user/gordon",
			names:   []string{"name"},
			values:  []string{"gordon"},
		}
	}
	c := paramBenchCase{n: n}
	var pat, path strings.Builder
	for i := 0; i < n; i++ {
		name := string(rune('a' + i))
		c.names = append(c.names, name)
		c.values = append(c.values, paramBenchValues[i])
		pat.WriteString("/{" + name + "}")
		path.WriteString("/" + paramBenchValues[i])
	}
	c.pattern = "GET " + pat.String()
	c.path = path.String()
	return c
}

// paramBenchCounts are the parameter counts of BenchmarkParam and
// BenchmarkParamRead.
var paramBenchCounts = []int{1, 5, 20}

// constraintBenchRoutes are the routes of BenchmarkConstraint, each with the
// request that must reach it; the first element of each pair names the
// sub-benchmark.
var constraintBenchRoutes = []struct {
	name string
	benchRoute
}{
	{"uuid_ipv4", benchRoute{"PUT /static/{uuid:uuid}/{ip:ipv4}", "PUT", "/static/6ba7b810-9dad-11d1-80b4-00c04fd430c8/192.168.100.201"}},
	{"ipv4_uuid", benchRoute{"GET /static/{ip:ipv4}/{uuid:uuid}", "GET", "/static/10.0.0.1/f47ac10b-58cc-4372-a567-0e02b2c3d479"}},
	{"regexp", benchRoute{"GET /code/{code:[A-Z]{3}}", "GET", "/code/USD"}},
}

// forEachMode runs f as two sub-benchmarks, "pathvalues=off" and
// "pathvalues=on", passing the PopulatePathValues setting to use.
func forEachMode(b *testing.B, f func(b *testing.B, populate bool)) {
	for _, populate := range []bool{false, true} {
		b.Run(pathValuesMode(populate), func(b *testing.B) { f(b, populate) })
	}
}

// newBenchRouter returns a cairn router with PopulatePathValues(populate)
// and patterns registered in order; the handler of patterns[i] sets *hit to
// i and does nothing else.
func newBenchRouter(b *testing.B, populate bool, patterns []string, hit *int) *cairn.Router {
	b.Helper()
	router := cairn.New()
	router.PopulatePathValues(populate)
	for i, p := range patterns {
		register(b, router, p, hitHandler(hit, i))
	}
	return router
}

// newBenchServeMux is newBenchRouter for net/http.ServeMux; patterns must be
// free of cairn constraints.
func newBenchServeMux(b *testing.B, patterns []string, hit *int) *http.ServeMux {
	b.Helper()
	mux := http.NewServeMux()
	for i, p := range patterns {
		func() {
			defer func() {
				if v := recover(); v != nil {
					b.Fatalf("ServeMux: registering %q: panic: %v", p, v)
				}
			}()
			mux.Handle(p, hitHandler(hit, i))
		}()
	}
	return mux
}

// hitHandler returns a handler that only records i in *hit.
func hitHandler(hit *int, i int) http.Handler {
	return http.HandlerFunc(func(http.ResponseWriter, *http.Request) { *hit = i })
}

// routePatterns returns cairnPattern of each route.
func routePatterns(routes []testRoute) []string {
	patterns := make([]string, len(routes))
	for i, rt := range routes {
		patterns[i] = cairnPattern(rt)
	}
	return patterns
}

// routeRequests returns a pre-built request for requestPath of each route.
func routeRequests(routes []testRoute) []*http.Request {
	reqs := make([]*http.Request, len(routes))
	for i, rt := range routes {
		reqs[i] = httptest.NewRequest(rt.Method, requestPath(rt), nil)
	}
	return reqs
}

// requestCopy returns a shallow copy of req. Sanity checks serve a copy so
// that req itself stays as built, for the timed loop to restore from.
func requestCopy(req *http.Request) *http.Request {
	c := *req
	return &c
}

// checkHit serves a copy of req once through h and fails b unless the
// handler of route want ran (recorded through *hit by hitHandler).
func checkHit(b *testing.B, h http.Handler, req *http.Request, hit *int, want int) {
	b.Helper()
	*hit = -1
	h.ServeHTTP(newNopWriter(), requestCopy(req))
	if *hit != want {
		b.Fatalf("%s %s: ran handler %d, want %d", req.Method, req.URL.Path, *hit, want)
	}
}

// benchServe is the timed loop for a single request: one op = req served
// once through h.
//
// req must not have been served yet. Before each serve it is restored to
// that pristine state (a struct copy, a few ns, paid equally by every
// benchmark), so whatever a router stores in the request (r.Pattern, values
// set with SetPathValue) is built afresh each time, as for a request coming
// from net/http. Without the restore, a reused request keeps the path-value
// map SetPathValue allocated on the first serve, and populating path values
// would look allocation-free.
func benchServe(b *testing.B, h http.Handler, req *http.Request) {
	w := newNopWriter()
	pristine := *req
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		*req = pristine
		h.ServeHTTP(w, req)
	}
}

// benchServeAll is the timed loop for a request list: one op = every
// request in reqs served once through h, in order. Like benchServe, it
// restores each request to its pristine, never-served state before serving
// it.
func benchServeAll(b *testing.B, h http.Handler, reqs []*http.Request) {
	w := newNopWriter()
	pristine := make([]http.Request, len(reqs))
	for j, req := range reqs {
		pristine[j] = *req
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, req := range reqs {
			*req = pristine[j]
			h.ServeHTTP(w, req)
		}
	}
}

// benchRouteList benchmarks one op = every route of the named testdata list
// served once, on a cairn router holding exactly those routes, in both
// path value modes.
func benchRouteList(b *testing.B, name string) {
	routes := loadRoutes(b, name)
	patterns := routePatterns(routes)
	forEachMode(b, func(b *testing.B, populate bool) {
		var hit int
		router := newBenchRouter(b, populate, patterns, &hit)
		reqs := routeRequests(routes)
		for i, req := range reqs {
			checkHit(b, router, req, &hit, i)
		}
		benchServeAll(b, router, reqs)
	})
}

// indexOf returns the index of s in list, failing b if it is absent.
func indexOf(b *testing.B, list []string, s string) int {
	b.Helper()
	for i, v := range list {
		if v == s {
			return i
		}
	}
	b.Fatalf("%q not in route set", s)
	return -1
}

// BenchmarkStatic measures a static route, "GET /user/repos", among a few
// static and parameterized neighbours.
func BenchmarkStatic(b *testing.B) {
	forEachMode(b, func(b *testing.B, populate bool) {
		var hit int
		router := newBenchRouter(b, populate, staticBenchRoutes, &hit)
		req := httptest.NewRequest("GET", "/user/repos", nil)
		checkHit(b, router, req, &hit, indexOf(b, staticBenchRoutes, staticBenchTarget))
		benchServe(b, router, req)
	})
}

// BenchmarkParam measures a single route with 1, 5 or 20 parameters whose
// handler does nothing, as in go-http-routing-benchmark's Param1, Param5
// and Param20.
func BenchmarkParam(b *testing.B) {
	for _, n := range paramBenchCounts {
		c := newParamBenchCase(n)
		b.Run("params="+strconv.Itoa(n), func(b *testing.B) {
			forEachMode(b, func(b *testing.B, populate bool) {
				var hit int
				router := newBenchRouter(b, populate, []string{c.pattern}, &hit)
				req := httptest.NewRequest("GET", c.path, nil)
				checkHit(b, router, req, &hit, 0)
				benchServe(b, router, req)
			})
		})
	}
}

// BenchmarkParamRead is BenchmarkParam with a handler that reads every
// parameter with cairn.Param, in zero-allocation mode
// (PopulatePathValues(false)) only.
func BenchmarkParamRead(b *testing.B) {
	for _, n := range paramBenchCounts {
		c := newParamBenchCase(n)
		b.Run("params="+strconv.Itoa(n), func(b *testing.B) {
			got := make([]string, len(c.names))
			router := cairn.New()
			router.PopulatePathValues(false)
			register(b, router, c.pattern, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				for i, name := range c.names {
					got[i] = cairn.Param(r, name)
				}
			}))
			req := httptest.NewRequest("GET", c.path, nil)
			router.ServeHTTP(newNopWriter(), requestCopy(req))
			for i, name := range c.names {
				if got[i] != c.values[i] {
					b.Fatalf("%s: cairn.Param(r, %q) = %q, want %q", c.path, name, got[i], c.values[i])
				}
			}
			benchServe(b, router, req)
		})
	}
}

// BenchmarkConstraint measures constrained wildcards: uuid and ipv4 in both
// orders (PUT and GET on sibling patterns) and a regular expression
// constraint, all registered on one router.
func BenchmarkConstraint(b *testing.B) {
	patterns := make([]string, len(constraintBenchRoutes))
	for i, c := range constraintBenchRoutes {
		patterns[i] = c.Pattern
	}
	for i, c := range constraintBenchRoutes {
		b.Run(c.name, func(b *testing.B) {
			forEachMode(b, func(b *testing.B, populate bool) {
				var hit int
				router := newBenchRouter(b, populate, patterns, &hit)
				req := httptest.NewRequest(c.Method, c.Path, nil)
				checkHit(b, router, req, &hit, i)
				benchServe(b, router, req)
			})
		})
	}
}

// BenchmarkConstraintRead is the uuid_ipv4 case of BenchmarkConstraint,
// path values off, with a handler that reads both values with Param.
func BenchmarkConstraintRead(b *testing.B) {
	c := constraintBenchRoutes[0]
	var uuid, ip string
	router := cairn.New()
	router.PopulatePathValues(false)
	for i, r := range constraintBenchRoutes {
		h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
		if i == 0 {
			h = func(_ http.ResponseWriter, req *http.Request) {
				uuid, ip = cairn.Param(req, "uuid"), cairn.Param(req, "ip")
			}
		}
		register(b, router, r.Pattern, h)
	}
	req := httptest.NewRequest(c.Method, c.Path, nil)
	router.ServeHTTP(newNopWriter(), requestCopy(req))
	if want := c.Path; "/static/"+uuid+"/"+ip != want {
		b.Fatalf("read uuid %q and ip %q from %s", uuid, ip, want)
	}
	benchServe(b, router, req)
}

// BenchmarkGitHub measures the 203-route GitHub API: "all" serves every
// route's request once per op (go-http-routing-benchmark's GithubAll),
// "static" serves GET /user/repos and "param" serves
// GET /repos/julienschmidt/httprouter/stargazers.
func BenchmarkGitHub(b *testing.B) {
	routes := loadRoutes(b, "github")
	patterns := routePatterns(routes)
	single := []struct {
		name, pattern, path string
	}{
		{"static", "GET /user/repos", "/user/repos"},
		{"param", "GET /repos/{owner}/{repo}/stargazers", "/repos/julienschmidt/httprouter/stargazers"},
	}

	b.Run("all", func(b *testing.B) { benchRouteList(b, "github") })
	for _, s := range single {
		b.Run(s.name, func(b *testing.B) {
			forEachMode(b, func(b *testing.B, populate bool) {
				var hit int
				router := newBenchRouter(b, populate, patterns, &hit)
				req := httptest.NewRequest("GET", s.path, nil)
				checkHit(b, router, req, &hit, indexOf(b, patterns, s.pattern))
				benchServe(b, router, req)
			})
		})
	}
}

// BenchmarkCliff measures the GitHub API, every route's request once per
// op, with path values off, on routers that each add one thing that the
// fast paths leave to slower ones, to show that it does not slow every
// request down: "plain" is the 203 routes alone; "host" adds a route with
// a host; "constraint" adds a route with a constrained wildcard; "escaped"
// serves the plain routes requests whose first letter is escaped, so that
// their URLs have a RawPath. Each should stay within 1.3 times plain.
func BenchmarkCliff(b *testing.B) {
	routes := loadRoutes(b, "github")
	patterns := routePatterns(routes)
	escaped := routeRequests(routes)
	for i, req := range escaped {
		// "/user/repos" becomes "/%75ser/repos", and so on.
		p := req.URL.Path
		escaped[i] = httptest.NewRequest(req.Method, fmt.Sprintf("/%%%02x%s", p[1], p[2:]), nil)
		if escaped[i].URL.RawPath == "" {
			b.Fatalf("%s: no escape", escaped[i].URL)
		}
	}
	for _, c := range []struct {
		name  string
		extra string
		reqs  []*http.Request
	}{
		{"plain", "", routeRequests(routes)},
		{"host", "GET api.example.com/cliff", routeRequests(routes)},
		{"constraint", "GET /cliff/{n:int}", routeRequests(routes)},
		{"escaped", "", escaped},
	} {
		b.Run(c.name, func(b *testing.B) {
			var hit int
			ps := patterns
			if c.extra != "" {
				ps = append(slices.Clip(patterns), c.extra)
			}
			router := newBenchRouter(b, false, ps, &hit)
			for i, req := range c.reqs {
				checkHit(b, router, req, &hit, i)
			}
			benchServeAll(b, router, c.reqs)
		})
	}
}

// BenchmarkStaticAll serves each of the 157 static routes once per op.
func BenchmarkStaticAll(b *testing.B) { benchRouteList(b, "static") }

// BenchmarkGPlusAll serves each of the 13 Google+ API routes once per op.
func BenchmarkGPlusAll(b *testing.B) { benchRouteList(b, "gplus") }

// BenchmarkParseAll serves each of the 26 Parse API routes once per op.
func BenchmarkParseAll(b *testing.B) { benchRouteList(b, "parse") }

// benchStatusCases benchmarks requests on the GitHub router that no route
// handles, one sub-benchmark per case, after checking once with a
// ResponseRecorder that each gets status want and that no route handler ran.
func benchStatusCases(b *testing.B, want int, cases []struct{ name, method, path string }) {
	routes := loadRoutes(b, "github")
	patterns := routePatterns(routes)
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			forEachMode(b, func(b *testing.B, populate bool) {
				hit := -1
				router := newBenchRouter(b, populate, patterns, &hit)
				req := httptest.NewRequest(c.method, c.path, nil)
				rec := httptest.NewRecorder()
				router.ServeHTTP(rec, requestCopy(req))
				if rec.Code != want || hit != -1 {
					b.Fatalf("%s %s: status %d, route handler %d; want status %d and no route handler",
						c.method, c.path, rec.Code, hit, want)
				}
				benchServe(b, router, req)
			})
		})
	}
}

// BenchmarkNotFound measures 404 responses on the GitHub route set: a miss
// below a static route, a miss below a parameterized route, and an unknown
// first segment.
func BenchmarkNotFound(b *testing.B) {
	benchStatusCases(b, http.StatusNotFound, []struct{ name, method, path string }{
		{"static", "GET", "/user/repos/extra"},
		{"param", "GET", "/repos/julienschmidt/httprouter/nonexistent"},
		{"root", "GET", "/nonexistent"},
	})
}

// BenchmarkMethodNotAllowed measures 405 responses on the GitHub route set:
// a method missing on a static path (GET and POST exist) and on a
// parameterized one (only GET exists).
func BenchmarkMethodNotAllowed(b *testing.B) {
	benchStatusCases(b, http.StatusMethodNotAllowed, []struct{ name, method, path string }{
		{"static", "DELETE", "/user/repos"},
		{"param", "POST", "/repos/julienschmidt/httprouter/stargazers"},
	})
}

// BenchmarkServeMux runs the key cases against net/http.ServeMux, with the
// same (constraint-free) patterns and requests, for comparison.
func BenchmarkServeMux(b *testing.B) {
	b.Run("static", func(b *testing.B) {
		var hit int
		mux := newBenchServeMux(b, staticBenchRoutes, &hit)
		req := httptest.NewRequest("GET", "/user/repos", nil)
		checkHit(b, mux, req, &hit, indexOf(b, staticBenchRoutes, staticBenchTarget))
		benchServe(b, mux, req)
	})
	for _, n := range paramBenchCounts {
		c := newParamBenchCase(n)
		b.Run("params="+strconv.Itoa(n), func(b *testing.B) {
			var hit int
			mux := newBenchServeMux(b, []string{c.pattern}, &hit)
			req := httptest.NewRequest("GET", c.path, nil)
			checkHit(b, mux, req, &hit, 0)
			benchServe(b, mux, req)
		})
	}
	for _, list := range []struct{ bench, name string }{{"github_all", "github"}, {"static_all", "static"}} {
		b.Run(list.bench, func(b *testing.B) {
			routes := loadRoutes(b, list.name)
			var hit int
			mux := newBenchServeMux(b, routePatterns(routes), &hit)
			reqs := routeRequests(routes)
			for i, req := range reqs {
				checkHit(b, mux, req, &hit, i)
			}
			benchServeAll(b, mux, reqs)
		})
	}
}

// passThrough is a middleware that does nothing but call the next handler.
func passThrough(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { next.ServeHTTP(w, r) })
}

// BenchmarkComposition measures what composition adds to a lookup: the same
// route bare, behind three middlewares of Use and two of a group, as a
// version chosen by Accept; the automatic OPTIONS, 405 and replaced 404
// answers below the group's prefix (behind the five middlewares) and
// outside it (behind the three); and mounts, of a handler and of a Router.
// Path values are off. Each op clears the writer's header map, as a new
// response would have.
func BenchmarkComposition(b *testing.B) {
	var hit int
	const accept = "application/vnd.acme.v1+json;q=0.5, application/vnd.acme.v2+json"
	bare := cairn.New()
	bare.PopulatePathValues(false)
	bare.Handle("GET /api/users/{id:int}", hitHandler(&hit, 1))

	r := cairn.New()
	r.PopulatePathValues(false)
	r.Versioning(cairn.Versioning{Vendor: "acme"})
	r.Use(passThrough, passThrough, passThrough)
	r.NotFound(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNotFound) }))
	api := r.Group("/api", passThrough, passThrough)
	api.Handle("GET /users/{id:int}", hitHandler(&hit, 1))
	api.Handle("GET /items/{id:int}", hitHandler(&hit, 1))
	api.Version("v1").Handle("GET /items/{id:int}", hitHandler(&hit, 2))
	api.Version("v2").Handle("GET /items/{id:int}", hitHandler(&hit, 3))
	r.Mount("/files", hitHandler(&hit, 4))
	r.Mount("/orgs/{org}", hitHandler(&hit, 5))
	inner := cairn.New()
	inner.PopulatePathValues(false)
	inner.Handle("GET /things/{name}", hitHandler(&hit, 6))
	r.Mount("/teams/{team}", inner)

	for _, bc := range []struct {
		name, method, target, accept string
		h                            http.Handler
		want                         int // the handler that must run, or -1
	}{
		{"route/bare", "GET", "/api/users/42", "", bare, 1},
		{"route/3+2 middleware", "GET", "/api/users/42", "", r, 1},
		{"version/none asked", "GET", "/api/items/42", "", r, 1},
		{"version/v2 by Accept", "GET", "/api/items/42", accept, r, 3},
		{"automatic OPTIONS", "OPTIONS", "/api/users/42", "", r, -1},
		{"405", "DELETE", "/api/users/42", "", r, -1},
		{"custom 404", "GET", "/api/nowhere/42", "", r, -1},
		{"custom 404 outside groups", "GET", "/nowhere/42", "", r, -1},
		{"mount", "GET", "/files/a/b", "", r, 4},
		{"mount with a wildcard", "GET", "/orgs/acme/a/b", "", r, 5},
		{"mounted router", "GET", "/teams/core/things/x", "", r, 6},
	} {
		b.Run(bc.name, func(b *testing.B) {
			req := httptest.NewRequest(bc.method, bc.target, nil)
			if bc.accept != "" {
				req.Header.Set("Accept", bc.accept)
			}
			checkHit(b, bc.h, req, &hit, bc.want)
			w := newNopWriter()
			pristine := *req
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				*req = pristine
				clear(w.h)
				bc.h.ServeHTTP(w, req)
			}
		})
	}
}

// registerPrefixes are the prefixes that BenchmarkRegister spreads its
// routes over, as the benchmarks module's growth suite does.
var registerPrefixes = []string{"/api", "/v1", "/v2/admin", "/users", "/static/img", "/docs", "/orgs/teams", "/search"}

// BenchmarkRegister measures registering routes: an op is building a
// router of n routes, static ("GET /api/r7") or ending in a wildcard
// ("GET /api/r7/{id}"), and serving one request with it, which publishes
// its table. It reports the time per route.
func BenchmarkRegister(b *testing.B) {
	for _, kind := range []string{"static", "param"} {
		for _, n := range []int{100, 10000} {
			b.Run(fmt.Sprintf("%s/routes=%d", kind, n), func(b *testing.B) {
				patterns := make([]string, n)
				for i := range patterns {
					patterns[i] = "GET " + registerPrefixes[i%len(registerPrefixes)] + "/r" + strconv.Itoa(i)
					if kind == "param" {
						patterns[i] += "/{id}"
					}
				}
				h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
				w := newNopWriter()
				req := httptest.NewRequest("GET", "/api/r0", nil)
				b.ReportAllocs()
				for b.Loop() {
					r := cairn.New()
					for _, p := range patterns {
						r.Handle(p, h)
					}
					r.ServeHTTP(w, req)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/route")
			})
		}
	}
}
