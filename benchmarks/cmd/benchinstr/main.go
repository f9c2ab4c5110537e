// Benchinstr counts the instructions that the lookup benchmarks of this
// module run per operation (one request, or for the API cases one request
// for each route of the list), and the registration benchmarks per router
// built, for cairn and other routers, under valgrind's cachegrind, and
// prints them as a Markdown table.
//
// Usage, in the benchmarks module:
//
//	go run ./cmd/benchinstr [flags]
//
// Time per request is what a router's user feels, and the report made by
// benchreport gives it; but on a shared machine, times move from one run
// to the next by more than the difference between two versions of a
// router. The number of instructions a request runs moves far less: it
// depends on the code and the request, and for cairn by about a percent
// on where the heap puts its patterns (Param finds a pattern's layout in a
// table hashed by address). So it tells whether a change
// to the lookup made it do less work, on any machine, busy or not. It
// does not tell how fast that work runs: cache misses, mispredicted
// branches and dependent loads cost time that it does not count, so two
// routers running the same number of instructions may take different
// times, and the ratio of two routers' instructions is not the ratio of
// their times.
//
// Benchinstr builds the module's test binary, then, for each case and
// router, runs the case's benchmark twice under cachegrind, with lo and
// hi iterations (-benchtime lo x and hi x), and reports the difference in
// instructions divided by hi - lo: what one more iteration costs, without
// what building the router and the testing package cost, which the two
// runs share. The garbage collector is off (GOGC=off), so that it does not
// run in one and not the other.
//
// The flags are:
//
//	-routers list   routers to count, comma-separated (default cairn,httprouter,echo,gin)
//	-cases regexp   cases to count, by name (default: all)
//	-j n            runs of valgrind at a time (default 2)
//	-v              print each run's command
//
// Valgrind must be installed (valgrind.org; Debian's package valgrind).
// A case takes from a few seconds to a minute per router under
// cachegrind, which runs programs some fifty times slower.
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
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// A benchCase is a benchmark of the module counted per iteration.
type benchCase struct {
	name string
	// bench is the -test.bench regexp of the benchmark, with ROUTER where
	// the router's name goes.
	bench string
	// lo and hi are the iterations of the two runs: enough for the
	// difference to dwarf the little that differs between runs besides.
	lo, hi int
}

// cases are the benchmarks benchinstr counts.
var cases = []benchCase{
	{"Single/static", `^BenchmarkSingle$/^static$/^router=ROUTER$`, 100000, 300000},
	{"Single/param1", `^BenchmarkSingle$/^param1$/^router=ROUTER$`, 100000, 300000},
	{"Single/param5", `^BenchmarkSingle$/^param5$/^router=ROUTER$`, 100000, 300000},
	{"Single/param20", `^BenchmarkSingle$/^param20$/^router=ROUTER$`, 20000, 60000},
	{"API/static-all", `^BenchmarkAPI$/^static-all$/^router=ROUTER$`, 2000, 6000},
	{"API/github", `^BenchmarkAPI$/^github$/^router=ROUTER$`, 2000, 6000},
	{"API/gplus", `^BenchmarkAPI$/^gplus$/^router=ROUTER$`, 20000, 60000},
	{"API/parse", `^BenchmarkAPI$/^parse$/^router=ROUTER$`, 20000, 60000},
	{"Growth/static/routes=10", `^BenchmarkGrowth$/^static$/^routes=10$/^router=ROUTER$`, 100000, 300000},
	{"Growth/param/routes=10", `^BenchmarkGrowth$/^param$/^routes=10$/^router=ROUTER$`, 100000, 300000},
	{"Depth/depth=2", `^BenchmarkDepth$/^depth=2$/^router=ROUTER$`, 100000, 300000},
	{"Depth/depth=8", `^BenchmarkDepth$/^depth=8$/^router=ROUTER$`, 100000, 300000},
	{"Depth/depth=32", `^BenchmarkDepth$/^depth=32$/^router=ROUTER$`, 20000, 60000},
	// An iteration builds a router of 10 000 routes: the count is per
	// router, not per route.
	{"Register/static/routes=10000", `^BenchmarkRegister$/^static$/^routes=10000$/^router=ROUTER$`, 2, 6},
	{"Register/param/routes=10000", `^BenchmarkRegister$/^param$/^routes=10000$/^router=ROUTER$`, 2, 6},
}

func main() {
	routers := flag.String("routers", "cairn,httprouter,echo,gin", "routers to count, comma-separated")
	match := flag.String("cases", ".", "count the cases whose names match `regexp`")
	jobs := flag.Int("j", 2, "runs of valgrind at a time")
	verbose := flag.Bool("v", false, "print each run's command")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: go run ./cmd/benchinstr [flags]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	re, err := regexp.Compile(*match)
	if flag.NArg() > 0 || err != nil || *jobs < 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(strings.Split(*routers, ","), re, *jobs, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "benchinstr:", err)
		os.Exit(1)
	}
}

func run(routers []string, match *regexp.Regexp, jobs int, verbose bool) error {
	if _, err := exec.LookPath("valgrind"); err != nil {
		return errors.New("valgrind is not installed (Debian: apt-get install valgrind)")
	}
	dir, err := os.MkdirTemp("", "benchinstr")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "benchmarks.test")
	build := exec.Command("go", "test", "-c", "-o", bin, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building the test binary: %v", err)
	}

	var todo []benchCase
	for _, c := range cases {
		if match.MatchString(c.name) {
			todo = append(todo, c)
		}
	}
	counts := make(map[[2]string]float64)
	errs := make(map[[2]string]error)
	var mu sync.Mutex
	sem := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	for _, c := range todo {
		for _, r := range routers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				n, err := perIteration(bin, c, r, verbose)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					errs[[2]string{c.name, r}] = err
					fmt.Fprintf(os.Stderr, "%s, %s: %v\n", c.name, r, err)
					return
				}
				counts[[2]string{c.name, r}] = n
				fmt.Fprintf(os.Stderr, "%s, %s: %.0f instructions\n", c.name, r, n)
			}()
		}
	}
	wg.Wait()
	writeTable(os.Stdout, todo, routers, counts)
	if len(errs) > 0 {
		return fmt.Errorf("%d runs failed", len(errs))
	}
	return nil
}

// perIteration returns the instructions that one iteration of c's
// benchmark for router runs.
func perIteration(bin string, c benchCase, router string, verbose bool) (float64, error) {
	lo, err := instructions(bin, c, router, c.lo, verbose)
	if err != nil {
		return 0, err
	}
	hi, err := instructions(bin, c, router, c.hi, verbose)
	if err != nil {
		return 0, err
	}
	return float64(hi-lo) / float64(c.hi-c.lo), nil
}

// godebug returns the GODEBUG setting for the runs under cachegrind: the
// caller's, with the runtime's use of RDTSCP turned off. Valgrind 3.19 does
// not know the instruction, and the runtime reads the time stamp counter
// with it on CPUs that have it, so the program died of SIGILL at its first
// lock; without it, the runtime uses RDTSC, which valgrind runs.
// (golang.org/x/sys/cpu, which some peers import, warns on stderr that it
// does not know the option; it changes nothing else.)
func godebug() string {
	if v := os.Getenv("GODEBUG"); v != "" {
		return v + ",cpu.rdtscp=off"
	}
	return "cpu.rdtscp=off"
}

// instructions runs c's benchmark for router for n iterations under
// cachegrind and returns the instructions the whole program ran.
func instructions(bin string, c benchCase, router string, n int, verbose bool) (int64, error) {
	bench := strings.ReplaceAll(c.bench, "ROUTER", regexp.QuoteMeta(router))
	cmd := exec.Command("valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
		bin, "-test.run", "^$", "-test.bench", bench, "-test.benchtime", strconv.Itoa(n)+"x", "-test.cpu", "1")
	cmd.Env = append(os.Environ(), "GOGC=off", "GODEBUG="+godebug())
	cmd.Dir = "."
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if verbose {
		fmt.Fprintln(os.Stderr, strings.Join(cmd.Args, " "))
	}
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%v\n%s%s", err, stdout.Bytes(), stderr.Bytes())
	}
	if !bytes.Contains(stdout.Bytes(), []byte("router="+router)) {
		return 0, fmt.Errorf("no benchmark matched %s (the router may not express the case)", bench)
	}
	return parseIRefs(stderr.String())
}

// parseIRefs returns the instruction count of cachegrind's summary in
// out, its line "==pid== I refs: 1,234,567".
func parseIRefs(out string) (int64, error) {
	for line := range strings.Lines(out) {
		_, after, ok := strings.Cut(line, "I refs:")
		if !ok {
			_, after, ok = strings.Cut(line, "I   refs:")
		}
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(strings.ReplaceAll(strings.TrimSpace(after), ",", ""), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("reading cachegrind's count in %q: %v", strings.TrimSpace(line), err)
		}
		return n, nil
	}
	return 0, errors.New("no instruction count in cachegrind's output")
}

// writeTable writes the counts as a Markdown table: a row per case, a
// column per router, in the order given, and the ratio of the first
// router's count to the smallest of the others'.
func writeTable(w io.Writer, cs []benchCase, routers []string, counts map[[2]string]float64) {
	fmt.Fprintf(w, "| case | %s | %s ÷ fewest other |\n", strings.Join(routers, " | "), routers[0])
	fmt.Fprintf(w, "|:--|%s--:|\n", strings.Repeat("--:|", len(routers)))
	for _, c := range cs {
		fmt.Fprintf(w, "| %s |", c.name)
		fewest := 0.0
		for i, r := range routers {
			n, ok := counts[[2]string{c.name, r}]
			if !ok {
				fmt.Fprint(w, " n/a |")
				continue
			}
			fmt.Fprintf(w, " %.0f |", n)
			if i > 0 && (fewest == 0 || n < fewest) {
				fewest = n
			}
		}
		if first, ok := counts[[2]string{c.name, routers[0]}]; ok && fewest > 0 {
			fmt.Fprintf(w, " %.2f× |\n", first/fewest)
		} else {
			fmt.Fprint(w, " n/a |\n")
		}
	}
}
