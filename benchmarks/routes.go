package benchmarks

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// A Route is a method and a path in the classic notation of the public
// route lists: ":name" for one segment, "*name" for the rest of the path.
type Route struct {
	Method, Path string

	// forms, if set, holds what Params, Braces(nil) and Pattern return,
	// made once when the route list was made (see newRoute), so that
	// a benchmark of registration times the routers and not the
	// conversion of the lists' notation to theirs, as a program
	// registers patterns written in its source.
	forms *routeForms
}

// routeForms holds a route in the forms the routers take.
type routeForms struct {
	params  []string // Params, shared: callers must not modify it
	braces  string   // Braces(nil)
	pattern string   // Pattern
}

// newRoute returns the route method path with its other forms made.
func newRoute(method, path string) Route {
	rt := Route{Method: method, Path: path}
	rt.forms = &routeForms{params: rt.Params(), braces: rt.Braces(nil), pattern: rt.Pattern()}
	return rt
}

// withForms returns routes, each with its other forms made.
func withForms(routes []Route) []Route {
	out := make([]Route, len(routes))
	for i, rt := range routes {
		out[i] = newRoute(rt.Method, rt.Path)
	}
	return out
}

// String returns "METHOD /path".
func (rt Route) String() string { return rt.Method + " " + rt.Path }

// Params returns the names of the route's parameters, in order. The
// caller must not modify the slice.
func (rt Route) Params() []string {
	if rt.forms != nil {
		return rt.forms.params
	}
	var names []string
	for _, seg := range strings.Split(rt.Path, "/") {
		if strings.HasPrefix(seg, ":") || strings.HasPrefix(seg, "*") {
			names = append(names, seg[1:])
		}
	}
	return names
}

// Request returns a path that the route matches, with each parameter's
// value made from its name, and those values in order. A "*name"
// parameter gets two segments.
func (rt Route) Request() (path string, values []string) {
	segs := strings.Split(rt.Path, "/")
	for i, seg := range segs {
		switch {
		case strings.HasPrefix(seg, ":"):
			segs[i] = "v-" + seg[1:]
			values = append(values, segs[i])
		case strings.HasPrefix(seg, "*"):
			segs[i] = "w-" + seg[1:] + "/x"
			values = append(values, segs[i])
		}
	}
	return strings.Join(segs, "/"), values
}

// Braces returns the route's path with parameters written as {name}, and
// the rest-of-path parameter as {name...} (ServeMux, cairn) or, if multi
// is given, as multi(name).
func (rt Route) Braces(multi func(name string) string) string {
	if rt.forms != nil && (multi == nil || !hasRest(rt)) {
		return rt.forms.braces
	}
	segs := strings.Split(rt.Path, "/")
	for i, seg := range segs {
		switch {
		case strings.HasPrefix(seg, ":"):
			segs[i] = "{" + seg[1:] + "}"
		case strings.HasPrefix(seg, "*"):
			if multi != nil {
				segs[i] = multi(seg[1:])
			} else {
				segs[i] = "{" + seg[1:] + "...}"
			}
		}
	}
	return strings.Join(segs, "/")
}

// Pattern returns the route as a net/http.ServeMux pattern:
// "METHOD " and the path in braces, as Braces(nil) writes it.
func (rt Route) Pattern() string {
	if rt.forms != nil {
		return rt.forms.pattern
	}
	return rt.Method + " " + rt.Braces(nil)
}

// LoadRoutes reads the route list name ("github", "static", "gplus" or
// "parse") from the repository's testdata directory. Lines starting with
// "#" are comments or routes left out of the classic benchmark.
func LoadRoutes(name string) ([]Route, error) {
	f, err := os.Open(filepath.Join(testdataDir(), name+".txt"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var routes []Route
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		method, path, ok := strings.Cut(line, " ")
		if !ok || !strings.HasPrefix(path, "/") {
			return nil, fmt.Errorf("benchmarks: %s: malformed route %q", name, line)
		}
		routes = append(routes, newRoute(method, path))
	}
	return routes, sc.Err()
}

// testdataDir returns the repository's testdata directory, which holds the
// route lists, found from this source file so that it works from any
// working directory.
func testdataDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata")
}
