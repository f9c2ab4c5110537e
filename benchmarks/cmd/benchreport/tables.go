// This file writes the tables of a group of cases in Markdown: one row per
// router, one column per case. The time table gives each median with its
// confidence interval and its ratio to cairn's median; the memory table
// gives B/op and allocs/op; every other unit (B/route, req/s, p99-ns, ...)
// gets a table like the time table.

package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// standardUnits are the units that go test -benchmem reports.
var standardUnits = []string{"ns/op", "B/op", "allocs/op"}

// writeGroupTables writes the tables of group g and the reasons of its n/a
// cells.
func writeGroupTables(w io.Writer, g *group) {
	s := g.Suite
	if s.HasUnit("ns/op") {
		fmt.Fprintf(w, "**Time per op** (median ±95%% CI, ratio to cairn):\n\n")
		writeTable(w, g, func(c, r string) string { return valueCell(s, c, r, "ns/op") })
	}
	if s.HasUnit("B/op") || s.HasUnit("allocs/op") {
		fmt.Fprintf(w, "**Memory per op** (B/op · allocs/op, medians):\n\n")
		writeTable(w, g, func(c, r string) string { return memoryCell(s, c, r) })
	}
	for _, unit := range s.Units {
		if slices.Contains(standardUnits, unit) {
			continue
		}
		better := "lower is better"
		if higherIsBetter(unit) {
			better = "higher is better"
		}
		fmt.Fprintf(w, "**%s** (%s; median ±95%% CI, ratio to cairn):\n\n", esc(unit), better)
		writeTable(w, g, func(c, r string) string { return valueCell(s, c, r, unit) })
	}
	writeSkips(w, g)
}

// writeTable writes a table of the group with a row per router of the
// suite and a column per case, filled by cell.
func writeTable(w io.Writer, g *group, cell func(c, r string) string) {
	fmt.Fprintf(w, "| Router |")
	for _, l := range g.Labels {
		fmt.Fprintf(w, " %s |", esc(l))
	}
	fmt.Fprintf(w, "\n|:--|%s\n", strings.Repeat("--:|", len(g.Labels)))
	for _, r := range g.Suite.Routers {
		name := esc(routerLabel(r))
		if r == reference {
			name = "**" + name + "**"
		}
		fmt.Fprintf(w, "| %s |", name)
		for _, c := range g.Cases {
			fmt.Fprintf(w, " %s |", cell(c, r))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}

// routerLabel returns the name of router r in a table.
func routerLabel(r string) string {
	if r == "" {
		return "(none)"
	}
	return r
}

// valueCell formats the median of unit for router r on case c, its
// confidence interval, and its ratio to cairn's median; servemux's cell
// also gives the ratio to cairn-pathvalue, marked "pv".
func valueCell(s *Suite, c, r, unit string) string {
	st, ok := s.Stat(c, r, unit)
	if !ok {
		return "n/a"
	}
	cell := formatValue(st.Median, unit) + " " + formatSpread(st.Spread())
	if r == reference {
		return cell
	}
	var ratios []string
	if ref, ok := s.Stat(c, reference, unit); ok {
		ratios = append(ratios, formatRatio(ratio(st.Median, ref.Median)))
	}
	if pv, ok := s.Stat(c, "cairn-pathvalue", unit); ok && r == "servemux" {
		ratios = append(ratios, "pv "+formatRatio(ratio(st.Median, pv.Median)))
	}
	if len(ratios) > 0 {
		cell += " (" + strings.Join(ratios, ", ") + ")"
	}
	return cell
}

// memoryCell formats the medians of B/op and allocs/op for router r on
// case c: "64 B · 2".
func memoryCell(s *Suite, c, r string) string {
	var parts []string
	for _, unit := range []string{"B/op", "allocs/op"} {
		if st, ok := s.Stat(c, r, unit); ok {
			parts = append(parts, formatValue(st.Median, unit))
		}
	}
	if len(parts) == 0 {
		return "n/a"
	}
	return strings.Join(parts, " · ")
}

// writeSkips lists, for every router with n/a cells in the group, the
// cases and why, as go test reported it.
func writeSkips(w io.Writer, g *group) {
	s := g.Suite
	type note struct {
		router, reason string
		labels         []string
	}
	var notes []*note
	for _, r := range s.Routers {
		for i, c := range g.Cases {
			if _, ok := s.Cell(c, r); ok {
				continue
			}
			reason, ok := s.Skipped(c, r)
			if !ok {
				reason = "not measured"
			}
			j := slices.IndexFunc(notes, func(n *note) bool { return n.router == r && n.reason == reason })
			if j < 0 {
				notes = append(notes, &note{router: r, reason: reason})
				j = len(notes) - 1
			}
			notes[j].labels = append(notes[j].labels, g.Labels[i])
		}
	}
	if len(notes) == 0 {
		return
	}
	fmt.Fprintf(w, "n/a:\n\n")
	for _, n := range notes {
		where := ""
		if len(n.labels) < len(g.Cases) {
			where = " (" + esc(strings.Join(n.labels, ", ")) + ")"
		}
		reason := strings.TrimPrefix(n.reason, "benchmarks: ")
		fmt.Fprintf(w, "- %s%s: %s\n", esc(routerLabel(n.router)), where, esc(shorten(reason, 160)))
	}
	fmt.Fprintln(w)
}

// shorten cuts s to at most n runes, ending it with "…" if it cut.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// esc escapes the characters of s that would end a Markdown table cell or
// start emphasis.
func esc(s string) string {
	return strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;").Replace(s)
}
