// This file formats measurements for people: 35.2 ns, 13.9 µs, 1.5 KiB,
// 12.3k, ±2%, 1.14×. Every number keeps three significant digits.

package main

import (
	"fmt"
	"math"
	"strings"
)

// formatValue formats v, measured in unit, with a scaled unit where the
// unit is a duration ("ns/op", "p99-ns") or a size ("B/op", "B/route"),
// and with a k, M or G suffix otherwise.
func formatValue(v float64, unit string) string {
	switch {
	case isDuration(unit):
		return scale(v, []string{"ns", "µs", "ms", "s"}, 1000)
	case isSize(unit):
		return scale(v, []string{"B", "KiB", "MiB", "GiB"}, 1024)
	case unit == "allocs/op" && v == math.Trunc(v) && v < 1e5:
		return fmt.Sprintf("%.0f", v)
	default:
		s := scale(v, []string{"", "k", "M", "G"}, 1000)
		return strings.Replace(s, " ", "", 1)
	}
}

// isDuration reports whether unit counts nanoseconds.
func isDuration(unit string) bool {
	base, _, _ := strings.Cut(unit, "/")
	return base == "ns" || strings.HasSuffix(base, "-ns") || strings.HasPrefix(base, "ns-")
}

// isSize reports whether unit counts bytes.
func isSize(unit string) bool {
	return unit == "B" || strings.HasPrefix(unit, "B/")
}

// higherIsBetter reports whether a larger value of unit is an improvement,
// as for a rate such as "req/s".
func higherIsBetter(unit string) bool {
	return strings.HasSuffix(unit, "/s")
}

// scale formats v with three significant digits in the largest of the
// units (each step times larger than the previous) that keeps it at or
// above 1.
func scale(v float64, units []string, step float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Sprint(v)
	}
	i := 0
	for i < len(units)-1 && math.Abs(v) >= step {
		v /= step
		i++
	}
	s := sig3(v)
	if i == 0 && v == math.Trunc(v) && math.Abs(v) < 1000 && units[0] == "B" {
		s = fmt.Sprintf("%.0f", v) // whole bytes
	}
	if s == sig3(step) && i < len(units)-1 { // 999.7 rounds up to the next unit
		s, i = sig3(v/step), i+1
	}
	return s + " " + units[i]
}

// sig3 formats v with three significant digits, without an exponent for
// numbers up to 999 999 and without trailing zeros after an integer.
func sig3(v float64) string {
	a := math.Abs(v)
	switch {
	case v == 0:
		return "0"
	case a >= 99.95:
		return fmt.Sprintf("%.0f", v)
	case a >= 9.995:
		return fmt.Sprintf("%.1f", v)
	case a >= 0.9995:
		return fmt.Sprintf("%.2f", v)
	default:
		return fmt.Sprintf("%.3g", v)
	}
}

// formatSpread formats the relative half-width of a confidence interval
// as benchstat does: "±2%", or "±∞" if there were too few runs.
func formatSpread(s float64) string {
	switch {
	case math.IsInf(s, 0):
		return "±∞"
	case math.IsNaN(s):
		return "±?"
	}
	return fmt.Sprintf("±%.0f%%", 100*s)
}

// formatRatio formats a ratio of two medians: "1.14×", "23.5×", "0.52×".
func formatRatio(r float64) string {
	switch {
	case math.IsNaN(r) || math.IsInf(r, 0):
		return "–"
	case r >= 99.5:
		return fmt.Sprintf("%.0f×", r)
	case r >= 9.95:
		return fmt.Sprintf("%.1f×", r)
	}
	return fmt.Sprintf("%.2f×", r)
}

// ratio returns a/b, or NaN if b is 0.
func ratio(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / b
}
