package cairn

import (
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
)

// TestLeafVerbOracle checks that a leaf finds the route for a method by
// its verb exactly as it does by comparing method names, for random sets
// of methods, standard and not, with and without a method-less route.
func TestLeafVerbOracle(t *testing.T) {
	methods := []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT", "TRACE", "PURGE", "get", "GETX"}
	rng := rand.New(rand.NewPCG(5, 6))
	h := http.NotFoundHandler()
	for range 2000 {
		var routes []*route
		for i, m := range methods {
			if rng.IntN(3) == 0 {
				routes = append(routes, newRoute(mustPattern(t, m+" /x"), h, i))
			}
		}
		if rng.IntN(2) == 0 {
			routes = append(routes, newRoute(mustPattern(t, "/x"), h, len(methods)))
		}
		l := compileLeaf(routes, &methodIndex{})
		for _, m := range methods {
			byName := routeByName(l, m)
			byVerb := l.route(&query{method: m, verb: verbOf(m)})
			if byName != byVerb {
				t.Fatalf("leaf of %d routes, %s: by verb %v, by name %v", len(routes), m, byVerb, byName)
			}
		}
	}
}

// routeByName is leaf.route for an unversioned leaf, comparing method
// names: the simple version of finding the route by verb.
func routeByName(l *leaf, method string) *route {
	for _, rt := range l.routes {
		if rt.pat.method == method {
			return rt
		}
	}
	if method == http.MethodHead && l.get != nil {
		return l.get
	}
	return l.any
}

// mustPattern parses the pattern s.
func mustPattern(t *testing.T, s string) *pattern {
	t.Helper()
	p, err := parsePattern(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestWalkOracle checks that routing with walk before lookup finds what
// lookup alone finds, for random pattern sets and random paths: the same
// route, and the same verdict on unclean paths.
func TestWalkOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	segs := []string{"a", "b", "ab", "1", "a%2Fb", ".a", "a%00", "abcdefgh", "abcdefghij", "{x}", "{y}", "{n:int}", "{h:alpha}", "{r...}", "{$}", ""}
	pathSegs := []string{"a", "b", "ab", "1", "22", "z", "", ".", "..", ".a", "a.", "abc", "a\x00", "a\x00\x00", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghij", "abcdefghik", "%61", "%2F", "a%2Fb", "%2e", "%zz", "%25"}
	methods := []string{"GET ", "POST ", "HEAD ", ""}
	h := http.NotFoundHandler()
	for range 3000 {
		r := New()
		for range 1 + rng.IntN(12) {
			var b []byte
			for k := range 1 + rng.IntN(4) {
				s := segs[rng.IntN(len(segs))]
				b = append(b, '/')
				b = append(b, s...)
				if s == "{r...}" || s == "{$}" || s == "" && k > 0 {
					break
				}
			}
			pat := methods[rng.IntN(len(methods))] + string(b)
			func() {
				defer func() { recover() }() // conflicts and invalid patterns
				r.Handle(pat, h)
			}()
		}
		tbl := r.current()
		for range 30 {
			var b []byte
			for range rng.IntN(5) {
				b = append(b, '/')
				b = append(b, pathSegs[rng.IntN(len(pathSegs))]...)
			}
			if len(b) == 0 || rng.IntN(5) == 0 {
				b = append(b, '/')
			}
			p := string(b)
			m := []string{"GET", "POST", "HEAD", "PUT"}[rng.IntN(4)]
			q1 := query{method: m, verb: verbOf(m), checkClean: true, escaped: strings.Contains(p, "%")}
			q2 := q1
			got := tbl.noHost.match(p, false, &q1)
			want := tbl.noHost.root.lookup(p, false, &q2)
			if got != want || q1.unclean != q2.unclean {
				var routes []string
				for _, rt := range tbl.routes {
					routes = append(routes, rt.pat.str)
				}
				t.Fatalf("routes %q, %s %s: got %v (unclean %v), want %v (unclean %v)",
					routes, m, p, got, q1.unclean, want, q2.unclean)
			}
		}
	}
}
