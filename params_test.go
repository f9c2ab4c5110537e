package cairn

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestParam checks Param on requests built by hand, including escaped
// values, multi wildcards and names that are not in the pattern.
func TestParam(t *testing.T) {
	for _, tt := range []struct {
		pattern, path, rawPath, name, want string
	}{
		{"GET /repos/{owner}/{repo}", "/repos/golang/go", "", "owner", "golang"},
		{"GET /repos/{owner}/{repo}", "/repos/golang/go", "", "repo", "go"},
		{"GET /repos/{owner}/{repo}", "/repos/golang/go", "", "nope", ""},
		{"GET h.com/a/{x:int}/b", "/a/42/b", "", "x", "42"},
		{"/files/{rest...}", "/files/a/b/c", "", "rest", "a/b/c"},
		{"/files/{rest...}", "/files/", "", "rest", ""},
		{"/files/{rest...}", "/files/a/b/c", "/files/a/b%2Fc", "rest", "a/b/c"},
		{"/files/{rest...}", "/files/a/b%2Fc", "/files/a/b%2Fc", "rest", "a/b%2Fc"}, // RawPath does not match Path
		{"/a/{x}", "/a/b/c", "/a/b%2Fc", "x", "b/c"},
		{"/a/{x}", "/a/%zz", "", "x", "%zz"},
		{"/a/{x}/{y}", "/a/b", "", "y", ""},
		{"", "/a/b", "", "x", ""},
		{"/i/{x:int}", "/i/5", "", "x:int", ""},
		{"/m/{x...}", "/m/a/b", "", "x...", ""},
		{"/{a}/{b}", "/1/2", "", "a}/{b", ""},
		// A path that does not line up with the pattern, as that of a
		// redirect does not with the pattern of the route it leads to,
		// gives no values.
		{"GET /t/{a}/{b}", "/t/one/two/", "", "a", ""},
		{"GET /t/{a}/{b}", "/t/one/./two", "", "a", ""},
		{"GET /t/{a}/{b}", "/t/one//two", "", "b", ""},
		{"GET /t/{a}/{b}/", "/t/one/two", "", "a", ""},
		{"/s/{a}/{b}/", "/s/one/two/x/y", "", "b", "two"},
		{"/a/{x}/{$}", "/a/b/", "", "x", "b"},
		{"/m/{x...}", "/m/", "", "x", ""},
	} {
		r := &http.Request{Pattern: tt.pattern, URL: &url.URL{Path: tt.path, RawPath: tt.rawPath}}
		if got := Param(r, tt.name); got != tt.want {
			t.Errorf("Param(%q on %q, %q) = %q, want %q", tt.pattern, tt.path, tt.name, got, tt.want)
		}
	}
	// For a pattern of no live Router, a path value comes first: ServeMux
	// sets one for every wildcard, and a Mount for those of its prefix,
	// which the path it passes on no longer holds.
	r := &http.Request{Pattern: "/orgs/{org}/", URL: &url.URL{Path: "/orgs/x/y"}}
	r.SetPathValue("org", "acme")
	if got := Param(r, "org"); got != "acme" {
		t.Errorf("Param(org) = %q with the path value \"acme\", want the path value", got)
	}
}

// BenchmarkParamFunc measures Param alone, for the first and second
// wildcard of a GitHub pattern and the last of a pattern with 20 wildcards,
// on requests routed by a Router.
func BenchmarkParamFunc(b *testing.B) {
	var p20, u20 strings.Builder
	for i := 0; i < 20; i++ {
		p20.WriteString("/{p" + string(rune('a'+i)) + "}")
		u20.WriteString("/v" + string(rune('a'+i)))
	}
	for _, bc := range []struct {
		name, pattern, path, param string
	}{
		{"github/first", "GET /repos/{owner}/{repo}/stargazers", "/repos/julienschmidt/httprouter/stargazers", "owner"},
		{"github/second", "GET /repos/{owner}/{repo}/stargazers", "/repos/julienschmidt/httprouter/stargazers", "repo"},
		{"params=20/last", "GET " + p20.String(), u20.String(), "pt"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			// Route the request once, so that r.Pattern is the route's.
			router := New()
			router.HandleFunc(bc.pattern, func(http.ResponseWriter, *http.Request) {})
			r := &http.Request{Method: "GET", URL: &url.URL{Path: bc.path}}
			router.ServeHTTP(&recorder{h: http.Header{}}, r)
			if findIdent(r.Pattern) == nil || Param(r, bc.param) == "" {
				b.Fatal("no identity or no value")
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				Param(r, bc.param)
			}
		})
	}
}

// TestIdentRegistry checks that a router's pattern identities are found
// from r.Pattern, and removed once the router is collected.
func TestIdentRegistry(t *testing.T) {
	pattern := func() string {
		router := New()
		router.HandleFunc("GET /layout/{a}/{b...}", func(http.ResponseWriter, *http.Request) {})
		r := &http.Request{Method: "GET", URL: &url.URL{Path: "/layout/1/2/3"}}
		router.ServeHTTP(&recorder{h: http.Header{}}, r)
		if id := findIdent(r.Pattern); id == nil || id.kind != identServe {
			t.Fatalf("identity of %q: got %v, want one of kind serve", r.Pattern, id)
		}
		if got := Param(r, "b"); got != "2/3" {
			t.Errorf("Param(b) = %q, want %q", got, "2/3")
		}
		// A prefix of the pattern shares its address but is another string.
		if findIdent(r.Pattern[:5]) != nil {
			t.Error("found an identity for a prefix of the pattern")
		}
		return r.Pattern
	}()
	for i := 0; i < 50 && findIdent(pattern) != nil; i++ {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if findIdent(pattern) != nil {
		t.Error("identity still registered after its router was collected")
	}
}

// TestIdentRegistryCleanup checks that a collected router's identities
// all leave the registry: those of routes, kept by their offsets in the
// router's blocks of patterns, over several blocks; that of a pattern too
// long for a block; and that of an answer, made while serving.
func TestIdentRegistryCleanup(t *testing.T) {
	h := func(http.ResponseWriter, *http.Request) {}
	patterns := func() []string {
		router := New()
		var patterns []string
		for i := range 3000 {
			router.HandleFunc("GET /r"+strconv.Itoa(i)+"/{x}", h)
		}
		router.HandleFunc("GET /long/"+strings.Repeat("a", maxPatternBlock), h)
		router.HandleFunc("GET /dir/", h)
		for _, rt := range router.routes {
			patterns = append(patterns, rt.id.pat.str)
		}
		r := &http.Request{Method: "GET", URL: &url.URL{Path: "/dir"}}
		router.ServeHTTP(&recorder{h: http.Header{}}, r)
		patterns = append(patterns, r.Pattern)
		set := router.ids
		set.mu.Lock()
		blocks, others := len(set.blocks), len(set.ids)
		set.mu.Unlock()
		if blocks < 2 || others != 2 {
			t.Fatalf("%d blocks and %d other identities, want several blocks and 2", blocks, others)
		}
		for _, p := range patterns {
			if findIdent(p) == nil {
				t.Fatalf("no identity for %.40q", p)
			}
		}
		return patterns
	}()
	left := func() int {
		n := 0
		for _, p := range patterns {
			if findIdent(p) != nil {
				n++
			}
		}
		return n
	}
	for i := 0; i < 50 && left() > 0; i++ {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if n := left(); n > 0 {
		t.Errorf("%d of %d identities still registered after their router was collected", n, len(patterns))
	}
}

// TestSharedLayouts checks that the patterns of a router with the same
// wildcards at the same positions share a layout, that patterns that
// differ in any of what Param reads do not, and that each route still
// reads its own values.
func TestSharedLayouts(t *testing.T) {
	router := New()
	patterns := []string{
		"GET /repos/{owner}/{repo}/issues",
		"POST /repos/{owner}/{repo}/issues",
		"GET /repos/{owner}/{repo}/pulls", // shares with the two above
		"GET /repos/{owner}/{name}/forks", // another name
		"GET /repos/{owner}/{repo}",       // fewer segments
		"GET /users/{owner}/x/{repo}",     // another position
		"GET /files/{owner}/{repo...}",    // a multi
	}
	for _, p := range patterns {
		router.HandleFunc(p, func(http.ResponseWriter, *http.Request) {})
	}
	v := router.Version("v2")
	v.HandleFunc("GET /repos/{owner}/{repo}/tags", func(http.ResponseWriter, *http.Request) {})
	layouts := make(map[string]*layout)
	for _, rt := range router.routes {
		layouts[rt.id.pat.str] = rt.id.l
	}
	if layouts[patterns[0]] != layouts[patterns[1]] || layouts[patterns[0]] != layouts[patterns[2]] {
		t.Errorf("%q, %q and %q have different layouts", patterns[0], patterns[1], patterns[2])
	}
	seen := map[*layout]string{}
	for _, p := range append(patterns[2:], "GET /repos/{owner}/{repo}/tags") {
		if q, ok := seen[layouts[p]]; ok {
			t.Errorf("%q shares the layout of %q", p, q)
		}
		seen[layouts[p]] = p
	}
	for path, want := range map[string]string{
		"/repos/a/b/issues": "b", "/repos/a/c/forks": "", "/repos/a/d": "d",
		"/users/a/x/e": "e", "/files/a/f/g": "f/g",
	} {
		r := &http.Request{Method: "GET", URL: &url.URL{Path: path}, Header: http.Header{}}
		router.ServeHTTP(&recorder{h: http.Header{}}, r)
		if got := Param(r, "repo"); got != want || Param(r, "owner") != "a" {
			t.Errorf("%s: Param(repo), Param(owner) = %q, %q; want %q, %q", path, got, Param(r, "owner"), want, "a")
		}
	}
}

// TestLayoutCollision checks that a pattern whose layout hash another
// layout of the router has is not given that layout.
func TestLayoutCollision(t *testing.T) {
	var a layout
	a.init(mustPattern(t, "/a/{x}"), "")
	p := mustPattern(t, "/a/{y}")
	r := New()
	r.layouts = map[uint64]*layout{layoutHash(p, ""): &a}
	if got := r.layoutOf(p, ""); got == &a || !got.fits(p, "") || got.vars[0].name != "y" {
		t.Errorf("layoutOf returned %+v for %s", *got, p)
	}
}

// TestLayoutFits checks that a layout fits the patterns whose layout is
// equal to it, and no other, and that those have the same hash.
func TestLayoutFits(t *testing.T) {
	// Patterns with the same class differ in nothing that Param reads.
	class := map[string]int{
		"/a/{x}": 1, "/a/{y}": 2, "/a/{x}/": 3, "/a/{x}/b": 4, "/a/{x}/{$}": 4, "/{x}/a": 5,
		"/a/{x...}": 6, "/a/{x}/{y}": 7, "/a/{x}/{y...}": 8, "/a/{x}/{z}": 9,
		"/a/b": 10, "/a/{$}": 10, "/a/": 11,
	}
	var patterns []string
	for p := range class {
		patterns = append(patterns, p)
	}
	for _, ps := range patterns {
		p := mustPattern(t, ps)
		for _, version := range []string{"", "v1"} {
			var l layout
			l.init(p, version)
			for _, qs := range patterns {
				q := mustPattern(t, qs)
				for _, qv := range []string{"", "v1"} {
					var m layout
					m.init(q, qv)
					same := l.equal(&m)
					if got := l.fits(q, qv); got != same {
						t.Errorf("layout of %s (version %q) fits %s (version %q) = %v, want %v", ps, version, qs, qv, got, same)
					}
					if same != (version == qv && class[ps] == class[qs]) {
						t.Errorf("layouts of %s (version %q) and %s (version %q): equal = %v", ps, version, qs, qv, same)
					}
					if same && layoutHash(p, version) != layoutHash(q, qv) {
						t.Errorf("equal layouts of %s and %s (version %q) have different hashes", ps, qs, qv)
					}
					// A hash shared by layouts that differ would keep the
					// second from being shared (see layoutOf).
					if !same && (p.wildcards() > 0 || version != "") && layoutHash(p, version) == layoutHash(q, qv) {
						t.Errorf("layouts of %s (version %q) and %s (version %q) differ but have the same hash", ps, version, qs, qv)
					}
				}
			}
		}
	}
}

// equal reports whether l and m are the same layout, byName aside (it
// follows from the names).
func (l *layout) equal(m *layout) bool {
	return l.nsegs == m.nsegs && l.multi == m.multi && l.fromStart == m.fromStart && l.asPathValues == m.asPathValues &&
		l.version == m.version && slices.Equal(l.vars, m.vars)
}

// TestParams checks the iterator over all values, for routers, mounts and
// ServeMux, and that it allocates nothing.
func TestParams(t *testing.T) {
	collect := func(r *http.Request) string {
		var b strings.Builder
		for name, value := range Params(r) {
			b.WriteString(name + "=" + value + ";")
		}
		return b.String()
	}
	var got string
	record := func(w http.ResponseWriter, r *http.Request) { got = collect(r) }
	router := New()
	router.PopulatePathValues(false)
	router.HandleFunc("GET /repos/{owner}/{repo}/issues/{n:int}", record)
	router.HandleFunc("GET /files/{dir}/{path...}", record)
	router.HandleFunc("GET /static", record)
	router.Mount("/orgs/{org}/m/{team}", http.HandlerFunc(record))
	mux := http.NewServeMux()
	mux.HandleFunc("GET /a/{x}/b/{y...}", record)
	mux.HandleFunc("GET /c/{x}/{$}", record)
	for _, tt := range []struct {
		h            http.Handler
		target, want string
	}{
		{router, "/repos/golang/go/issues/42", "owner=golang;repo=go;n=42;"},
		{router, "/files/d/a/b%2Fc", "dir=d;path=a/b/c;"},
		{router, "/files/d/", "dir=d;path=;"},
		{router, "/static", ""},
		{router, "/orgs/acme/m/core/x/y", "org=acme;team=core;"},
		{mux, "/a/1/b/2/3", "x=1;y=2/3;"},
		{mux, "/c/1/", "x=1;"},
	} {
		got = "unset"
		tt.h.ServeHTTP(&recorder{h: http.Header{}}, &http.Request{Method: "GET", URL: mustParse(t, tt.target)})
		if got != tt.want {
			t.Errorf("%s: Params yields %q, want %q", tt.target, got, tt.want)
		}
	}
	var n int
	r := &http.Request{Method: "GET", URL: mustParse(t, "/repos/golang/go/issues/42")}
	router.ServeHTTP(&recorder{h: http.Header{}}, r)
	allocs := testing.AllocsPerRun(100, func() {
		n = 0
		for _, v := range Params(r) {
			n += len(v)
		}
	})
	if allocs != 0 || n != len("golanggo42") {
		t.Errorf("Params: %v allocations, %d bytes of values; want 0, %d", allocs, n, len("golanggo42"))
	}
}

// mustParse parses a request target.
func mustParse(tb testing.TB, target string) *url.URL {
	tb.Helper()
	u, err := url.ParseRequestURI(target)
	if err != nil {
		tb.Fatal(err)
	}
	return u
}

// TestAnswerIdentities checks that the identity of a redirect is made once,
// on the first redirect, even when many come at once, and that a route
// that never redirects has none.
func TestAnswerIdentities(t *testing.T) {
	r := New()
	patterns := make(chan string, 64)
	r.Use(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			patterns <- req.Pattern
			next.ServeHTTP(w, req)
		})
	})
	r.HandleFunc("GET /a/{x}/", func(http.ResponseWriter, *http.Request) {})
	r.HandleFunc("GET /b", func(http.ResponseWriter, *http.Request) {})
	rt := r.routes[0]
	if _, ok := r.slashRedirectIDs.Load(rt.id); ok {
		t.Fatal("a redirect identity before any redirect")
	}
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			r.ServeHTTP(&recorder{h: http.Header{}}, &http.Request{Method: "GET", URL: &url.URL{Path: "/a/1"}, Host: "h"})
		})
	}
	wg.Wait()
	close(patterns)
	first := <-patterns
	id := findIdent(first)
	if id == nil || id.kind != identSlashRedirect || id.pat.str != "GET /a/{x}/" {
		t.Fatalf("r.Pattern %q of a redirect: identity %+v", first, id)
	}
	for p := range patterns {
		if findIdent(p) != id {
			t.Errorf("two redirects of one route got different identities")
		}
	}
	_, redirect := r.redirectIDs.Load(r.routes[1].id)
	if _, reject := r.rejectIDs.Load(rt.id); redirect || reject {
		t.Error("identities made for answers not given")
	}
}

// TestSharedLayoutOnce checks that sharedLayout gives one layout for each
// number of segments and kind of end, whoever asks first and however many
// ask at once: those it reads without its lock (fewer than 16 segments) and
// the others, which it keeps in its map.
func TestSharedLayoutOnce(t *testing.T) {
	const maxSegs, callers = 20, 8
	got := make([][2 * maxSegs]*layout, callers)
	var wg sync.WaitGroup
	for c := range callers {
		wg.Go(func() {
			for k := range 2 * maxSegs {
				// Each caller starts at another key, so that first
				// calls race with others for the same key.
				i := (k + c*5) % (2 * maxSegs)
				got[c][i] = sharedLayout(int32(i/2), i%2 == 1)
			}
		})
	}
	wg.Wait()
	for i := range 2 * maxSegs {
		nsegs, tail := int32(i/2), i%2 == 1
		l := got[0][i]
		if l == nil || l.nsegs != nsegs || l.fromStart != tail || len(l.vars) != 0 {
			t.Fatalf("sharedLayout(%d, %v) = %+v", nsegs, tail, l)
		}
		for c := 1; c < callers; c++ {
			if got[c][i] != l {
				t.Fatalf("sharedLayout(%d, %v) gave two layouts", nsegs, tail)
			}
		}
		if again := sharedLayout(nsegs, tail); again != l {
			t.Fatalf("sharedLayout(%d, %v) gave another layout on a later call", nsegs, tail)
		}
		sharedLayouts.mu.Lock()
		inMap := sharedLayouts.m[sharedLayoutKey{nsegs, tail}]
		sharedLayouts.mu.Unlock()
		if inMap != l {
			t.Fatalf("sharedLayout(%d, %v) is not the layout its map keeps", nsegs, tail)
		}
	}
}

// TestParamsAgreeWithParam checks that Params yields every wildcard of the
// pattern that matched, in order, with the value Param gives it, for
// requests routed by a Router (path values off and on) and by ServeMux;
// also once the path no longer lines up with the pattern, as it does behind
// http.StripPrefix, where the values themselves are not specified.
func TestParamsAgreeWithParam(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	values := []string{"v", "golang", "a%2Fb", "caf%C3%A9", "0123456789abcdef0123456789"}
	for n := range 600 {
		// A pattern of up to twelve segments, literals and wildcards,
		// that may end in a multi, a slash or {$}.
		nsegs := 1 + rng.IntN(12)
		var pat, path strings.Builder
		var names []string
		for i := range nsegs {
			if rng.IntN(2) == 0 {
				lit := []string{"a", "repos", "x-long-literal"}[rng.IntN(3)]
				pat.WriteString("/" + lit)
				path.WriteString("/" + lit)
				continue
			}
			name := "w" + strconv.Itoa(i)
			names = append(names, name)
			pat.WriteString("/{" + name + "}")
			path.WriteString("/" + values[rng.IntN(len(values))])
		}
		switch rng.IntN(4) {
		case 0:
			names = append(names, "rest")
			pat.WriteString("/{rest...}")
			path.WriteString("/" + values[rng.IntN(len(values))] + "/z")
		case 1:
			pat.WriteString("/{$}")
			path.WriteString("/")
		}
		pattern := "GET " + pat.String()
		target := path.String()

		var routed *http.Request
		capture := http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { routed = r })
		fast, withValues, mux := New(), New(), http.NewServeMux()
		fast.PopulatePathValues(false)
		fast.Handle(pattern, capture)
		withValues.Handle(pattern, capture)
		mux.Handle(pattern, capture)
		for _, h := range []http.Handler{fast, withValues, mux} {
			routed = nil
			h.ServeHTTP(&recorder{h: http.Header{}}, &http.Request{Method: "GET", URL: mustParse(t, target)})
			if routed == nil {
				t.Fatalf("%s: %s not routed", pattern, target)
			}
			// The path as routed, with its first segment stripped with
			// and without its slash, with a segment added in front, and
			// others that do not fit the pattern at all.
			first := target[:1+strings.IndexByte(target[1:]+"/", '/')]
			for _, p := range []string{
				target,
				strings.TrimPrefix(target, first),
				strings.TrimPrefix(target, first+"/"),
				"/p" + target,
				"/" + strings.Repeat("s/", rng.IntN(20)),
				"",
			} {
				r := *routed
				u, err := url.Parse(p)
				if err != nil {
					t.Fatal(err)
				}
				r.URL = u
				var got []string
				for name, v := range Params(&r) {
					got = append(got, name+"="+v)
				}
				var want []string
				for _, name := range names {
					want = append(want, name+"="+Param(&r, name))
				}
				if !slices.Equal(got, want) {
					t.Fatalf("case %d: %s routed by %T, path %q: Params yields %q, Param gives %q", n, pattern, h, p, got, want)
				}
			}
		}
	}
}

// TestMountedRoutersCollected checks that routers that served a request
// through a mounted Router are collected once dropped, with the identities
// of the full patterns they made for it, whether the mounted router is
// dropped too or outlives them.
func TestMountedRoutersCollected(t *testing.T) {
	h := func(http.ResponseWriter, *http.Request) {}
	kept := New()
	kept.HandleFunc("GET /k/{x}", h)
	var collected atomic.Int64
	var patterns []string
	const n = 50
	for i := range n {
		inner := kept
		if i%2 == 0 {
			inner = New()
			inner.HandleFunc("GET /r/{repo}", h)
		}
		outer := New()
		outer.Mount("/o/{org}", inner)
		req := &http.Request{Method: "GET", URL: &url.URL{Path: "/o/x/r/y"}}
		if inner == kept {
			req.URL.Path = "/o/x/k/y"
		}
		outer.ServeHTTP(&recorder{h: http.Header{}}, req)
		if id := findIdent(req.Pattern); id == nil || id.kind != identThrough {
			t.Fatalf("%s: pattern %q has no full-pattern identity", req.URL.Path, req.Pattern)
		}
		patterns = append(patterns, req.Pattern)
		runtime.AddCleanup(outer, func(*atomic.Int64) { collected.Add(1) }, &collected)
	}
	for i := 0; i < 100 && collected.Load() < n; i++ {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if c := collected.Load(); c < n {
		t.Fatalf("%d of %d dropped routers collected", c, n)
	}
	for i := 0; i < 50; i++ {
		left := 0
		for _, p := range patterns {
			if findIdent(p) != nil {
				left++
			}
		}
		if left == 0 {
			return
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	t.Errorf("identities of collected routers' full patterns still registered")
}

// TestRouterAliveWhileServing checks that a router that nothing else
// refers to stays alive while its handler runs, so that Param and
// RouteVersion read the values of the request's route until the handler
// returns, however many collections run meanwhile.
func TestRouterAliveWhileServing(t *testing.T) {
	collect := func() {
		for i := 0; i < 20; i++ {
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
	}
	// read is a handler that collects, then reads the value of name and
	// the route's version.
	var got string
	read := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, req *http.Request) {
			collect()
			got = name + "=" + Param(req, name) + " version=" + RouteVersion(req)
		}
	}
	// Each case's router is used last by what serves the request: its
	// ServeHTTP, or the handler its Handler returned, of the kind entry
	// (the route itself, the route adding Vary, a decided answer).
	for _, tt := range []struct {
		setup        func(r *Router)
		path, accept string
		entry        http.Handler
		want         string
	}{
		{func(r *Router) { r.Mount("/o/{org}", read("org")) }, "/o/acme/repos/x", "", (*routeEntry)(nil), "org=acme version="},
		{func(r *Router) {
			r.Versioning(Versioning{Vendor: "acme"})
			r.Version("v2").HandleFunc("GET /v/{id}", read("id"))
		}, "/v/7", "application/vnd.acme.v2+json", (*varyRouteEntry)(nil), "id=7 version=v2"},
		{func(r *Router) {
			r.TrailingSlash(SlashServe)
			r.Mount("/s/{org}/", read("org"))
		}, "/s/acme", "", (*verdictEntry)(nil), "org=acme version="},
	} {
		for _, viaHandler := range []bool{false, true} {
			got = ""
			func() {
				r := New()
				tt.setup(r)
				req := &http.Request{Method: "GET", URL: &url.URL{Path: tt.path}, Header: http.Header{}}
				if tt.accept != "" {
					req.Header.Set("Accept", tt.accept)
				}
				if !viaHandler {
					r.ServeHTTP(&recorder{h: http.Header{}}, req)
					return
				}
				h, _ := r.Handler(req)
				if reflect.TypeOf(h) != reflect.TypeOf(tt.entry) {
					t.Fatalf("GET %s: Handler gave a %T, want a %T", tt.path, h, tt.entry)
				}
				h.ServeHTTP(&recorder{h: http.Header{}}, req)
			}()
			if got != tt.want {
				t.Errorf("GET %s (through Handler: %v): read %q after collections, want %q", tt.path, viaHandler, got, tt.want)
			}
		}
	}
}

// TestParamOnRedirect checks what Param, Params and RouteVersion give the
// middleware around a redirect: for one that cleans the path, whose
// segments no longer line up with the pattern in r.Pattern, no values, as
// r.PathValue (which a redirect leaves unset, as ServeMux's does); for one
// that adds or removes a trailing slash only, the values of the path it
// leads to; and the route's version.
func TestParamOnRedirect(t *testing.T) {
	for _, slash := range []SlashPolicy{SlashStrict, SlashRedirect} {
		r := New()
		r.TrailingSlash(slash)
		r.Versioning(Versioning{Vendor: "acme"})
		var seen []string
		r.Use(func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				s := req.URL.Path + ": " + req.Pattern + ":"
				for name, v := range Params(req) {
					s += fmt.Sprintf(" %s=%q/%q/%q", name, v, Param(req, name), req.PathValue(name))
				}
				seen = append(seen, s+" version="+RouteVersion(req))
				next.ServeHTTP(w, req)
			})
		})
		h := func(http.ResponseWriter, *http.Request) {}
		r.HandleFunc("GET /t/{a}/{b}", h)
		r.Version("v2").HandleFunc("GET /s/{a}/{b}/", h)
		// Escaped values too: the redirect's target is escaped, the
		// request's path may not be.
		paths := []string{"/t/one/two", "/t/one/./two", "/t/one//two", "/x/../t/one/two", "/s/one/two", "/s/one/./two/",
			"/s/a%20b/two", "/s/%E6%97%A5/two", "/s/a%2Fb/two", "/s/a%20b/./two/", "/s/one/two//"}
		want := []string{
			`/t/one/two: GET /t/{a}/{b}: a="one"/"one"/"one" b="two"/"two"/"two" version=`,
			`/t/one/./two: GET /t/{a}/{b}: a=""/""/"" b=""/""/"" version=`,
			`/t/one//two: GET /t/{a}/{b}: a=""/""/"" b=""/""/"" version=`,
			`/x/../t/one/two: GET /t/{a}/{b}: a=""/""/"" b=""/""/"" version=`,
			`/s/one/two: GET /s/{a}/{b}/: a="one"/"one"/"" b="two"/"two"/"" version=v2`,
			`/s/one/./two/: GET /s/{a}/{b}/: a=""/""/"" b=""/""/"" version=v2`,
			`/s/a b/two: GET /s/{a}/{b}/: a="a b"/"a b"/"" b="two"/"two"/"" version=v2`,
			`/s/日/two: GET /s/{a}/{b}/: a="日"/"日"/"" b="two"/"two"/"" version=v2`,
			`/s/a/b/two: GET /s/{a}/{b}/: a="a/b"/"a/b"/"" b="two"/"two"/"" version=v2`,
			`/s/a b/./two/: GET /s/{a}/{b}/: a=""/""/"" b=""/""/"" version=v2`,
			// Unclean, but only by a trailing slash too many.
			`/s/one/two//: GET /s/{a}/{b}/: a="one"/"one"/"" b="two"/"two"/"" version=v2`,
		}
		if slash == SlashRedirect {
			paths = append(paths, "/t/one/two/", "/t/a%20b/two/")
			want = append(want, `/t/one/two/: GET /t/{a}/{b}: a="one"/"one"/"" b="two"/"two"/"" version=`,
				`/t/a b/two/: GET /t/{a}/{b}: a="a b"/"a b"/"" b="two"/"two"/"" version=`)
		}
		for _, p := range paths {
			w := &recorder{h: http.Header{}}
			accept := http.Header{"Accept": {"application/vnd.acme.v2+json"}}
			u, err := url.Parse(p)
			if err != nil {
				t.Fatal(err)
			}
			r.ServeHTTP(w, &http.Request{Method: "GET", URL: u, Header: accept})
			if code := w.code; p != "/t/one/two" && code != http.StatusTemporaryRedirect {
				t.Errorf("%v: GET %s: %d, want a redirect", slash, p, code)
			}
		}
		if !slices.Equal(seen, want) {
			t.Errorf("%v: the middleware saw\n%s\nwant\n%s", slash, strings.Join(seen, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestParamAfterCollection checks Param and Params on requests read once
// their router is collected, as a goroutine that outlives the handler
// reads them: the values come from the path values a Mount keeps for its
// prefix, from the path of a route's request, and not from a redirected
// path.
func TestParamAfterCollection(t *testing.T) {
	var saved []*http.Request
	func() {
		r := New()
		r.PopulatePathValues(false)
		save := func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				saved = append(saved, req)
				next.ServeHTTP(w, req)
			})
		}
		r.Use(save)
		r.Mount("/orgs/{org}", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			saved = append(saved, req)
		}))
		r.HandleFunc("GET /t/{a}/{b}", func(http.ResponseWriter, *http.Request) {})
		for _, p := range []string{"/orgs/acme/repos/x", "/t/one/two", "/t/one/./two"} {
			r.ServeHTTP(&recorder{h: http.Header{}}, &http.Request{Method: "GET", URL: &url.URL{Path: p}, Header: http.Header{}})
		}
	}()
	read := func() []string {
		var got []string
		for _, req := range saved {
			s := req.URL.Path + ":"
			for name, v := range Params(req) {
				s += fmt.Sprintf(" %s=%q/%q", name, v, Param(req, name))
			}
			got = append(got, s)
		}
		return got
	}
	before := read()
	for i := 0; i < 50 && findIdent(saved[0].Pattern) != nil; i++ {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if findIdent(saved[0].Pattern) != nil {
		t.Fatal("the router was not collected")
	}
	want := []string{
		`/orgs/acme/repos/x: org="acme"/"acme"`, // the outer middleware: the mount's pattern
		`/repos/x: org="acme"/"acme"`,           // the mounted handler: the stripped pattern
		`/t/one/two: a="one"/"one" b="two"/"two"`,
		`/t/one/./two: a=""/"" b=""/""`,
	}
	if !slices.Equal(before, want) {
		t.Errorf("before the collection:\n%s\nwant\n%s", strings.Join(before, "\n"), strings.Join(want, "\n"))
	}
	if got := read(); !slices.Equal(got, want) {
		t.Errorf("after the collection:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestConstraintFuncRouterCollected checks that a router is collected even
// when the function of one of its constraints refers to it, as a method of
// a server that holds the router does: the registry of identities keeps a
// route's constraints until the router is collected, and must not reach
// the router through them.
func TestConstraintFuncRouterCollected(t *testing.T) {
	type server struct {
		r     *Router
		known map[string]bool
	}
	collected := make(chan struct{})
	func() {
		s := &server{r: New(), known: map[string]bool{"x": true}}
		s.r.DefineConstraint("known", func(seg string) bool { return s.known[seg] })
		s.r.HandleFunc("GET /items/{id:known}", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
		for path, want := range map[string]int{"/items/x": http.StatusNoContent, "/items/y": http.StatusNotFound} {
			w := &recorder{h: http.Header{}}
			s.r.ServeHTTP(w, &http.Request{Method: "GET", URL: &url.URL{Path: path}})
			if w.code != want {
				t.Fatalf("GET %s: %d, want %d", path, w.code, want)
			}
		}
		runtime.AddCleanup(s.r, func(c chan struct{}) { close(c) }, collected)
	}()
	for i := 0; i < 100; i++ {
		runtime.GC()
		select {
		case <-collected:
			return
		case <-time.After(time.Millisecond):
		}
	}
	t.Fatal("the router was not collected")
}

// TestParamSlashServe checks what a wrapper around the router reads from
// the request it passed in when the router serves it, under SlashServe, as
// the other form of its path: the values the handler saw, although the
// path has a trailing slash more or less than the pattern, for a route,
// the full pattern of a mounted Router's route, and a 406, with path
// values on and off, and escaped values.
func TestParamSlashServe(t *testing.T) {
	describe := func(req *http.Request) string {
		s := req.Pattern + ":"
		for name, v := range Params(req) {
			s += fmt.Sprintf(" %s=%q/%q", name, v, Param(req, name))
		}
		return s + " version=" + RouteVersion(req)
	}
	// inner is what the handler sees, when it differs: a mounted Router's
	// handler sees its own pattern.
	cases := []struct{ path, want, inner string }{
		{"/t/one/two/", `GET /t/{a}/{b}: a="one"/"one" b="two"/"two" version=`, ""},
		{"/t/o%2Fne/two/", `GET /t/{a}/{b}: a="o/ne"/"o/ne" b="two"/"two" version=`, ""},
		{"/h/one/", `GET /h/{a}: a="one"/"one" version=`, ""},
		{"/u/one/two", `GET /u/{a}/{b}/: a="one"/"one" b="two"/"two" version=`, ""},
		{"/f", `GET /f/{p...}: p=""/"" version=`, ""},
		{"/m/acme", `GET /m/{org}/{$}: org="acme"/"acme" version=`, `GET /{$}: version=`},
		{"/s/one/two", `GET /s/{a}/{b}/: a="one"/"one" b="two"/"two" version=v2`, ""},
	}
	for _, populate := range []bool{true, false} {
		r := New()
		r.TrailingSlash(SlashServe)
		r.PopulatePathValues(populate)
		r.Versioning(Versioning{Vendor: "acme"})
		var inner string
		h := func(w http.ResponseWriter, req *http.Request) { inner = describe(req) }
		for _, p := range []string{"GET /t/{a}/{b}", "GET /h/{a}", "GET /u/{a}/{b}/", "GET /f/{p...}"} {
			r.HandleFunc(p, h)
		}
		r.Version("v2").HandleFunc("GET /s/{a}/{b}/", h)
		m := New()
		m.TrailingSlash(SlashServe)
		m.HandleFunc("GET /{$}", h)
		r.Mount("/m/{org}/", m)
		// A 406 runs no handler: the middleware after routing sees what
		// the handler would.
		r.Use(func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				if req.URL.Path == "/s/one/two/" {
					inner = describe(req)
				}
				next.ServeHTTP(w, req)
			})
		})
		for _, c := range cases {
			inner = ""
			u, err := url.ParseRequestURI(c.path)
			if err != nil {
				t.Fatal(err)
			}
			req := &http.Request{Method: "GET", URL: u, Header: http.Header{}}
			w := &recorder{h: http.Header{}}
			r.ServeHTTP(w, req)
			if w.code != 0 && w.code != http.StatusNotAcceptable {
				t.Fatalf("populate %v: GET %s: %d", populate, c.path, w.code)
			}
			if want := cmp.Or(c.inner, c.want); inner != want {
				t.Errorf("populate %v: GET %s: the handler saw %s, want %s", populate, c.path, inner, want)
			}
			if got := describe(req); got != c.want {
				t.Errorf("populate %v: GET %s: the wrapper saw %s, want %s", populate, c.path, got, c.want)
			}
			req = &http.Request{Method: "GET", URL: u, Header: http.Header{}}
			handler, _ := r.Handler(req)
			handler.ServeHTTP(&recorder{h: http.Header{}}, req)
			if got := describe(req); got != c.want {
				t.Errorf("populate %v: GET %s through Handler: the caller saw %s, want %s", populate, c.path, got, c.want)
			}
		}
	}
}
