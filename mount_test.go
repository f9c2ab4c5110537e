package cairn_test

import (
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-go/cairn"
)

// seeAfter is a middleware that records r.Pattern and {name} after the
// handler returns, as metrics middleware reads the route, in X-After.
func seeAfter(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		next.ServeHTTP(w, r)
		// Headers written after the body are lost; the recorder keeps its
		// map, which the test reads.
		h.Set("X-After", r.Pattern+" org="+cairn.Param(r, "org")+" name="+cairn.Param(r, "name"))
	})
}

// newOrgs returns a router for /orgs/{org}: an inner router with its own
// middleware, routes, a subtree route and a mounted router of its own.
func newOrgs() *cairn.Router {
	things := cairn.New()
	things.Named("thing").HandleFunc("GET /{name}", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(r.URL.Path + " " + r.Pattern + " org=" + cairn.Param(r, "org") + " name=" + cairn.Param(r, "name")))
	})
	org := cairn.New()
	org.Use(trace("org"))
	org.Named("repo").HandleFunc("GET /repos/{repo}", answer("repo"))
	org.HandleFunc("GET /repos/", answer("repos"))
	org.Version("v2").HandleFunc("GET /repos/{repo}", answer("repo v2"))
	org.Mount("/things", things)
	return org
}

// TestMountedRouterPatterns checks that the middleware of the outer router
// sees the full pattern of the mounted router's route, before and after
// the handler, and reads every value with Param.
func TestMountedRouterPatterns(t *testing.T) {
	r := cairn.New()
	r.PopulatePathValues(false)
	r.Use(seePattern, seeAfter)
	r.Mount("/orgs/{org}", newOrgs())
	for _, tt := range []struct {
		target, seen, after, body string
	}{
		{"/orgs/acme/repos/x", "GET /orgs/{org}/repos/{repo} id=", "GET /orgs/{org}/repos/{repo} org=acme name=", "repo"},
		{"/orgs/acme/things/gizmo", "GET /orgs/{org}/things/{name} id=", "GET /orgs/{org}/things/{name} org=acme name=gizmo",
			"/gizmo GET /{name} org=acme name=gizmo"},
		{"/orgs/a%2Fb/things/c%2Fd", "GET /orgs/{org}/things/{name} id=", "GET /orgs/{org}/things/{name} org=a/b name=c/d",
			"/c/d GET /{name} org=a/b name=c/d"},
		// Not served by a route of the inner router: the mount's pattern.
		{"/orgs/acme/nothing", "/orgs/{org}/ id=", "/orgs/{org}/ org=acme name=", "404 page not found\n"},
		{"/orgs/acme/repos", "/orgs/{org}/ id=", "/orgs/{org}/ org=acme name=", "<a href=\"repos/\">Temporary Redirect</a>.\n\n"},
	} {
		got, w := do(t, r, "GET", tt.target)
		if got.seen != tt.seen || w.Header().Get("X-After") != tt.after || got.body != tt.body {
			t.Errorf("GET %s: before %q, after %q, body %q; want %q, %q, %q", tt.target, got.seen, w.Header().Get("X-After"), got.body, tt.seen, tt.after, tt.body)
		}
	}
	// The version is the inner route's.
	var version string
	r2 := cairn.New()
	r2.Use(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			next.ServeHTTP(w, req)
			version = cairn.RouteVersion(req) + " " + req.Pattern
		})
	})
	r2.Mount("/orgs/{org}", newOrgs())
	do(t, r2, "GET", "/orgs/acme/repos/x", "Accept", "application/vnd.acme.v2+json")
	if version != "v2 GET /orgs/{org}/repos/{repo}" {
		t.Errorf("RouteVersion through a mount: %q", version)
	}
}

// TestMountedRouterDetails checks the outer router's view of a mounted
// router: path values of the full pattern, Allowed, a mounted router with
// middleware before routing (whose routes the outer router cannot know in
// advance), and host prefixes.
func TestMountedRouterDetails(t *testing.T) {
	inner := cairn.New()
	inner.HandleFunc("GET /items/{id}", answer("item"))
	inner.HandleFunc("DELETE /items/{id}", answer("delete"))
	rewriting := cairn.New()
	rewriting.UseBeforeRouting(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			if req.URL.Path == "/users/self" {
				req.URL.Path = "/users/me"
			}
			next.ServeHTTP(w, req)
		})
	})
	rewriting.HandleFunc("GET /users/me", answer("me"))
	rewriting.HandleFunc("GET /users/{id}", answer("user"))
	r := cairn.New()
	var seen string
	r.Use(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			seen = req.Pattern + " org=" + req.PathValue("org") + " id=" + req.PathValue("id")
			next.ServeHTTP(w, req)
		})
	})
	r.Mount("/orgs/{org}", inner)
	r.Mount("/rw", rewriting)
	r.Mount("h.example.com/{org}", inner)
	for _, tt := range []struct {
		target, seen, body string
	}{
		{"/orgs/acme/items/9", "GET /orgs/{org}/items/{id} org=acme id=9", "item"},
		{"/rw/users/self", "/rw/ org= id=", "me"},
		{"http://h.example.com/acme/items/9", "GET h.example.com/{org}/items/{id} org=acme id=9", "item"},
	} {
		if got, _ := do(t, r, "GET", tt.target); seen != tt.seen || got.body != tt.body {
			t.Errorf("GET %s: outer middleware saw %q, body %q; want %q, %q", tt.target, seen, got.body, tt.seen, tt.body)
		}
	}
	if got := r.Allowed(httptest.NewRequest("OPTIONS", "/orgs/acme/items/1", nil)); got != "DELETE, GET, HEAD, OPTIONS" {
		t.Errorf("Allowed through a mount: %q", got)
	}
	if got := r.Allowed(httptest.NewRequest("OPTIONS", "/orgs/acme/nothing", nil)); got != "" {
		t.Errorf("Allowed through a mount, for a path the mounted router lacks: %q", got)
	}
}

// TestMountedRedirects checks, with a real client, that the redirects of a
// mounted router keep the mount's prefix.
func TestMountedRedirects(t *testing.T) {
	r := cairn.New()
	r.Mount("/orgs/{org}", newOrgs())
	r.Group("/g", trace("g")).Mount("/x", newOrgs())
	srv := httptest.NewServer(r)
	defer srv.Close()
	for _, tt := range []struct {
		path, final string
	}{
		{"/orgs/acme/repos", "/orgs/acme/repos/"},
		{"/orgs/acme/repos?page=2", "/orgs/acme/repos/?page=2"},
		{"/g/x/repos", "/g/x/repos/"},
		{"/orgs/acme", "/orgs/acme/"},
	} {
		var hops []string
		client := &http.Client{CheckRedirect: func(req *http.Request, via []*http.Request) error {
			hops = append(hops, req.URL.RequestURI())
			return nil
		}}
		resp, err := client.Get(srv.URL + tt.path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if len(hops) != 1 || hops[0] != tt.final {
			t.Errorf("GET %s: redirected through %q, want %q", tt.path, hops, tt.final)
		}
	}
	// The Location is relative to the request's path.
	_, w := do(t, r, "GET", "/orgs/acme/repos")
	base, _ := url.Parse("http://h/orgs/acme/repos")
	loc, _ := url.Parse(w.Header().Get("Location"))
	if got := base.ResolveReference(loc).Path; got != "/orgs/acme/repos/" {
		t.Errorf("Location %q resolves to %q", w.Header().Get("Location"), got)
	}
	// The same router alone redirects as ServeMux does.
	_, w = do(t, newOrgs(), "GET", "/repos")
	if got := w.Header().Get("Location"); got != "/repos/" {
		t.Errorf("unmounted: Location %q, want /repos/", got)
	}
}

// TestMountedIntrospection checks that Routes, WriteTree and Path see the
// routes of mounted routers with their full patterns.
func TestMountedIntrospection(t *testing.T) {
	r := cairn.New()
	r.HandleFunc("GET /{$}", answer("home"))
	r.Mount("/orgs/{org}", newOrgs())
	var b strings.Builder
	for _, ri := range r.Routes() {
		b.WriteString(ri.Pattern + " | " + ri.Name + " | " + ri.Path + " | " + ri.MountedAt + "\n")
	}
	want := `GET /{$} |  | /{$} | 
/orgs/{org}/ |  | /orgs/{org}/ | 
GET /orgs/{org}/repos/{repo} | repo | /orgs/{org}/repos/{repo} | /orgs/{org}/
GET /orgs/{org}/repos/ |  | /orgs/{org}/repos/ | /orgs/{org}/
GET /orgs/{org}/repos/{repo} |  | /orgs/{org}/repos/{repo} | /orgs/{org}/
/orgs/{org}/things/ |  | /orgs/{org}/things/ | /orgs/{org}/
GET /orgs/{org}/things/{name} | thing | /orgs/{org}/things/{name} | /orgs/{org}/things/
`
	if b.String() != want {
		t.Errorf("Routes:\n%s\nwant:\n%s", b.String(), want)
	}

	b.Reset()
	r.WriteTree(&b)
	wantTree := `(any host)
├── /{$}  GET
└── /orgs
    └── /{org}
        └── /  * mount
              ┆ (any host)
              ┆ ├── /repos
              ┆ │   ├── /{repo}  GET  GET v2
              ┆ │   └── /  GET
              ┆ └── /things
              ┆     └── /  * mount
              ┆           ┆ (any host)
              ┆           ┆ └── /{name}  GET
`
	if b.String() != wantTree {
		t.Errorf("WriteTree:\n%s\nwant:\n%s", b.String(), wantTree)
	}

	for _, tt := range []struct {
		route  string
		params []string
		want   string
	}{
		{"GET /orgs/{org}/repos/{repo}", []string{"org", "acme", "repo", "x"}, "/orgs/acme/repos/x"},
		{"repo", []string{"org", "acme", "repo", "x"}, "/orgs/acme/repos/x"},
		{"thing", []string{"org", "a/b", "name", "gizmo"}, "/orgs/a%2Fb/things/gizmo"},
		{"GET /orgs/{org}/things/{name}", []string{"org", "acme", "name", "g"}, "/orgs/acme/things/g"},
		{"/orgs/{org}/", []string{"org", "acme"}, "/orgs/acme/"},
	} {
		if got, err := r.Path(tt.route, tt.params...); got != tt.want || err != nil {
			t.Errorf("Path(%q, %q) = %q, %v; want %q", tt.route, tt.params, got, err, tt.want)
		}
	}
	if _, err := r.Path("thing", "name", "g"); err == nil || !strings.Contains(err.Error(), `no value for wildcard "org"`) {
		t.Errorf("Path without the prefix's value: error %v", err)
	}
	// A name that two mounts have is ambiguous.
	r.Mount("/teams/{org}", newOrgs())
	if _, err := r.Path("repo", "org", "a", "repo", "b"); err == nil || !strings.Contains(err.Error(), "two mounts") {
		t.Errorf("ambiguous name: error %v", err)
	}
	// So is a name that the router and a mounted router have, whichever
	// came first; the router's own pattern is not.
	r.Named("thing").HandleFunc("GET /thing", answer("thing"))
	if _, err := r.Path("thing"); err == nil || !strings.Contains(err.Error(), `the name "thing" belongs to the route "GET /thing" and to a route of the mount "/orgs/{org}/"`) {
		t.Errorf("a name of the router and of a mounted router: error %v", err)
	}
	late := cairn.New()
	late.Named("late").HandleFunc("GET /l", answer("late"))
	r.Named("late").HandleFunc("GET /late", answer("late"))
	r.Mount("/m", late)
	if _, err := r.Path("late"); err == nil || !strings.Contains(err.Error(), `the name "late" belongs to the route "GET /late" and to a route of the mount "/m/"`) {
		t.Errorf("a name of the router and of a router mounted later: error %v", err)
	}
	if got, err := r.Path("GET /late"); got != "/late" || err != nil {
		t.Errorf("Path of the router's own pattern = %q, %v; want /late", got, err)
	}
}

// TestMountReviewCases checks mounts in corner cases: a trailing-slash
// redirect for a method the mounted router lacks, SlashServe into a
// mounted router as Handler names it, a failed Mount, and sibling groups
// that share their parent's middleware.
func TestMountReviewCases(t *testing.T) {
	inner := cairn.New()
	inner.TrailingSlash(cairn.SlashRedirect)
	inner.HandleFunc("GET /users", answer("users"))
	r := cairn.New()
	r.Mount("/api", inner)
	for _, method := range []string{"GET", "POST"} {
		if _, w := do(t, r, method, "/api/users/"); w.Code != 307 || w.Header().Get("Location") != "../users" {
			t.Errorf("%s /api/users/: got %d Location %q, want 307 ../users", method, w.Code, w.Header().Get("Location"))
		}
	}

	served := cairn.New()
	served.HandleFunc("GET /{$}", answer("index"))
	outer := cairn.New()
	outer.TrailingSlash(cairn.SlashServe)
	var seen string
	outer.Use(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) { seen = req.Pattern; next.ServeHTTP(w, req) })
	})
	outer.Mount("/api", served)
	_, pattern := outer.Handler(httptest.NewRequest("GET", "/api", nil))
	do(t, outer, "GET", "/api")
	if pattern != seen || seen != "GET /api/{$}" {
		t.Errorf("SlashServe into a mount: Handler names %q, the middleware saw %q; want GET /api/{$}", pattern, seen)
	}

	// A Mount that fails leaves the router it would have mounted as it was.
	failing := cairn.New()
	r2 := cairn.New()
	r2.HandleFunc("/orgs/{org}/", answer("own"))
	if msg := panicMessage(func() { r2.Mount("/orgs/{org}", failing) }); msg == "" {
		t.Fatal("a conflicting Mount did not panic")
	}
	failing.HandleFunc("GET /u/{org}/", answer("u")) // the prefix's name is free
	if _, w := do(t, failing, "GET", "/u/x"); w.Header().Get("Location") != "/u/x/" {
		t.Errorf("a router whose Mount failed redirects to %q, want the absolute /u/x/", w.Header().Get("Location"))
	}

	// Two groups made from one group with middleware, with the same prefix.
	r3 := cairn.New()
	api := r3.Group("/api", trace("api"))
	api.Group("/v1").HandleFunc("GET /a", answer("a"))
	api.Group("/v1").HandleFunc("GET /b", answer("b"))
	r3.With(trace("w")).Group("/x").HandleFunc("GET /a", answer("a"))
	r3.With(trace("w")).Group("/y").Mount("/m", http.NotFoundHandler())
	if got, _ := do(t, r3, "GET", "/api/v1/none"); got.trace != "api" {
		t.Errorf("404 below the sibling groups: middleware %q, want api", got.trace)
	}
}

// TestMountedHosts checks that a pattern of a router mounted at a prefix
// with a host may have that host, or none, but not another, which requests
// through the mount never have: mounting such a router panics, and so does
// registering such a pattern once it is mounted, naming the pattern and the
// prefix. Mounted at a prefix without a host, the router's host patterns
// serve as they are.
func TestMountedHosts(t *testing.T) {
	inner := cairn.New()
	inner.HandleFunc("GET /a", answer("a"))
	inner.HandleFunc("GET api.example.com/b", answer("b"))
	r := cairn.New()
	r.Mount("api.example.com/v1", inner)
	msg := panicMessage(func() { inner.HandleFunc("GET other.com/c", answer("c")) })
	if !strings.Contains(msg, `"GET other.com/c"`) || !strings.Contains(msg, `"api.example.com/v1"`) {
		t.Errorf("registering another host in the mounted router: panic %q, want one naming the pattern and the prefix", msg)
	}
	for _, target := range []string{"http://api.example.com/v1/a", "http://api.example.com/v1/b"} {
		if got, w := do(t, r, "GET", target); w.Code != 200 {
			t.Errorf("GET %s: %d %q, want 200", target, w.Code, got.body)
		}
	}
	for _, info := range r.Routes() {
		if strings.Contains(info.Pattern, "other.com") {
			t.Errorf("the route that failed to register is listed: %q", info.Pattern)
		}
	}

	other := cairn.New()
	other.HandleFunc("GET other.com/c", answer("c"))
	msg = panicMessage(func() { cairn.New().Mount("api.example.com/v1", other) })
	if !strings.Contains(msg, `"GET other.com/c"`) || !strings.Contains(msg, `"api.example.com/v1"`) {
		t.Errorf("mounting a router with another host: panic %q, want one naming the pattern and the prefix", msg)
	}
	r2 := cairn.New()
	r2.Mount("/v1", other)
	if got, w := do(t, r2, "GET", "http://other.com/v1/c"); w.Code != 200 || got.body != "c" {
		t.Errorf("GET other.com/v1/c through a mount without a host: %d %q, want 200 c", w.Code, got.body)
	}
}

// TestMountedMiddlewareCount checks that Routes counts, for a mounted
// router's routes, the middleware around the mount as well as their own,
// as requests through the mount meet them all.
func TestMountedMiddlewareCount(t *testing.T) {
	inner := cairn.New()
	inner.Group("/a", trace("inner")).HandleFunc("GET /x", answer("x"))
	r := cairn.New()
	r.Group("/api", trace("g1"), trace("g2")).With(trace("w")).Mount("/in", inner)
	counts := map[string]int{}
	for _, ri := range r.Routes() {
		counts[ri.Pattern] = ri.Middleware
	}
	if got, _ := do(t, r, "GET", "/api/in/a/x"); got.trace != "g1 g2 w inner x" {
		t.Fatalf("GET /api/in/a/x ran %q, want g1 g2 w inner x", got.trace)
	}
	if counts["/api/in/"] != 3 || counts["GET /api/in/a/x"] != 4 {
		t.Errorf("Routes counts %v, want 3 for the mount and 4 for its route", counts)
	}
}

// TestMountRoundTrip mounts routers under random prefixes, with wildcards,
// constraints and escaped literals, registers random routes in them, and
// for each route builds a path with the outer router's Path from random
// values, requests it, and checks that the route's handler runs and reads
// every value, of the prefix and of its own pattern, with Param; and that
// Params yields those of its own pattern, as Param reads them.
func TestMountRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 19))
	prefixSegs := []string{"api", "a%2Fb", "caf%C3%A9", "{org}", "{n:int}", "{s:alpha}"}
	innerSegs := []string{"x", "%2F", "a%20b", "{id}", "{k:int}", "{c:[a-z]+}"}
	values := map[string][]string{
		"":        {"v", "a b", "a/b", "%", "é", "x.y", "-"},
		":int":    {"0", "42", "-7"},
		":alpha":  {"abc", "Z"},
		":[a-z]+": {"q", "xyz"},
	}
	checked := 0
	for n := range 400 {
		var prefix strings.Builder
		for range 1 + rng.IntN(2) {
			prefix.WriteString("/" + prefixSegs[rng.IntN(len(prefixSegs))])
		}
		var inner strings.Builder
		inner.WriteString("GET ")
		for k := range 1 + rng.IntN(3) {
			s := innerSegs[rng.IntN(len(innerSegs))]
			if strings.HasPrefix(s, "{") {
				// Names of their own, so that no two collide.
				s = strings.Replace(s, "{", "{i"+strconv.Itoa(k), 1)
			}
			inner.WriteString("/" + s)
		}
		switch rng.IntN(4) {
		case 0:
			inner.WriteString("/{rest...}")
		case 1:
			inner.WriteString("/{$}")
		}
		outerPV, innerPV := rng.IntN(2) == 0, rng.IntN(2) == 0
		outer, in := cairn.New(), cairn.New()
		outer.PopulatePathValues(outerPV)
		in.PopulatePathValues(innerPV)
		var got, names, yielded []string
		var ran bool
		in.HandleFunc(inner.String(), func(w http.ResponseWriter, req *http.Request) {
			ran = true
			got, yielded = got[:0], yielded[:0]
			for _, name := range names {
				got = append(got, name+"="+cairn.Param(req, name))
			}
			for name, v := range cairn.Params(req) {
				yielded = append(yielded, name+"="+v)
			}
		})
		if msg := panicMessage(func() { outer.Mount(prefix.String(), in) }); msg != "" {
			// Two {n:int} or {s:alpha} in the prefix: a duplicate name.
			if !strings.Contains(msg, "duplicate wildcard name") {
				t.Fatalf("Mount(%q): %s", prefix.String(), msg)
			}
			continue
		}
		var full string
		for _, ri := range outer.Routes() {
			if ri.MountedAt != "" {
				full = ri.Pattern
			}
		}
		if full == "" {
			t.Fatalf("Routes lists no route of the router mounted at %q", prefix.String())
		}
		// Values for every wildcard of the full pattern, in order.
		var params, want []string
		for _, m := range regexp.MustCompile(`\{([a-z0-9]+)(\.\.\.|:[^}]*\}?)?\}`).FindAllStringSubmatch(full, -1) {
			name, kind := m[1], m[2]
			var v string
			switch kind {
			case "...":
				v = []string{"", "a", "a/b c/d"}[rng.IntN(3)]
			default:
				vs := values[kind]
				v = vs[rng.IntN(len(vs))]
			}
			params = append(params, name, v)
			names = append(names, name)
			want = append(want, name+"="+v)
		}
		// Params yields the wildcards of the inner pattern, which r.Pattern
		// holds in the inner router's handlers; they follow the prefix's.
		wantYielded := want[len(want)-strings.Count(inner.String(), "{")+strings.Count(inner.String(), "{$}"):]
		path, err := outer.Path(full, params...)
		if err != nil {
			t.Fatalf("case %d: Path(%q, %q): %v", n, full, params, err)
		}
		u, err := url.ParseRequestURI(path)
		if err != nil {
			t.Fatalf("case %d: Path(%q, %q) = %q: %v", n, full, params, path, err)
		}
		ran, got = false, nil
		w := httptest.NewRecorder()
		outer.ServeHTTP(w, &http.Request{Method: "GET", URL: u, Header: http.Header{}, Host: "example.com"})
		if !ran || w.Code != http.StatusOK || !slices.Equal(got, want) || !slices.Equal(yielded, wantYielded) {
			t.Fatalf("case %d: %s (path values %v outside, %v inside): GET %s: ran %v, status %d, values %q, Params %q; want %q, %q",
				n, full, outerPV, innerPV, path, ran, w.Code, got, yielded, want, wantYielded)
		}
		checked++
	}
	if checked < 200 {
		t.Fatalf("only %d mounts checked", checked)
	}
}

// TestMountSharesPathValues pins what Mount's doc says of path values that
// the mounted handler stores: the outer request sees them only if it held
// path values when the mount passed it on (a prefix with wildcards, path
// values on); otherwise they are the copy's alone.
func TestMountSharesPathValues(t *testing.T) {
	for _, tt := range []struct {
		prefix, path string
		populate     bool
		want         string
	}{
		{"/orgs/{org}", "/orgs/acme/x", true, "v"},
		{"/orgs/{org}", "/orgs/acme/x", false, ""},
		{"/api", "/api/x", true, ""},
	} {
		outer := cairn.New()
		outer.PopulatePathValues(tt.populate)
		var after string
		outer.Use(func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				next.ServeHTTP(w, req)
				after = req.PathValue("k")
			})
		})
		outer.Mount(tt.prefix, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) { req.SetPathValue("k", "v") }))
		outer.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", tt.path, nil))
		if after != tt.want {
			t.Errorf("Mount(%q), path values %v: the outer middleware read %q after the handler set \"v\", want %q", tt.prefix, tt.populate, after, tt.want)
		}
	}
}

// TestMountedSlashServe checks the outer router's view of a mounted Router
// that serves the other form of a path under SlashServe: its middleware
// and a wrapper around it see the full pattern of the route that serves,
// and read its values with Param, with path values on and off; Allowed
// gives the methods of that route. Under SlashRedirect, the inner router
// redirects, and the mount's pattern is seen.
func TestMountedSlashServe(t *testing.T) {
	for _, policy := range []cairn.SlashPolicy{cairn.SlashServe, cairn.SlashRedirect} {
		for _, populate := range []bool{true, false} {
			inner := cairn.New()
			inner.TrailingSlash(policy)
			inner.HandleFunc("GET /repos/{name}", answer("repo"))
			inner.HandleFunc("PUT /repos/{name}", answer("put repo"))
			inner.HandleFunc("GET /teams/{name}/{$}", answer("team"))
			r := cairn.New()
			r.PopulatePathValues(populate)
			r.Use(seeAfter)
			r.Mount("/orgs/{org}", inner)
			for _, c := range []struct {
				target, after, allowed string
			}{
				{"/orgs/acme/repos/x/", "GET /orgs/{org}/repos/{name} org=acme name=x", "GET, HEAD, OPTIONS, PUT"},
				{"/orgs/acme/teams/x", "GET /orgs/{org}/teams/{name}/{$} org=acme name=x", "GET, HEAD, OPTIONS"},
			} {
				after, code := c.after, http.StatusOK
				if policy == cairn.SlashRedirect {
					after, code = "/orgs/{org}/ org=acme name=", http.StatusTemporaryRedirect
				}
				req := httptest.NewRequest("GET", c.target, nil)
				w := httptest.NewRecorder()
				r.ServeHTTP(w, req)
				wrapper := req.Pattern + " org=" + cairn.Param(req, "org") + " name=" + cairn.Param(req, "name")
				if w.Code != code || w.Header().Get("X-After") != after || wrapper != after {
					t.Errorf("%v, path values %v: GET %s: %d, Use saw %q after the handler, the wrapper %q; want %d and %q",
						policy, populate, c.target, w.Code, w.Header().Get("X-After"), wrapper, code, after)
				}
				if policy == cairn.SlashServe {
					if got := r.Allowed(httptest.NewRequest("OPTIONS", c.target, nil)); got != c.allowed {
						t.Errorf("%v: Allowed for %s = %q, want %q", policy, c.target, got, c.allowed)
					}
				}
			}
		}
	}
}

// TestMountedSlashVersionless checks that the outer router reports the
// mount's pattern when the mounted Router redirects a path (or, under
// SlashServe, answers 406 for its other form) because only a route with
// versions the request does not ask for takes the path with a slash added,
// not the pattern of the route that matched the path as it is.
func TestMountedSlashVersionless(t *testing.T) {
	for _, c := range []struct {
		policy cairn.SlashPolicy
		code   int
	}{{cairn.SlashStrict, http.StatusTemporaryRedirect}, {cairn.SlashServe, http.StatusNotAcceptable}} {
		inner := cairn.New()
		inner.TrailingSlash(c.policy)
		inner.Versioning(cairn.Versioning{Header: "X-V"})
		inner.HandleFunc("GET /{rest...}", answer("rest"))
		inner.Version("v2").HandleFunc("GET /items/{$}", answer("items v2"))
		r := cairn.New()
		r.Use(seeAfter)
		r.Mount("/m", inner)
		_, w := do(t, r, "GET", "/m/items")
		if want := "/m/ org= name="; w.Code != c.code || w.Header().Get("X-After") != want {
			t.Errorf("%v: GET /m/items: %d, Use saw %q; want %d, %q", c.policy, w.Code, w.Header().Get("X-After"), c.code, want)
		}
	}
}

// TestMountRacingRegistration checks that Mount and a registration in the
// mounted router that runs at the same time cannot both get past the
// other's check: the registration of a pattern that uses the prefix's
// wildcard name panics, or the Mount does. A constraint of the outer
// router, which registering the mount's pattern calls, registers in the
// inner router from another goroutine and waits for it, a scheduling that
// a program can meet without it.
func TestMountRacingRegistration(t *testing.T) {
	outer, inner := cairn.New(), cairn.New()
	inner.HandleFunc("GET /repos/", answer("repos"))
	var inRegistration string
	var hook sync.Once
	outer.DefineConstraint("hook", func(string) bool {
		hook.Do(func() {
			done := make(chan struct{})
			go func() {
				defer close(done)
				inRegistration = panicMessage(func() { inner.HandleFunc("GET /zz/{id}", answer("zz")) })
			}()
			<-done
		})
		return true
	})
	// The check of the mount's pattern against this one calls the hook.
	outer.HandleFunc("GET /abc/{$}", answer("abc"))
	inMount := panicMessage(func() { outer.Mount("/{id:hook}", inner) })
	if inMount != "" || !strings.Contains(inRegistration, `"GET /zz/{id}"`) || !strings.Contains(inRegistration, `"/{id:hook}"`) {
		t.Errorf("Mount panicked with %q, the registration meanwhile with %q; want the registration to panic, naming its pattern and the prefix", inMount, inRegistration)
	}
}

// TestMountMarksFirst checks that no request reaches a mounted router
// through its mount before the router knows it is mounted: served while
// Mount has not returned, and the mounted router is busy with another
// registration, which holds its lock, a request that the mounted router
// redirects to add a trailing slash is redirected within the mount.
func TestMountMarksFirst(t *testing.T) {
	outer, inner := cairn.New(), cairn.New()
	inner.HandleFunc("GET /repos/", answer("repos"))
	do(t, inner, "GET", "/repos/") // it serves: requests do not wait for its lock
	outer.HandleFunc("GET /abc/{$}", answer("abc"))
	do(t, outer, "GET", "/abc/")
	release, busy := make(chan struct{}), make(chan struct{})
	var slow, hook sync.Once
	inner.DefineConstraint("slow", func(string) bool {
		slow.Do(func() {
			close(busy)
			<-release
		})
		return true
	})
	outer.DefineConstraint("hook", func(string) bool {
		hook.Do(func() {
			go inner.HandleFunc("GET /{v:slow}/", answer("slow"))
			select {
			case <-busy:
			case <-time.After(2 * time.Second):
				t.Error("the registration in the mounted router did not call its constraint")
			}
		})
		return true
	})
	mounted := make(chan struct{})
	go func() {
		defer close(mounted)
		outer.Mount("/{t:hook}", inner)
	}()
	code, loc := 0, ""
	for deadline := time.Now().Add(2 * time.Second); code != http.StatusTemporaryRedirect && time.Now().Before(deadline); {
		w := httptest.NewRecorder()
		outer.ServeHTTP(w, httptest.NewRequest("GET", "/acme/repos", nil))
		code, loc = w.Code, w.Header().Get("Location")
		time.Sleep(20 * time.Microsecond)
	}
	close(release)
	<-mounted
	if code != http.StatusTemporaryRedirect || loc != "repos/" {
		t.Errorf("GET /acme/repos while mounting: %d to %q, want 307 to repos/", code, loc)
	}
}

// TestMountFailedUndone checks that a Mount that fails in the outer router
// leaves the router it would have mounted as it was: its patterns may use
// the prefix's wildcard names and other hosts, and its redirects stay
// absolute.
func TestMountFailedUndone(t *testing.T) {
	inner := cairn.New()
	inner.HandleFunc("GET /repos/", answer("repos"))
	outer := cairn.New()
	outer.HandleFunc("/u/{org}/", answer("taken"))
	outer.HandleFunc("api.example.com/u/{org}/", answer("taken"))
	if msg := panicMessage(func() { outer.Mount("api.example.com/u/{id}", inner) }); msg == "" {
		t.Fatal("mounting where a route has the same pattern did not panic")
	}
	if msg := panicMessage(func() { outer.Mount("/u/{id}", inner) }); msg == "" {
		t.Fatal("mounting where a route has the same pattern did not panic")
	}
	if msg := panicMessage(func() {
		inner.HandleFunc("GET /x/{id}", answer("x"))
		inner.HandleFunc("GET other.com/y", answer("y"))
	}); msg != "" {
		t.Errorf("registering in the router after its mount failed: panic %q", msg)
	}
	if _, w := do(t, inner, "GET", "/repos"); w.Header().Get("Location") != "/repos/" {
		t.Errorf("GET /repos from the router whose mount failed: redirected to %q, want /repos/", w.Header().Get("Location"))
	}
}
