package main

import (
	"math"
	"testing"
)

func TestFormatValue(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		unit string
		want string
	}{
		{35.2, "ns/op", "35.2 ns"},
		{3.456, "ns/op", "3.46 ns"},
		{0.5, "ns/op", "0.5 ns"},
		{13900, "ns/op", "13.9 µs"},
		{999.7, "ns/op", "1.00 µs"},
		{2.5e9, "ns/op", "2.50 s"},
		{18000, "p50-ns", "18.0 µs"},
		{0, "B/op", "0 B"},
		{64, "B/op", "64 B"},
		{312.5, "B/route", "312 B"},
		{1536, "B/op", "1.50 KiB"},
		{3 << 20, "B/op", "3.00 MiB"},
		{2, "allocs/op", "2"},
		{2.5, "allocs/op", "2.50"},
		{50000, "req/s", "50.0k"},
		{123, "req/s", "123"},
		{math.NaN(), "ns/op", "NaN"},
	} {
		if got := formatValue(tt.v, tt.unit); got != tt.want {
			t.Errorf("%v %s: got %q, want %q", tt.v, tt.unit, got, tt.want)
		}
	}
}

func TestFormatRatio(t *testing.T) {
	for _, tt := range []struct {
		r    float64
		want string
	}{
		{1, "1.00×"},
		{0.523, "0.52×"},
		{23.46, "23.5×"},
		{150, "150×"},
		{math.NaN(), "–"},
	} {
		if got := formatRatio(tt.r); got != tt.want {
			t.Errorf("%v: got %q, want %q", tt.r, got, tt.want)
		}
	}
}

func TestTrimZeros(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"40.0 ns", "40 ns"},
		{"1.50k", "1.5k"},
		{"100 µs", "100 µs"},
		{"0", "0"},
		{"2.05 ms", "2.05 ms"},
	} {
		if got := trimZeros(tt.in); got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestShellJoin(t *testing.T) {
	got := shellJoin([]string{"go", "test", "-run", "^$", "-bench", "Single/param1/", "-x", "it's", ""})
	want := `go test -run '^$' -bench Single/param1/ -x 'it'\''s' ''`
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
