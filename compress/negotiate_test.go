package compress

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

var (
	zstdFirst = []coding{zstdCoding, gzipCoding}
	gzipFirst = []coding{gzipCoding, zstdCoding}
	gzipOnly  = []coding{gzipCoding}
)

func TestNegotiate(t *testing.T) {
	for _, tt := range []struct {
		header  []string // values of Accept-Encoding; nil for none
		offered []coding
		want    coding
	}{
		{nil, zstdFirst, identity},
		{[]string{""}, zstdFirst, identity},
		{[]string{"gzip"}, zstdFirst, gzipCoding},
		{[]string{"zstd"}, zstdFirst, zstdCoding},
		{[]string{"gzip, zstd"}, zstdFirst, zstdCoding},
		{[]string{"gzip, zstd"}, gzipFirst, gzipCoding},
		{[]string{"gzip, deflate, br, zstd"}, zstdFirst, zstdCoding}, // Chrome
		{[]string{"GZIP"}, zstdFirst, gzipCoding},
		{[]string{"ZStd"}, zstdFirst, zstdCoding},
		{[]string{"x-gzip"}, zstdFirst, gzipCoding},
		{[]string{"X-GZIP;q=0.5, zstd;q=0.4"}, zstdFirst, gzipCoding},
		{[]string{"gzip;q=0.5, zstd;q=0.4"}, zstdFirst, gzipCoding},
		{[]string{"gzip;q=1.0, zstd;q=1"}, zstdFirst, zstdCoding},
		{[]string{"gzip;q=0.9, zstd;q=0.8"}, zstdFirst, gzipCoding},
		{[]string{"gzip;q=0"}, zstdFirst, identity},
		{[]string{"gzip;q=0, zstd;q=0"}, zstdFirst, identity},
		{[]string{"gzip;q=0.000, x-gzip;q=0.001"}, zstdFirst, gzipCoding}, // highest of a coding's elements
		{[]string{"gzip;q=0.001"}, zstdFirst, gzipCoding},
		{[]string{"br"}, zstdFirst, identity},
		{[]string{"deflate, gzip;q=0.1"}, zstdFirst, gzipCoding},
		{[]string{"*"}, zstdFirst, zstdCoding},
		{[]string{"*"}, gzipFirst, gzipCoding},
		{[]string{"*;q=0"}, zstdFirst, identity},
		{[]string{"*;q=0.5, gzip;q=0"}, zstdFirst, zstdCoding},
		{[]string{"*, zstd;q=0"}, zstdFirst, gzipCoding},
		{[]string{"gzip;q=0.5, *"}, gzipOnly, identity}, // identity through "*" at 1
		{[]string{"gzip;q=0.5, *;q=0.4"}, gzipOnly, gzipCoding},
		{[]string{"identity"}, zstdFirst, identity},
		{[]string{"identity;q=0"}, zstdFirst, identity}, // nothing acceptable: still identity, no 406
		{[]string{"identity;q=0, *;q=0"}, zstdFirst, identity},
		{[]string{"identity;q=0, gzip"}, zstdFirst, gzipCoding},
		{[]string{"gzip;q=0.5, identity"}, zstdFirst, identity},
		{[]string{"gzip;q=0.5, identity;q=0.5"}, zstdFirst, gzipCoding}, // ties go to compression
		{[]string{"gzip, identity;q=0.5"}, zstdFirst, gzipCoding},
		{[]string{"gzip;q=0.5"}, zstdFirst, gzipCoding}, // identity not mentioned: it does not compete
		{[]string{"zstd"}, gzipOnly, identity},
		{[]string{"zstd, gzip;q=0.1"}, gzipOnly, gzipCoding},
		{[]string{"gzip;q=0.1", "zstd;q=0.2"}, zstdFirst, zstdCoding}, // several header lines
		{[]string{"gzip", "zstd;q=0"}, zstdFirst, gzipCoding},
		{[]string{" gzip ; q=0.8 , zstd ;\tQ=0.9 "}, gzipFirst, zstdCoding},
		{[]string{",,gzip,,"}, zstdFirst, gzipCoding},
		{[]string{"gzip;level=9;q=0.5, zstd;q=0.4"}, zstdFirst, gzipCoding}, // other parameters ignored
		{[]string{"gzip;q=2"}, zstdFirst, identity},                         // malformed: ignored
		{[]string{"gzip;q=.5"}, zstdFirst, identity},
		{[]string{"gzip;q="}, zstdFirst, identity},
		{[]string{"gzip;q=0.5000"}, zstdFirst, identity},
		{[]string{"gzip;q=1.001"}, zstdFirst, identity},
		{[]string{"gzip;q=abc, zstd;q=0.1"}, zstdFirst, zstdCoding},
		{[]string{"gzip;q=0."}, zstdFirst, identity}, // "0." is 0
		{[]string{"gzip;q=1."}, zstdFirst, gzipCoding},
		{[]string{"gzipx, zstdy"}, zstdFirst, identity},
	} {
		if got := negotiate(tt.header, tt.offered); got != tt.want {
			t.Errorf("%q offering %v: got %v, want %v", tt.header, tt.offered, got, tt.want)
		}
	}
}

func TestParseQ(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"0", 0, true},
		{"1", 1000, true},
		{"0.5", 500, true},
		{"0.25", 250, true},
		{"0.125", 125, true},
		{"1.000", 1000, true},
		{"0.", 0, true},
		{"", 0, false},
		{"2", 0, false},
		{"1.5", 0, false},
		{"0.1234", 0, false},
		{"0,5", 0, false},
		{"-0", 0, false},
		{"0.a", 0, false},
	} {
		got, ok := parseQ(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%q: got %d, %v, want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// negotiateOracle is negotiate written plainly, with strings.Split and
// strconv, to check the parser that allocates nothing against.
func negotiateOracle(values []string, offered []coding) coding {
	if values == nil {
		return identity
	}
	weights := map[string]int{}
	for _, elem := range strings.Split(strings.Join(values, ","), ",") {
		parts := strings.Split(elem, ";")
		name := strings.ToLower(strings.Trim(parts[0], " \t"))
		if name == "" {
			continue
		}
		if name == "x-gzip" {
			name = "gzip"
		}
		q, valid := 1000, true
		for _, p := range parts[1:] {
			k, v, _ := strings.Cut(p, "=")
			if strings.ToLower(strings.Trim(k, " \t")) != "q" {
				continue
			}
			v = strings.Trim(v, " \t")
			f, err := strconv.ParseFloat(v, 64)
			// The grammar: 0 or 1, then "." and up to three digits.
			ok := err == nil && len(v) <= 5 && (v[0] == '0' || v[0] == '1') &&
				(len(v) == 1 || v[1] == '.') && !strings.ContainsAny(v, "eE+-_xXpPiInN") && f <= 1
			if !ok {
				valid = false
				break
			}
			q = int(f*1000 + 0.5)
		}
		if !valid {
			continue
		}
		if old, seen := weights[name]; !seen || q > old {
			weights[name] = q
		}
	}
	weight := func(name string) (int, bool) {
		if q, ok := weights[name]; ok {
			return q, true
		}
		q, ok := weights["*"]
		return q, ok
	}
	best, bestQ := identity, 0
	for _, c := range offered {
		if q, ok := weight(c.String()); ok && q > bestQ {
			best, bestQ = c, q
		}
	}
	if best == identity {
		return identity
	}
	if q, ok := weight("identity"); ok && q > bestQ {
		return identity
	}
	return best
}

func FuzzNegotiate(f *testing.F) {
	for _, s := range []string{
		"gzip", "gzip, zstd", "zstd;q=0.5, gzip;q=0.6", "*;q=0, identity", "x-gzip;Q=1.0",
		"gzip;q=0.5, identity", " , ;q=1, gzip;q=1.", "br;q=1, *;q=0.001", "gzip;q=0.1;q=0.9",
	} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, header string, gzipPreferred bool) {
		offered := zstdFirst
		if gzipPreferred {
			offered = gzipFirst
		}
		got := negotiate([]string{header}, offered)
		if want := negotiateOracle([]string{header}, offered); got != want {
			t.Errorf("%q offering %v: got %v, the oracle says %v", header, offered, got, want)
		}
	})
}

// TestNegotiateOracle compares negotiate with the oracle on generated
// headers, so that plain go test checks what the fuzz target does.
func TestNegotiateOracle(t *testing.T) {
	names := []string{"gzip", "GZip", "x-gzip", "zstd", "identity", "*", "br", ""}
	qs := []string{"", ";q=0", ";q=1", ";q=0.5", ";q=0.50", ";Q=0.9", ";q=1.0", ";q=2", ";q=", " ; q=0.001 "}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		var elems []string
		for range 1 + rng.IntN(4) {
			elems = append(elems, names[rng.IntN(len(names))]+qs[rng.IntN(len(qs))])
		}
		header := []string{strings.Join(elems, ", ")}
		for _, offered := range [][]coding{zstdFirst, gzipFirst, gzipOnly} {
			if got, want := negotiate(header, offered), negotiateOracle(header, offered); got != want {
				t.Errorf("%q offering %v: got %v, the oracle says %v", header, offered, got, want)
			}
		}
	}
}

func TestNegotiateAllocs(t *testing.T) {
	header := []string{"gzip;q=0.8, deflate, br;q=0.9, zstd;q=0.95, identity;q=0.1, *;q=0"}
	allocs := testing.AllocsPerRun(100, func() {
		if negotiate(header, zstdFirst) != zstdCoding {
			t.Fatal("negotiate: want zstd")
		}
	})
	if allocs != 0 {
		t.Errorf("negotiate: %v allocations, want 0", allocs)
	}
}
