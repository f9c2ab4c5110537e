// This file computes the summary at the top of the report, from the
// results of the suites it knows by name; a suite that is missing simply
// leaves its facts out. Its ratios of two routers are taken pass by pass
// (see pairedRatio):
//
//   - Single, API, Constraints, Growth and Depth: for each case, the
//     fastest peer (a router other than cairn and cairn-pathvalue),
//     cairn's ratio to it, and the ratios of cairn and cairn-pathvalue to
//     servemux; and the cases where cairn takes more than fastTarget of
//     the fastest peer's time;
//   - every suite: the geometric mean of cairn ÷ servemux;
//   - Constraints: cairn against gorilla, the only peer with regexp
//     constraints in the same style;
//   - Growth and Depth: how flat each router stays, its median at the
//     largest size divided by its median at the smallest;
//   - Register: the time to build the router and the heap bytes per route
//     of cairn and httprouter at the largest size.

package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"golang.org/x/perf/benchmath"
)

// Names of the suites the summary knows.
const (
	suiteSingle      = "Single"
	suiteAPI         = "API"
	suiteConstraints = "Constraints"
	suiteGrowth      = "Growth"
	suiteDepth       = "Depth"
	suiteRegister    = "Register"
)

// fastSuites are the suites whose cases the summary compares with the
// fastest peer, in the order of its table.
var fastSuites = []string{suiteSingle, suiteAPI, suiteConstraints, suiteGrowth, suiteDepth}

// fastTarget is the ratio to the fastest peer that cairn aims to stay
// within on every case of fastSuites; the summary lists the cases above it.
const fastTarget = 0.8

// isPeer reports whether router r is another project's router.
func isPeer(r string) bool { return r != reference && r != "cairn-pathvalue" }

// caseName returns "Suite/case", or "Suite" for the case "".
func caseName(s *Suite, c string) string {
	if c == "" {
		return s.Name
	}
	return s.Name + "/" + c
}

// pairedRatio returns the ratio of router a's values of unit u to router
// b's on case c of s: if both ran in each of the run's passes, the median
// of the ratios of their runs pass by pass; otherwise, or if b has a zero
// run, the ratio of their medians. It reports whether both ran.
//
// The two runs of a pass were taken seconds apart, one pass from the next
// some minutes apart. A slow spell of the machine that lasts about as long
// as a pass moves both runs of that pass, and their ratio much less, while
// it moves each router's median by as much as it moves the runs it falls
// on; the ratio of the medians then mixes passes. In two full runs on a
// noisy machine, the ratios to the fastest peer agreed within 0.06 for
// half of the 28 cases and 0.27 for all of them, pass by pass, against
// 0.11 and 0.68 as ratios of medians.
func (res *Results) pairedRatio(s *Suite, c, a, b, u string) (float64, bool) {
	sa, okA := s.Stat(c, a, u)
	sb, okB := s.Stat(c, b, u)
	if !okA || !okB {
		return 0, false
	}
	xa, xb := s.Runs(c, a, u), s.Runs(c, b, u)
	if len(xa) != res.MaxRuns || len(xb) != res.MaxRuns || res.MaxRuns < 2 {
		return ratio(sa.Median, sb.Median), true
	}
	rs := make([]float64, len(xa))
	for i := range xa {
		if xb[i] == 0 {
			return ratio(sa.Median, sb.Median), true
		}
		rs[i] = xa[i] / xb[i]
	}
	// The median as the cells' medians are computed (see parseResults).
	return benchmath.AssumeNothing.Summary(benchmath.NewSample(rs, &benchmath.DefaultThresholds), confidence).Center, true
}

// writeFacts writes the summary of the results.
func writeFacts(w io.Writer, res *Results, gs []*group) {
	fmt.Fprintf(w, "## Summary\n\n")
	fmt.Fprintf(w, "Here a ratio is written out as cairn ÷ other: below 1.00× cairn is faster or smaller. ")
	fmt.Fprintf(w, "It is taken pass by pass, as the median of the ratios of the two routers' runs in the same pass, when both ran in every pass: ")
	fmt.Fprintf(w, "a slow spell of the machine falls on both runs of a pass, and moves their ratio less than it moves the medians. So it may differ a little from the ratio of the medians below. ")
	fmt.Fprintf(w, "(In the tables of the suites, the ratio is of the medians, and written out as the other router ÷ cairn.)\n\n")
	writeFastest(w, res)
	var items []string
	items = append(items, serveMuxFacts(res)...)
	items = append(items, constraintFacts(res)...)
	items = append(items, registerFacts(res, gs)...)
	for _, it := range items {
		fmt.Fprintf(w, "- %s\n", it)
	}
	if len(items) > 0 {
		fmt.Fprintln(w)
	}
	writeFlatness(w, gs)
}

// writeFastest writes, for each case of fastSuites, the fastest peer and
// how cairn compares with it and with servemux, then the number of cases
// where cairn is within fastTarget of the fastest peer, and those where it
// is not.
func writeFastest(w io.Writer, res *Results) {
	header := false
	var within, cases int
	var above []string
	for _, name := range fastSuites {
		s := res.Suite(name)
		if s == nil || !s.HasUnit("ns/op") {
			continue
		}
		if !header {
			fmt.Fprintf(w, "**Against the fastest peer** (and against net/http.ServeMux, which cairn can replace):\n\n")
			fmt.Fprintf(w, "| Case | Fastest peer | Its time | cairn | cairn ÷ fastest | cairn ÷ servemux | cairn-pathvalue ÷ servemux |\n")
			fmt.Fprintf(w, "|:--|:--|--:|--:|--:|--:|--:|\n")
			header = true
		}
		for _, c := range s.Cases {
			best, bestT := "", math.Inf(1)
			for _, r := range s.Routers {
				if st, ok := s.Stat(c, r, "ns/op"); ok && isPeer(r) && st.Median < bestT {
					best, bestT = r, st.Median
				}
			}
			cairn, okC := s.Stat(c, reference, "ns/op")
			row := []string{esc(caseName(s, c)), "n/a", "n/a", "n/a", "n/a", "n/a", "n/a"}
			if best != "" {
				row[1], row[2] = best, formatValue(bestT, "ns/op")
			}
			if okC {
				row[3] = formatValue(cairn.Median, "ns/op")
				if best != "" {
					r, _ := res.pairedRatio(s, c, reference, best, "ns/op")
					row[4] = formatRatio(r)
					cases++
					// Rounded as the table writes it, so that the two
					// agree: 0.804 is within.
					if math.Round(r*100) <= math.Round(fastTarget*100) {
						within++
					} else {
						above = append(above, fmt.Sprintf("%s (%s)", esc(caseName(s, c)), row[4]))
					}
				}
				if r, ok := res.pairedRatio(s, c, reference, "servemux", "ns/op"); ok {
					row[5] = formatRatio(r)
				}
			}
			if r, ok := res.pairedRatio(s, c, "cairn-pathvalue", "servemux", "ns/op"); ok {
				row[6] = formatRatio(r)
			}
			fmt.Fprintf(w, "|")
			for _, f := range row {
				fmt.Fprintf(w, " %s |", f)
			}
			fmt.Fprintln(w)
		}
	}
	if !header {
		return
	}
	fmt.Fprintln(w)
	if cases > 0 {
		fmt.Fprintf(w, "cairn ÷ fastest peer is at most %s in %d of the %d cases", formatRatio(fastTarget), within, cases)
		if len(above) > 0 {
			fmt.Fprintf(w, "; above it: %s", strings.Join(above, ", "))
		}
		fmt.Fprintf(w, ".\n\n")
	}
}

// serveMuxFacts returns the geometric means, over every case of every
// suite where both ran, of cairn ÷ servemux and cairn-pathvalue ÷ servemux.
func serveMuxFacts(res *Results) []string {
	var facts []string
	for _, r := range []string{reference, "cairn-pathvalue"} {
		sum, n := 0.0, 0
		for _, s := range res.Suites {
			for _, c := range s.Cases {
				if q, ok := res.pairedRatio(s, c, r, "servemux", "ns/op"); ok && q > 0 && !math.IsInf(q, 0) && !math.IsNaN(q) {
					sum += math.Log(q)
					n++
				}
			}
		}
		if n > 0 {
			facts = append(facts, fmt.Sprintf("%s ÷ servemux, geometric mean over the %d cases of all suites that both ran: %s.", r, n, formatRatio(math.Exp(sum/float64(n)))))
		}
	}
	return facts
}

// constraintFacts returns cairn's ratio to gorilla on each case of the
// Constraints suite.
func constraintFacts(res *Results) []string {
	s := res.Suite(suiteConstraints)
	if s == nil {
		return nil
	}
	var facts []string
	for _, c := range s.Cases {
		a, okA := s.Stat(c, reference, "ns/op")
		b, okB := s.Stat(c, "gorilla", "ns/op")
		if okA && okB {
			r, _ := res.pairedRatio(s, c, reference, "gorilla", "ns/op")
			facts = append(facts, fmt.Sprintf("%s: cairn %s, gorilla %s: cairn ÷ gorilla = %s.", esc(caseName(s, c)),
				formatValue(a.Median, "ns/op"), formatValue(b.Median, "ns/op"), formatRatio(r)))
		}
	}
	return facts
}

// writeFlatness writes, for the size groups of the Growth and Depth
// suites, each router's median ns/op at the largest size divided by its
// median at the smallest.
func writeFlatness(w io.Writer, gs []*group) {
	var flat []*group
	for _, g := range gs {
		if g.Numeric() && (g.Suite.Name == suiteGrowth || g.Suite.Name == suiteDepth) && g.Suite.HasUnit("ns/op") {
			flat = append(flat, g)
		}
	}
	if len(flat) == 0 {
		return
	}
	var routers []string
	for _, g := range flat {
		for _, r := range g.Suite.Routers {
			if !slices.Contains(routers, r) {
				routers = append(routers, r)
			}
		}
	}
	slices.SortStableFunc(routers, func(a, b string) int { return routerRank(a) - routerRank(b) })

	fmt.Fprintf(w, "**Flatness** (ns/op at the largest size ÷ ns/op at the smallest; 1.00× is perfectly flat):\n\n| Router |")
	for _, g := range flat {
		fmt.Fprintf(w, " %s: %s → %s |", esc(g.Title()), esc(g.Labels[0]), esc(g.Labels[len(g.Labels)-1]))
	}
	fmt.Fprintf(w, "\n|:--|%s\n", strings.Repeat("--:|", len(flat)))
	for _, r := range routers {
		name := esc(routerLabel(r))
		if r == reference {
			name = "**" + name + "**"
		}
		fmt.Fprintf(w, "| %s |", name)
		for _, g := range flat {
			first, ok1 := g.Suite.Stat(g.Cases[0], r, "ns/op")
			last, ok2 := g.Suite.Stat(g.Cases[len(g.Cases)-1], r, "ns/op")
			cell := "n/a"
			if ok1 && ok2 {
				cell = fmt.Sprintf("%s (%s → %s)", formatRatio(ratio(last.Median, first.Median)),
					formatValue(first.Median, "ns/op"), formatValue(last.Median, "ns/op"))
			}
			fmt.Fprintf(w, " %s |", cell)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}

// registerFacts returns, for each group of the Register suite, cairn's
// and httprouter's time to build the router and heap bytes per route, at
// the largest size.
func registerFacts(res *Results, gs []*group) []string {
	var facts []string
	for _, g := range gs {
		if g.Suite.Name != suiteRegister {
			continue
		}
		c := g.Cases[len(g.Cases)-1]
		for _, u := range []struct{ unit, what string }{{"ns/op", "Registration"}, {"B/route", "Heap per route"}} {
			if !g.Suite.HasUnit(u.unit) {
				continue
			}
			a, okA := g.Suite.Stat(c, reference, u.unit)
			b, okB := g.Suite.Stat(c, "httprouter", u.unit)
			if okA && okB {
				r, _ := res.pairedRatio(g.Suite, c, reference, "httprouter", u.unit)
				facts = append(facts, fmt.Sprintf("%s, %s: cairn %s, httprouter %s: cairn ÷ httprouter = %s.", u.what, esc(caseName(g.Suite, c)),
					formatValue(a.Median, u.unit), formatValue(b.Median, u.unit), formatRatio(r)))
			}
		}
	}
	return facts
}
