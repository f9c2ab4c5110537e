// Benchreport runs the router benchmarks and writes a report of them, with
// tables and charts, in Markdown.
//
// Usage, in the benchmarks module:
//
//	go run ./cmd/benchreport [flags]
//
// Unless -in names earlier output, it runs
//
//	go test -run '^$' -bench . -benchmem -count 1 -benchtime 1s -timeout 0 -cpu 1 -v .
//
// six times (-count) in turn, so that the runs of each benchmark are spread
// over the whole time and a slow spell of the machine falls on every router
// alike, showing its output on standard error as it goes, and saves that output,
// after a description of the machine, in benchmarks.txt in the output
// directory. It then summarizes each benchmark as benchstat does, by the
// median of its runs and the 95% confidence interval of the median, and
// writes benchmarks.md and the SVG charts it shows, in img/, to the output
// directory. (-v makes go test print why a router skipped a benchmark.)
//
// The flags are:
//
//	-bench regexp   benchmarks to run (default ".")
//	-count n        runs of each benchmark, one per pass over all (default 6)
//	-benchtime t    time or iterations of each run, as for go test (default 1s)
//	-in file        read the output of an earlier run instead of running
//	-out-dir dir    where the outputs go (default report)
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// config holds the command-line flags.
type config struct {
	bench, benchtime, in, outDir string
	count                        int
}

func main() {
	var cfg config
	flag.StringVar(&cfg.bench, "bench", ".", "run only the benchmarks matching `regexp`")
	flag.IntVar(&cfg.count, "count", 6, "run each benchmark `n` times, in n passes over all of them")
	flag.StringVar(&cfg.benchtime, "benchtime", "1s", "run each benchmark for time `t` or, as 100x, 100 times")
	flag.StringVar(&cfg.in, "in", "", "read go test output from `file` instead of running the benchmarks")
	flag.StringVar(&cfg.outDir, "out-dir", "report", "write benchmarks.txt, benchmarks.md and img/ to `dir`")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: go run ./cmd/benchreport [flags]\n\nRun in the benchmarks module.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 || cfg.count < 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(cfg, os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run produces the report that cfg asks for; args are the command-line
// arguments, to quote in the report. Progress and warnings go to stderr.
// If go test fails, run still writes a report of the benchmarks that ran,
// then returns the error.
func run(cfg config, args []string, stderr io.Writer) error {
	if err := os.MkdirAll(cfg.outDir, 0o755); err != nil {
		return fmt.Errorf("benchreport: %w", err)
	}
	var (
		data    []byte
		info    Info
		rawPath = filepath.Join(cfg.outDir, "benchmarks.txt")
		testErr error
		// headerless is set if the -in file does not describe its run.
		headerless bool
	)
	if cfg.in == "" {
		if err := checkModule("."); err != nil {
			return err
		}
		goArgs := testArgs(cfg)
		info = collectInfo(".", stderr)
		info.Command = shellJoin(append([]string{"go"}, goArgs...))
		info.Date = time.Now().UTC().Format("2006-01-02 15:04 MST")
		data, info.Passes, testErr = runBenchmarks(goArgs, rawPath, info, cfg.count, stderr)
		if data == nil {
			return testErr
		}
	} else {
		var err error
		data, err = os.ReadFile(cfg.in)
		if err != nil {
			return fmt.Errorf("benchreport: %w", err)
		}
		rawPath = cfg.in
		var ok bool
		if info, ok = readInfo(data); !ok {
			headerless = true
			fmt.Fprintf(stderr, "benchreport: %s does not describe its run; describing this machine instead\n", cfg.in)
			info = collectInfo(".", stderr)
			if st, err := os.Stat(cfg.in); err == nil {
				info.Date = st.ModTime().UTC().Format("2006-01-02 15:04 MST")
			}
		}
	}

	res, err := parseResults(data, rawPath)
	if err != nil {
		return errors.Join(testErr, err)
	}
	if cpu := res.Config["cpu"]; headerless && cpu != "" {
		info.CPU = cpu // go test's own description of the machine that ran it
	}
	rep := &report{res: res, info: info, raw: relPath(cfg.outDir, rawPath), groups: allGroups(res), fromFile: cfg.in != ""}
	rep.tool = shellJoin(append([]string{"go", "run", "./cmd/benchreport"}, args...))
	rep.charts, err = drawCharts(rep.groups, cfg.outDir)
	if err != nil {
		return errors.Join(testErr, err)
	}
	mdPath := filepath.Join(cfg.outDir, "benchmarks.md")
	if err := os.WriteFile(mdPath, markdown(rep), 0o644); err != nil {
		return errors.Join(testErr, fmt.Errorf("benchreport: %w", err))
	}
	fmt.Fprintf(stderr, "benchreport: wrote %s and %d charts in %s\n", mdPath, countCharts(rep.charts), filepath.Join(cfg.outDir, imgDir))
	if half, _, ok := timeSpreads(res); ok && half > noisyRun {
		fmt.Fprintf(stderr, "benchreport: the run was noisy: half of the times have a confidence interval wider than %s (a quiet machine gives about ±10%%); "+
			"its ratios may be off by a tenth or more, so run it again on a quieter machine before keeping it\n", formatSpread(half))
	}
	return testErr
}

// noisyRun is the median width of the times' confidence intervals (see
// timeSpreads) beyond which benchreport warns that the run was noisy. The
// run kept on 2026-11-27 had ±10%; three runs of 2026-11-29, whose ratios
// to the fastest peer moved by up to 0.27 from one run to the next, had
// ±36% to ±42%.
const noisyRun = 0.2

// testArgs returns the arguments of the go test command that runs each
// benchmark once: one pass of the cfg.count that run makes.
func testArgs(cfg config) []string {
	return []string{"test", "-run", "^$", "-bench", cfg.bench, "-benchmem",
		"-count", "1", "-benchtime", cfg.benchtime,
		"-timeout", "0", "-cpu", "1", "-v", "."}
}

// runBenchmarks runs go with args in the current directory passes times,
// one after the other, copying their standard output to stderr and, after
// info, to the file rawPath. A pass in which go test fails (a benchmark
// failed) does not stop the others, so that the other benchmarks still get
// all their runs; only a go that cannot be run, or output that cannot be
// written, stops them. After the output, the file records how many passes
// ran. runBenchmarks returns what it wrote to the file, that number, and
// the first error, if any.
func runBenchmarks(args []string, rawPath string, info Info, passes int, stderr io.Writer) ([]byte, int, error) {
	f, err := os.Create(rawPath)
	if err != nil {
		return nil, 0, fmt.Errorf("benchreport: %w", err)
	}
	var buf bytes.Buffer
	out := io.MultiWriter(f, &buf)
	info.Passes = 0 // recorded after the passes, once known
	if err := writeInfo(out, info); err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("benchreport: %w", err)
	}
	var firstErr error
	ran := 0
	for pass := 1; pass <= passes; pass++ {
		fmt.Fprintf(stderr, "benchreport: pass %d of %d: running %s\n", pass, passes, info.Command)
		cmd := exec.Command("go", args...)
		cmd.Stdout = io.MultiWriter(out, stderr)
		cmd.Stderr = stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if err == nil || errors.As(err, &exit) {
			ran++
		}
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("benchreport: pass %d: %s: %w (output kept in %s)", pass, info.Command, err, rawPath)
		}
		if err != nil && exit == nil {
			break
		}
	}
	if ran > 0 {
		if err := writeInfo(out, Info{Passes: ran}); err != nil && firstErr == nil {
			firstErr = fmt.Errorf("benchreport: %w", err)
		}
	}
	if err := f.Close(); err != nil && firstErr == nil {
		firstErr = fmt.Errorf("benchreport: %w", err)
	}
	return buf.Bytes(), ran, firstErr
}

// checkModule reports an error if dir is not the benchmarks module.
func checkModule(dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || !bytes.Contains(b, []byte("module github.com/cairn-go/cairn/benchmarks\n")) {
		return errors.New("benchreport: run me in the benchmarks module: cd benchmarks && go run ./cmd/benchreport")
	}
	return nil
}

// relPath returns target relative to dir, with slashes, or target itself
// if it has no such relative path.
func relPath(dir, target string) string {
	if rel, err := filepath.Rel(dir, target); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(target)
}

// shellJoin joins args into a command line for a POSIX shell, quoting
// those that need it.
func shellJoin(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = a
		if a == "" || strings.ContainsFunc(a, func(c rune) bool {
			return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./=:,+@%", c))
		}) {
			quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(quoted, " ")
}

// countCharts returns the number of charts.
func countCharts(charts map[*group][]chart) int {
	n := 0
	for _, cs := range charts {
		n += len(cs)
	}
	return n
}
