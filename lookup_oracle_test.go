package cairn

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestLeafVerbOracle checks that a leaf finds the route for a method by
// its verb exactly as it does by comparing method names, and as a search
// of the routes it was compiled from does, for random sets of methods,
// standard and not, with and without a method-less route, and that it
// keeps them all.
func TestLeafVerbOracle(t *testing.T) {
	methods := []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT", "TRACE", "PURGE", "get", "GETX"}
	rng := rand.New(rand.NewPCG(5, 6))
	h := http.NotFoundHandler()
	for range 2000 {
		var routes []*route
		for i, m := range methods {
			if rng.IntN(3) == 0 {
				routes = append(routes, testRoute(mustIdent(t, m+" /x"), h, i))
			}
		}
		if rng.IntN(2) == 0 {
			routes = append(routes, testRoute(mustIdent(t, "/x"), h, len(methods)))
		}
		l := compileLeaf(nil, routes, &methodIndex{})
		for _, m := range methods {
			byName := routeByName(l, m)
			byVerb := l.route(&query{method: m, verb: verbOf(m)})
			if byName != byVerb {
				t.Fatalf("leaf of %d routes, %s: by verb %v, by name %v", len(routes), m, byVerb, byName)
			}
			if want := searchRoutes(routes, m); byName != want {
				t.Fatalf("leaf of %d routes, %s: %v, want %v", len(routes), m, byName, want)
			}
		}
		if all := l.all(); !slices.Equal(all, routes) {
			t.Fatalf("leaf of %d routes keeps %d", len(routes), len(all))
		}
	}
}

// routeByName is leaf.route for an unversioned leaf, comparing method
// names: the simple version of finding the route by verb.
func routeByName(l *leaf, method string) *route {
	for _, rt := range l.explicit() {
		if rt.id.pat.method() == method {
			return rt
		}
	}
	if method == http.MethodHead {
		for _, rt := range l.explicit() {
			if rt.id.pat.method() == http.MethodGet {
				return rt
			}
		}
	}
	return l.any()
}

// TestLeafKeepsRoutes checks that a leaf keeps every route it is compiled
// from, in every shape a leaf takes: one route of a method, one
// method-less route, one of each, several methods, and versions.
func TestLeafKeepsRoutes(t *testing.T) {
	h := http.NotFoundHandler()
	mk := func(i int, s, version string) *route {
		rt := testRoute(mustIdent(t, s), h, i)
		if version != "" {
			rt.more = &routeMore{version: version}
		}
		return rt
	}
	for _, routes := range [][]*route{
		{mk(0, "GET /x", "")},
		{mk(0, "/x", "")},
		{mk(0, "/x", ""), mk(1, "PUT /x", "")},
		{mk(0, "POST /x", ""), mk(1, "GET /x", ""), mk(2, "PURGE /x", "")},
		{mk(0, "GET /x", "v1"), mk(1, "GET /x", "v2")},
		{mk(0, "GET /x", ""), mk(1, "GET /x", "v2"), mk(2, "/x", "v1"), mk(3, "POST /x", "")},
		{mk(0, "/x", "v1"), mk(1, "/x", "v2")},
	} {
		l := compileLeaf(nil, routes, &methodIndex{})
		if got := l.all(); !slices.Equal(got, routes) {
			t.Errorf("leaf of %s keeps %s", describeRoutes(routes), describeRoutes(got))
		}
	}
}

// describeRoutes describes routes by method and version.
func describeRoutes(routes []*route) string {
	var parts []string
	for _, rt := range routes {
		parts = append(parts, fmt.Sprintf("%q@%s", rt.id.pat.method(), rt.version()))
	}
	return strings.Join(parts, ", ")
}

// searchRoutes returns the route of routes, of distinct methods, for
// method: the one of that method, else the GET route for HEAD, else the
// method-less route.
func searchRoutes(routes []*route, method string) *route {
	find := func(m string) *route {
		for _, rt := range routes {
			if rt.id.pat.method() == m {
				return rt
			}
		}
		return nil
	}
	if rt := find(method); rt != nil {
		return rt
	}
	if method == http.MethodHead {
		if rt := find(http.MethodGet); rt != nil {
			return rt
		}
	}
	return find("")
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

// mustIdent returns an identity holding the pattern s, parsed.
func mustIdent(t *testing.T, s string) *ident {
	t.Helper()
	return &ident{pat: *mustPattern(t, s), kind: identServe}
}

// TestWalkOracle checks that routing with walk before lookup finds what
// lookup alone finds, for random pattern sets and random paths: the same
// route, and the same verdict on unclean paths.
func TestWalkOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	segs := []string{"a", "b", "ab", "1", "a%2Fb", ".a", "a%00", "abcd", "abcdefg", "abcdefgh", "abcdefghij", "abcdefghijklmnopqr", "{x}", "{y}", "{n:int}", "{h:alpha}", "{c:[a-c]+}", "{r...}", "{$}", ""}
	pathSegs := []string{"a", "b", "ab", "1", "22", "z", "", ".", "..", ".a", "a.", "abc", "abcd", "abce", "a\x00", "a\x00\x00", "abcdef", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghij", "abcdefghik", "abcdefghijklmnopqr", "abcdefghijklmnopqs", "abcdefghXjklmnopqr", "abcdefghijklmnopq", "%61", "%2F", "a%2Fb", "%2e", "%zz", "%25"}
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
		full := tbl.fullRoot(tbl.noHost)
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
			checkWalk(t, tbl, full, []string{"GET", "POST", "HEAD", "PUT"}[rng.IntN(4)], p)
		}
	}
}

// TestWalkOracleWide is TestWalkOracle for trees with wide nodes: more
// literal children than walk scans by first byte (a litIndex), or than
// fit its scan at all (a litMap), beside wildcards, with values of one to
// twenty bytes, so that walk's first loop takes and leaves steps at every
// kind of node.
func TestWalkOracleWide(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var lits []string
	for i := range 40 {
		// Keys that share first bytes and lengths, of 1 to 12 bytes.
		lits = append(lits, strings.Repeat(string(rune('a'+i%5)), 1+i%12)+strconv.Itoa(i/5))
	}
	wild := []string{"{x}", "{y}", "{n:int}", "{r...}", "{$}"}
	h := http.NotFoundHandler()
	for range 400 {
		r := New()
		nlits := 2 + rng.IntN(len(lits)-2)
		for range 10 + rng.IntN(60) {
			var b []byte
			for k := range 1 + rng.IntN(4) {
				s := lits[rng.IntN(nlits)]
				if rng.IntN(4) == 0 {
					s = wild[rng.IntN(len(wild))]
				}
				b = append(b, '/')
				b = append(b, s...)
				if s == "{r...}" || s == "{$}" || k > 0 && rng.IntN(6) == 0 {
					break
				}
			}
			pat := []string{"GET ", "POST ", ""}[rng.IntN(3)] + string(b)
			func() {
				defer func() { recover() }() // conflicts
				r.Handle(pat, h)
			}()
		}
		tbl := r.current()
		full := tbl.fullRoot(tbl.noHost)
		for range 60 {
			var b []byte
			for range 1 + rng.IntN(5) {
				b = append(b, '/')
				switch rng.IntN(4) {
				case 0:
					b = append(b, strings.Repeat("v", rng.IntN(21))...)
				case 1:
					b = append(b, ".."[:rng.IntN(3)]...)
				default:
					b = append(b, lits[rng.IntN(len(lits))]...)
				}
			}
			if rng.IntN(5) == 0 {
				b = append(b, '/')
			}
			p := string(b)
			checkWalk(t, tbl, full, []string{"GET", "POST", "HEAD"}[rng.IntN(3)], p)
		}
	}
}

// checkWalk checks that routing a request for method and path p with
// tbl, the index of static paths and walk first, finds what lookup alone
// finds in full, the tree of tbl's patterns without a host that holds
// every route (see table.fullRoot): the same route, and, when it is not
// nil nor a multi, the same verdict on an unclean path. (Otherwise the
// verdict is only a hint, which the router does not read: the trees differ
// in the nodes of static routes, which a lookup may or may not pass
// through before it meets an unclean segment, and decideSlow checks the
// whole path.) It checks too that the methods allowed for p are
// those of the routes of full that match it.
func checkWalk(t *testing.T, tbl *table, full *lookupNode, method, p string) {
	t.Helper()
	escaped := strings.Contains(p, "%")
	q1 := query{method: method, verb: verbOf(method), checkClean: true, escaped: escaped}
	q2 := q1
	got := tbl.noHost.match(p, false, &q1)
	want := full.lookup(p, false, &q2)
	var routes []string
	for _, rt := range tbl.routes {
		routes = append(routes, rt.id.pat.str)
	}
	if got != want || want != nil && !want.multi && q1.unclean != q2.unclean {
		t.Fatalf("routes %q, %s %s: got %v (unclean %v), want %v (unclean %v)",
			routes, method, p, got, q1.unclean, want, q2.unclean)
	}
	gotAllow := allowSet{methods: tbl.methods}
	tbl.noHost.allowed(p, escaped, &gotAllow, nil)
	wantAllow := allowSet{methods: tbl.methods}
	full.allowed(p, false, escaped, &wantAllow, nil)
	if !strings.HasSuffix(p, "/") {
		full.allowed(p, true, escaped, &wantAllow, nil)
	}
	if gotAllow.set != wantAllow.set || gotAllow.any != wantAllow.any {
		t.Fatalf("routes %q, %s: methods allowed %b (any %v), want %b (any %v)",
			routes, p, gotAllow.set, gotAllow.any, wantAllow.set, wantAllow.any)
	}
}

// lookupTryAll is lookup without the minSeq shortcut, for clean paths: at
// a node, every constrained child whose constraint matches the segment is
// tried, and the route with the smallest seq wins. It is the simple
// version of lookup's loop over constrained children.
func (n *lookupNode) lookupTryAll(p string, q *query) *route {
	if p == "" {
		if n.leaf == nil {
			return nil
		}
		return n.leaf.route(q)
	}
	seg, rest := nextSegment(p)
	if c := n.child(seg); c != nil {
		if rt := c.lookupTryAll(rest, q); rt != nil {
			return rt
		}
	}
	if seg != "/" {
		var first *route
		for _, c := range n.constrained() {
			if c.con.match(seg) {
				if rt := c.node.lookupTryAll(rest, q); rt != nil && (first == nil || rt.seq < first.seq) {
					first = rt
				}
			}
		}
		if first != nil {
			return first
		}
		if n.wild != nil {
			if rt := n.wild.lookupTryAll(rest, q); rt != nil {
				return rt
			}
		}
	}
	if ml := n.multiLeaf(); ml != nil {
		return ml.route(q)
	}
	return nil
}

// TestOrderedOracle checks lookup against lookupTryAll on random sets of
// patterns that differ in the constraints of their wildcards, and so are
// tried in registration order: lookup skips the constrained children whose
// routes all come after the one it found, and must find the same route.
func TestOrderedOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	segs := []string{"a", "1", "{w}", "{n:int}", "{h:hex}", "{l:alpha}", "{a:alnum}", "{s:[a-c1-3]+}", "{r...}"}
	pathSegs := []string{"a", "b", "1", "12", "ab", "c3", "f00", "zz", "a1b2"}
	methods := []string{"GET ", "POST ", ""}
	h := http.NotFoundHandler()
	checked := 0
	for range 3000 {
		r := New()
		for range 1 + rng.IntN(16) {
			var b []byte
			for range 1 + rng.IntN(3) {
				s := segs[rng.IntN(len(segs))]
				b = append(b, '/')
				b = append(b, s...)
				if s == "{r...}" {
					break
				}
			}
			pat := methods[rng.IntN(len(methods))] + string(b)
			func() {
				defer func() { recover() }() // conflicts
				r.Handle(pat, h)
			}()
		}
		tbl := r.current()
		for range 30 {
			var b []byte
			for range 1 + rng.IntN(3) {
				b = append(b, '/')
				b = append(b, pathSegs[rng.IntN(len(pathSegs))]...)
			}
			p := string(b)
			m := []string{"GET", "POST"}[rng.IntN(2)]
			q1 := query{method: m, verb: verbOf(m)}
			q2 := q1
			got := tbl.noHost.root.lookup(p, false, &q1)
			want := tbl.noHost.root.lookupTryAll(p, &q2)
			if got != want {
				var routes []string
				for _, rt := range tbl.routes {
					routes = append(routes, rt.id.pat.str)
				}
				t.Fatalf("routes %q, %s %s: got %v, want %v", routes, m, p, got, want)
			}
			if got != nil && strings.Contains(got.id.pat.str, ":") {
				checked++
			}
		}
	}
	if checked < 1000 {
		t.Errorf("only %d requests matched a constrained route: the test does not exercise ordered patterns", checked)
	}
}

// TestLeafManyMethods checks a leaf with more routes than byVerb indexes:
// 300 methods that sort before GET, so that GET's route is found by name,
// for GET and HEAD, and the Allow header of a 405 lists every method, with
// HEAD and OPTIONS.
func TestLeafManyMethods(t *testing.T) {
	r := New()
	r.PopulatePathValues(false)
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	for i := range 300 {
		r.Handle(fmt.Sprintf("A%03d /x", i), h)
	}
	r.Handle("GET /x", h)
	for _, m := range []string{"GET", "HEAD", "A000", "A299"} {
		req := httptest.NewRequest(m, "/x", nil)
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req)
		want := m + " /x"
		if m == "HEAD" {
			want = "GET /x"
		}
		if w.Code != http.StatusOK || req.Pattern != want {
			t.Errorf("%s /x: %d, pattern %q; want 200, %q", m, w.Code, req.Pattern, want)
		}
	}
	w := httptest.NewRecorder()
	r.ServeHTTP(w, httptest.NewRequest("POST", "/x", nil))
	allow := strings.Split(w.Header().Get("Allow"), ", ")
	if w.Code != http.StatusMethodNotAllowed || len(allow) != 303 || !slices.Contains(allow, "OPTIONS") ||
		!slices.Contains(allow, "GET") || !slices.Contains(allow, "HEAD") || !slices.Contains(allow, "A000") || !slices.Contains(allow, "A299") {
		t.Errorf("POST /x: %d, Allow has %d methods (%.60q...), want 405 and 303", w.Code, len(allow), w.Header().Get("Allow"))
	}
}

// testRoute returns a new route for h, of index idx, with the identity id.
func testRoute(id *ident, h http.Handler, idx int) *route {
	rt := new(route)
	initRoute(rt, id, h, idx)
	return rt
}
