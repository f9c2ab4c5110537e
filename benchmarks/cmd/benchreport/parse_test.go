package main

import (
	"math"
	"slices"
	"testing"
)

// parseSample parses sampleOutput.
func parseSample(tb testing.TB) *Results {
	tb.Helper()
	res, err := parseResults([]byte(sampleOutput), "sample.txt")
	if err != nil {
		tb.Fatal(err)
	}
	return res
}

func TestSplitName(t *testing.T) {
	for _, tt := range []struct {
		name string
		want benchName
	}{
		{"BenchmarkSingle/param5/router=chi", benchName{"Single", "param5", "chi"}},
		{"Single/param5/router=chi-8", benchName{"Single", "param5", "chi"}},
		{"BenchmarkAPI/github/router=gin", benchName{"API", "github", "gin"}},
		{"BenchmarkConstraints/router=gorilla", benchName{"Constraints", "", "gorilla"}},
		{"BenchmarkGrowth/param/routes=1000/router=echo", benchName{"Growth", "param/routes=1000", "echo"}},
		{"BenchmarkDepth/depth=8/router=cairn-pathvalue", benchName{"Depth", "depth=8", "cairn-pathvalue"}},
		{"BenchmarkDepth/depth=8/router=cairn-pathvalue-2", benchName{"Depth", "depth=8", "cairn-pathvalue"}},
		{"BenchmarkOther/a/b", benchName{"Other", "a/b", ""}},
		{"BenchmarkX", benchName{"X", "", ""}},
	} {
		if got := splitName(tt.name); got != tt.want {
			t.Errorf("%q: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestParseResults(t *testing.T) {
	res := parseSample(t)
	var suites []string
	for _, s := range res.Suites {
		suites = append(suites, s.Name)
	}
	if want := []string{"Single", "Constraints", "Growth", "Register", "EndToEnd"}; !slices.Equal(suites, want) {
		t.Errorf("suites: got %q, want %q", suites, want)
	}
	if res.MinRuns != 2 || res.MaxRuns != 6 {
		t.Errorf("runs: got %d to %d, want 2 to 6", res.MinRuns, res.MaxRuns)
	}
	if got := res.Config["pkg"]; got != "github.com/cairn-go/cairn/benchmarks" {
		t.Errorf("pkg: got %q", got)
	}

	single := res.Suite("Single")
	if want := []string{"static", "param1"}; !slices.Equal(single.Cases, want) {
		t.Errorf("Single cases: got %q, want %q", single.Cases, want)
	}
	if want := []string{"cairn", "cairn-pathvalue", "servemux", "httprouter", "chi"}; !slices.Equal(single.Routers, want) {
		t.Errorf("Single routers: got %q, want %q", single.Routers, want)
	}
	if want := []string{"ns/op", "B/op", "allocs/op"}; !slices.Equal(single.Units, want) {
		t.Errorf("Single units: got %q, want %q", single.Units, want)
	}
	if want := []string{"cairn", "httprouter", "gorilla"}; !slices.Equal(res.Suite("Constraints").Routers, want) {
		t.Errorf("Constraints routers: got %q, want %q", res.Suite("Constraints").Routers, want)
	}
	if want := []string{"ns/op", "req/s", "p50-ns", "p99-ns", "B/op", "allocs/op"}; !slices.Equal(res.Suite("EndToEnd").Units, want) {
		t.Errorf("EndToEnd units: got %q, want %q", res.Suite("EndToEnd").Units, want)
	}

	for _, tt := range []struct {
		suite, c, router, unit string
		median, lo, hi         float64
		n                      int
	}{
		// Six runs: the 95% interval of the median spans them all.
		{"Single", "static", "cairn", "ns/op", 12.5, 10, 100, 6},
		{"Single", "static", "chi", "B/op", 64, math.Inf(-1), math.Inf(1), 2},
		{"Single", "param1", "servemux", "allocs/op", 1, math.Inf(-1), math.Inf(1), 2},
		{"Constraints", "", "gorilla", "ns/op", 1500, math.Inf(-1), math.Inf(1), 2},
		{"Register", "static/routes=10000", "httprouter", "B/route", 120, math.Inf(-1), math.Inf(1), 2},
		{"EndToEnd", "github", "chi", "req/s", 40000, math.Inf(-1), math.Inf(1), 2},
		{"EndToEnd", "github", "cairn", "p99-ns", 40000, math.Inf(-1), math.Inf(1), 2},
	} {
		st, ok := res.Suite(tt.suite).Stat(tt.c, tt.router, tt.unit)
		if !ok {
			t.Errorf("%s/%s/%s %s: missing", tt.suite, tt.c, tt.router, tt.unit)
			continue
		}
		if want := (Stat{tt.median, tt.lo, tt.hi, tt.n}); st != want {
			t.Errorf("%s/%s/%s %s: got %+v, want %+v", tt.suite, tt.c, tt.router, tt.unit, st, want)
		}
	}

	c := res.Suite("Constraints")
	if _, ok := c.Cell("", "httprouter"); ok {
		t.Errorf("Constraints/httprouter: got a cell for a skipped benchmark")
	}
	why, ok := c.Skipped("", "httprouter")
	if want := "benchmarks: the router cannot express these routes: GET /users/{id:[0-9]+}"; !ok || why != want {
		t.Errorf("Constraints/httprouter skip: got %q, %v, want %q", why, ok, want)
	}
}

// TestParsePasses checks that output made of several passes of go test,
// each with its own header and trailer, as benchreport runs them, gives
// each benchmark the runs of every pass.
func TestParsePasses(t *testing.T) {
	pass := func(ns string) string {
		return "goos: linux\ngoarch: amd64\npkg: github.com/cairn-go/cairn/benchmarks\ncpu: Test CPU\n" +
			"BenchmarkSingle/static/router=cairn         \t100000000\t        " + ns + " ns/op\t       0 B/op\t       0 allocs/op\n" +
			"BenchmarkSingle/static/router=chi           \t 10000000\t       100.0 ns/op\t      64 B/op\t       1 allocs/op\n" +
			"PASS\nok  \tgithub.com/cairn-go/cairn/benchmarks\t1.234s\n"
	}
	res, err := parseResults([]byte("# benchreport passes: 3\n"+pass("10.0")+pass("30.0")+pass("20.0")), "passes.txt")
	if err != nil {
		t.Fatal(err)
	}
	st, ok := res.Suite("Single").Stat("static", "cairn", "ns/op")
	if !ok || st.N != 3 || st.Median != 20 {
		t.Errorf("Single/static/cairn: got %+v, %v, want 3 runs, median 20", st, ok)
	}
	if res.MinRuns != 3 || res.MaxRuns != 3 {
		t.Errorf("runs: got %d to %d, want 3", res.MinRuns, res.MaxRuns)
	}
}

func TestParseResultsErrors(t *testing.T) {
	for _, tt := range []struct {
		name, input string
	}{
		{"empty", ""},
		{"no results", "goos: linux\nPASS\n"},
		{"bad line", "BenchmarkX/router=a 100 abc ns/op\n"},
	} {
		if _, err := parseResults([]byte(tt.input), "x.txt"); err == nil {
			t.Errorf("%s: got no error", tt.name)
		}
	}
}

func TestScanSkips(t *testing.T) {
	out := "BenchmarkA/router=gin\n" +
		"    a_test.go:12: benchmarks: cannot\n" +
		"--- SKIP: BenchmarkA/router=gin\n" +
		"BenchmarkA/router=chi\n" +
		"--- SKIP: BenchmarkA/router=chi\n" +
		"--- FAIL: BenchmarkB/router=echo\n"
	want := []skip{
		{name: "BenchmarkA/router=gin", reason: "benchmarks: cannot"},
		{name: "BenchmarkA/router=chi"},
		{name: "BenchmarkB/router=echo", failed: true},
	}
	if got := scanSkips([]byte(out)); !slices.Equal(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestStatSpread(t *testing.T) {
	for _, tt := range []struct {
		st   Stat
		want string
	}{
		{Stat{Median: 10, Lo: 9, Hi: 12}, "±20%"},
		{Stat{Median: 10, Lo: 10, Hi: 10}, "±0%"},
		{Stat{Median: 0, Lo: 0, Hi: 0}, "±0%"},
		{Stat{Median: 10, Lo: math.Inf(-1), Hi: math.Inf(1)}, "±∞"},
	} {
		if got := formatSpread(tt.st.Spread()); got != tt.want {
			t.Errorf("%+v: got %q, want %q", tt.st, got, tt.want)
		}
	}
}

func TestGroups(t *testing.T) {
	res := parseSample(t)
	s := &Suite{Name: "Growth", Cases: []string{
		"static/routes=1000", "static/routes=10", "param/routes=10", "param/routes=100",
	}}
	gs := groups(s)
	if len(gs) != 2 {
		t.Fatalf("got %d groups, want 2", len(gs))
	}
	g := gs[0]
	if g.Title() != "Growth/static" || g.Key != "routes" || !slices.Equal(g.X, []float64{10, 1000}) ||
		!slices.Equal(g.Cases, []string{"static/routes=10", "static/routes=1000"}) || !g.Numeric() {
		t.Errorf("static group: got %+v", g)
	}

	gs = groups(res.Suite("Single"))
	if len(gs) != 1 || gs[0].Prefix != "" || gs[0].Key != "" || gs[0].Numeric() ||
		!slices.Equal(gs[0].Labels, []string{"static", "param1"}) {
		t.Errorf("Single groups: got %+v", gs)
	}
	gs = groups(res.Suite("Constraints"))
	if len(gs) != 1 || !slices.Equal(gs[0].Labels, []string{"Constraints"}) {
		t.Errorf("Constraints groups: got %+v", gs)
	}
	mixed := groups(&Suite{Name: "M", Cases: []string{"a=1", "b=2"}})
	if mixed[0].Key != "" {
		t.Errorf("mixed keys: got key %q, want none", mixed[0].Key)
	}
}
