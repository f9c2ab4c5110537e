package cairn

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// dumpTable renders the lookup trees and the static index of t, in a
// canonical order, for comparing tables.
func dumpTable(t *table) string {
	var b strings.Builder
	dumpHost := func(name string, ht *hostTree) {
		fmt.Fprintf(&b, "host %q\n", name)
		dumpLookupNode(&b, ht.root, 1)
		var keys []string
		for k := range ht.static.all {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			l := ht.static.get(k)
			fmt.Fprintf(&b, "  static %q %s\n", k, describeLeaf(l))
			if ht.staticLens&lenBit(len(k)) == 0 {
				fmt.Fprintf(&b, "  static %q: length bit missing\n", k)
			}
		}
	}
	dumpHost("", t.noHost)
	var hosts []string
	for h := range t.hosts.all {
		hosts = append(hosts, h)
	}
	slices.Sort(hosts)
	for _, h := range hosts {
		ht := t.hosts.get(h)
		dumpHost(h, ht)
	}
	return b.String()
}

// dumpLookupNode writes n and its children to b at the given depth.
func dumpLookupNode(b *strings.Builder, n *lookupNode, depth int) {
	indent := strings.Repeat("  ", depth)
	if n.leaf != nil {
		fmt.Fprintf(b, "%s=> %s\n", indent, describeLeaf(n.leaf))
	}
	if n.claim() != nil {
		fmt.Fprintf(b, "%sclaim %s\n", indent, n.claim().prefix.str)
	}
	var keys []string
	var children []*lookupNode
	if n.litMap() != nil {
		for k, c := range n.litMap().all {
			keys = append(keys, k)
			children = append(children, c)
		}
		idx := make([]int, len(keys))
		for i := range idx {
			idx[i] = i
		}
		slices.SortFunc(idx, func(i, j int) int { return strings.Compare(keys[i], keys[j]) })
		sk, sc := make([]string, len(keys)), make([]*lookupNode, len(keys))
		for i, j := range idx {
			sk[i], sc[i] = keys[j], children[j]
		}
		keys, children = sk, sc
	} else {
		for _, l := range n.lits {
			keys = append(keys, l.key)
			children = append(children, l.node)
		}
		for i, k := range keys {
			if n.lits[i].word != keyWord(k) {
				fmt.Fprintf(b, "%slits[%d].word wrong\n", indent, i)
			}
			if c := n.child(k); c != children[i] {
				fmt.Fprintf(b, "%schild(%q) finds another node\n", indent, k)
			}
		}
	}
	for i, k := range keys {
		fmt.Fprintf(b, "%s%q\n", indent, k)
		dumpLookupNode(b, children[i], depth+1)
	}
	for _, c := range n.constrained() {
		fmt.Fprintf(b, "%s{:%s}\n", indent, c.con.key)
		dumpLookupNode(b, c.node, depth+1)
	}
	if n.wild != nil {
		fmt.Fprintf(b, "%s{}\n", indent)
		dumpLookupNode(b, n.wild, depth+1)
	}
	if n.multi() != nil {
		fmt.Fprintf(b, "%s{...}\n", indent)
		dumpLookupNode(b, n.multi(), depth+1)
	}
}

// describeLeaf describes the routes of l.
func describeLeaf(l *leaf) string {
	var parts []string
	for _, rt := range l.explicit() {
		parts = append(parts, rt.id.pat.method()+" "+rt.id.pat.str)
	}
	if l.any() != nil {
		parts = append(parts, "* "+l.any().id.pat.str)
	}
	if l.offTree() {
		parts = append(parts, "(off tree)")
	}
	return strings.Join(parts, "; ")
}

// randomPatterns returns n distinct patterns drawn from a small alphabet,
// with literals from a wide range so that some nodes get many children.
func randomPatterns(rng *rand.Rand, n int) []string {
	methods := []string{"", "GET ", "POST ", "PUT ", "HEAD "}
	hosts := []string{"", "", "", "a.com", "b.com"}
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		var b strings.Builder
		b.WriteString(methods[rng.IntN(len(methods))])
		b.WriteString(hosts[rng.IntN(len(hosts))])
		for i := range 1 + rng.IntN(4) {
			switch rng.IntN(6) {
			case 0, 1:
				fmt.Fprintf(&b, "/%c", 'a'+rng.IntN(3))
			case 2:
				fmt.Fprintf(&b, "/r%d", rng.IntN(200))
			case 3:
				fmt.Fprintf(&b, "/{w%d}", i)
			case 4:
				fmt.Fprintf(&b, "/{w%d:int}", i)
			case 5:
				fmt.Fprintf(&b, "/{w%d:hex}", i)
			}
		}
		switch rng.IntN(6) {
		case 0:
			b.WriteString("/")
		case 1:
			b.WriteString("/{$}")
		case 2:
			b.WriteString("/{rest...}")
		}
		if p := b.String(); !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// tryRegister registers p on r, a Router or a ServeMux, returning whether
// it was accepted.
func tryRegister(r interface{ Handle(string, http.Handler) }, p string) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	r.Handle(p, http.NotFoundHandler())
	return true
}

// TestIncrementalTables checks that a table brought up to date one
// registration at a time after the router serves (copying what changes) is
// the table built in place before it serves, and that every published
// table stays as it was when later registrations change the router.
func TestIncrementalTables(t *testing.T) {
	for seed := range uint64(60) {
		rng := rand.New(rand.NewPCG(seed, 7))
		patterns := randomPatterns(rng, 20+rng.IntN(200))
		before, after := New(), New()
		// after serves from the start, so each registration publishes a
		// new table.
		after.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
		type snapshot struct {
			t    *table
			dump string
		}
		var snaps []snapshot
		for i, p := range patterns {
			ok1, ok2 := tryRegister(before, p), tryRegister(after, p)
			if ok1 != ok2 {
				t.Fatalf("seed %d: %q accepted before serving: %v, after: %v", seed, p, ok1, ok2)
			}
			if i%17 == 0 {
				cur := after.current()
				snaps = append(snaps, snapshot{cur, dumpTable(cur)})
			}
		}
		if got, want := dumpTable(after.current()), dumpTable(before.current()); got != want {
			t.Fatalf("seed %d: table built after serving:\n%s\nwant, as built before serving:\n%s", seed, got, want)
		}
		for i, s := range snaps {
			if got := dumpTable(s.t); got != s.dump {
				t.Fatalf("seed %d: published table %d changed after later registrations:\n%s\nwas:\n%s", seed, i, got, s.dump)
			}
		}
	}
}

// fingerprint describes everything reachable from v by reflection, as far
// as a later registration could change it: pointers by address, values by
// content. It does not follow what a table shares on purpose and never
// reads as part of a lookup (the router, group nodes, mounts, the settings
// and the cache of Allow values).
func fingerprint(v any) string {
	skip := map[reflect.Type]bool{
		reflect.TypeFor[*Router]():     true,
		reflect.TypeFor[*groupNode]():  true,
		reflect.TypeFor[*mounted]():    true,
		reflect.TypeFor[*allowCache](): true,
		reflect.TypeFor[*config]():     true,
	}
	var b strings.Builder
	seen := map[uintptr]bool{}
	var walk func(x reflect.Value, path string)
	walk = func(x reflect.Value, path string) {
		if skip[x.Type()] {
			return
		}
		switch x.Kind() {
		case reflect.Pointer:
			fmt.Fprintf(&b, "%s=%#x\n", path, x.Pointer())
			if !x.IsNil() && !seen[x.Pointer()] {
				seen[x.Pointer()] = true
				walk(x.Elem(), path+"*")
			}
		case reflect.Struct:
			for i := range x.NumField() {
				walk(x.Field(i), path+"."+x.Type().Field(i).Name)
			}
		case reflect.Slice, reflect.Array:
			fmt.Fprintf(&b, "%s len=%d\n", path, x.Len())
			for i := range x.Len() {
				walk(x.Index(i), fmt.Sprintf("%s[%d]", path, i))
			}
		case reflect.Map:
			keys := x.MapKeys()
			slices.SortFunc(keys, func(a, c reflect.Value) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(c)) })
			fmt.Fprintf(&b, "%s len=%d\n", path, len(keys))
			for _, k := range keys {
				walk(x.MapIndex(k), fmt.Sprintf("%s[%v]", path, k))
			}
		case reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		default:
			fmt.Fprintf(&b, "%s=%v\n", path, x)
		}
	}
	walk(reflect.ValueOf(v), "table")
	return b.String()
}

// TestPublishedTablesUnchanged registers routes of every kind into a
// serving router and checks, after each round, that nothing reachable from
// the table published before the round changed: routes, leaves, nodes,
// maps and identities included.
func TestPublishedTablesUnchanged(t *testing.T) {
	r := New()
	h := http.NotFoundHandler()
	nop := func(next http.Handler) http.Handler { return next }
	register := func(i int) {
		r.Handle(fmt.Sprintf("GET /s/%d", i), h)
		r.Handle(fmt.Sprintf("POST /s/%d", i), h)
		r.Handle(fmt.Sprintf("GET /w/k%d/{x}", i), h)
		r.Handle(fmt.Sprintf("h%d.example.com/a/%d", i%3, i), h)
		r.Handle(fmt.Sprintf("M%d /m/{x}", i), h)
		r.Handle(fmt.Sprintf("GET /c/{n:[a-z]%d}/x", i), h)
		r.Version(fmt.Sprintf("v%d", i)).Handle("GET /v/{id}", h)
		r.Handle(fmt.Sprintf("GET /q/%d", i), h)
		r.Version("v1").Handle(fmt.Sprintf("GET /q/%d", i), h)
		r.Group(fmt.Sprintf("/g%d", i), nop).Handle("GET /x", h)
		if i == 20 {
			// Brings the static GET routes into the tree (see
			// change.moveGetIntoTree).
			r.Handle("HEAD /hw/{x}", h)
		}
		if i%7 == 0 {
			inner := New()
			inner.Handle("GET /z", h)
			r.Mount(fmt.Sprintf("/mount%d", i), inner)
		}
	}
	register(0)
	// WriteTree puts the static routes held off the tree into a copy of
	// it (see table.fullRoot), which changes nothing, before serving too.
	before := fingerprint(r.tab)
	r.WriteTree(io.Discard)
	if after := fingerprint(r.tab); after != before {
		t.Fatal("WriteTree changed the table before serving")
	}
	r.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/s/0", nil))
	for round := 1; round < 40; round++ {
		published := r.current()
		before := fingerprint(published)
		register(round)
		r.WriteTree(io.Discard)
		if after := fingerprint(published); after != before {
			bl, al := strings.Split(before, "\n"), strings.Split(after, "\n")
			for i := range min(len(bl), len(al)) {
				if bl[i] != al[i] {
					t.Fatalf("round %d: the published table changed:\n\twas %s\n\tnow %s", round, bl[i], al[i])
				}
			}
			t.Fatalf("round %d: the published table changed", round)
		}
	}
}

// TestStaticRoutesRegisteredWhileServing registers static routes one by
// one into a router that serves, so that its index of static paths keeps
// recent entries beside a base (see stringMap), and after each one serves
// every path registered so far, one never registered, and a method that
// only some paths have: each must reach its own handler or get the right
// 404 or 405 and Allow; and the index must have each route.
func TestStaticRoutesRegisteredWhileServing(t *testing.T) {
	r := New()
	var got int
	serve := func(method, path string) *httptest.ResponseRecorder {
		got = -1
		w := httptest.NewRecorder()
		r.ServeHTTP(w, httptest.NewRequest(method, path, nil))
		return w
	}
	serve("GET", "/")
	sawRecent := false
	const n = 120
	for i := range n {
		r.HandleFunc(fmt.Sprintf("GET /s/%d", i), func(http.ResponseWriter, *http.Request) { got = i })
		if i%3 == 0 {
			r.HandleFunc(fmt.Sprintf("POST /s/%d", i), func(http.ResponseWriter, *http.Request) { got = n + i })
		}
		sawRecent = sawRecent || r.current().noHost.static.recent != nil
		for j := 0; j <= i; j++ {
			path := fmt.Sprintf("/s/%d", j)
			// The index answers for every static route, without the walk
			// that would find it too.
			if rt, _ := r.current().noHost.staticRoute("GET", path); rt == nil || rt.id.pat.str != "GET "+path {
				t.Fatalf("after %d routes, the static index has no route for GET %s", i+1, path)
			}
			if w := serve("GET", path); got != j || w.Code != http.StatusOK {
				t.Fatalf("after %d routes, GET %s: handler %d, status %d; want %d, 200", i+1, path, got, w.Code, j)
			}
			w := serve("POST", path)
			switch {
			case j%3 == 0 && (got != n+j || w.Code != http.StatusOK):
				t.Fatalf("after %d routes, POST %s: handler %d, status %d; want %d, 200", i+1, path, got, w.Code, n+j)
			case j%3 != 0 && (got != -1 || w.Code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != "GET, HEAD, OPTIONS"):
				t.Fatalf("after %d routes, POST %s: handler %d, status %d, Allow %q; want none, 405, \"GET, HEAD, OPTIONS\"", i+1, path, got, w.Code, w.Header().Get("Allow"))
			}
		}
		if w := serve("GET", fmt.Sprintf("/s/%d", i+1)); got != -1 || w.Code != http.StatusNotFound {
			t.Fatalf("after %d routes, GET /s/%d: handler %d, status %d; want none, 404", i+1, i+1, got, w.Code)
		}
	}
	if !sawRecent {
		t.Fatal("the index of static paths never kept recent entries: the test no longer covers them")
	}
}

// TestStaticIndexClean checks that the index of static paths holds no
// unclean path: such a path is redirected before it could match, whether
// the pattern writes it as it is (with no method, or CONNECT, whose
// patterns may) or with escapes that unescape to one.
func TestStaticIndexClean(t *testing.T) {
	r := New()
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	for _, p := range []string{"CONNECT /a/../b", "/c/./d", "GET /e/%2E%2E/f", "GET /clean/g"} {
		r.Handle(p, h)
	}
	for _, key := range []string{"/a/../b", "/c/./d", "/e/../f"} {
		if l := r.tab.noHost.static.get(key); l != nil {
			t.Errorf("the index of static paths holds the unclean %q", key)
		}
	}
	if l := r.tab.noHost.static.get("/clean/g"); l == nil {
		t.Error("the index of static paths lacks /clean/g")
	}
}

// TestOffTree checks which static routes the lookup trees hold, besides
// the index of static paths: those that the index alone cannot answer
// for, and, once a pattern with HEAD and a wildcard is registered, GET
// routes (see change.addRoute).
func TestOffTree(t *testing.T) {
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	// inTree reports whether the tree of host holds the leaf of the
	// static path key, and fails the test if the index does not.
	inTree := func(t *testing.T, r *Router, host, key string) bool {
		t.Helper()
		ht := r.tab.hostTree(host)
		l := ht.static.get(key)
		if l == nil {
			t.Fatalf("the index of static paths lacks %q", key)
		}
		n := ht.root.find(l.all()[0].id.pat.segments())
		switch {
		case l.offTree() && n != nil && n.leaf != nil:
			t.Errorf("%q: the leaf is marked off the tree, but the tree has one", key)
		case !l.offTree() && (n == nil || n.leaf != l):
			t.Errorf("%q: the leaf is not marked off the tree, but the tree does not hold it", key)
		}
		return !l.offTree()
	}
	for _, tt := range []struct {
		name     string
		patterns []string
		host     string
		key      string
		want     bool // the tree holds key's leaf
	}{
		{"methods", []string{"GET /a/b", "POST /a/b", "HEAD /a/b"}, "", "/a/b", false},
		{"a host", []string{"PUT x.example/a"}, "x.example", "/a", false},
		{"no method", []string{"/a/b"}, "", "/a/b", true},
		{"no method after", []string{"GET /a/b", "/a/b"}, "", "/a/b", true},
		{"CONNECT", []string{"CONNECT /a/b"}, "", "/a/b", true},
		{"version", []string{"GET /a/b", "GET /a/b@v2"}, "", "/a/b", true},
		{"trailing slash", []string{"GET /a/{$}"}, "", "/a/", true},
		{"escape", []string{"GET /a/%25"}, "", "/a/%", true},
		{"HEAD wildcard before", []string{"HEAD /x/{y}", "GET /a/b"}, "", "/a/b", true},
		{"HEAD wildcard after", []string{"GET /a/b", "HEAD /x/{y}"}, "", "/a/b", true},
		{"HEAD wildcard after, in a host", []string{"GET x.example/a/b", "HEAD /x/{y}"}, "x.example", "/a/b", true},
		{"HEAD wildcard after, POST", []string{"POST /a/b", "HEAD /x/{y}"}, "", "/a/b", false},
		{"HEAD static", []string{"GET /a/b", "HEAD /x/y"}, "", "/a/b", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := New()
			for _, p := range tt.patterns {
				if at := strings.Index(p, "@"); at >= 0 {
					r.Version(p[at+1:]).Handle(p[:at], h)
				} else {
					r.Handle(p, h)
				}
			}
			if got := inTree(t, r, tt.host, tt.key); got != tt.want {
				t.Errorf("%q: the tree holds %q: %v, want %v", tt.patterns, tt.key, got, tt.want)
			}
		})
	}
}

// TestOffTreeConflicts checks that patterns still conflict with the static
// routes held off the lookup trees: a duplicate that the tree's walk
// checks, and a pattern with HEAD and a wildcard, more specific in its
// method than a GET route whose path is more specific.
func TestOffTreeConflicts(t *testing.T) {
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	for _, patterns := range [][]string{
		// With a HEAD route, a GET pattern's conflicts are looked for in
		// the tree (see soleCandidates).
		{"HEAD /c", "GET /a/b", "GET /a/b"},
		{"GET /a/b", "HEAD /a/{x}"},
		{"GET /a/b", "HEAD /{x...}"},
		{"GET x.example/a/b", "HEAD x.example/a/{x}"},
	} {
		r := New()
		for _, p := range patterns[:len(patterns)-1] {
			r.Handle(p, h)
		}
		last := patterns[len(patterns)-1]
		if tryRegister(r, last) {
			t.Errorf("%q: %q registered, want a conflict", patterns[:len(patterns)-1], last)
		}
		m := http.NewServeMux()
		for _, p := range patterns[:len(patterns)-1] {
			m.Handle(p, h)
		}
		if tryRegister(m, last) {
			t.Errorf("%q: ServeMux takes %q: the case is wrong", patterns[:len(patterns)-1], last)
		}
	}
}

// TestOffTreeEscaped checks that a request whose escaped path is matched
// segment by segment finds a static route held off the lookup tree, and
// that its 405 lists that route's methods.
func TestOffTreeEscaped(t *testing.T) {
	r := New()
	r.HandleFunc("GET /files/a.b", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "a.b") })
	r.HandleFunc("POST /files/{name}", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "name") })
	for _, tt := range []struct {
		method, raw string
		code        int
		body, allow string
	}{
		{"GET", "/files/a%2Eb", 200, "a.b", ""},
		{"GET", "/files/a%2eb", 200, "a.b", ""},
		{"GET", "/files/%61%2Eb", 200, "a.b", ""},
		{"POST", "/files/a%2Eb", 200, "name", ""},
		{"DELETE", "/files/a%2Eb", 405, "", "GET, HEAD, OPTIONS, POST"},
		{"GET", "/files/a%2Fb", 405, "", "OPTIONS, POST"},
		{"GET", "/files/" + strings.Repeat("x", 70) + "%2E", 405, "", "OPTIONS, POST"},
	} {
		req := httptest.NewRequest(tt.method, "http://x.example"+tt.raw, nil)
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req)
		if w.Code != tt.code || tt.body != "" && w.Body.String() != tt.body || w.Header().Get("Allow") != tt.allow {
			t.Errorf("%s %s: %d %q, Allow %q; want %d %q, Allow %q", tt.method, tt.raw, w.Code, w.Body.String(), w.Header().Get("Allow"), tt.code, tt.body, tt.allow)
		}
	}
}
