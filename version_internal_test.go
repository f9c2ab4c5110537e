package cairn

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// TestParseQuality checks quality values against strconv.ParseFloat and
// the grammar of RFC 9110: "0" or "1", then at most three decimals, and
// nothing above 1.
func TestParseQuality(t *testing.T) {
	for _, s := range []string{
		"0", "1", "0.", "1.", "0.5", "0.05", "0.005", "0.0005", "1.0", "1.000", "1.001", "0.999",
		"", ".5", "2", "01", "0.5x", "0,5", "-0", "1.5", "0.12a", "1e0", " 1",
	} {
		got, ok := parseQuality(s)
		f, err := strconv.ParseFloat(s, 64)
		frac := ""
		if i := strings.IndexByte(s, '.'); i >= 0 {
			frac = s[i+1:]
		}
		wantOK := err == nil && (s[0] == '0' || s[0] == '1') && (len(s) == 1 || s[1] == '.') &&
			len(frac) <= 3 && !strings.ContainsAny(s, "eE+-") && f <= 1
		if ok != wantOK || ok && got != int(f*1000+0.5) {
			t.Errorf("parseQuality(%q) = %d, %v; want %v, %v", s, got, ok, f*1000, wantOK)
		}
	}
}

// TestChooseVersion checks version choice on generated Accept headers
// against a direct reading of the rules: among the media ranges that name
// a version the route has, with q > 0, the highest q wins, the first listed
// on ties; with no such range, the unversioned route if no range asked for
// a version at all (or if fallback is set), else none.
func TestChooseVersion(t *testing.T) {
	def := &route{id: &ident{pat: pattern{str: "GET /x"}}}
	var versions []*route
	for _, v := range []string{"v1", "v2", "v3"} {
		versions = append(versions, &route{id: &ident{pat: pattern{str: "GET /x"}}, more: &routeMore{version: v}})
	}
	vs := &versionSet{def: def, versions: versions}
	rng := rand.New(rand.NewPCG(3, 4))
	types := []string{"application/vnd.acme.%s+json", "APPLICATION/VND.ACME.%s", "application/vnd.acme.%s+xml", "application/vnd.acme.%s+xml",
		"application/vnd.acme.%s+json", "application/vnd.other.%s+json", "text/html", "*/*", "application/json"}
	wanted := []string{"v1", "v2", "v3", "v4", "V2", "v2.1", ""}
	qs := []string{"", ";q=1", ";q=0", ";q=0.5", "; q=0.50", ";q=0.9", ";Q=0.1", ";q=2", ";q=0.1234", ";charset=utf-8", ";level=1;q=0.3",
		// Quoted values, which may hold commas, semicolons and quoted quotes.
		`;profile="a,b";q=0.1`, `;p="x;q=0";q=0.2`, `;p="a\",b";q=0.3`, `;p="application/vnd.acme.v3+json, */*"`}
	for i := range 20000 {
		var ranges []string
		for n := rng.IntN(4); n >= 0; n-- {
			typ := types[rng.IntN(len(types))]
			if strings.Contains(typ, "%s") {
				typ = fmt.Sprintf(typ, wanted[rng.IntN(len(wanted))])
			}
			ranges = append(ranges, strings.Repeat(" ", rng.IntN(2))+typ+qs[rng.IntN(len(qs))])
		}
		accept := strings.Join(ranges, ",")
		fallback := rng.IntN(2) == 0
		v := &versioning{vendor: "acme", fallback: fallback, vary: []string{"Accept"}}
		req := &http.Request{Header: http.Header{"Accept": {accept}}}
		got := v.choose(req, vs)
		if want := chooseOracle(accept, fallback, vs); got != want {
			t.Fatalf("case %d: Accept %q, fallback %v: got %v, want %v", i, accept, fallback, got, want)
		}
	}
}

// splitUnquoted splits s at every sep outside a quoted string, in which a
// backslash quotes the byte after it.
func splitUnquoted(s string, sep byte) []string {
	var parts []string
	var b strings.Builder
	quoted, escaped := false, false
	for _, c := range []byte(s) {
		switch {
		case escaped:
			escaped = false
		case quoted && c == '\\':
			escaped = true
		case c == '"':
			quoted = !quoted
		case c == sep && !quoted:
			parts = append(parts, b.String())
			b.Reset()
			continue
		}
		b.WriteByte(c)
	}
	return append(parts, b.String())
}

// chooseOracle is the rule of TestChooseVersion, written plainly.
func chooseOracle(accept string, fallback bool, vs *versionSet) *route {
	var best *route
	bestQ, requested, other := 0.0, false, false
	for _, r := range splitUnquoted(accept, ',') {
		parts := splitUnquoted(r, ';')
		mt := strings.ToLower(strings.TrimSpace(parts[0]))
		if mt == "" {
			continue
		}
		q, valid := 1.0, true
		for _, p := range parts[1:] {
			name, value, _ := strings.Cut(strings.TrimSpace(p), "=")
			if name == "q" || name == "Q" {
				f, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
				frac := value[strings.IndexByte(value+".", '.'):]
				valid = err == nil && f >= 0 && f <= 1 && len(frac) <= 4
				q = f
			}
		}
		if !valid || q == 0 {
			continue
		}
		rest, ok := strings.CutPrefix(mt, "application/vnd.acme.")
		version, _, _ := strings.Cut(rest, "+")
		if !ok || version == "" {
			other = true
			continue
		}
		requested = true
		for _, rt := range vs.versions {
			if strings.EqualFold(rt.version(), version) && q > bestQ {
				best, bestQ = rt, q
			}
		}
	}
	if best != nil {
		return best
	}
	if !requested || other || fallback {
		return vs.def
	}
	return nil
}
