package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sampleInfo is the machine description injected into reports in tests.
var sampleInfo = Info{
	Command: "go test -run '^$' -bench . -benchmem -count 1 -benchtime 1s -timeout 0 -cpu 1 -v .",
	Passes:  6,
	Date:    "2026-01-02 15:04 UTC",
	CPU:     "Test CPU @ 3.0GHz",
	Cores:   "2",
	Memory:  "8.00 GiB",
	OS:      "Test Linux, Linux 6.1.0, amd64",
	Go:      "go1.26.0",
	Cairn:   "abc1234",
	Modules: []Module{{"chi", "github.com/go-chi/chi/v5", "v5.5.0"}},
}

// makeReport parses sampleOutput and draws its charts into dir.
func makeReport(tb testing.TB, dir string) *report {
	tb.Helper()
	res := parseSample(tb)
	rep := &report{res: res, info: sampleInfo, raw: "benchmarks.txt", tool: "go run ./cmd/benchreport", groups: allGroups(res)}
	var err error
	if rep.charts, err = drawCharts(rep.groups, dir); err != nil {
		tb.Fatal(err)
	}
	return rep
}

func TestValueCell(t *testing.T) {
	res := parseSample(t)
	single := res.Suite("Single")
	for _, tt := range []struct {
		suite, c, router, unit string
		want                   string
	}{
		{"Single", "static", "cairn", "ns/op", "12.5 ns ±700%"},
		{"Single", "static", "chi", "ns/op", "100 ns ±∞ (8.00×)"},
		{"Single", "param1", "servemux", "ns/op", "150 ns ±∞ (5.00×, pv 3.75×)"},
		{"Single", "param1", "httprouter", "ns/op", "25.0 ns ±∞ (0.83×)"},
		{"Constraints", "", "httprouter", "ns/op", "n/a"},
		{"Constraints", "", "gorilla", "ns/op", "1.50 µs ±∞ (15.0×)"},
		{"EndToEnd", "github", "chi", "req/s", "40.0k ±∞ (0.80×)"},
	} {
		if got := valueCell(res.Suite(tt.suite), tt.c, tt.router, tt.unit); got != tt.want {
			t.Errorf("%s/%s/%s %s: got %q, want %q", tt.suite, tt.c, tt.router, tt.unit, got, tt.want)
		}
	}
	if got, want := memoryCell(single, "param1", "chi"), "400 B · 2"; got != want {
		t.Errorf("memory Single/param1/chi: got %q, want %q", got, want)
	}
}

func TestMarkdown(t *testing.T) {
	dir := t.TempDir()
	rep := makeReport(t, dir)
	md := string(markdown(rep))
	for _, want := range []string{
		"    go test -run '^$' -bench . -benchmem -count 1 -benchtime 1s -timeout 0 -cpu 1 -v .\n",
		"which ran, from 2026-01-02 15:04 UTC, 6 times in turn:",
		"Each pass runs every benchmark once, so the 6 runs of a benchmark are spread over the whole time",
		"| CPU | Test CPU @ 3.0GHz |",
		// Only cairn's Single/static has six runs, and so a bounded interval.
		"- How noisy the run was: half of the times (ns/op) have a confidence interval within ±700%, nine in ten within ±700%;",
		"| cairn | github.com/cairn-go/cairn | commit abc1234 (this repository) |",
		"| servemux | net/http | go1.26.0 |",
		"| chi | github.com/go-chi/chi/v5 | v5.5.0 |",
		"| httprouter | unknown | unknown |",
		"| Single/static | httprouter | 10.0 ns | 12.5 ns | 1.25× | 0.25× | 0.40× |",
		"| Single/param1 | httprouter | 25.0 ns | 30.0 ns | 1.20× | 0.20× | 0.27× |",
		"| Constraints | gorilla | 1.50 µs | 100 ns | 0.07× | n/a | n/a |",
		"| Growth/static/routes=1000 | httprouter | 15.0 ns | 30.0 ns | 2.00× | n/a | n/a |",
		"cairn ÷ fastest peer is at most 0.80× in 1 of the 5 cases; above it: Single/static (1.25×), Single/param1 (1.20×), Growth/static/routes=10 (1.33×), Growth/static/routes=1000 (2.00×).\n",
		"- Constraints: cairn 100 ns, gorilla 1.50 µs: cairn ÷ gorilla = 0.07×.",
		"- Registration, Register/static/routes=10000: cairn 10.0 ms, httprouter 10.0 ms: cairn ÷ httprouter = 1.00×.",
		"- Heap per route, Register/static/routes=10000: cairn 150 B, httprouter 120 B: cairn ÷ httprouter = 1.25×.",
		"| **cairn** | 1.50× (20.0 ns → 30.0 ns) |",
		"| Router | static | param1 |\n|:--|--:|--:|\n| **cairn** | 12.5 ns ±700% | 30.0 ns ±∞ |\n",
		"| servemux | 50.0 ns ±∞ (4.00×, pv 2.50×) | 150 ns ±∞ (5.00×, pv 3.75×) |",
		"| chi | 64 B · 1 | 400 B · 2 |",
		"| httprouter | n/a |",
		"- httprouter: the router cannot express these routes: GET /users/{id:[0-9]+}",
		"### Growth/static",
		"| Router | routes=10 | routes=1000 |",
		"**B/route** (lower is better;",
		"**req/s** (higher is better;",
		"![Single/static: time per op](img/single-static.svg)",
		"![Growth/static: ns/op by routes](img/growth-static-ns-op.svg)",
		"![Register/static: B/route by routes](img/register-static-b-route.svg)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(md, "\n\n\n") || !strings.HasSuffix(md, ")\n") {
		t.Errorf("report has a run of blank lines or a blank last line")
	}

	again := string(markdown(makeReport(t, t.TempDir())))
	if again != md {
		t.Errorf("two reports of the same results differ")
	}

	// Output of a single run of go test, such as an older report's.
	once := makeReport(t, t.TempDir())
	once.info.Passes = 0
	md = string(markdown(once))
	if !strings.Contains(md, "which ran, on 2026-01-02 15:04 UTC:\n") || strings.Contains(md, "Each pass") {
		t.Errorf("a report of one run describes passes:\n%s", md[:min(len(md), 600)])
	}
}

func TestCharts(t *testing.T) {
	dir := t.TempDir()
	rep := makeReport(t, dir)
	want := map[string]bool{
		"img/single-static.svg":           true,
		"img/single-param1.svg":           true,
		"img/constraints.svg":             true,
		"img/growth-static-ns-op.svg":     true,
		"img/register-static-ns-op.svg":   true,
		"img/register-static-b-route.svg": true,
		"img/endtoend-github.svg":         true,
		"img/endtoend-github-req-s.svg":   false, // named cases get a bar chart of ns/op only
	}
	got := map[string]bool{}
	for _, cs := range rep.charts {
		for _, c := range cs {
			got[c.File] = true
		}
	}
	for file, drawn := range want {
		if got[file] != drawn {
			t.Errorf("%s: drawn %v, want %v", file, got[file], drawn)
		}
		if !drawn {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file)))
		if err != nil {
			t.Error(err)
			continue
		}
		if !bytes.HasPrefix(b, []byte("<?xml")) && !bytes.HasPrefix(b, []byte("<svg")) || !bytes.Contains(b, []byte("</svg>")) {
			t.Errorf("%s: not an SVG image: %.40q", file, b)
		}
		if !bytes.Contains(b, []byte("cairn")) {
			t.Errorf("%s: does not name cairn", file)
		}
	}
	if len(got) != 7 {
		t.Errorf("got %d charts, want 7", len(got))
	}
}

func TestChartFileNames(t *testing.T) {
	cm := &chartMaker{used: map[string]bool{}}
	for _, tt := range []struct{ name, want string }{
		{"Growth/static-ns/op", "img/growth-static-ns-op.svg"},
		{"Growth/static-ns/op", "img/growth-static-ns-op-2.svg"},
		{"Register/static-B/route", "img/register-static-b-route.svg"},
		{"???", "img/chart.svg"},
	} {
		if got := cm.fileName(tt.name); got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

// runFrom runs benchreport with -in on a file holding output, and returns
// the file's path, the output directory and the report.
func runFrom(t *testing.T, output string) (in, out string, md []byte) {
	t.Helper()
	dir := t.TempDir()
	in = filepath.Join(dir, "in.txt")
	if err := os.WriteFile(in, []byte(output), 0o644); err != nil {
		t.Fatal(err)
	}
	out = filepath.Join(dir, "docs")
	var stderr bytes.Buffer
	cfg := config{bench: ".", count: 6, benchtime: "1s", in: in, outDir: out}
	if err := run(cfg, []string{"-in", in}, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.Bytes())
	}
	md, err := os.ReadFile(filepath.Join(out, "benchmarks.md"))
	if err != nil {
		t.Fatal(err)
	}
	return in, out, md
}

func TestRunFromFile(t *testing.T) {
	in, out, md := runFrom(t, sampleOutput)
	for _, want := range []string{
		"[../in.txt](../in.txt)",
		"    go run ./cmd/benchreport -in " + in + "\n",
		"made this report from the results saved in ../in.txt, for which benchreport had run, from 2026-01-02 15:04 UTC, 6 times in turn:",
		"| CPU | Test CPU @ 3.0GHz |",
	} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("report lacks %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "img", "single-static.svg")); err != nil {
		t.Error(err)
	}
}

func TestChartsWithoutData(t *testing.T) {
	out := "BenchmarkX/a/router=cairn\n" +
		"    x_test.go:1: benchmarks: the router cannot express these routes\n" +
		"--- SKIP: BenchmarkX/a/router=cairn\n" +
		"BenchmarkX/b/router=cairn 10 0 ns/op\n"
	res, err := parseResults([]byte(out), "x.txt")
	if err != nil {
		t.Fatal(err)
	}
	charts, err := drawCharts(allGroups(res), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if n := countCharts(charts); n != 0 {
		t.Errorf("got %d charts of no positive value, want 0", n)
	}
}

// TestFastestTarget checks that a case is counted within the target when
// its ratio, as the table writes it, is: 0.804 is 0.80×, 0.806 is 0.81×.
func TestFastestTarget(t *testing.T) {
	const out = `BenchmarkDepth/depth=1/router=cairn     	1000	8.04 ns/op
BenchmarkDepth/depth=1/router=echo      	1000	10.0 ns/op
BenchmarkDepth/depth=2/router=cairn     	1000	8.06 ns/op
BenchmarkDepth/depth=2/router=echo      	1000	10.0 ns/op
`
	res, err := parseResults([]byte(out), "out.txt")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	writeFastest(&b, res)
	for _, want := range []string{
		"| Depth/depth=1 | echo | 10.0 ns | 8.04 ns | 0.80× | n/a | n/a |",
		"| Depth/depth=2 | echo | 10.0 ns | 8.06 ns | 0.81× | n/a | n/a |",
		"cairn ÷ fastest peer is at most 0.80× in 1 of the 2 cases; above it: Depth/depth=2 (0.81×).",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
}

// TestRunFromHeaderlessFile checks the provenance of a report made from
// the output of go test alone, which does not say what ran it.
func TestRunFromHeaderlessFile(t *testing.T) {
	_, _, md := runFrom(t, sampleOutput[strings.Index(sampleOutput, "goos:"):])
	want := "made this report from the results saved in ../in.txt, produced on "
	if !bytes.Contains(md, []byte(want)) || !bytes.Contains(md, []byte(" by a command it does not know.\n")) {
		t.Errorf("report lacks %q ... by a command it does not know:\n%s", want, md[:min(len(md), 600)])
	}
	if !bytes.Contains(md, []byte("| CPU | Test CPU @ 3.0GHz |")) {
		t.Errorf("report does not take the CPU from go test's output")
	}
}

// TestCommittedReport checks that the report in the module's report
// directory is what this benchreport makes from the results saved beside
// it: the text from "Reading the tables" on, and every chart, byte for
// byte. A change to the report's making must come with the report made
// again (go run ./cmd/benchreport -in report/benchmarks.txt).
func TestCommittedReport(t *testing.T) {
	committed := filepath.Join("..", "..", "report")
	in := filepath.Join(committed, "benchmarks.txt")
	out := t.TempDir()
	var stderr bytes.Buffer
	cfg := config{bench: ".", count: 6, benchtime: "1s", in: in, outDir: out}
	if err := run(cfg, []string{"-in", "report/benchmarks.txt"}, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.Bytes())
	}
	body := func(dir string) []byte {
		md, err := os.ReadFile(filepath.Join(dir, "benchmarks.md"))
		if err != nil {
			t.Fatal(err)
		}
		i := bytes.Index(md, []byte("## Reading the tables"))
		if i < 0 {
			t.Fatalf("%s/benchmarks.md has no section Reading the tables", dir)
		}
		return md[i:]
	}
	if got, want := body(out), body(committed); !bytes.Equal(got, want) {
		t.Errorf("report/benchmarks.md differs from what benchreport makes of report/benchmarks.txt; make it again with: go run ./cmd/benchreport -in report/benchmarks.txt")
	}
	made, err := os.ReadDir(filepath.Join(out, "img"))
	if err != nil {
		t.Fatal(err)
	}
	kept, err := os.ReadDir(filepath.Join(committed, "img"))
	if err != nil {
		t.Fatal(err)
	}
	if len(made) != len(kept) {
		t.Errorf("benchreport makes %d charts, report/img holds %d", len(made), len(kept))
	}
	for _, e := range made {
		a, errA := os.ReadFile(filepath.Join(out, "img", e.Name()))
		b, errB := os.ReadFile(filepath.Join(committed, "img", e.Name()))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("chart %s differs from report/img's (%v, %v)", e.Name(), errA, errB)
		}
	}
}
