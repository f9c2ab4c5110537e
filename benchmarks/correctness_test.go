package benchmarks

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"text/tabwriter"
)

// mustSupport are the routers that must express every suite.
var mustSupport = map[string]bool{Cairn.Name: true, CairnPathValues.Name: true}

// restSuite is a suite for tests only, with "*name" parameters, which no
// benchmark suite has: it checks that each router's catch-all syntax is
// converted and its value reported as Route.Request gives it.
var restSuite = Suite{
	Name: "rest",
	Routes: withForms([]Route{
		{Method: "GET", Path: "/src/*filepath"},
		{Method: "GET", Path: "/user/:name"},
		{Method: "GET", Path: "/user/:name/files/*path"},
	}),
}

// testSuites returns every suite and restSuite.
func testSuites(tb testing.TB) []Suite {
	tb.Helper()
	suites, err := Suites()
	if err != nil {
		tb.Fatal(err)
	}
	return append(suites, restSuite)
}

// testRequests returns the requests that TestCorrectness serves for s: its
// Requests and every route's request, without duplicates, then its Misses.
func testRequests(s Suite) []Request {
	var reqs []Request
	seen := make(map[string]bool)
	for _, rq := range append(append([]Request(nil), s.Requests...), s.RouteRequests()...) {
		if !seen[rq.String()] {
			seen[rq.String()] = true
			reqs = append(reqs, rq)
		}
	}
	return append(reqs, s.Misses...)
}

// checkServed returns an error unless a request served with status code,
// after which probe holds what the handler saw, was served as want says: by
// route want.Route with want.Values, or, if want.Route is -1, with 404 and
// no handler.
func checkServed(code int, probe *Probe, want Request) error {
	if want.Route < 0 {
		if code != http.StatusNotFound || probe.Route != -1 {
			return fmt.Errorf("%s: status %d, route %d; want 404 and no route", want, code, probe.Route)
		}
		return nil
	}
	if code != http.StatusOK {
		return fmt.Errorf("%s: status %d, want 200", want, code)
	}
	if probe.Route != want.Route {
		return fmt.Errorf("%s: served by route %d, want %d", want, probe.Route, want.Route)
	}
	got := probe.Values[:probe.N]
	if strings.Join(got, "\x00") != strings.Join(want.Values, "\x00") || len(got) != len(want.Values) {
		return fmt.Errorf("%s: values %q, want %q", want, got, want.Values)
	}
	return nil
}

// TestCorrectness serves, for every router and every suite, each route's
// request and each of the suite's requests and misses, and checks that the
// right handler ran with the right values, or that a miss got 404. A
// router that cannot express a suite is reported and skipped, except cairn
// in both modes, which must express every suite.
func TestCorrectness(t *testing.T) {
	suites := testSuites(t)
	routers := Routers()
	// results[router][suite] summarises each pair for the final table.
	results := make(map[string]map[string]string)
	for _, r := range routers {
		results[r.Name] = make(map[string]string)
		for _, s := range suites {
			t.Run(r.Name+"/"+s.Name, func(t *testing.T) {
				probe := Probe{Route: -1}
				h, err := s.New(r, Options{Probe: &probe})
				if errors.Is(err, ErrUnsupported) {
					results[r.Name][s.Name] = "unsupported"
					if mustSupport[r.Name] {
						t.Fatalf("%s must express suite %s: %v", r.Name, s.Name, err)
					}
					t.Logf("%s cannot express suite %s: %v", r.Name, s.Name, err)
					return
				}
				if err != nil {
					results[r.Name][s.Name] = "error"
					t.Fatal(err)
				}
				reqs := testRequests(s)
				failed := 0
				for _, rq := range reqs {
					probe = Probe{Route: -1}
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, httptest.NewRequest(rq.Method, rq.Path, nil))
					if err := checkServed(rec.Code, &probe, rq); err != nil {
						failed++
						t.Errorf("%s: %v", r.Name, err)
					}
				}
				res := fmt.Sprintf("ok %d", len(reqs))
				if failed > 0 {
					res = fmt.Sprintf("FAIL %d/%d", failed, len(reqs))
				}
				if s.constraints != nil {
					res += " " + s.Mode(r).String()
				}
				results[r.Name][s.Name] = res
			})
		}
	}

	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "router")
	for _, s := range suites {
		fmt.Fprintf(tw, "\t%s", s.Name)
	}
	fmt.Fprintln(tw)
	for _, r := range routers {
		fmt.Fprint(tw, r.Name)
		for _, s := range suites {
			fmt.Fprintf(tw, "\t%s", results[r.Name][s.Name])
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	t.Logf("requests checked per router and suite (ok N, FAIL failed/N, unsupported):\n%s", b.String())
}

// TestConstraintChecks checks that the byte loops of the emulating routers
// accept what the regular expressions of the native ones match, on every
// value of the constraints suite and more.
func TestConstraintChecks(t *testing.T) {
	values := []string{
		"", "0", "0.0.0.0", "1.2.3.4", "255.255.255.255", "256.1.1.1", "1.2.3.256",
		"01.2.3.4", "1.2.3.04", "1.2.3", "1.2.3.4.5", "1..2.3", "1.2.3.4.", ".1.2.3.4",
		"1234.1.1.1", "a.b.c.d", "199.249.200.9", "249.250.251.252",
		"6ba7b810-9dad-11d1-80b4-00c04fd430c8", "6BA7B810-9DAD-11D1-80B4-00C04FD430C8",
		"6ba7b8109dad-11d1-80b4-00c04fd430c8-", "6ba7b810-9dad-11d1-80b4-00c04fd430c",
		"6ba7b810-9dad-11d1-80b4-00c04fd430c8a", "6ba7b810-9dad-11d1-80b4-00c04fd430cg",
		"USD", "usd", "US", "USDX", "U$D", "ÄBC",
	}
	for _, s := range []Suite{ConstraintSuite()} {
		for _, rq := range append(s.Requests, s.Misses...) {
			values = append(values, strings.Split(strings.TrimPrefix(rq.Path, "/"), "/")...)
		}
	}
	for _, c := range []constraint{uuidConstraint, ipv4Constraint, codeConstraint} {
		re := regexp.MustCompile("^(?:" + c.regexp() + ")$")
		for _, v := range values {
			if got, want := c.check(v), re.MatchString(v); got != want {
				t.Errorf("%v.check(%q) = %v, want %v as %s", c, v, got, want, re)
			}
		}
	}
}

// TestSuites checks the shape of the suites that the report depends on.
func TestSuites(t *testing.T) {
	suites, err := Suites()
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name             string
		routes, requests int
	}{
		{"static", 8, 1},
		{"param1", 1, 1},
		{"param5", 1, 1},
		{"param20", 1, 1},
		{"static-all", 157, 157},
		{"github", 203, 203},
		{"gplus", 13, 13},
		{"parse", 26, 26},
		{"constraints", 3, 3},
	}
	if len(suites) != len(want) {
		t.Fatalf("got %d suites, want %d", len(suites), len(want))
	}
	for i, w := range want {
		s := suites[i]
		if s.Name != w.name || len(s.Routes) != w.routes || len(s.Requests) != w.requests {
			t.Errorf("suite %d: got %q with %d routes and %d requests, want %q with %d and %d",
				i, s.Name, len(s.Routes), len(s.Requests), w.name, w.routes, w.requests)
		}
	}
	for _, r := range Routers() {
		if _, ok := constraintRouters[r.Name]; !ok {
			t.Errorf("router %s has no way to serve the constraints suite", r.Name)
		}
	}
}

// TestRouteForms checks that the forms a route list makes once give what
// a route without them computes, for every route of every suite.
func TestRouteForms(t *testing.T) {
	lists := map[string][]Route{"depth": {DepthRoute(1), DepthRoute(32)}}
	for _, kind := range growthKinds {
		lists[kind] = GrowthRoutes(kind, 100)
	}
	for _, s := range testSuites(t) {
		lists[s.Name] = s.Routes
	}
	for name, routes := range lists {
		for _, rt := range routes {
			if rt.forms == nil {
				t.Errorf("%s: %s: forms not made", name, rt)
				continue
			}
			plain := Route{Method: rt.Method, Path: rt.Path}
			if got, want := rt.Params(), plain.Params(); !slices.Equal(got, want) {
				t.Errorf("%s: Params() = %q, want %q", rt, got, want)
			}
			if got, want := rt.Pattern(), plain.Pattern(); got != want {
				t.Errorf("%s: Pattern() = %q, want %q", rt, got, want)
			}
			for _, multi := range []func(string) string{nil, func(string) string { return "*" }} {
				if got, want := rt.Braces(multi), plain.Braces(multi); got != want {
					t.Errorf("%s: Braces = %q, want %q", rt, got, want)
				}
			}
			if got, want := restNames(rt, "*"), restNames(plain, "*"); !slices.Equal(got, want) {
				t.Errorf("%s: restNames = %q, want %q", rt, got, want)
			}
			if got, want := rt.Params(), plain.Params(); !slices.Equal(got, want) {
				t.Errorf("%s: after restNames, Params() = %q, want %q", rt, got, want)
			}
		}
	}
}
