// This file groups the cases of a suite for tables and charts: the cases
// that differ only in their last segment share a table, and if that
// segment is a size such as "routes=1000" they are drawn as a line.
//
// Given the cases "static/routes=10", "static/routes=1000" and
// "param/routes=10" of BenchmarkGrowth, there are two groups, "static" with
// the labels "routes=10" and "routes=1000", and "param"; both have the key
// "routes". The cases "static" and "param5" of BenchmarkSingle form one
// group, without prefix and without key.

package main

import (
	"slices"
	"strconv"
	"strings"
)

// A group is a set of cases of a suite that differ in their last segment.
type group struct {
	Suite  *Suite
	Prefix string   // the segments the cases share, "" if none
	Cases  []string // full case names
	Labels []string // the last segment of each case; the suite name for the case ""
	Key    string   // if every label is key=number with the same key, the key
	X      []float64
}

// Title returns the suite and prefix of the group: "Growth/static".
func (g *group) Title() string {
	if g.Prefix == "" {
		return g.Suite.Name
	}
	return g.Suite.Name + "/" + g.Prefix
}

// Numeric reports whether the group's cases are sizes to draw as a line.
func (g *group) Numeric() bool { return g.Key != "" && len(g.Cases) > 1 }

// groups returns the groups of the suite's cases, in order of appearance.
// The cases of a numeric group are sorted by size.
func groups(s *Suite) []*group {
	var gs []*group
	byPrefix := map[string]*group{}
	for _, c := range s.Cases {
		prefix, label := "", c
		if i := strings.LastIndexByte(c, '/'); i >= 0 {
			prefix, label = c[:i], c[i+1:]
		}
		if label == "" {
			label = s.Name
		}
		g := byPrefix[prefix]
		if g == nil {
			g = &group{Suite: s, Prefix: prefix}
			byPrefix[prefix] = g
			gs = append(gs, g)
		}
		g.Cases = append(g.Cases, c)
		g.Labels = append(g.Labels, label)
	}
	for _, g := range gs {
		g.findKey()
	}
	return gs
}

// findKey sets the group's key and sizes if every label is key=number with
// the same key, and sorts the cases by size.
func (g *group) findKey() {
	var key string
	xs := make([]float64, len(g.Labels))
	for i, l := range g.Labels {
		k, v, ok := strings.Cut(l, "=")
		x, err := strconv.ParseFloat(v, 64)
		if !ok || err != nil || x <= 0 || (i > 0 && k != key) {
			return
		}
		key, xs[i] = k, x
	}
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case xs[a] < xs[b]:
			return -1
		case xs[a] > xs[b]:
			return 1
		}
		return 0
	})
	cases, labels := slices.Clone(g.Cases), slices.Clone(g.Labels)
	g.X = make([]float64, len(xs))
	for i, j := range idx {
		g.Cases[i], g.Labels[i], g.X[i] = cases[j], labels[j], xs[j]
	}
	g.Key = key
}
