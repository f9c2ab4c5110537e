package cairn_test

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-go/cairn"
)

// served describes how a router answered a request.
type served struct {
	code     int
	pattern  string // the pattern whose handler ran, "" if none
	values   string // the handler's name=value pairs, via cairn.Param
	location string
	allow    string
}

// serveOnce sends a request for method and target (a path or an absolute URL)
// to h and reports the answer. The handlers of newTestRouter write the
// pattern and values in headers.
func serveOnce(tb testing.TB, h http.Handler, method, target string) served {
	tb.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(method, target, nil))
	return served{
		code:     w.Code,
		pattern:  w.Header().Get("X-Pattern"),
		values:   w.Header().Get("X-Values"),
		location: w.Header().Get("Location"),
		allow:    w.Header().Get("Allow"),
	}
}

// newTestRouter registers patterns with handlers that report, in response
// headers, the pattern that matched and the value of every wildcard.
func newTestRouter(tb testing.TB, patterns ...string) *cairn.Router {
	tb.Helper()
	r := cairn.New()
	for _, p := range patterns {
		names := patternWildcards(p)
		r.HandleFunc(p, func(w http.ResponseWriter, req *http.Request) {
			var vals []string
			for _, n := range names {
				vals = append(vals, n+"="+cairn.Param(req, n))
				if pv := req.PathValue(n); pv != cairn.Param(req, n) {
					vals = append(vals, "PathValue("+n+")="+pv)
				}
			}
			w.Header().Set("X-Pattern", req.Pattern)
			w.Header().Set("X-Values", strings.Join(vals, " "))
		})
	}
	return r
}

// patternWildcards returns the names of the wildcards of pattern p.
func patternWildcards(p string) []string {
	var names []string
	for _, seg := range strings.Split(p, "/") {
		if strings.HasPrefix(seg, "{") && seg != "{$}" {
			name := strings.TrimSuffix(strings.TrimPrefix(seg, "{"), "}")
			name, _, _ = strings.Cut(name, ":")
			names = append(names, strings.TrimSuffix(name, "..."))
		}
	}
	return names
}

// TestServe checks which route answers each request, with what values, and
// the redirects, 404 and 405 answers, on one router with patterns of every
// kind.
func TestServe(t *testing.T) {
	r := newTestRouter(t,
		"GET /{$}",
		"GET /static/path",
		"POST /static/path",
		"GET /users/{id:int}",
		"GET /users/{name:alpha}",
		"GET /users/{other}",
		"GET /users/me",
		"/tree/",
		"GET /tree/{leaf}",
		"GET /files/{path...}",
		"GET /a%2Fb/{x}",
		"GET api.example.com/users/{id}",
		"GET /static/{uuid:uuid}/{ip:ipv4}",
		"PUT /static/{ip:ipv4}/{uuid:uuid}",
		"DELETE /only/delete",
		"/dir/{x}/",
		"GET /q/{code:[A-Z]{3}}",
		"GET /%E9t%C3%A9/{x}",
		"GET /%e9/{x}",
	)
	const uuid = "123e4567-e89b-12d3-a456-426614174000"
	for _, tt := range []struct {
		method, target string
		want           served
	}{
		{"GET", "/", served{code: 200, pattern: "GET /{$}"}},
		{"HEAD", "/", served{code: 200, pattern: "GET /{$}"}},
		{"GET", "/static/path", served{code: 200, pattern: "GET /static/path"}},
		{"POST", "/static/path", served{code: 200, pattern: "POST /static/path"}},
		{"PUT", "/static/path", served{code: 405, allow: "GET, HEAD, OPTIONS, POST"}},
		{"GET", "/users/42", served{code: 200, pattern: "GET /users/{id:int}", values: "id=42"}},
		{"GET", "/users/-42", served{code: 200, pattern: "GET /users/{id:int}", values: "id=-42"}},
		{"GET", "/users/ann", served{code: 200, pattern: "GET /users/{name:alpha}", values: "name=ann"}},
		{"GET", "/users/ann42", served{code: 200, pattern: "GET /users/{other}", values: "other=ann42"}},
		{"GET", "/users/me", served{code: 200, pattern: "GET /users/me"}},
		{"GET", "/users/%61%62", served{code: 200, pattern: "GET /users/{name:alpha}", values: "name=ab"}},
		{"GET", "/users/4%2F2", served{code: 200, pattern: "GET /users/{other}", values: "other=4/2"}},
		{"GET", "http://api.example.com/users/7", served{code: 200, pattern: "GET api.example.com/users/{id}", values: "id=7"}},
		{"GET", "http://api.example.com:8080/users/x", served{code: 200, pattern: "GET api.example.com/users/{id}", values: "id=x"}},
		{"GET", "/tree", served{code: 307, location: "/tree/"}},
		{"GET", "/tree?q=1", served{code: 307, location: "/tree/?q=1"}},
		{"POST", "/tree/", served{code: 200, pattern: "/tree/"}},
		{"GET", "/tree/x", served{code: 200, pattern: "GET /tree/{leaf}", values: "leaf=x"}},
		{"POST", "/tree/x", served{code: 200, pattern: "/tree/"}},
		{"GET", "/tree/x/y", served{code: 200, pattern: "/tree/"}},
		{"GET", "/files/", served{code: 200, pattern: "GET /files/{path...}", values: "path="}},
		{"GET", "/files/a/b%2Fc/d.txt", served{code: 200, pattern: "GET /files/{path...}", values: "path=a/b/c/d.txt"}},
		{"GET", "/files", served{code: 307, location: "/files/"}},
		{"GET", "/a%2Fb/c", served{code: 200, pattern: "GET /a%2Fb/{x}", values: "x=c"}},
		{"GET", "/a/b/c", served{code: 404}},
		{"GET", "/static/" + uuid + "/10.0.0.1", served{code: 200, pattern: "GET /static/{uuid:uuid}/{ip:ipv4}", values: "uuid=" + uuid + " ip=10.0.0.1"}},
		{"PUT", "/static/10.0.0.1/" + uuid, served{code: 200, pattern: "PUT /static/{ip:ipv4}/{uuid:uuid}", values: "ip=10.0.0.1 uuid=" + uuid}},
		{"PUT", "/static/" + uuid + "/10.0.0.1", served{code: 405, allow: "GET, HEAD, OPTIONS"}},
		{"GET", "/static/" + uuid + "/10.0.0.256", served{code: 404}},
		{"GET", "/only/delete", served{code: 405, allow: "DELETE, OPTIONS"}},
		{"OPTIONS", "/only/delete", served{code: 204, allow: "DELETE, OPTIONS"}},
		{"OPTIONS", "/tree/x", served{code: 200, pattern: "/tree/"}},
		{"OPTIONS", "/nowhere", served{code: 404}},
		{"GET", "/dir/x", served{code: 307, location: "/dir/x/"}},
		{"GET", "/q/EUR", served{code: 200, pattern: "GET /q/{code:[A-Z]{3}}", values: "code=EUR"}},
		{"GET", "/q/EURO", served{code: 404}},
		{"GET", "/users/../static/path", served{code: 307, location: "/static/path"}},
		{"GET", "/static//path", served{code: 307, location: "/static/path"}},
		{"GET", "/./static/path?x=y", served{code: 307, location: "/static/path?x=y"}},
		{"GET", "/nowhere", served{code: 404}},
		{"GET", "/%E9t%C3%A9/1", served{code: 200, pattern: "GET /%E9t%C3%A9/{x}", values: "x=1"}},
		{"GET", "/%e9/2", served{code: 200, pattern: "GET /%e9/{x}", values: "x=2"}},
		{"GET", "/%E9/3", served{code: 200, pattern: "GET /%e9/{x}", values: "x=3"}},
	} {
		got := serveOnce(t, r, tt.method, tt.target)
		if got != tt.want {
			t.Errorf("%s %s: got %+v, want %+v", tt.method, tt.target, got, tt.want)
		}
	}
}

// TestPanics checks the registration errors and their messages.
func TestPanics(t *testing.T) {
	for _, tt := range []struct {
		existing []string
		pattern  string
		want     []string // substrings of the panic message
	}{
		{nil, "", []string{`cairn: parsing "": at offset 0: empty pattern`}},
		{nil, "/{id:nosuch}", []string{"cairn:", `unknown constraint "nosuch"`}},
		{nil, "/{x}/{x}", []string{"cairn:", "at offset 5", `duplicate wildcard name "x"`}},
		{[]string{"/a/{x}"}, "/{y}/b", []string{`cairn: pattern "/{y}/b" (registered at `, "router_test.go:", `conflicts with pattern "/a/{x}"`, `both match "/a/b"`}},
		{[]string{"GET /a"}, "GET /a", []string{`conflicts with pattern "GET /a"`, "matches the same requests"}},
		{[]string{"/a"}, "GET /{x}", []string{"matches fewer methods", "more general path"}},
		{[]string{"/{n:int}"}, "/{m:int}", []string{`conflicts with pattern "/{n:int}"`, `both match "/1"`}},
		{[]string{"GET /{x}/{z:alnum}"}, "/12/{y:alpha}", []string{`both match "/12/y"`, "differently constrained wildcards"}},
		{[]string{"/{a:int}/{y}"}, "/{b}/x", []string{`both match "/1/x"`, `/{b}/x matches "/b/x" but /{a:int}/{y} does not`}},
		{[]string{"/1/{y}"}, "/{a:int}/b", []string{`both match "/1/b"`, `/{a:int}/b matches "/-1/b" but /1/{y} does not`}},
		{[]string{"/a/{c:[a-z]{50}}/{y}"}, "/{x}/{d:[a-z]{50}}/b", []string{"both match some paths"}},
	} {
		r := cairn.New()
		for _, p := range tt.existing {
			r.HandleFunc(p, func(http.ResponseWriter, *http.Request) {})
		}
		msg := panicMessage(func() { r.HandleFunc(tt.pattern, func(http.ResponseWriter, *http.Request) {}) })
		for _, w := range tt.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%q after %q: panic %q does not contain %q", tt.pattern, tt.existing, msg, w)
			}
		}
	}
	r := cairn.New()
	if msg := panicMessage(func() { r.Handle("/", nil) }); !strings.HasPrefix(msg, "cairn: nil handler") {
		t.Errorf("nil handler: got panic %q", msg)
	}
	if msg := panicMessage(func() { r.DefineRegexp("x", "[") }); !strings.HasPrefix(msg, "cairn: constraint \"x\": invalid regexp") {
		t.Errorf("bad regexp: got panic %q", msg)
	}
	if msg := panicMessage(func() { r.DefineConstraint("int", func(string) bool { return true }) }); !strings.Contains(msg, "built in") {
		t.Errorf("redefined int: got panic %q", msg)
	}
}

// panicMessage calls f and returns the message of its panic, or "" if it
// returned normally.
func panicMessage(f func()) (msg string) {
	defer func() {
		if v := recover(); v != nil {
			if err, ok := v.(error); ok {
				msg = err.Error()
			} else {
				msg = fmt.Sprint(v)
			}
		}
	}()
	f()
	return ""
}

// TestConflictErrorIsError checks that conflicts panic with a value that
// errors.As recognises.
func TestConflictErrorIsError(t *testing.T) {
	r := cairn.New()
	r.HandleFunc("/a", func(http.ResponseWriter, *http.Request) {})
	defer func() {
		var ce *cairn.ConflictError
		if err, _ := recover().(error); !errors.As(err, &ce) || ce.Existing != "/a" || ce.Pattern != "/a" {
			t.Errorf("got %v, want a *cairn.ConflictError for /a", err)
		}
	}()
	r.HandleFunc("/a", func(http.ResponseWriter, *http.Request) {})
}

// TestRegisterWhileServing registers routes while other goroutines serve
// requests; run with -race. Every route must be served once its
// registration has returned.
func TestRegisterWhileServing(t *testing.T) {
	r := cairn.New()
	r.HandleFunc("GET /warm", func(http.ResponseWriter, *http.Request) {})
	serveOnce(t, r, "GET", "/warm") // the router is now serving
	const n = 200
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				w := httptest.NewRecorder()
				r.ServeHTTP(w, httptest.NewRequest("GET", fmt.Sprintf("/r%d/x", i%n), nil))
			}
		}()
	}
	for i := 0; i < n; i++ {
		r.HandleFunc(fmt.Sprintf("GET /r%d/{x}", i), func(http.ResponseWriter, *http.Request) {})
		if got := serveOnce(t, r, "GET", fmt.Sprintf("/r%d/x", i)); got.code != 200 {
			t.Errorf("route %d: got %d right after registering it", i, got.code)
		}
	}
	close(stop)
	wg.Wait()
}

// TestMalformedRequests sends malformed request lines to a real server on
// the loopback interface: net/http rejects them before the router runs.
func TestMalformedRequests(t *testing.T) {
	r := newTestRouter(t, "/{x...}")
	srv := httptest.NewServer(r)
	defer srv.Close()
	for _, tt := range []struct {
		name, line string
		code       int
	}{
		{"bad escape", "GET /a%zz HTTP/1.1", 400},
		{"bad escape at end", "GET /a% HTTP/1.1", 400},
		{"path over the header limit", "GET /" + strings.Repeat("a", 1<<20+8192) + " HTTP/1.1", 431},
		{"good", "GET /a%20b HTTP/1.1", 200},
	} {
		if got, err := rawRequest(srv.Listener.Addr().String(), tt.line); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		} else if got != tt.code {
			t.Errorf("%s: got %d, want %d", tt.name, got, tt.code)
		}
	}
}

// rawRequest sends a request with the given request line to addr and
// returns the status code of the answer.
func rawRequest(addr, line string) (int, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	fmt.Fprintf(conn, "%s\r\nHost: x\r\nConnection: close\r\n\r\n", line)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// TestZeroRouter checks that the zero value is usable, with path values on.
func TestZeroRouter(t *testing.T) {
	var r cairn.Router
	if got := serveOnce(t, &r, "GET", "/"); got.code != 404 {
		t.Errorf("empty zero Router: got %d, want 404", got.code)
	}
	r.HandleFunc("GET /a/{x}", func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("X-Values", req.PathValue("x"))
	})
	if got := serveOnce(t, &r, "GET", "/a/b"); got.code != 200 || got.values != "b" {
		t.Errorf("zero Router: got %+v, want 200 and PathValue b", got)
	}
}

// TestOrderedConstraints checks that among patterns that differ only in
// their constraints, the one registered first wins, whatever other patterns
// made the tree first.
func TestOrderedConstraints(t *testing.T) {
	r := newTestRouter(t, "POST /{a:hex}", "GET /{b:int}", "GET /{c:hex}", "GET /x/{d:alpha}/{e:int}", "GET /x/{f:alnum}/{g:hex}")
	for _, tt := range []struct {
		method, target, want string
	}{
		{"GET", "/12", "GET /{b:int}"},
		{"GET", "/ff", "GET /{c:hex}"},
		{"POST", "/12", "POST /{a:hex}"},
		{"GET", "/x/ab/12", "GET /x/{d:alpha}/{e:int}"},
		{"GET", "/x/ab/ff", "GET /x/{f:alnum}/{g:hex}"},
		{"GET", "/x/a1/12", "GET /x/{f:alnum}/{g:hex}"},
	} {
		if got := serveOnce(t, r, tt.method, tt.target); got.pattern != tt.want {
			t.Errorf("%s %s: got %q, want %q", tt.method, tt.target, got.pattern, tt.want)
		}
	}
}

// TestPathWithoutSlash checks that a path that does not start with a slash,
// as http.StripPrefix can leave, is redirected to its clean form rather than
// matched.
func TestPathWithoutSlash(t *testing.T) {
	r := newTestRouter(t, "GET /admin", "GET /b/{x}")
	h := http.StripPrefix("/api", r)
	for _, tt := range []struct {
		target string
		want   served
	}{
		{"/apiXadmin", served{code: 307, location: "/Xadmin"}},
		{"/apiab/c", served{code: 307, location: "/ab/c"}},
		{"/api/admin", served{code: 200, pattern: "GET /admin"}},
	} {
		if got := serveOnce(t, h, "GET", tt.target); got != tt.want {
			t.Errorf("GET %s: got %+v, want %+v", tt.target, got, tt.want)
		}
	}
}

// TestEmptySegment pins the documented difference from ServeMux for
// patterns with an empty segment: cairn matches it literally, where
// ServeMux treats it as a wildcard.
func TestEmptySegment(t *testing.T) {
	r := newTestRouter(t, "/a//b", "/c//{x}", "/a/{x}/b")
	for _, tt := range []struct {
		method, target string
		want           served
	}{
		{"GET", "/a/x/b", served{code: 200, pattern: "/a/{x}/b", values: "x=x"}},
		{"GET", "/a//b", served{code: 307, location: "/a/b"}},
		{"CONNECT", "/a//b", served{code: 200, pattern: "/a//b"}},
		{"GET", "/c/d/e", served{code: 404}},
		{"CONNECT", "/c//e", served{code: 200, pattern: "/c//{x}", values: "x=e"}},
	} {
		if got := serveOnce(t, r, tt.method, tt.target); got != tt.want {
			t.Errorf("%s %s: got %+v, want %+v", tt.method, tt.target, got, tt.want)
		}
	}
}

// TestStaticRoutes checks the requests for static routes that the router
// serves before it makes a full query, against what the full lookup
// decides: with middleware after routing and in groups, versions, methods
// without a route at the path, extension methods, escaped paths and a
// wildcard sibling.
func TestStaticRoutes(t *testing.T) {
	mark := func(name string) cairn.Middleware {
		return func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Add("X-Through", name)
				next.ServeHTTP(w, r)
			})
		}
	}
	report := func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("X-Pattern", req.Pattern)
		w.Header().Set("X-Version", cairn.RouteVersion(req))
	}
	plain := cairn.New()
	for _, p := range []string{"GET /a", "POST /a", "/any/x", "PROPFIND /dav", "PUT /{x}", "GET /a/b"} {
		plain.HandleFunc(p, report)
	}
	plain.Group("/g", mark("group")).HandleFunc("GET /x", report)
	plain.Version("v2").HandleFunc("GET /v", report)
	plain.HandleFunc("GET /v", report)

	hosted := cairn.New()
	hosted.HandleFunc("GET /a", report)
	hosted.HandleFunc("GET api.example.com/a", report)
	hosted.HandleFunc("GET www.example.com/{x}", report)

	after := cairn.New()
	after.HandleFunc("GET /a", report)
	after.Use(mark("after"))

	for _, tt := range []struct {
		router          *cairn.Router
		method, target  string
		code            int
		pattern, marks  string
		accept, version string
	}{
		{plain, "GET", "/a", 200, "GET /a", "", "", ""},
		{plain, "HEAD", "/a", 200, "GET /a", "", "", ""},
		{plain, "POST", "/a", 200, "POST /a", "", "", ""},
		{plain, "PUT", "/a", 200, "PUT /{x}", "", "", ""},
		{plain, "DELETE", "/a", 405, "", "", "", ""},
		{plain, "DELETE", "/any/x", 200, "/any/x", "", "", ""},
		{plain, "PROPFIND", "/dav", 200, "PROPFIND /dav", "", "", ""},
		{plain, "GET", "/%61", 200, "GET /a", "", "", ""},
		{plain, "GET", "/a/%62", 200, "GET /a/b", "", "", ""},
		{plain, "GET", "/g/x", 200, "GET /g/x", "group", "", ""},
		{plain, "GET", "/v", 200, "GET /v", "", "", ""},
		{plain, "GET", "/v", 200, "GET /v", "", "application/vnd.test.v2+json", "v2"},
		{hosted, "GET", "http://api.example.com/a", 200, "GET api.example.com/a", "", "", ""},
		{hosted, "GET", "http://api.example.com:8080/a", 200, "GET api.example.com/a", "", "", ""},
		{hosted, "GET", "http://www.example.com/a", 200, "GET www.example.com/{x}", "", "", ""},
		{hosted, "GET", "http://example.com/a", 200, "GET /a", "", "", ""},
		{hosted, "GET", "http://example.org:1/a", 200, "GET /a", "", "", ""},
		{after, "GET", "/a", 200, "GET /a", "after", "", ""},
		{after, "GET", "/b", 404, "", "after", "", ""},
	} {
		req := httptest.NewRequest(tt.method, tt.target, nil)
		if tt.accept != "" {
			req.Header.Set("Accept", tt.accept)
		}
		w := httptest.NewRecorder()
		tt.router.ServeHTTP(w, req)
		got := fmt.Sprintf("%d %q %q %q", w.Code, w.Header().Get("X-Pattern"), strings.Join(w.Header().Values("X-Through"), ","), w.Header().Get("X-Version"))
		want := fmt.Sprintf("%d %q %q %q", tt.code, tt.pattern, tt.marks, tt.version)
		if got != want {
			t.Errorf("%s %s (Accept %q): got %s, want %s", tt.method, tt.target, tt.accept, got, want)
		}
	}
}

// TestConflictExamplePaths registers random pairs of patterns, escaped
// literals among them, and checks the paths that a ConflictError gives as
// examples: a request for the path both match goes to either pattern when
// it is registered alone, and the path that one pattern matches and the
// other does not goes to the first and not to the second.
func TestConflictExamplePaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	segs := []string{"a", "b", "a%2Fb", "%2F", "%2E%2E", "caf%C3%A9", "a%20b", "{x}", "{y}", "{n:int}", "{s:alpha}", "{r...}", "{$}", ""}
	differs := regexp.MustCompile(` matches ("(?:[^"\\]|\\.)*") but `)
	// routes reports whether a router with pattern alone serves a GET
	// for path with it.
	routes := func(pattern, path string) bool {
		r := newTestRouter(t, pattern)
		return serveOnce(t, r, "GET", path).pattern == pattern
	}
	checked, paths, differences := 0, 0, 0
	for range 20000 {
		var ps [2]string
		for i := range ps {
			var b strings.Builder
			b.WriteString([]string{"", "GET "}[rng.IntN(2)])
			for k := range 1 + rng.IntN(3) {
				s := segs[rng.IntN(len(segs))]
				for s == "" && k == 0 {
					s = segs[rng.IntN(len(segs))] // a clean path: a trailing slash only
				}
				b.WriteString("/" + s)
				if s == "{r...}" || s == "{$}" || s == "" && k > 0 {
					break
				}
			}
			ps[i] = b.String()
		}
		var err error
		func() {
			defer func() {
				if v := recover(); v != nil {
					err, _ = v.(error)
				}
			}()
			r := cairn.New()
			r.HandleFunc(ps[0], func(http.ResponseWriter, *http.Request) {})
			r.HandleFunc(ps[1], func(http.ResponseWriter, *http.Request) {})
		}()
		var ce *cairn.ConflictError
		if !errors.As(err, &ce) {
			continue
		}
		checked++
		if ce.Path != "" {
			paths++
			if !routes(ce.Pattern, ce.Path) || !routes(ce.Existing, ce.Path) {
				t.Fatalf("%s and %s: both should match %q, the example path", ce.Pattern, ce.Existing, ce.Path)
			}
		}
		if m := differs.FindAllStringSubmatch(ce.Detail, -1); len(m) == 2 {
			for i, pair := range [][2]string{{ce.Pattern, ce.Existing}, {ce.Existing, ce.Pattern}} {
				p, err := strconv.Unquote(m[i][1])
				if err != nil {
					t.Fatal(err)
				}
				if p == "" {
					continue
				}
				differences++
				if !routes(pair[0], p) || routes(pair[1], p) {
					t.Fatalf("%s and %s: %q should match the first only (%s)", pair[0], pair[1], p, ce.Detail)
				}
			}
		}
	}
	// The floors keep the test from passing with example paths that
	// regressed to "" (it checks 1493 example paths and 586 difference paths).
	if checked < 100 || paths < checked/2 || differences < 100 {
		t.Fatalf("only %d conflicts among the random pairs, %d example paths and %d difference paths checked", checked, paths, differences)
	}
	t.Logf("%d conflicts, %d example paths, %d difference paths", checked, paths, differences)
}

// TestRegisterLocation checks that each way of registering a route
// records the line of the call that registered it, which conflict
// messages and Routes report.
func TestRegisterLocation(t *testing.T) {
	r := cairn.New()
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	f := func(http.ResponseWriter, *http.Request) {}
	g := r.Group("/g")
	sub := cairn.New()
	sub.HandleFunc("GET /x", f)
	lines := map[string]int{}
	at := func(pattern string) {
		_, _, line, _ := runtime.Caller(1)
		lines[pattern] = line + 1 // the route is registered on the next line
	}
	at("GET /handle")
	r.Handle("GET /handle", h)
	at("GET /handlefunc")
	r.HandleFunc("GET /handlefunc", f)
	at("GET /g/handle")
	g.Handle("GET /handle", h)
	at("GET /g/handlefunc")
	g.HandleFunc("GET /handlefunc", f)
	at("/m/")
	r.Mount("/m", sub)
	for _, ri := range r.Routes() {
		line, ok := lines[ri.Pattern]
		if !ok {
			continue
		}
		delete(lines, ri.Pattern)
		if want := fmt.Sprintf("router_test.go:%d", line); !strings.HasSuffix(ri.Location, want) {
			t.Errorf("%q: Location %q, want one ending in %q", ri.Pattern, ri.Location, want)
		}
	}
	for p := range lines {
		t.Errorf("%q: not among the routes", p)
	}
}
