// This file writes the report, benchmarks.md: how the results were
// produced, a summary, then for every suite the tables and charts of each
// group of its cases. Given the same results, Info and charts, it writes
// the same bytes.

package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// A report is everything that goes into benchmarks.md.
type report struct {
	res  *Results
	info Info
	raw  string // path of the raw output, relative to the report, with slashes
	tool string // how benchreport was invoked
	// fromFile says that tool made the report from the results of an
	// earlier run (-in), saved at raw, instead of running the benchmarks.
	fromFile bool
	groups   []*group
	charts   map[*group][]chart
}

// allGroups returns the groups of every suite, suite by suite.
func allGroups(res *Results) []*group {
	var gs []*group
	for _, s := range res.Suites {
		gs = append(gs, groups(s)...)
	}
	return gs
}

// markdown returns the text of the report.
func markdown(rep *report) []byte {
	var buf bytes.Buffer
	writeMarkdown(&buf, rep)
	return append(bytes.TrimRight(buf.Bytes(), "\n"), '\n')
}

// writeMarkdown writes the report.
func writeMarkdown(w io.Writer, rep *report) {
	fmt.Fprintf(w, "# Router benchmarks\n\n")
	fmt.Fprintf(w, "cairn compared with other Go HTTP routers on the same routes. This file and the charts in img/ are generated ")
	fmt.Fprintf(w, "by benchreport (benchmarks/cmd/benchreport) from the raw output of go test in [%s](%s); do not edit them by hand.\n\n", rep.raw, rep.raw)
	writeProvenance(w, rep)
	writeReading(w, rep.res)
	writeFacts(w, rep.res, rep.groups)
	for _, s := range rep.res.Suites {
		fmt.Fprintf(w, "## %s\n\n", esc(s.Name))
		var gs []*group
		for _, g := range rep.groups {
			if g.Suite == s {
				gs = append(gs, g)
			}
		}
		for _, g := range gs {
			if len(gs) > 1 || g.Prefix != "" {
				fmt.Fprintf(w, "### %s\n\n", esc(g.Title()))
			}
			writeGroupTables(w, g)
			for _, ch := range rep.charts[g] {
				fmt.Fprintf(w, "![%s](%s)\n\n", esc(ch.Title), ch.File)
			}
		}
	}
}

// writeProvenance writes how and where the results were produced.
func writeProvenance(w io.Writer, rep *report) {
	info := rep.info
	fmt.Fprintf(w, "## How it was produced\n\n")
	fmt.Fprintf(w, "In the benchmarks module:\n\n    %s\n\n", rep.tool)
	ran := "which ran"
	if rep.fromFile {
		// The command above only read the results; say what made them.
		fmt.Fprintf(w, "made this report from the results saved in %s, ", rep.raw)
		ran = "for which benchreport had run"
	}
	switch {
	case info.Command != "" && info.Passes > 1:
		fmt.Fprintf(w, "%s, from %s, %d times in turn:\n\n    %s\n\n", ran, orUnknown(info.Date), info.Passes, info.Command)
		fmt.Fprintf(w, "Each pass runs every benchmark once, so the %d runs of a benchmark are spread over the whole time, and a slow spell of the machine falls on every router alike instead of on the runs of one.\n\n", info.Passes)
	case info.Command != "":
		fmt.Fprintf(w, "%s, on %s:\n\n    %s\n\n", ran, orUnknown(info.Date), info.Command)
	case rep.fromFile:
		fmt.Fprintf(w, "produced on %s by a command it does not know.\n\n", orUnknown(info.Date))
	default:
		fmt.Fprintf(w, "which read results produced on %s by a command it does not know.\n\n", orUnknown(info.Date))
	}
	fmt.Fprintf(w, "| Machine | |\n|:--|:--|\n")
	fmt.Fprintf(w, "| CPU | %s |\n", esc(orUnknown(info.CPU)))
	fmt.Fprintf(w, "| Cores | %s (the benchmarks use one: -cpu 1) |\n", esc(orUnknown(info.Cores)))
	fmt.Fprintf(w, "| Memory | %s |\n", esc(orUnknown(info.Memory)))
	fmt.Fprintf(w, "| OS | %s |\n", esc(orUnknown(info.OS)))
	fmt.Fprintf(w, "| Go | %s |\n\n", esc(orUnknown(info.Go)))

	fmt.Fprintf(w, "| Router | Module | Version |\n|:--|:--|:--|\n")
	for _, r := range rep.routers() {
		mod, version := "unknown", "unknown"
		switch r {
		case reference:
			mod, version = "github.com/cairn-go/cairn", "commit "+orUnknown(info.Cairn)+" (this repository)"
		case "cairn-pathvalue":
			mod, version = "github.com/cairn-go/cairn", "as cairn, in its default mode: values stored for r.PathValue"
		case "servemux":
			mod, version = "net/http", orUnknown(info.Go)
		default:
			if i := slices.IndexFunc(info.Modules, func(m Module) bool { return m.Router == r }); i >= 0 {
				mod, version = info.Modules[i].Path, info.Modules[i].Version
			}
		}
		fmt.Fprintf(w, "| %s | %s | %s |\n", esc(routerLabel(r)), esc(mod), esc(version))
	}
	fmt.Fprintln(w)
}

// routers returns every router of the results in column order.
func (rep *report) routers() []string {
	var rs []string
	for _, s := range rep.res.Suites {
		for _, r := range s.Routers {
			if !slices.Contains(rs, r) {
				rs = append(rs, r)
			}
		}
	}
	slices.SortStableFunc(rs, func(a, b string) int {
		if d := routerRank(a) - routerRank(b); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	return rs
}

// writeReading explains how to read the tables.
func writeReading(w io.Writer, res *Results) {
	fmt.Fprintf(w, "## Reading the tables\n\n")
	runs := fmt.Sprint(res.MaxRuns)
	if res.MinRuns != res.MaxRuns {
		runs = fmt.Sprintf("%d to %d", res.MinRuns, res.MaxRuns)
	}
	fmt.Fprintf(w, "- A cell gives the median of %s runs and the 95%% confidence interval of the median, as benchstat computes it ", runs)
	fmt.Fprintf(w, "(±∞ when there are fewer than 6 runs), then the ratio to cairn's median: 2.00× is twice cairn's value, 0.50× half. ")
	fmt.Fprintf(w, "For servemux, \"pv\" gives the ratio to cairn-pathvalue, which, like ServeMux, stores the values in the request for r.PathValue.\n")
	fmt.Fprintf(w, "- n/a: the router cannot express the routes of the case, so the benchmark skipped itself (the reason follows the table), or the case was not run.\n")
	if half, most, ok := timeSpreads(res); ok {
		fmt.Fprintf(w, "- How noisy the run was: half of the times (ns/op) have a confidence interval within %s, nine in ten within %s; ", formatSpread(half), formatSpread(most))
		fmt.Fprintf(w, "the wider they are, the more the machine's own changes of speed weigh in the medians and their ratios.\n")
	}
	fmt.Fprintf(w, "- Charts switch to a logarithmic axis when the values span more than %d×.\n", logSpread)
	if len(res.Failed) > 0 {
		fmt.Fprintf(w, "- These benchmarks failed and are missing: %s.\n", esc(strings.Join(res.Failed, ", ")))
	}
	fmt.Fprintln(w)
}

// timeSpreads returns the median and the 90th percentile of the relative
// half-widths of the confidence intervals of every time (ns/op) of res,
// and whether there was one with a bounded interval.
func timeSpreads(res *Results) (half, most float64, ok bool) {
	var xs []float64
	for _, s := range res.Suites {
		for _, c := range s.Cases {
			for _, r := range s.Routers {
				if st, found := s.Stat(c, r, "ns/op"); found {
					if sp := st.Spread(); !math.IsInf(sp, 0) && !math.IsNaN(sp) {
						xs = append(xs, sp)
					}
				}
			}
		}
	}
	if len(xs) == 0 {
		return 0, 0, false
	}
	slices.Sort(xs)
	return xs[(len(xs)-1)/2], xs[(len(xs)*9-1)/10], true
}

// orUnknown returns s, or "unknown" if s is empty.
func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
