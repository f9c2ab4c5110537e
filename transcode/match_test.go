package transcode

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// newTestMatcher returns a matcher of rules, each "METHOD /template",
// numbered in order, and the rules' templates.
func newTestMatcher(tb testing.TB, rules ...string) (*pathMatcher, []*pathTemplate) {
	tb.Helper()
	m := &pathMatcher{}
	ts := make([]*pathTemplate, len(rules))
	for i, r := range rules {
		method, path, _ := strings.Cut(r, " ")
		t, err := parseTemplate(path)
		if err != nil {
			tb.Fatal(err)
		}
		if err := m.add(method, t, i, fmt.Sprintf("rule %d", i)); err != nil {
			tb.Fatal(err)
		}
		ts[i] = t
	}
	return m, ts
}

// matchString describes the outcome of a match: the status, or the rule
// that matched and its values, field="raw", with m after a multi value.
func matchString(rules []string, ts []*pathTemplate, route int, st matchStatus, b *bindings) string {
	if st != matched {
		return st.String()
	}
	s := rules[route]
	for i := 0; i < b.len(); i++ {
		bd := b.at(i)
		s += fmt.Sprintf(" %s=%q", ts[route].variables()[bd.variable], bd.raw)
		if bd.multi {
			s += "m"
		}
	}
	return s
}

// matchCase is a request and the expected matchString of its outcome.
type matchCase struct {
	method, path, want string
}

// matchTables are rule sets and requests, after the behaviour of
// grpc-httpjson-transcoding's path matcher.
var matchTables = []struct {
	name  string
	rules []string
	cases []matchCase
}{
	{
		name:  "specificity",
		rules: []string{"GET /a/b/d", "GET /a/*/c", "GET /a/b/{x}", "GET /a/{x=**}"},
		cases: []matchCase{
			{"GET", "/a/b/d", "GET /a/b/d"},
			{"GET", "/a/b/c", `GET /a/b/{x} x="c"`}, // literal b beats * at the second segment
			{"GET", "/a/x/c", "GET /a/*/c"},
			{"GET", "/a/b/e", `GET /a/b/{x} x="e"`},
			{"GET", "/a/x/e", `GET /a/{x=**} x="x/e"m`},
			{"GET", "/a/b", `GET /a/{x=**} x="b"m`},
			{"GET", "/a", `GET /a/{x=**} x=""m`},
			{"GET", "/a/", `GET /a/{x=**} x=""m`},
			{"GET", "/a/b/c/d", `GET /a/{x=**} x="b/c/d"m`},
			{"GET", "/b", "notFound"},
			{"GET", "/", "notFound"},
		},
	},
	{
		name:  "backtracking",
		rules: []string{"GET /a/b/d", "GET /a/*/c", "GET /a/b/c/e", "GET /a/*/c/f"},
		cases: []matchCase{
			{"GET", "/a/b/c", "GET /a/*/c"}, // /a/b has no route for c: back to *
			{"GET", "/a/b/d", "GET /a/b/d"},
			{"GET", "/a/b/c/e", "GET /a/b/c/e"},
			{"GET", "/a/b/c/f", "GET /a/*/c/f"},
			{"GET", "/a/b/c/g", "notFound"},
		},
	},
	{
		name:  "wildcards",
		rules: []string{"GET /x/**", "GET /y/*", "GET /z/*/w/**", "GET /z/*/w/v", "GET /z/q/w/v", "GET /"},
		cases: []matchCase{
			{"GET", "/x/1", "GET /x/**"},
			{"GET", "/x/1/2", "GET /x/**"},
			{"GET", "/x", "GET /x/**"},
			{"GET", "/y/1", "GET /y/*"},
			{"GET", "/y/1/2", "notFound"},
			{"GET", "/y", "notFound"},
			{"GET", "/z/1/w/2", "GET /z/*/w/**"},
			{"GET", "/z/1/w/2/3", "GET /z/*/w/**"},
			{"GET", "/z/1/2/w/3", "notFound"},
			{"GET", "/z//1/w/2", "notFound"}, // an empty segment is a segment
			{"GET", "/z//w/2", "GET /z/*/w/**"},
			{"GET", "/z/1/w/v", "GET /z/*/w/v"},
			{"GET", "/z/q/w/v", "GET /z/q/w/v"},
			{"GET", "/", "GET /"},
			{"GET", "", "GET /"},
			{"GET", "//", "GET /"},
			{"GET", "x/1", "notFound"},
			{"GET", "*", "notFound"},
		},
	},
	{
		name:  "root wildcard",
		rules: []string{"GET /**"},
		cases: []matchCase{
			{"GET", "/", "GET /**"},
			{"GET", "/a", "GET /**"},
			{"GET", "/a/", "GET /**"},
			{"GET", "/a//b", "GET /**"},
		},
	},
	{
		name:  "literals after **",
		rules: []string{"GET /a/{x=**}/b", "GET /a/{x=**}/b/c", "GET /a/{x=**}", "GET /r/**/s"},
		cases: []matchCase{
			{"GET", "/a/p/b", `GET /a/{x=**}/b x="p"m`},
			{"GET", "/a/p/q/b", `GET /a/{x=**}/b x="p/q"m`},
			{"GET", "/a/p/b/c", `GET /a/{x=**}/b/c x="p"m`},
			{"GET", "/a/p/b/c/d", `GET /a/{x=**} x="p/b/c/d"m`},
			{"GET", "/a/b/c", `GET /a/{x=**} x="b/c"m`}, // ** takes a segment before b
			{"GET", "/a/b", `GET /a/{x=**} x="b"m`},
			{"GET", "/a", `GET /a/{x=**} x=""m`},
			{"GET", "/r/s", "notFound"},
			{"GET", "/r/t/s", "GET /r/**/s"},
			{"GET", "/r/s/s", "GET /r/**/s"},
			{"GET", "/r/t/s/", "GET /r/**/s"},
			{"GET", "/r/t/s/u", "notFound"},
		},
	},
	{
		name: "variables",
		rules: []string{
			"GET /v1/shelves/{shelf}/books/{book}",
			"GET /{x=a/*}/b/{y}/c",
			"GET /p/{x=q/*}/{y=r/**}",
			"GET /{x}/d/e/f/{y=**}",
			"GET /{x=**}/g/h",
			"GET /m/{x=n/*/o/p/**}/end",
			"GET /m/{x=n/*/**/o/p}/end",
			"GET /k/{path=**}/{kind=meta}",
			"GET /j/{a.b.c=*}/{d_e=**}",
		},
		cases: []matchCase{
			{"GET", "/v1/shelves/s1/books/b1", `GET /v1/shelves/{shelf}/books/{book} shelf="s1" book="b1"`},
			{"GET", "/v1/shelves//books/b1", `GET /v1/shelves/{shelf}/books/{book} shelf="" book="b1"`},
			{"GET", "/a/hello/b/world/c", `GET /{x=a/*}/b/{y}/c x="a/hello"m y="world"`},
			{"GET", "/p/q/zoo/r/animal/tiger", `GET /p/{x=q/*}/{y=r/**} x="q/zoo"m y="r/animal/tiger"m`},
			{"GET", "/p/q/zoo/r", `GET /p/{x=q/*}/{y=r/**} x="q/zoo"m y="r"m`},
			{"GET", "/foo/d/e/f/bar/baz", `GET /{x}/d/e/f/{y=**} x="foo" y="bar/baz"m`},
			{"GET", "/foo/bar/g/h", `GET /{x=**}/g/h x="foo/bar"m`},
			{"GET", "/m/n/1/o/p/2/3/end", `GET /m/{x=n/*/o/p/**}/end x="n/1/o/p/2/3"m`},
			{"GET", "/m/n/1/2/3/o/p/end", `GET /m/{x=n/*/**/o/p}/end x="n/1/2/3/o/p"m`},
			{"GET", "/k/a/b/meta", `GET /k/{path=**}/{kind=meta} path="a/b"m kind="meta"`},
			{"GET", "/j/1/2/3", `GET /j/{a.b.c=*}/{d_e=**} a.b.c="1" d_e="2/3"m`},
			{"GET", "/j/1", `GET /j/{a.b.c=*}/{d_e=**} a.b.c="1" d_e=""m`},
		},
	},
	{
		name:  "verbs",
		rules: []string{"GET /person", "GET /person/{id}", "GET /{x=**}:verb"},
		cases: []matchCase{
			{"GET", "/person:verb", `GET /{x=**}:verb x="person"m`},
			{"GET", "/person/jason:verb", `GET /{x=**}:verb x="person/jason"m`},
			{"GET", "/animal/cat:verb", `GET /{x=**}:verb x="animal/cat"m`},
			{"GET", "/person", "GET /person"},
			{"GET", "/person/jason", `GET /person/{id} id="jason"`},
			{"GET", "/animal", "notFound"},
			{"GET", "/person:other", "notFound"}, // other is no verb: the segment is person:other
			{"GET", "/person/jason:other", `GET /person/{id} id="jason:other"`},
			{"GET", "/person/jason%3Averb", `GET /person/{id} id="jason%3Averb"`},
			{"GET", "/person/jason:verb/", `GET /person/{id} id="jason:verb"`}, // the colon is not in the last segment
			{"GET", "/person/jason/:verb", `GET /{x=**}:verb x="person/jason"m`},
			{"GET", "/:verb", `GET /{x=**}:verb x=""m`},
			{"GET", "/person:", "notFound"},
		},
	},
	{
		name: "verbs without fallback",
		rules: []string{
			"GET /some/const:verb", "GET /some/*:verb", "GET /some/*/foo:verb",
			"GET /other/**:verb", "GET /other/**/const:verb", "GET /books/{name}",
		},
		cases: []matchCase{
			{"GET", "/some/const:verb", "GET /some/const:verb"},
			{"GET", "/some/other:verb", "GET /some/*:verb"},
			{"GET", "/some/other:verb/", "notFound"},
			{"GET", "/some/bar/foo:verb", "GET /some/*/foo:verb"},
			{"GET", "/some/a/b/foo:verb", "notFound"},
			{"GET", "/some/foo/bar:verb", "notFound"},
			{"GET", "/other/bar/foo:verb", "GET /other/**:verb"},
			{"GET", "/other/bar/foo/const:verb", "GET /other/**/const:verb"},
			{"GET", "/some/const", "notFound"},
			// verb is registered, so it is split off, and no rule for
			// /books/* has it: the reference does not try again with
			// the colon kept in the segment.
			{"GET", "/books/a:verb", "notFound"},
			{"GET", "/books/a:b", `GET /books/{name} name="a:b"`},
			{"GET", "/books/a%3Averb", `GET /books/{name} name="a%3Averb"`},
		},
	},
	{
		name:  "no verbs registered",
		rules: []string{"GET /foo/{a}", "GET /foo/*/hello", "GET /{a}/{b}:verb"},
		cases: []matchCase{
			{"GET", "/foo/other:hop", `GET /foo/{a} a="other:hop"`},
			{"GET", "/foo/other:verb/hello", "GET /foo/*/hello"},
			{"GET", "/some:verb/const:verb", `GET /{a}/{b}:verb a="some:verb" b="const"`},
		},
	},
	{
		name:  "verb and no verb",
		rules: []string{"GET /{a=**}:verb", "GET /{a=**}"},
		cases: []matchCase{
			{"GET", "/some:verb/const:verb", `GET /{a=**}:verb a="some:verb/const"m`},
			{"GET", "/some:verb/const", `GET /{a=**} a="some:verb/const"m`},
			{"GET", "/some:verb2/const:verb2", `GET /{a=**} a="some:verb2/const:verb2"m`},
		},
	},
	{
		name:  "escapes",
		rules: []string{"GET /a/{x}/c", "GET /lit/a%20b", "GET /lit/a+b", "GET /m/{x=**}", "GET /lit/%2F"},
		cases: []matchCase{
			{"GET", "/a/p%20q%2Fr+/c", `GET /a/{x}/c x="p%20q%2Fr+"`}, // %2F does not split
			{"GET", "/a/p%2Fq%2Fr/c", `GET /a/{x}/c x="p%2Fq%2Fr"`},
			{"GET", "/a/%/c", `GET /a/{x}/c x="%"`}, // decoding, later, fails
			{"GET", "/lit/a%20b", "GET /lit/a%20b"},
			{"GET", "/lit/a+b", "GET /lit/a+b"},
			{"GET", "/lit/a%2Bb", "notFound"},
			{"GET", "/lit/%2F", "GET /lit/%2F"},
			{"GET", "/lit/%2f", "notFound"}, // literals compare as written
			{"GET", "/m/a%2Fb/c", `GET /m/{x=**} x="a%2Fb/c"m`},
		},
	},
	{
		name: "methods",
		rules: []string{
			"GET /v1/books/{id}", "DELETE /v1/books/{id}", "POST /v1/books",
			"* /v1/any/{x}", "GET /v1/any/special",
			"GET /v1/both/{x}", "* /v1/both/{y}",
			"* /v1/{name=books/*}:publish", "POST /v1/books/{id}:archive",
		},
		cases: []matchCase{
			{"GET", "/v1/books/1", `GET /v1/books/{id} id="1"`},
			{"DELETE", "/v1/books/1", `DELETE /v1/books/{id} id="1"`},
			{"PUT", "/v1/books/1", "methodNotAllowed"},
			{"POST", "/v1/books", "POST /v1/books"},
			{"GET", "/v1/books", "methodNotAllowed"},
			{"GET", "/v1/any/x", `* /v1/any/{x} x="x"`},
			{"PURGE", "/v1/any/x", `* /v1/any/{x} x="x"`},
			{"GET", "/v1/any/special", "GET /v1/any/special"},
			{"POST", "/v1/any/special", `* /v1/any/{x} x="special"`}, // the literal has no POST: back to *
			{"GET", "/v1/both/1", `GET /v1/both/{x} x="1"`},
			{"POST", "/v1/both/1", `* /v1/both/{y} y="1"`},
			{"POST", "/v1/books/1:publish", `* /v1/{name=books/*}:publish name="books/1"m`},
			{"GET", "/v1/any/x:publish", "notFound"}, // a verb is split off: * /v1/any/{x} has none
			{"POST", "/v1/books/1:archive", `POST /v1/books/{id}:archive id="1"`},
			{"GET", "/v1/books/1:archive", "methodNotAllowed"},
			{"GET", "/v1/nothing", "notFound"},
		},
	},
}

func TestMatch(t *testing.T) {
	for _, tab := range matchTables {
		t.Run(tab.name, func(t *testing.T) {
			m, ts := newTestMatcher(t, tab.rules...)
			for _, c := range tab.cases {
				var b bindings
				route, st := m.match(c.method, c.path, &b)
				if got := matchString(tab.rules, ts, route, st, &b); got != c.want {
					t.Errorf("%q: got %v, want %v", c.method+" "+c.path, got, c.want)
				}
				if st != matched && route != -1 {
					t.Errorf("%q: route %d with %v", c.method+" "+c.path, route, st)
				}
			}
		})
	}
}

// TestMatchOrder checks that the order in which rules are added does not
// change what matches.
func TestMatchOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tab := range matchTables {
		for range 5 {
			perm := r.Perm(len(tab.rules))
			rules := make([]string, len(perm))
			for i, j := range perm {
				rules[i] = tab.rules[j]
			}
			m, ts := newTestMatcher(t, rules...)
			for _, c := range tab.cases {
				var b bindings
				route, st := m.match(c.method, c.path, &b)
				if got := matchString(rules, ts, route, st, &b); got != c.want {
					t.Errorf("%s %q: rules %q: got %v, want %v", tab.name, c.method+" "+c.path, rules, got, c.want)
				}
			}
		}
	}
}

func TestAllow(t *testing.T) {
	rules := []string{
		"GET /v1/books/{id}", "DELETE /v1/books/{id}", "POST /v1/books", "PATCH /v1/{name=books/*}",
		"* /v1/any/{x}", "POST /v1/books/{id}:archive", "GET /v1/shelves/**",
	}
	m, _ := newTestMatcher(t, rules...)
	for _, tt := range []struct{ path, want string }{
		{"/v1/books/1", "DELETE, GET, PATCH"},
		{"/v1/books", "POST"},
		{"/v1/books/1:archive", "POST"},
		{"/v1/shelves", "GET"},
		{"/v1/nothing", ""},
		{"nothing", ""},
		// A route for any method matches every method; allow names those
		// of the routes.
		{"/v1/any/x", "DELETE, GET, PATCH, POST"},
	} {
		if got := m.allow(tt.path); got != tt.want {
			t.Errorf("%q: got %v, want %v", tt.path, got, tt.want)
		}
	}
	// Every method allow names matches; every other is not allowed.
	for _, path := range []string{"/v1/books/1", "/v1/books", "/v1/books/1:archive", "/v1/shelves/a/b"} {
		allowed := strings.Split(m.allow(path), ", ")
		for _, method := range []string{"GET", "POST", "PUT", "DELETE", "PATCH"} {
			_, st := m.match(method, path, nil)
			if want := map[bool]matchStatus{true: matched, false: methodNotAllowed}[slices.Contains(allowed, method)]; st != want {
				t.Errorf("%q: %s: got %v, want %v", path, method, st, want)
			}
		}
	}
}

func TestAddDuplicate(t *testing.T) {
	for _, tt := range []struct {
		first, second string // "METHOD /template"
		want          string // the error of adding second after first, "" for none
	}{
		{"GET /v1/{shelf=shelves/*}", "GET /v1/shelves/{name}",
			`transcode: GET /v1/shelves/{name} for second duplicates GET /v1/{shelf=shelves/*} for first (both match /v1/shelves/x)`},
		{"GET /a/{x}:v", "GET /a/*:v", `transcode: GET /a/*:v for second duplicates GET /a/{x}:v for first (both match /a/x:v)`},
		{"GET /a/**", "GET /a/{x=**}", `transcode: GET /a/{x=**} for second duplicates GET /a/** for first (both match /a/x)`},
		{"* /a", "* /a", `transcode: * /a for second duplicates * /a for first (both match /a)`},
		{"GET /", "GET /", `transcode: GET / for second duplicates GET / for first (both match /)`},
		{"GET /a/{x}:v", "GET /a/{x}:w", ""},
		{"GET /a/{x}", "GET /a/{x}:w", ""},
		{"GET /a/{x}", "POST /a/{x}", ""},
		{"GET /a/{x}", "* /a/{x}", ""},
		{"GET /a/{x=**}", "GET /a/{x}", ""},
		{"GET /a/{x=**}", "GET /a/{x=**}/b", ""},
		{"GET /a/b", "GET /a/{x=b}", "transcode: GET /a/{x=b} for second duplicates GET /a/b for first (both match /a/b)"},
	} {
		for _, order := range [][2]string{{tt.first, tt.second}, {tt.second, tt.first}} {
			m := &pathMatcher{}
			var err error
			for i, r := range order {
				method, path, _ := strings.Cut(r, " ")
				p, perr := parseTemplate(path)
				if perr != nil {
					t.Fatal(perr)
				}
				err = m.add(method, p, i, []string{"first", "second"}[i])
			}
			want := tt.want
			if order[0] != tt.first { // the message names the later rule first
				want = strings.NewReplacer(tt.first, tt.second, tt.second, tt.first).Replace(want)
			}
			if got := fmt.Sprint(err); (err != nil || want != "") && got != want {
				t.Errorf("%q then %q: got %v, want %v", order[0], order[1], got, want)
			}
			if err != nil { // the rejected rule is not added
				if route, st := m.match(strings.Fields(order[0])[0], examplePath(mustParse(t, strings.Fields(order[0])[1])), nil); st != matched || route != 0 {
					t.Errorf("%q then %q: first rule: got %d %v, want 0 matched", order[0], order[1], route, st)
				}
			}
		}
	}
}

// mustParse parses the template s.
func mustParse(tb testing.TB, s string) *pathTemplate {
	tb.Helper()
	t, err := parseTemplate(s)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

func TestAddNoMethod(t *testing.T) {
	m := &pathMatcher{}
	err := m.add("", mustParse(t, "/a"), 0, "pkg.S.M")
	if want := "transcode: /a for pkg.S.M: no HTTP method"; fmt.Sprint(err) != want {
		t.Errorf("%q: got %v, want %v", "/a", err, want)
	}
}

// trieDump prints the trie below n, a node a line, indented by depth,
// with the routes that end at each node.
func trieDump(n *trieNode) string {
	var sb strings.Builder
	var dump func(n *trieNode, label string, depth int)
	dump = func(n *trieNode, label string, depth int) {
		sb.WriteString(strings.Repeat("  ", depth) + label)
		for _, l := range n.leaves {
			fmt.Fprintf(&sb, " [%s %s #%d]", l.method, l.tmpl, l.route)
		}
		sb.WriteByte('\n')
		lits := make([]string, 0, len(n.lits))
		for k := range n.lits {
			lits = append(lits, k)
		}
		slices.Sort(lits)
		for _, k := range lits {
			dump(n.lits[k], k, depth+1)
		}
		if n.star != nil {
			dump(n.star, "*", depth+1)
		}
		if n.dstar != nil {
			dump(n.dstar, "**", depth+1)
		}
	}
	dump(n, "/", 0)
	return sb.String()
}

func TestTrieShape(t *testing.T) {
	m, _ := newTestMatcher(t,
		"GET /v1/shelves", "POST /v1/shelves", "GET /v1/{name=shelves/*}", "DELETE /v1/shelves/{shelf}",
		"GET /v1/{name=shelves/*/books/*}", "POST /v1/{name=shelves/*/books/*}:move",
		"GET /v1/{path=**}/meta", "* /", "GET /v1/**",
	)
	want := `/ [* / #7]
  v1
    shelves [GET /v1/shelves #0] [POST /v1/shelves #1]
      * [GET /v1/{name=shelves/*} #2] [DELETE /v1/shelves/{shelf} #3]
        books
          * [GET /v1/{name=shelves/*/books/*} #4] [POST /v1/{name=shelves/*/books/*}:move #5]
    ** [GET /v1/** #8]
      meta [GET /v1/{path=**}/meta #6]
`
	if got := trieDump(&m.root); got != want {
		t.Errorf("trie:\n%s\nwant:\n%s", got, want)
	}
}

func TestManyBindings(t *testing.T) {
	rule := "GET /{a}/{b}/{c}/{d}/{e}/{f}/{g}/{h}/{i}/{j=**}"
	m, _ := newTestMatcher(t, rule)
	var b bindings
	path := "/1/2/3/4/5/6/7/8/9/10/11"
	if _, st := m.match("GET", path, &b); st != matched {
		t.Fatalf("%q: got %v, want %v", path, st, matched)
	}
	var got []string
	for i := 0; i < b.len(); i++ {
		got = append(got, b.at(i).raw)
	}
	if want := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10/11"}; !slices.Equal(got, want) {
		t.Errorf("%q: got %q, want %q", path, got, want)
	}
	// A second match empties b first.
	m.match("GET", "/1/2/3/4/5/6/7/8/9", &b)
	if got := b.len(); got != 10 || b.at(9).raw != "" {
		t.Errorf("%q: got %d values, last %q, want 10, last %q", "/1/2/3/4/5/6/7/8/9", got, b.at(9).raw, "")
	}
}

// TestLongPaths checks that paths of many segments neither overflow the
// stack nor take long.
func TestLongPaths(t *testing.T) {
	rules := append(slices.Clone(benchRules), "GET /a/**/x", "GET /{x=**}/a/a/a/b", "GET /a/*/a/*/a/c")
	m, _ := newTestMatcher(t, rules...)
	slashes := strings.Repeat("/", 65536)
	as := strings.Repeat("/a", 32768)
	for _, tt := range []struct {
		path string
		want matchStatus
	}{
		{slashes, notFound}, // the root, which no rule has
		{as, notFound},
		{as + "/x", matched},
		{as + "/b", matched},
		{"/a" + slashes + "x", matched},
		{"/a" + slashes + "y", notFound},
		{strings.Repeat("/a%2F", 20000), notFound},
		{"/v1/shelves/" + strings.Repeat("x", 1<<16), matched},
	} {
		if _, st := m.match("GET", tt.path, nil); st != tt.want {
			t.Errorf("%q...: got %v, want %v", tt.path[:10], st, tt.want)
		}
	}
	// A rule for the root, or "/**", takes the slashes.
	m, _ = newTestMatcher(t, "GET /", "GET /a/{rest=**}")
	var b bindings
	if route, st := m.match("GET", slashes, &b); st != matched || route != 0 {
		t.Errorf("%q...: got %d %v, want 0 matched", slashes[:10], route, st)
	}
	if _, st := m.match("GET", as, &b); st != matched || b.at(0).raw != as[3:] {
		t.Errorf("%q...: got %v with %d bytes, want matched with %d", as[:10], st, len(b.at(0).raw), len(as)-3)
	}
}

func TestMatchAllocs(t *testing.T) {
	m, _ := newTestMatcher(t, benchRules...)
	for _, tt := range []struct{ method, path string }{
		{"GET", "/v1/shelves"},
		{"GET", "/v1/shelves/s1"},
		{"GET", "/v1/shelves/s1/books/b1"},
		{"POST", "/v1/shelves/s1/books/b1:move"},
		{"GET", "/v1/shelves/s1/books/b1/files/a/b/c/content"},
		{"GET", "/v1/shelves/s%2F1/books/b%20%3A1"},
		{"GET", "/v1/nothing"},
		{"PUT", "/v1/shelves"},
		{"GET", strings.Repeat("/x", 10000)},
	} {
		var b bindings
		if n := testing.AllocsPerRun(100, func() { m.match(tt.method, tt.path, &b) }); n != 0 {
			t.Errorf("%q: got %v allocations, want 0", tt.method+" "+tt.path, n)
		}
	}
}

// oracleRoute is a route as the oracle keeps it.
type oracleRoute struct {
	method string
	t      *pathTemplate
	route  int
}

// oracleSplit cuts path into its verb and segments as the file comment of
// match.go says, the plain way.
func oracleSplit(path string, verbs []string) (parts []string, verb string, ok bool) {
	if path != "" && path[0] != '/' {
		return nil, "", false
	}
	last := path[strings.LastIndex(path, "/")+1:]
	if i := strings.LastIndex(last, ":"); i >= 0 && slices.Contains(verbs, last[i+1:]) {
		verb = last[i+1:]
		path = path[:len(path)-len(last)+i]
	}
	for strings.HasSuffix(path, "/") {
		path = strings.TrimSuffix(path, "/")
	}
	if path == "" {
		return nil, verb, true
	}
	return strings.Split(path[1:], "/"), verb, true
}

// oracleFit reports whether t matches parts, and where each of its
// segments starts in parts (len(t.segs)+1 values, the last len(parts)).
func oracleFit(t *pathTemplate, parts []string) ([]int, bool) {
	at := make([]int, len(t.segs)+1)
	d := slices.IndexFunc(t.segs, func(s tmplSegment) bool { return s.kind == segDoubleStar })
	if d < 0 {
		if len(parts) != len(t.segs) {
			return nil, false
		}
		for i := range at {
			at[i] = i
		}
	} else {
		tail := len(t.segs) - d - 1
		// "**" takes at least one segment, or none at the end of the path.
		if len(parts) < d || tail > 0 && len(parts)-tail < d+1 {
			return nil, false
		}
		for i := range at {
			switch {
			case i <= d:
				at[i] = i
			default:
				at[i] = len(parts) - tail + (i - d - 1)
			}
		}
	}
	for i, s := range t.segs {
		if s.kind == segLiteral && parts[at[i]] != s.lit {
			return nil, false
		}
	}
	return at, true
}

// oracleBefore reports whether template a comes before b in the walk,
// both matching the same path: at the first segment where they differ a
// literal comes before "*", "*" before "**", and a template that ends
// before one with "**" there; after the same "**", the longer template.
func oracleBefore(a, b *pathTemplate) bool {
	rank := func(t *pathTemplate, i int) int {
		if i >= len(t.segs) {
			return -1
		}
		return int(t.segs[i].kind)
	}
	for i := 0; ; i++ {
		ra, rb := rank(a, i), rank(b, i)
		if ra != rb {
			return ra < rb
		}
		if ra == -1 {
			return false
		}
		if ra == int(segDoubleStar) {
			return len(a.segs) > len(b.segs)
		}
	}
}

// oracleMatch is what match answers, found by trying every route.
func oracleMatch(routes []oracleRoute, method, path string) (route int, st matchStatus, values []string) {
	var verbs []string
	for _, r := range routes {
		if r.t.verb() != "" {
			verbs = append(verbs, r.t.verb())
		}
	}
	parts, verb, ok := oracleSplit(path, verbs)
	if !ok {
		return -1, notFound, nil
	}
	var best *oracleRoute
	var bestAt []int
	other := false
	for i := range routes {
		r := &routes[i]
		at, fits := oracleFit(r.t, parts)
		if !fits || r.t.verb() != verb {
			continue
		}
		if r.method != method && r.method != "*" {
			other = true
			continue
		}
		if best == nil || oracleBefore(r.t, best.t) ||
			!oracleBefore(best.t, r.t) && r.method == method && best.method == "*" {
			best, bestAt = r, at
		}
	}
	if best == nil {
		if other {
			return -1, methodNotAllowed, nil
		}
		return -1, notFound, nil
	}
	for _, v := range best.t.vars {
		s := strings.Join(parts[bestAt[v.start]:bestAt[v.end]], "/")
		if v.multi {
			s += " (multi)"
		}
		values = append(values, s)
	}
	return best.route, matched, values
}

// checkOracle compares match and allow with the oracle for one request.
func checkOracle(tb testing.TB, m *pathMatcher, routes []oracleRoute, method, path string) {
	tb.Helper()
	var b bindings
	route, st := m.match(method, path, &b)
	var values []string
	for i := 0; i < b.len(); i++ {
		s := b.at(i).raw
		if b.at(i).multi {
			s += " (multi)"
		}
		values = append(values, s)
	}
	wantRoute, wantSt, wantValues := oracleMatch(routes, method, path)
	if route != wantRoute || st != wantSt || !slices.Equal(values, wantValues) {
		tb.Errorf("%q: got %d %v %q, want %d %v %q", method+" "+path, route, st, values, wantRoute, wantSt, wantValues)
	}
	var allowed []string
	for _, r := range routes {
		if r.method != "*" && !slices.Contains(allowed, r.method) {
			if _, st, _ := oracleMatch(routes, r.method, path); st == matched {
				allowed = append(allowed, r.method)
			}
		}
	}
	slices.Sort(allowed)
	if got, want := m.allow(path), strings.Join(allowed, ", "); got != want {
		tb.Errorf("%q: allow: got %v, want %v", path, got, want)
	}
}

// oracleMatcher adds the rules, "METHOD /template" a line, that parse and
// are no duplicates to a matcher and to the oracle's routes.
func oracleMatcher(rules []string) (*pathMatcher, []oracleRoute) {
	m := &pathMatcher{}
	var routes []oracleRoute
	for _, r := range rules {
		method, path, _ := strings.Cut(r, " ")
		t, err := parseTemplate(path)
		if err != nil || m.add(method, t, len(routes), r) != nil {
			continue
		}
		routes = append(routes, oracleRoute{method, t, len(routes)})
	}
	return m, routes
}

// randomTemplate returns a random template of segments from a small set,
// valid or not.
func randomTemplate(r *rand.Rand) string {
	pieces := []string{"a", "b", "c", "*", "**", "{x}", "{y=a/*}", "{z=**}", "{w=b/**/c}", "{v=a}"}
	var sb strings.Builder
	for range r.IntN(5) {
		sb.WriteString("/" + pieces[r.IntN(len(pieces))])
	}
	if sb.Len() == 0 {
		sb.WriteByte('/')
	}
	if r.IntN(4) == 0 {
		sb.WriteString(":v")
	}
	return sb.String()
}

// randomPath returns a random request path of segments from a small set.
func randomPath(r *rand.Rand) string {
	pieces := []string{"a", "b", "c", "", "x", "a:v", "a%2Fb"}
	var sb strings.Builder
	for range r.IntN(7) {
		sb.WriteString("/" + pieces[r.IntN(len(pieces))])
	}
	switch r.IntN(6) {
	case 0:
		sb.WriteString(":v")
	case 1:
		sb.WriteString(":w")
	case 2:
		sb.WriteString("/")
	}
	return sb.String()
}

func TestMatchOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	methods := []string{"GET", "POST", "*"}
	for range 300 {
		var rules []string
		for range 1 + r.IntN(12) {
			rules = append(rules, methods[r.IntN(len(methods))]+" "+randomTemplate(r))
		}
		m, routes := oracleMatcher(rules)
		for range 50 {
			checkOracle(t, m, routes, methods[r.IntN(2)], randomPath(r))
		}
		if t.Failed() {
			t.Fatalf("rules: %q", rules)
		}
	}
}

func FuzzMatch(f *testing.F) {
	f.Add("GET /a/{x}\nGET /a/b/*\nPOST /a/**/c:v\n* /{y=**}", "/a/b/c:v")
	f.Add("GET /\nGET /**\nGET /a/{x=b/**/c}/d", "/a/b/x/c/d")
	f.Add("GET /v1/{name=shelves/*}\nPOST /v1/shelves/{s}:move", "/v1/shelves/1:move")
	f.Fuzz(func(t *testing.T, rules, path string) {
		lines := strings.Split(rules, "\n")
		if len(lines) > 16 || len(rules) > 1024 || len(path) > 4096 {
			return
		}
		m, routes := oracleMatcher(lines)
		for _, method := range []string{"GET", "POST"} {
			checkOracle(t, m, routes, method, path)
		}
	})
}
