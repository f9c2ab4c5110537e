package cairn_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-go/cairn"
)

// trace returns a middleware that adds name to the X-Trace response header,
// so that a test sees which middleware ran, in what order, with which
// r.Pattern.
func trace(name string) cairn.Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Add("X-Trace", name)
			next.ServeHTTP(w, r)
		})
	}
}

// seePattern is a middleware that records r.Pattern and the value of
// {id} as seen before the handler runs.
func seePattern(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Seen", r.Pattern+" id="+cairn.Param(r, "id"))
		next.ServeHTTP(w, r)
	})
}

// answer is a handler that writes its name.
func answer(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("X-Trace", name)
		w.Write([]byte(name))
	}
}

// exchange is what a test sees of a response.
type exchange struct {
	code  int
	trace string // X-Trace values, joined by " "
	seen  string // X-Seen
	body  string
}

// do serves method and target with h and returns the exchange.
func do(tb testing.TB, h http.Handler, method, target string, header ...string) (exchange, *httptest.ResponseRecorder) {
	tb.Helper()
	req := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Add(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return exchange{
		code:  w.Code,
		trace: strings.Join(w.Header().Values("X-Trace"), " "),
		seen:  w.Header().Get("X-Seen"),
		body:  w.Body.String(),
	}, w
}

// TestMiddlewareOrder checks that router, group and per-route middleware
// run outermost first, and that group middleware runs only for the
// group's routes.
func TestMiddlewareOrder(t *testing.T) {
	r := cairn.New()
	r.Use(trace("r1"), trace("r2"))
	r.Use(seePattern)
	api := r.Group("/api", trace("g1"))
	v1 := api.Group("/v1/", trace("g2"))
	v1.HandleFunc("GET /users/{id}", answer("user"))
	v1.With(trace("w1"), trace("w2")).HandleFunc("DELETE /users/{id}", answer("delete"))
	api.HandleFunc("GET /status", answer("status"))
	r.With(trace("w")).HandleFunc("/plain", answer("plain"))
	r.HandleFunc("GET /tree/", answer("tree"))
	for _, tt := range []struct {
		method, target string
		want           exchange
	}{
		{"GET", "/api/v1/users/7", exchange{code: 200, trace: "r1 r2 g1 g2 user", seen: "GET /api/v1/users/{id} id=7", body: "user"}},
		{"DELETE", "/api/v1/users/8", exchange{code: 200, trace: "r1 r2 g1 g2 w1 w2 delete", seen: "DELETE /api/v1/users/{id} id=8", body: "delete"}},
		{"GET", "/api/status", exchange{code: 200, trace: "r1 r2 g1 status", seen: "GET /api/status id=", body: "status"}},
		{"POST", "/plain", exchange{code: 200, trace: "r1 r2 w plain", seen: "/plain id=", body: "plain"}},
		// Router-level middleware runs for every answer; group middleware
		// runs for the router's answers below the group's prefix.
		{"GET", "/nowhere", exchange{code: 404, trace: "r1 r2", seen: " id=", body: "404 page not found\n"}},
		{"PUT", "/api/v1/users/7", exchange{code: 405, trace: "r1 r2 g1 g2", seen: " id=", body: "Method Not Allowed\n"}},
		{"OPTIONS", "/api/v1/users/7", exchange{code: 204, trace: "r1 r2 g1 g2", seen: " id="}},
		{"GET", "/api/v1/nothing", exchange{code: 404, trace: "r1 r2 g1 g2", seen: " id=", body: "404 page not found\n"}},
		{"GET", "/api/nothing", exchange{code: 404, trace: "r1 r2 g1", seen: " id=", body: "404 page not found\n"}},
		{"GET", "/tree", exchange{code: 307, trace: "r1 r2", seen: "GET /tree/ id=", body: "<a href=\"/tree/\">Temporary Redirect</a>.\n\n"}},
		{"GET", "/api/../tree/", exchange{code: 307, trace: "r1 r2", seen: "GET /tree/ id=", body: "<a href=\"/tree/\">Temporary Redirect</a>.\n\n"}},
	} {
		got, w := do(t, r, tt.method, tt.target)
		if got != tt.want {
			t.Errorf("%s %s: got %+v, want %+v", tt.method, tt.target, got, tt.want)
		}
		if tt.want.code == 307 && w.Header().Get("Location") != "/tree/" {
			t.Errorf("%s %s: Location %q, want /tree/", tt.method, tt.target, w.Header().Get("Location"))
		}
	}
}

// TestGroupPatterns checks how group prefixes combine with patterns.
func TestGroupPatterns(t *testing.T) {
	r := newTestRouter(t)
	h := func(w http.ResponseWriter, req *http.Request) { w.Header().Set("X-Pattern", req.Pattern) }
	r.Group("/v1").HandleFunc("GET /users/{id}", h)
	r.Group("/v1").HandleFunc("/", h)
	r.Group("api.example.com/v2/").HandleFunc("POST /users", h)
	r.Group("api.example.com").Group("/v3").HandleFunc("GET /{$}", h)
	r.Group("/v4").HandleFunc("GET other.example.com/x", h)
	r.Group("").HandleFunc("GET /root", h)
	r.Group("/%2F/v5").HandleFunc("GET /x", h) // an escaped slash, not {$}
	for _, tt := range []struct{ method, target, want string }{
		{"GET", "/v1/users/1", "GET /v1/users/{id}"},
		{"PUT", "/v1/anything", "/v1/"},
		{"POST", "http://api.example.com/v2/users", "POST api.example.com/v2/users"},
		{"GET", "http://api.example.com/v3/", "GET api.example.com/v3/{$}"},
		{"GET", "http://other.example.com/v4/x", "GET other.example.com/v4/x"},
		{"GET", "/root", "GET /root"},
		{"GET", "/%2F/v5/x", "GET /%2F/v5/x"},
	} {
		if got := serveOnce(t, r, tt.method, tt.target); got.pattern != tt.want {
			t.Errorf("%s %s: pattern %q, want %q", tt.method, tt.target, got.pattern, tt.want)
		}
	}
}

// TestCompositionPanics checks the registration errors of composition.
func TestCompositionPanics(t *testing.T) {
	h := http.NotFoundHandler()
	for _, tt := range []struct {
		name string
		f    func(r *cairn.Router)
		want string
	}{
		{"nil middleware", func(r *cairn.Router) { r.Use(nil) }, "cairn: nil middleware"},
		{"nil With", func(r *cairn.Router) { r.With(nil) }, "cairn: nil middleware"},
		{"two hosts", func(r *cairn.Router) { r.Group("a.com").Group("b.com/x") }, `group prefix "b.com/x" has a host, and so has its parent group ("a.com")`},
		{"pattern host in host group", func(r *cairn.Router) { r.Group("a.com").Handle("GET b.com/x", h) }, `pattern "GET b.com/x" has a host, and so has its group ("a.com")`},
		{"method in prefix", func(r *cairn.Router) { r.Group("GET /x") }, `prefix "GET /x": a prefix has no method or blanks`},
		{"wildcard in host", func(r *cairn.Router) { r.Group("{h}/x") }, "host contains a brace"},
		{"bad pattern in group", func(r *cairn.Router) { r.Group("/v1").Handle("GET /{a}/{a}", h) }, `parsing "GET /v1/{a}/{a}": at offset 12: duplicate wildcard name "a"`},
		{"conflict in group", func(r *cairn.Router) {
			r.Handle("GET /v1/x", h)
			r.Group("/v1").Handle("GET /x", h)
		}, `pattern "GET /v1/x" (registered at`},
		{"multi in mount prefix", func(r *cairn.Router) { r.Mount("/files/{p...}", h) }, `cairn: prefix "/files/{p...}" ends in {p...}: `},
		{"nil mount", func(r *cairn.Router) { r.Mount("/x", nil) }, `cairn: nil handler mounted at "/x"`},
		{"bad version", func(r *cairn.Router) { r.Version("v 2") }, `cairn: invalid version "v 2"`},
		{"same version twice", func(r *cairn.Router) {
			r.Version("v2").Handle("GET /a/{id}", h)
			r.Version("v2").Handle("GET /a/{n}", h)
		}, "(both for version v2)"},
		{"overlapping versions", func(r *cairn.Router) {
			r.Version("v1").Handle("GET /a/{id}", h)
			r.Version("v2").Handle("GET /{x}/b", h)
		}, "conflicts with"},
	} {
		msg := panicMessage(func() { tt.f(cairn.New()) })
		if !strings.Contains(msg, tt.want) {
			t.Errorf("%s: panic %q, want it to contain %q", tt.name, msg, tt.want)
		}
	}
}

// TestMount checks prefix stripping, parameters of the prefix, and nested
// routers, with and without path-value population.
func TestMount(t *testing.T) {
	for _, populate := range []bool{true, false} {
		inner := cairn.New()
		inner.Use(trace("inner"))
		inner.HandleFunc("GET /repos/{repo}", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(r.URL.Path + " " + r.Pattern + " org=" + cairn.Param(r, "org") + " pv=" + r.PathValue("org") + " repo=" + cairn.Param(r, "repo")))
		})
		inner.HandleFunc("GET /{$}", answer("inner root"))
		plain := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(r.URL.Path + " raw=" + r.URL.RawPath + " " + r.Pattern + " a=" + cairn.Param(r, "a")))
		})
		r := cairn.New()
		r.PopulatePathValues(populate)
		r.Use(trace("outer"))
		r.Mount("/orgs/{org}", inner)
		r.Mount("/plain/", plain)
		r.Group("/g", trace("group")).Mount("/{a}/{b:int}", plain)
		r.Mount("files.example.com", plain)
		r.HandleFunc("GET /plain/own", answer("own"))
		for _, tt := range []struct {
			method, target string
			want           exchange
		}{
			{"GET", "/orgs/acme/repos/x", exchange{code: 200, trace: "outer inner", body: "/repos/x GET /repos/{repo} org=acme pv=acme repo=x"}},
			{"GET", "/orgs/a%2Fb/repos/x%2Fy", exchange{code: 200, trace: "outer inner", body: "/repos/x/y GET /repos/{repo} org=a/b pv=a/b repo=x/y"}},
			{"GET", "/orgs/acme/", exchange{code: 200, trace: "outer inner inner root", body: "inner root"}},
			{"GET", "/orgs/acme/nothing", exchange{code: 404, trace: "outer inner", body: "404 page not found\n"}},
			{"GET", "/orgs/acme", exchange{code: 307, trace: "outer", body: "<a href=\"/orgs/acme/\">Temporary Redirect</a>.\n\n"}},
			{"GET", "/plain/a/b", exchange{code: 200, trace: "outer", body: "/a/b raw= /plain/ a="}},
			{"GET", "/plain/", exchange{code: 200, trace: "outer", body: "/ raw= /plain/ a="}},
			{"GET", "/plain/own", exchange{code: 200, trace: "outer own", body: "own"}},
			{"POST", "/plain/own", exchange{code: 200, trace: "outer", body: "/own raw= /plain/ a="}},
			{"GET", "/g/x/42/deep/er", exchange{code: 200, trace: "outer group", body: "/deep/er raw= /g/{a}/{b:int}/ a=x"}},
			{"GET", "/g/x/y/deep", exchange{code: 404, trace: "outer group", body: "404 page not found\n"}},
			{"GET", "http://files.example.com/a%2Fb/c", exchange{code: 200, trace: "outer", body: "/a/b/c raw=/a%2Fb/c files.example.com/ a="}},
		} {
			got, _ := do(t, r, tt.method, tt.target)
			if got != tt.want {
				t.Errorf("populate=%v: %s %s: got %+v, want %+v", populate, tt.method, tt.target, got, tt.want)
			}
		}
	}
}

// TestMountKeepsRequest checks that the mounted handler gets a copy: the
// request the router was given is unchanged after the call.
func TestMountKeepsRequest(t *testing.T) {
	r := cairn.New()
	r.PopulatePathValues(false)
	r.Mount("/orgs/{org}", http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	req := httptest.NewRequest("GET", "/orgs/acme/x", nil)
	r.ServeHTTP(httptest.NewRecorder(), req)
	if req.URL.Path != "/orgs/acme/x" || req.PathValue("org") != "" || cairn.Param(req, "org") != "acme" {
		t.Errorf("after serving: path %q, PathValue %q, Param %q", req.URL.Path, req.PathValue("org"), cairn.Param(req, "org"))
	}
}

// limit returns a middleware that lets n requests through and answers 429
// to the others: state kept by the constructor, as rate limiters keep it.
// built counts the constructor's calls.
func limit(n int, built *int) cairn.Middleware {
	return func(next http.Handler) http.Handler {
		*built++
		left := n
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if left == 0 {
				w.WriteHeader(http.StatusTooManyRequests)
				return
			}
			left--
			next.ServeHTTP(w, r)
		})
	}
}

// TestMiddlewareConstructedOnce checks that the middleware of Use, Group
// and With is constructed once per call, whatever the number of routes
// and answers it wraps, so that a rate limiter limits the whole router.
func TestMiddlewareConstructedOnce(t *testing.T) {
	r := cairn.New()
	var routerBuilt, groupBuilt, withBuilt int
	r.Use(limit(6, &routerBuilt))
	api := r.Group("/api", limit(3, &groupBuilt))
	audited := api.With(limit(1, &withBuilt))
	for i := range 10 {
		r.HandleFunc(fmt.Sprintf("GET /r%d", i), answer("r"))
		api.HandleFunc(fmt.Sprintf("GET /a%d", i), answer("a"))
		audited.HandleFunc(fmt.Sprintf("POST /a%d", i), answer("post"))
	}
	if routerBuilt != 1 || groupBuilt != 1 || withBuilt != 1 {
		t.Fatalf("constructors called %d (Use), %d (Group), %d (With) times, want once each", routerBuilt, groupBuilt, withBuilt)
	}
	var codes []string
	for _, req := range [][2]string{
		{"POST", "/api/a1"}, {"POST", "/api/a2"}, // the With limit: 1
		{"GET", "/api/a3"}, {"GET", "/api/a4"}, // the group limit: 3, one taken above
		{"GET", "/r1"}, {"GET", "/nowhere"}, {"GET", "/r2"}, // the router limit: 6, five taken above
	} {
		got, _ := do(t, r, req[0], req[1])
		codes = append(codes, strconv.Itoa(got.code))
	}
	if got, want := strings.Join(codes, " "), "200 429 200 429 200 404 429"; got != want {
		t.Errorf("codes %s, want %s", got, want)
	}
}

// TestUseAfterRoutes checks that Use may come after routes, and wraps them
// as it wraps routes registered later, in the order of the calls.
func TestUseAfterRoutes(t *testing.T) {
	r := cairn.New()
	r.HandleFunc("GET /early", answer("early"))
	r.Use(trace("m1"))
	r.Group("/g", trace("g")).HandleFunc("GET /x", answer("x"))
	r.Use(trace("m2"), trace("m3"))
	r.HandleFunc("GET /late", answer("late"))
	for _, tt := range []struct {
		target string
		want   exchange
	}{
		{"/early", exchange{code: 200, trace: "m1 m2 m3 early", body: "early"}},
		{"/late", exchange{code: 200, trace: "m1 m2 m3 late", body: "late"}},
		{"/g/x", exchange{code: 200, trace: "m1 m2 m3 g x", body: "x"}},
		{"/none", exchange{code: 404, trace: "m1 m2 m3", body: "404 page not found\n"}},
	} {
		if got, _ := do(t, r, "GET", tt.target); got != tt.want {
			t.Errorf("GET %s: got %+v, want %+v", tt.target, got, tt.want)
		}
	}
}

// methodOverride is a middleware that takes the method from the
// X-HTTP-Method-Override header of POST requests, as gorilla's
// HTTPMethodOverrideHandler does.
func methodOverride(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if m := r.Header.Get("X-HTTP-Method-Override"); r.Method == http.MethodPost && m != "" {
			r.Method = m
		}
		next.ServeHTTP(w, r)
	})
}

// stripSlashes is a middleware that removes a trailing slash from the
// path, as chi's StripSlashes does.
func stripSlashes(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; len(p) > 1 && strings.HasSuffix(p, "/") {
			r.URL.Path = strings.TrimSuffix(p, "/")
		}
		next.ServeHTTP(w, r)
	})
}

// TestRewriteAfterRouting checks that a middleware after routing that
// changes the path does not change the route: the router's own answers
// are worked out for the path it leaves, except that a request it makes
// routable gets 404 rather than a 405 that lists its own method.
func TestRewriteAfterRouting(t *testing.T) {
	r := cairn.New()
	r.Use(stripSlashes)
	r.HandleFunc("GET /users", answer("users"))
	r.HandleFunc("GET /items/{id}", answer("item"))
	for _, tt := range []struct {
		method, target string
		code           int
		allow          string
	}{
		{"GET", "/users/", 404, ""},
		{"POST", "/users/", 405, "GET, HEAD, OPTIONS"},
		{"GET", "/items/1/", 404, ""},
		{"POST", "/users", 405, "GET, HEAD, OPTIONS"},
	} {
		if got, w := do(t, r, tt.method, tt.target); got.code != tt.code || w.Header().Get("Allow") != tt.allow {
			t.Errorf("%s %s: got %d Allow %q, want %d %q", tt.method, tt.target, got.code, w.Header().Get("Allow"), tt.code, tt.allow)
		}
	}
}

// TestUseBeforeRouting checks that middleware before routing runs first,
// for every request, and that routing sees what it changes, while the
// middleware after routing sees the pattern.
func TestUseBeforeRouting(t *testing.T) {
	r := cairn.New()
	r.Use(seePattern, trace("after"))
	r.UseBeforeRouting(trace("before"), methodOverride)
	r.UseBeforeRouting(stripSlashes, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			w.Header().Add("X-Trace", "before2 pattern="+req.Pattern)
			next.ServeHTTP(w, req)
		})
	})
	r.HandleFunc("PUT /items/{id}", answer("put"))
	r.HandleFunc("GET /users", answer("users"))
	for _, tt := range []struct {
		method, target string
		header         []string
		want           exchange
	}{
		{"POST", "/items/7", []string{"X-HTTP-Method-Override", "PUT"}, exchange{code: 200, trace: "before before2 pattern= after put", seen: "PUT /items/{id} id=7", body: "put"}},
		{"POST", "/items/7", nil, exchange{code: 405, trace: "before before2 pattern= after", seen: " id=", body: "Method Not Allowed\n"}},
		{"GET", "/users/", nil, exchange{code: 200, trace: "before before2 pattern= after users", seen: "GET /users id=", body: "users"}},
		{"GET", "/nowhere", nil, exchange{code: 404, trace: "before before2 pattern= after", seen: " id=", body: "404 page not found\n"}},
	} {
		if got, _ := do(t, r, tt.method, tt.target, tt.header...); got != tt.want {
			t.Errorf("%s %s %q: got %+v, want %+v", tt.method, tt.target, tt.header, got, tt.want)
		}
	}
}

// TestPatternOfAnotherRouter checks that a router's middleware that sets
// r.Pattern to one of another router, whose routes sit at the same indexes,
// does not make the router serve its own route at that index: as for any
// request changed after routing, the answer is 404, unless the pattern is
// the same text as the one the router's routing set (a copy of it), which
// leaves its decision as it was. The patterns are those of a route that
// served, of a mounted router's route seen from outside, and of a 406
// answer.
func TestPatternOfAnotherRouter(t *testing.T) {
	h := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, req *http.Request) { w.Write([]byte(name)) }
	}
	build := func(name string, versioned bool, mw cairn.Middleware) *cairn.Router {
		r := cairn.New()
		r.Versioning(cairn.Versioning{Vendor: "acme"})
		r.Use(mw)
		if versioned {
			r.Version("v1").HandleFunc("GET /only/{id}", h(name+" only"))
		} else {
			r.HandleFunc("GET /only/{id}", h(name+" only"))
		}
		inner := cairn.New()
		inner.HandleFunc("GET /x", h(name+" inner"))
		r.Mount("/m", inner)
		r.HandleFunc("GET /s", h(name+" s"))
		return r
	}
	// a's middleware records the pattern of each request by path.
	seen := map[string]string{}
	a := build("a", true, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			seen[req.URL.Path] = req.Pattern
			next.ServeHTTP(w, req)
		})
	})
	// b's middleware sets the pattern that the X-Pattern header names.
	var swap map[string]string
	b := build("b", false, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			if p, ok := swap[req.Header.Get("X-Pattern")]; ok {
				req.Pattern = p
			}
			next.ServeHTTP(w, req)
		})
	})
	serve := func(r http.Handler, path, accept, pattern string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("Accept", accept)
		req.Header.Set("X-Pattern", pattern)
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req)
		return w
	}
	for _, tt := range []struct {
		path, accept, pattern string
		code                  int
	}{
		{"/only/1", "application/vnd.acme.v3+json", "GET /only/{id}", http.StatusNotAcceptable},
		{"/m/x", "", "GET /m/x", http.StatusOK},
		{"/s", "", "GET /s", http.StatusOK},
	} {
		if w := serve(a, tt.path, tt.accept, ""); w.Code != tt.code || seen[tt.path] != tt.pattern {
			t.Fatalf("a: GET %s: %d, pattern %q, want %d, %q", tt.path, w.Code, seen[tt.path], tt.code, tt.pattern)
		}
	}
	swap = seen
	for _, tt := range []struct{ path, want, other string }{
		{"/only/1", "b only", "/s"},
		{"/m/x", "b inner", "/only/1"},
		{"/s", "b s", "/m/x"},
	} {
		if w := serve(b, tt.path, "", ""); w.Code != http.StatusOK || w.Body.String() != tt.want {
			t.Errorf("b: GET %s: %d %q, want 200 %q", tt.path, w.Code, w.Body.String(), tt.want)
		}
		// a's pattern for the same path is the text b's routing set.
		if w := serve(b, tt.path, "", tt.path); w.Code != http.StatusOK || w.Body.String() != tt.want {
			t.Errorf("b: GET %s with a's pattern %q: %d %q, want 200 %q", tt.path, seen[tt.path], w.Code, w.Body.String(), tt.want)
		}
		if w := serve(b, tt.path, "", tt.other); w.Code != http.StatusNotFound {
			t.Errorf("b: GET %s with a's pattern %q: %d %q, want 404", tt.path, seen[tt.other], w.Code, w.Body.String())
		}
	}
}

// TestPatternCopiedByMiddleware checks that middleware that sets r.Pattern
// to a copy of itself, as a router or a tracing middleware may, leaves the
// route as routing chose it: in Use, in a group, and outside a mounted
// router, whose routes the outer middleware sees by their full pattern.
func TestPatternCopiedByMiddleware(t *testing.T) {
	clone := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			req.Pattern = strings.Clone(req.Pattern)
			next.ServeHTTP(w, req)
		})
	}
	show := func(w http.ResponseWriter, req *http.Request) {
		io.WriteString(w, req.Pattern+" id="+cairn.Param(req, "id")+" org="+cairn.Param(req, "org"))
	}
	for _, pv := range []bool{true, false} {
		r := cairn.New()
		r.PopulatePathValues(pv)
		r.Use(clone)
		in := cairn.New()
		in.HandleFunc("GET /users/{id}", show)
		r.Mount("/o/{org}", in)
		r.Group("/g", clone).HandleFunc("GET /x/{id}", show)
		r.HandleFunc("GET /s", show)
		for _, tt := range []struct{ path, want string }{
			{"/o/acme/users/7", "GET /users/{id} id=7 org=acme"},
			{"/g/x/5", "GET /g/x/{id} id=5 org="},
			{"/s", "GET /s id= org="},
			{"/g/nothing", "404 page not found\n"},
		} {
			w := httptest.NewRecorder()
			r.ServeHTTP(w, httptest.NewRequest("GET", tt.path, nil))
			if w.Body.String() != tt.want {
				t.Errorf("path values %v: GET %s: %d %q, want %q", pv, tt.path, w.Code, w.Body.String(), tt.want)
			}
		}
	}
}

// TestAsteriskThroughMiddleware checks that the 400 a router answers a
// request for "*" with, as ServeMux does, goes through the middleware added
// with Use, which sees an empty r.Pattern, as for the router's other
// answers: with groups, and with middleware before routing; and that a
// middleware that sets r.Pattern to a route's pattern does not get the
// request served by that route.
func TestAsteriskThroughMiddleware(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(r *cairn.Router)
		trace string
	}{
		{"plain", func(*cairn.Router) {}, "use"},
		{"groups", func(r *cairn.Router) {
			r.Group("/", trace("group")).HandleFunc("GET /x", answer("x"))
		}, "use"},
		{"before routing", func(r *cairn.Router) { r.UseBeforeRouting(trace("pre")) }, "pre use"},
		{"pattern set", func(r *cairn.Router) {
			r.Use(func(next http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
					req.Pattern = "GET /"
					next.ServeHTTP(w, req)
				})
			})
		}, "use"},
	} {
		r := cairn.New()
		r.HandleFunc("GET /", answer("root"))
		r.Use(func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				w.Header().Add("X-Trace", "use")
				w.Header().Set("X-Pattern", req.Pattern)
				next.ServeHTTP(w, req)
			})
		})
		tc.setup(r)
		for _, method := range []string{"OPTIONS", "GET"} {
			req := httptest.NewRequest(method, "*", nil)
			req.Proto, req.ProtoMinor = "HTTP/1.1", 1
			w := httptest.NewRecorder()
			r.ServeHTTP(w, req)
			h := w.Header()
			if got := strings.Join(h["X-Trace"], " "); w.Code != http.StatusBadRequest || got != tc.trace || h.Get("X-Pattern") != "" || h.Get("Connection") != "close" || w.Body.Len() != 0 {
				t.Errorf("%s: %s *: %d, ran %q, pattern %q, Connection %q, body %q; want 400, ran %q, pattern \"\", Connection close, no body",
					tc.name, method, w.Code, got, h.Get("X-Pattern"), h.Get("Connection"), w.Body, tc.trace)
			}
		}
	}
}
