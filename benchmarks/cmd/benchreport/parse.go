// This file reads the output of go test -bench into suites of cells.
//
// A benchmark name is split into its suite, its case and its router: given
// "BenchmarkGrowth/param/routes=1000/router=echo-2", the suite is "Growth",
// the case "param/routes=1000" and the router "echo"; the "-2" (GOMAXPROCS)
// is dropped. Every run of the benchmark adds its values to the cell of
// (case, router), unit by unit, and each cell is then summarized, as
// benchstat does, by its median and the 95% confidence interval of the
// median. Lines "--- SKIP: BenchmarkX/..." (printed by go test -v), with the
// log lines before them, say why a router has no cell.

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

// knownRouters lists the routers in the order of the columns of the report,
// cairn, the reference, first. Routers not in the list follow, by name.
var knownRouters = []string{
	"cairn", "cairn-pathvalue", "servemux", "httprouter", "chi",
	"gorilla", "echo", "gin", "bunrouter", "httptreemux",
}

// reference is the router every other router is compared with.
const reference = "cairn"

// confidence is the confidence level of the interval around each median.
const confidence = 0.95

// A Stat summarizes the values of one unit in one cell.
type Stat struct {
	Median float64
	Lo, Hi float64 // confidence interval of the median; ±Inf with too few runs
	N      int     // number of runs
}

// Spread returns the half-width of the confidence interval relative to the
// median, as benchstat prints it ("±3%"): 0.03. It returns +Inf if the
// interval is unbounded and NaN if the median is 0 while the interval is not.
func (s Stat) Spread() float64 {
	if math.IsInf(s.Lo, 0) || math.IsInf(s.Hi, 0) {
		return math.Inf(1)
	}
	if s.Median == 0 {
		if s.Lo == 0 && s.Hi == 0 {
			return 0
		}
		return math.NaN()
	}
	return math.Max(s.Hi/s.Median-1, 1-s.Lo/s.Median)
}

// A Cell holds the summaries of one router on one case, by unit.
type Cell map[string]Stat

// cellKey identifies a cell within a suite.
type cellKey struct {
	Case, Router string
}

// A Suite is one top-level benchmark, for example BenchmarkSingle.
type Suite struct {
	Name    string   // "Single"
	Cases   []string // in order of first appearance; "" if the suite has no case segments
	Routers []string // in column order, including routers that were only skipped
	Units   []string // in order of first appearance

	cells   map[cellKey]Cell
	skipped map[cellKey]string               // why a router has no cell, if go test said
	values  map[cellKey]map[string][]float64 // the runs of each cell, by unit, in output order
}

// Cell returns the cell of router r on case c, if it was measured.
func (s *Suite) Cell(c, r string) (Cell, bool) {
	cell, ok := s.cells[cellKey{c, r}]
	return cell, ok
}

// Stat returns the summary of unit u for router r on case c.
func (s *Suite) Stat(c, r, u string) (Stat, bool) {
	st, ok := s.cells[cellKey{c, r}][u]
	return st, ok
}

// Runs returns the values of unit u of router r on case c, in the order
// of the output: in benchreport's, where each pass runs every benchmark
// once, the i-th from the i-th pass in which the benchmark ran.
func (s *Suite) Runs(c, r, u string) []float64 {
	return s.values[cellKey{c, r}][u]
}

// Skipped returns why router r was skipped on case c, and whether it was.
func (s *Suite) Skipped(c, r string) (string, bool) {
	why, ok := s.skipped[cellKey{c, r}]
	return why, ok
}

// HasUnit reports whether any cell of the suite has unit u.
func (s *Suite) HasUnit(u string) bool {
	return slices.Contains(s.Units, u)
}

// Results are the parsed and summarized output of one benchmark run.
type Results struct {
	Suites []*Suite
	// Config holds the file configuration lines ("key: value") of the
	// output, such as goos, cpu and the lines benchreport writes itself.
	Config map[string]string
	Failed []string // names of benchmarks that failed

	MinRuns, MaxRuns int // the fewest and the most runs of any benchmark
}

// Suite returns the suite with the given name, or nil.
func (res *Results) Suite(name string) *Suite {
	for _, s := range res.Suites {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// benchName is a benchmark name split into its parts.
type benchName struct {
	Suite, Case, Router string
}

// splitName splits a benchmark name, with or without its "Benchmark"
// prefix and GOMAXPROCS suffix, into suite, case and router. The router is
// the value of the last "router=" segment; the other segments after the
// suite, joined by "/", are the case.
func splitName(name string) benchName {
	name = strings.TrimPrefix(name, "Benchmark")
	name = trimProcs(name)
	segs := strings.Split(name, "/")
	n := benchName{Suite: segs[0]}
	var rest []string
	for i, seg := range segs[1:] {
		if r, ok := strings.CutPrefix(seg, "router="); ok && !slices.ContainsFunc(segs[i+2:], isRouterSeg) {
			n.Router = r
			continue
		}
		rest = append(rest, seg)
	}
	n.Case = strings.Join(rest, "/")
	return n
}

// isRouterSeg reports whether a name segment names the router.
func isRouterSeg(seg string) bool { return strings.HasPrefix(seg, "router=") }

// trimProcs removes a "-N" GOMAXPROCS suffix from a benchmark name.
func trimProcs(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i < 0 || i == len(name)-1 {
		return name
	}
	for _, c := range name[i+1:] {
		if c < '0' || c > '9' {
			return name
		}
	}
	return name[:i]
}

// parseResults parses the output of go test -bench, in the Go benchmark
// format, and summarizes every cell. fileName is used in error messages.
// It fails on a syntax error or if the output holds no benchmark result.
func parseResults(data []byte, fileName string) (*Results, error) {
	res := &Results{Config: map[string]string{}}
	suites := map[string]*Suite{}
	suite := func(name string) *Suite {
		s := suites[name]
		if s == nil {
			s = &Suite{
				Name:    name,
				cells:   map[cellKey]Cell{},
				skipped: map[cellKey]string{},
				values:  map[cellKey]map[string][]float64{},
			}
			suites[name] = s
			res.Suites = append(res.Suites, s)
		}
		return s
	}

	r := benchfmt.NewReader(bytes.NewReader(data), fileName)
	n := 0
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			return nil, fmt.Errorf("benchreport: %w", rec)
		case *benchfmt.Result:
			for _, c := range rec.Config {
				if c.File {
					res.Config[c.Key] = string(c.Value)
				}
			}
			bn := splitName(rec.Name.String())
			s := suite(bn.Suite)
			s.addCase(bn.Case)
			s.addRouter(bn.Router)
			k := cellKey{bn.Case, bn.Router}
			vals := s.values[k]
			if vals == nil {
				vals = map[string][]float64{}
				s.values[k] = vals
			}
			for _, v := range rec.Values {
				// Keep the units as go test printed them: ns/op, not sec/op.
				unit, val := v.OrigUnit, v.OrigValue
				if unit == "" {
					unit, val = v.Unit, v.Value
				}
				if !slices.Contains(s.Units, unit) {
					s.Units = append(s.Units, unit)
				}
				vals[unit] = append(vals[unit], val)
			}
			n++
		}
	}
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("benchreport: reading %s: %w", fileName, err)
	}
	if n == 0 {
		return nil, fmt.Errorf("benchreport: %s holds no benchmark results", fileName)
	}

	units := r.Units()
	for _, s := range res.Suites {
		for k, vals := range s.values {
			cell := Cell{}
			for unit, xs := range vals {
				sample := benchmath.NewSample(xs, &benchmath.DefaultThresholds)
				sum := units.GetAssumption(unit).Summary(sample, confidence)
				cell[unit] = Stat{Median: sum.Center, Lo: sum.Lo, Hi: sum.Hi, N: len(xs)}
				res.MaxRuns = max(res.MaxRuns, len(xs))
				if res.MinRuns == 0 || len(xs) < res.MinRuns {
					res.MinRuns = len(xs)
				}
			}
			s.cells[k] = cell
		}
	}

	for _, sk := range scanSkips(data) {
		bn := splitName(sk.name)
		if sk.failed {
			if !slices.Contains(res.Failed, sk.name) {
				res.Failed = append(res.Failed, sk.name)
			}
			continue
		}
		s := suite(bn.Suite)
		s.addCase(bn.Case)
		s.addRouter(bn.Router)
		s.skipped[cellKey{bn.Case, bn.Router}] = sk.reason
	}
	for _, s := range res.Suites {
		s.sortRouters()
	}
	return res, nil
}

// addCase adds case c to the suite if it is new.
func (s *Suite) addCase(c string) {
	if !slices.Contains(s.Cases, c) {
		s.Cases = append(s.Cases, c)
	}
}

// addRouter adds router r to the suite if it is new.
func (s *Suite) addRouter(r string) {
	if !slices.Contains(s.Routers, r) {
		s.Routers = append(s.Routers, r)
	}
}

// sortRouters puts the suite's routers in column order: the known routers
// in their order, then the others by name.
func (s *Suite) sortRouters() {
	slices.SortStableFunc(s.Routers, func(a, b string) int {
		ia, ib := routerRank(a), routerRank(b)
		if ia != ib {
			return ia - ib
		}
		return strings.Compare(a, b)
	})
}

// routerRank returns the position of router r among the known routers, or
// len(knownRouters) for an unknown router.
func routerRank(r string) int {
	if i := slices.Index(knownRouters, r); i >= 0 {
		return i
	}
	return len(knownRouters)
}

// A skip is a benchmark that go test reported as skipped or failed.
type skip struct {
	name   string // as printed, with the Benchmark prefix
	reason string // the first log line before the report, if any
	failed bool
}

// scanSkips finds the "--- SKIP:" and "--- FAIL:" lines of benchmarks in
// go test output. go test -v prints a benchmark's name, then its log lines
// indented, then "--- SKIP: name"; the first log line, without its
// "file.go:12: " prefix, is the reason.
func scanSkips(data []byte) []skip {
	var skips []skip
	var logs []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		raw := sc.Text()
		line := strings.TrimSpace(raw)
		switch {
		case strings.HasPrefix(line, "--- SKIP: Benchmark"), strings.HasPrefix(line, "--- FAIL: Benchmark"):
			rest := line[len("--- SKIP: "):]
			name, _, _ := strings.Cut(rest, " ")
			sk := skip{name: name, failed: strings.HasPrefix(line, "--- FAIL")}
			if len(logs) > 0 {
				sk.reason = trimLogPrefix(logs[0])
			}
			skips = append(skips, sk)
			logs = nil
		case strings.HasPrefix(raw, "    ") || strings.HasPrefix(raw, "\t"):
			logs = append(logs, line)
		default:
			logs = nil
		}
	}
	return skips
}

// trimLogPrefix removes the "file_test.go:12: " prefix of a test log line.
func trimLogPrefix(line string) string {
	file, rest, ok := strings.Cut(line, ": ")
	if ok && strings.Contains(file, ".go:") && !strings.Contains(file, " ") {
		return rest
	}
	return line
}
