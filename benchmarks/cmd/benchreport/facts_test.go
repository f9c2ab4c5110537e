package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

// passOutput returns the output of len(cairn) passes, each running
// Single/static with cairn, then httprouter, then servemux, at the given
// times, as benchreport saves them.
func passOutput(cairn, httprouter, servemux []float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# benchreport passes: %d\n", len(cairn))
	for i := range cairn {
		b.WriteString("goos: linux\ngoarch: amd64\npkg: github.com/cairn-go/cairn/benchmarks\n")
		for _, r := range []struct {
			name string
			ns   float64
		}{{"cairn", cairn[i]}, {"httprouter", httprouter[i]}, {"servemux", servemux[i]}} {
			fmt.Fprintf(&b, "BenchmarkSingle/static/router=%s \t1000000\t%8.2f ns/op\n", r.name, r.ns)
		}
		b.WriteString("PASS\n")
	}
	return b.String()
}

// TestPairedRatio checks that the summary's ratios are taken pass by
// pass: in the third pass, httprouter ran in a slow spell that cairn, run
// just before it, escaped; the ratio of the medians, 12 ns ÷ 20 ns, takes
// that spell for httprouter's speed, while the ratios of the passes are
// 0.80 in five passes of six. A router missing from a pass is compared by
// its median.
func TestPairedRatio(t *testing.T) {
	cairn := []float64{8, 8, 8, 16, 16, 16}
	httprouter := []float64{10, 10, 20, 20, 20, 20}
	servemux := []float64{40, 40, 40, 80, 80, 80}
	res, err := parseResults([]byte(passOutput(cairn, httprouter, servemux)), "passes.txt")
	if err != nil {
		t.Fatal(err)
	}
	s := res.Suite("Single")
	if r, ok := res.pairedRatio(s, "static", "cairn", "httprouter", "ns/op"); !ok || r != 0.8 {
		t.Errorf("paired cairn ÷ httprouter = %v, %v; want 0.8, true", r, ok)
	}
	if r, ok := res.pairedRatio(s, "static", "cairn", "servemux", "ns/op"); !ok || r != 0.2 {
		t.Errorf("paired cairn ÷ servemux = %v, %v; want 0.2, true", r, ok)
	}
	if _, ok := res.pairedRatio(s, "static", "cairn", "chi", "ns/op"); ok {
		t.Errorf("paired cairn ÷ chi, which did not run: ok")
	}
	var buf bytes.Buffer
	writeFastest(&buf, res)
	if want := "| Single/static | httprouter | 20.0 ns | 12.0 ns | 0.80× | 0.20× | n/a |"; !strings.Contains(buf.String(), want) {
		t.Errorf("summary:\n%s\nwant the row\n%s", buf.String(), want)
	}

	// httprouter missing from the last pass: the medians decide.
	out := passOutput(cairn, httprouter, servemux)
	out = out[:strings.LastIndex(out, "BenchmarkSingle/static/router=httprouter")] + out[strings.LastIndex(out, "BenchmarkSingle/static/router=servemux"):]
	if res, err = parseResults([]byte(out), "passes.txt"); err != nil {
		t.Fatal(err)
	}
	if r, ok := res.pairedRatio(res.Suite("Single"), "static", "cairn", "httprouter", "ns/op"); !ok || r != 0.6 {
		t.Errorf("cairn ÷ httprouter, missing a pass = %v, %v; want 0.6 (12 ns ÷ 20 ns), true", r, ok)
	}
}

// TestTimeSpreads checks the median and the 90th percentile of the
// intervals' widths over ten cells, and that cells of fewer than six runs,
// whose intervals are unbounded, are left out.
func TestTimeSpreads(t *testing.T) {
	var b strings.Builder
	for i := range 10 {
		// Runs v, v, v, v, v, v·(1+k/10): the interval of the median
		// of six reaches the extremes, so the cell's spread is k/10.
		for j := range 6 {
			ns := 100.0
			if j == 5 {
				ns = 100 * (1 + float64(i)/10)
			}
			fmt.Fprintf(&b, "BenchmarkSingle/c%d/router=cairn \t1000\t%.2f ns/op\n", i, ns)
		}
	}
	b.WriteString("BenchmarkSingle/c0/router=chi \t1000\t50 ns/op\n")
	res, err := parseResults([]byte(b.String()), "spreads.txt")
	if err != nil {
		t.Fatal(err)
	}
	half, most, ok := timeSpreads(res)
	if !ok || fmt.Sprintf("%.2f %.2f", half, most) != "0.40 0.80" {
		t.Errorf("timeSpreads = %v, %v, %v; want 0.40, 0.80, true", half, most, ok)
	}
}

// TestNoisyRunWarning checks that benchreport warns about a run in which
// half of the times have confidence intervals wider than noisyRun, and
// not about a quiet one.
func TestNoisyRunWarning(t *testing.T) {
	for _, tt := range []struct {
		name  string
		speed []float64 // the machine's slowness in each pass
		warn  bool
	}{
		{"quiet", []float64{1, 1, 1, 1, 1, 1.05}, false},
		{"noisy", []float64{1, 1, 2, 2, 2, 2}, true},
	} {
		var cairn, httprouter, servemux []float64
		for _, f := range tt.speed {
			cairn, httprouter, servemux = append(cairn, 8*f), append(httprouter, 10*f), append(servemux, 40*f)
		}
		dir := t.TempDir()
		in := dir + "/in.txt"
		if err := os.WriteFile(in, []byte(passOutput(cairn, httprouter, servemux)), 0o644); err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cfg := config{bench: ".", count: 6, benchtime: "1s", in: in, outDir: dir + "/report"}
		if err := run(cfg, []string{"-in", in}, &stderr); err != nil {
			t.Fatalf("%s: run: %v", tt.name, err)
		}
		if got := strings.Contains(stderr.String(), "the run was noisy"); got != tt.warn {
			t.Errorf("%s: warned %v, want %v:\n%s", tt.name, got, tt.warn, stderr.String())
		}
	}
}
