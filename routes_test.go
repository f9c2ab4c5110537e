package cairn_test

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-go/cairn"
)

// testRoute is one route from a testdata route list, in the classic
// ':name' / '*name' parameter notation, e.g. {"GET", "/repos/:owner/:repo"}.
type testRoute struct{ Method, Path string }

// pathParam is one path parameter of a testRoute together with the sample
// value that requestPath puts in its place.
type pathParam struct{ Name, Value string }

// catchAllSample is the sample value requestPath substitutes for a '*name'
// catch-all parameter. It spans two segments on purpose.
const catchAllSample = "a/b"

// routeListNames are the route lists in testdata, without the ".txt" suffix.
var routeListNames = []string{"github", "gplus", "parse", "static"}

// loadRoutes reads testdata/<name>.txt and returns its active routes in file
// order. Each line holds "METHOD /path"; blank lines and "# " comment lines
// are ignored, and so are lines where '#' is immediately followed by a route
// (e.g. "#PATCH /authorizations/:id"): those are real API routes that are
// excluded from the classic benchmark. Any other line fails tb.
func loadRoutes(tb testing.TB, name string) []testRoute {
	tb.Helper()
	file := filepath.Join("testdata", name+".txt")
	f, err := os.Open(file)
	if err != nil {
		tb.Fatalf("loadRoutes: %v", err)
	}
	defer f.Close()

	var routes []testRoute
	sc := bufio.NewScanner(f)
	for lineNo := 1; sc.Scan(); lineNo++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "", line == "#", strings.HasPrefix(line, "# "):
			continue // blank line or comment
		case strings.HasPrefix(line, "#"):
			if !isMethod(strings.SplitN(line[1:], " ", 2)[0]) {
				tb.Fatalf("loadRoutes: %s:%d: malformed line %q", file, lineNo, line)
			}
			continue // real route excluded from the classic benchmark
		}
		fields := strings.Fields(line)
		if len(fields) != 2 || !isMethod(fields[0]) || !strings.HasPrefix(fields[1], "/") {
			tb.Fatalf("loadRoutes: %s:%d: malformed route %q", file, lineNo, line)
		}
		routes = append(routes, testRoute{Method: fields[0], Path: fields[1]})
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("loadRoutes: reading %s: %v", file, err)
	}
	return routes
}

// isMethod reports whether s looks like an HTTP method: one or more
// uppercase ASCII letters.
func isMethod(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// cairnPattern converts rt to cairn (Go 1.22 ServeMux) pattern syntax, as
// cairn.BracedRoute does: "GET /repos/:owner/:repo" becomes
// "GET /repos/{owner}/{repo}", and "GET /" stays "GET /". The result
// contains no constraints, so it is also a valid net/http.ServeMux pattern.
func cairnPattern(rt testRoute) string { return cairn.BracedRoute(rt.Method, rt.Path) }

// sampleValue is the value requestPath substitutes for the ':name' parameter
// called name: the name itself, e.g. "/repos/:owner/:repo" is requested as
// "/repos/owner/repo". Using the name keeps values distinct within a route,
// so a parameter bound to the wrong segment is detected.
func sampleValue(name string) string { return name }

// requestPath returns a concrete request path that rt matches: each ':name'
// segment is replaced by sampleValue(name) and a '*name' segment by
// catchAllSample ("a/b").
func requestPath(rt testRoute) string {
	segs := strings.Split(rt.Path, "/")
	for i, seg := range segs {
		switch {
		case strings.HasPrefix(seg, ":"):
			segs[i] = sampleValue(seg[1:])
		case strings.HasPrefix(seg, "*"):
			segs[i] = catchAllSample
		}
	}
	return strings.Join(segs, "/")
}

// routeParams returns rt's path parameters in path order, each with the
// sample value requestPath(rt) carries for it.
func routeParams(rt testRoute) []pathParam {
	var params []pathParam
	for _, seg := range strings.Split(rt.Path, "/") {
		switch {
		case strings.HasPrefix(seg, ":"):
			params = append(params, pathParam{Name: seg[1:], Value: sampleValue(seg[1:])})
		case strings.HasPrefix(seg, "*"):
			params = append(params, pathParam{Name: seg[1:], Value: catchAllSample})
		}
	}
	return params
}

// pathValuesMode names the PopulatePathValues setting for subtest and
// sub-benchmark names: "pathvalues=on" or "pathvalues=off".
func pathValuesMode(populate bool) string {
	if populate {
		return "pathvalues=on"
	}
	return "pathvalues=off"
}

// register registers h for pattern on router and fails tb, naming the
// pattern, if registration panics.
func register(tb testing.TB, router *cairn.Router, pattern string, h http.Handler) {
	tb.Helper()
	defer func() {
		if v := recover(); v != nil {
			tb.Fatalf("registering %q: panic: %v", pattern, v)
		}
	}()
	router.Handle(pattern, h)
}

// dispatchRecord is what a route handler in testDispatch saw of the request
// it served.
type dispatchRecord struct {
	route      int      // index of the route whose handler ran; -1 if none
	pattern    string   // r.Pattern
	params     []string // cairn.Param for each of the route's parameters
	pathValues []string // r.PathValue for each of the route's parameters
}

// TestRouteLists checks that every testdata route list loads with the
// expected number of active routes, that its request paths are unambiguous,
// and that a router holding all of its routes dispatches each route's
// request path to that route with the right parameter values, with path
// value population both on and off.
func TestRouteLists(t *testing.T) {
	wantCounts := map[string]int{"github": 203, "gplus": 13, "parse": 26, "static": 157}
	for _, name := range routeListNames {
		t.Run(name, func(t *testing.T) {
			routes := loadRoutes(t, name)
			if got, want := len(routes), wantCounts[name]; got != want {
				t.Errorf("loadRoutes(%q): %d active routes, want %d", name, got, want)
			}
			seenPattern := make(map[string]bool)
			seenRequest := make(map[string]string)
			for _, rt := range routes {
				p := cairnPattern(rt)
				if seenPattern[p] {
					t.Errorf("duplicate route %q", p)
				}
				seenPattern[p] = true
				req := rt.Method + " " + requestPath(rt)
				if other, ok := seenRequest[req]; ok {
					t.Errorf("request %q is ambiguous: routes %q and %q", req, other, p)
				}
				seenRequest[req] = p
			}
			for _, populate := range []bool{true, false} {
				t.Run(pathValuesMode(populate), func(t *testing.T) {
					testDispatch(t, routes, populate)
				})
			}
		})
	}
}

// testDispatch registers all routes on a new router with
// PopulatePathValues(populate) and serves each route's request path,
// checking that the route's own handler runs and sees the sample parameter
// values through cairn.Param. With populate on it also checks r.Pattern and
// r.PathValue.
func testDispatch(t *testing.T, routes []testRoute, populate bool) {
	var rec dispatchRecord // per-test recorder, written by the handlers

	router := cairn.New()
	router.PopulatePathValues(populate)
	for i, rt := range routes {
		params := routeParams(rt)
		register(t, router, cairnPattern(rt), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rec.route = i
			rec.pattern = r.Pattern
			rec.params = make([]string, len(params))
			rec.pathValues = make([]string, len(params))
			for j, p := range params {
				rec.params[j] = cairn.Param(r, p.Name)
				rec.pathValues[j] = r.PathValue(p.Name)
			}
		}))
	}

	const maxFailures = 10
	failures := 0
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf(format, args...)
		if failures++; failures >= maxFailures {
			t.Fatalf("too many failures; stopping")
		}
	}
	for i, rt := range routes {
		pattern, path := cairnPattern(rt), requestPath(rt)
		rec = dispatchRecord{route: -1}
		w := httptest.NewRecorder()
		router.ServeHTTP(w, httptest.NewRequest(rt.Method, path, nil))
		what := fmt.Sprintf("%s %s (route %q)", rt.Method, path, pattern)
		if rec.route != i {
			got := "no handler"
			if rec.route >= 0 {
				got = fmt.Sprintf("handler of %q", cairnPattern(routes[rec.route]))
			}
			fail("%s: ran %s (status %d), want its own handler", what, got, w.Code)
			continue
		}
		if w.Code != http.StatusOK {
			fail("%s: status %d, want %d", what, w.Code, http.StatusOK)
		}
		if populate && rec.pattern != pattern {
			fail("%s: r.Pattern = %q, want %q", what, rec.pattern, pattern)
		}
		for j, p := range routeParams(rt) {
			if got := rec.params[j]; got != p.Value {
				fail("%s: cairn.Param(r, %q) = %q, want %q", what, p.Name, got, p.Value)
			}
			if got := rec.pathValues[j]; populate && got != p.Value {
				fail("%s: r.PathValue(%q) = %q, want %q", what, p.Name, got, p.Value)
			}
		}
	}
}
