package transcode

import (
	"fmt"
	"strings"
	"testing"
)

// matcherOf builds a matcher from "METHOD template" lines; route i is
// line i. It fails the test on a registration error.
func matcherOf(tb testing.TB, rules ...string) *pathMatcher {
	tb.Helper()
	m := &pathMatcher{}
	for i, rule := range rules {
		method, path, _ := strings.Cut(rule, " ")
		t, err := parseTemplate(path)
		if err != nil {
			tb.Fatal(err)
		}
		if err := m.add(method, t, i, fmt.Sprint("rule ", i)); err != nil {
			tb.Fatal(err)
		}
	}
	return m
}

// describe returns the outcome of matching method and path in m: the
// rule that matched and its raw variable values, "404" or "405".
func describe(m *pathMatcher, rules []string, method, path string) string {
	var b bindings
	i, st := m.match(method, path, &b)
	switch st {
	case notFound:
		return "404"
	case methodNotAllowed:
		return "405"
	}
	_, tmpl, _ := strings.Cut(rules[i], " ")
	t, _ := parseTemplate(tmpl)
	out := rules[i]
	for j := 0; j < b.len(); j++ {
		v := b.at(j)
		out += fmt.Sprintf(" %s=%q", t.variables()[v.variable], v.raw)
		if v.multi {
			out += "*"
		}
	}
	return out
}

// TestMatchConformance is the conformance table of matching, written from the
// behaviour of the reference implementation: each rule set, and requests
// with the rule they reach and their variables' raw values (* marks a
// value of several segments).
func TestMatchConformance(t *testing.T) {
	for _, tt := range []struct {
		name  string
		rules []string
		cases [][2]string // path (GET unless it starts with a method), want
	}{
		{"literals, no partial matches", []string{"GET /prefix/middle/suffix", "GET /prefix/middle", "GET /prefix"}, [][2]string{
			{"/prefix/middle/suffix", "GET /prefix/middle/suffix"},
			{"/prefix/middle", "GET /prefix/middle"},
			{"/prefix", "GET /prefix"},
			{"/prefix/middle/suffix/other", "404"},
			{"/prefix/other", "404"},
			{"/other", "404"},
			{"/", "404"},
			{"/prefix/", "GET /prefix"}, // trailing empty segments are dropped
			{"/prefix//", "GET /prefix"},
		}},
		{"specificity, not order", []string{"GET /a/*/c", "GET /a/b/*", "GET /*/b/c", "GET /a/**"}, [][2]string{
			{"/a/b/c", "GET /a/b/*"},  // literal b beats * at the second segment
			{"/a/x/c", "GET /a/*/c"},  // b fails, * takes x
			{"/a/b/d", "GET /a/b/*"},  // literal b, then * takes d
			{"/x/b/c", "GET /*/b/c"},  // * at the first segment
			{"/a/x/d", "GET /a/**"},   // both single-segment choices fail
			{"/a/x/y/z", "GET /a/**"}, //
			{"/b/x/y", "404"},         //
			{"/a", "GET /a/**"},       // ** matches nothing at the end
			{"POST /a/b/c", "405"},    //
		}},
		{"backtracking", []string{"GET /v1/a/b/c/d", "GET /v1/*/b/c/e", "GET /v1/a/*/c/f"}, [][2]string{
			{"/v1/a/b/c/d", "GET /v1/a/b/c/d"},
			{"/v1/a/b/c/e", "GET /v1/*/b/c/e"}, // back out of a, down through *
			{"/v1/a/b/c/f", "GET /v1/a/*/c/f"}, // back out of b, down through *
			{"/v1/a/b/c/g", "404"},
		}},
		{"root", []string{"GET /", "GET /a/**", "GET /b/*"}, [][2]string{
			{"/", "GET /"},
			{"", "GET /"},
			{"/a/b", "GET /a/**"},
			{"/b/c", "GET /b/*"},
			{"/b", "404"},
			{"/b/c/d", "404"},
			{"b/c", "404"},
		}},
		{"** matches the root", []string{"GET /**"}, [][2]string{{"/", "GET /**"}, {"/a", "GET /**"}, {"/a/", "GET /**"}}},
		{"** and literal tails", []string{"GET /c/*/d/**", "GET /c/*/d/e", "GET /c/f/d/e", "GET /a/**/x"}, [][2]string{
			{"/c/u/d/v", "GET /c/*/d/**"},
			{"/c/v/d/w/x", "GET /c/*/d/**"},
			{"/c/x/d/e", "GET /c/*/d/e"},
			{"/c/f/d/e", "GET /c/f/d/e"},
			{"/c/x/y/d/z", "404"},
			{"/c//v/d/w/x", "404"}, // an empty segment is a segment
			{"/a/b/c/x", "GET /a/**/x"},
			{"/a/x/x/x", "GET /a/**/x"},
			{"/a/x/y", "404"},
		}},
		{"variables", []string{
			"GET /a/{x}/c/d/e", "GET /{x=a/*}/b/{y=*}/c", "GET /a/{x=b/*}/{y=d/**}", "GET /alpha/{x=*}/beta/{y=**}/gamma",
			"GET /{x=*}/a", "GET /{x=**}/a/b", "GET /a/b/{x=*}", "GET /a/b/c/{x=**}", "GET /{x=*}/d/e/f/{y=**}",
		}, [][2]string{
			{"/a/book/c/d/e", `GET /a/{x}/c/d/e x="book"`},
			{"/a/hello/b/world/c", `GET /{x=a/*}/b/{y=*}/c x="a/hello"* y="world"`},
			{"/a/b/zoo/d/animal/tiger", `GET /a/{x=b/*}/{y=d/**} x="b/zoo"* y="d/animal/tiger"*`},
			{"/alpha/dog/beta/eat/bones/gamma", `GET /alpha/{x=*}/beta/{y=**}/gamma x="dog" y="eat/bones"*`},
			{"/foo/a", `GET /{x=*}/a x="foo"`},
			{"/foo/bar/a/b", `GET /{x=**}/a/b x="foo/bar"*`},
			{"/a/b/foo", `GET /a/b/{x=*} x="foo"`},
			{"/a/b/c/foo/bar/baz", `GET /a/b/c/{x=**} x="foo/bar/baz"*`},
			{"/a/b/c", `GET /a/b/c/{x=**} x=""*`},
			{"/foo/d/e/f/bar/baz", `GET /{x=*}/d/e/f/{y=**} x="foo" y="bar/baz"*`},
			{"/a/p%20q%2Fr+/c/d/e", `GET /a/{x}/c/d/e x="p%20q%2Fr+"`}, // %2F does not split
		}},
		{"literal suffixes after **", []string{
			"GET /a/{x=b/**}", "GET /a/{x=b/**}/z", "GET /a/{x=b/**}/y/z", "GET /a/{x=b/**}:verb", "GET /a/{x=**}",
			"GET /c/{x=*}/{y=d/**}/e", "GET /c/{x=*}/{y=d/**}/e:verb", "GET /a/{x=b/*/y/z/**}/foo", "GET /a/{x=b/*/**/y/z}/foo",
		}, [][2]string{
			{"/a/b/hello/world/c", `GET /a/{x=b/**} x="b/hello/world/c"*`},
			{"/a/b/world/c/z", `GET /a/{x=b/**}/z x="b/world/c"*`},
			{"/a/b/world/c/y/z", `GET /a/{x=b/**}/y/z x="b/world/c"*`},
			{"/a/b/world/c:verb", `GET /a/{x=b/**}:verb x="b/world/c"*`},
			{"/a/hello/b/world/c", `GET /a/{x=**} x="hello/b/world/c"*`},
			{"/c/hello/d/esp/world/e", `GET /c/{x=*}/{y=d/**}/e x="hello" y="d/esp/world"*`},
			{"/c/hola/d/esp/mundo/e:verb", `GET /c/{x=*}/{y=d/**}/e:verb x="hola" y="d/esp/mundo"*`},
			{"/a/b/foo/y/z/bar/baz/foo", `GET /a/{x=b/*/y/z/**}/foo x="b/foo/y/z/bar/baz"*`},
			{"/a/b/foo/bar/baz/y/z/foo", `GET /a/{x=b/*/**/y/z}/foo x="b/foo/bar/baz/y/z"*`},
		}},
		{"verbs", []string{"GET /person", "GET /person/{id=*}", "GET /{x=**}:verb"}, [][2]string{
			{"/person:verb", `GET /{x=**}:verb x="person"*`},
			{"/person/jason:verb", `GET /{x=**}:verb x="person/jason"*`},
			{"/animal/cat:verb", `GET /{x=**}:verb x="animal/cat"*`},
			{"/person", "GET /person"},
			{"/person/jason", `GET /person/{id=*} id="jason"`},
			{"/animal/cat", "404"},
			{"/person/jason:other", `GET /person/{id=*} id="jason:other"`}, // not a verb of any rule: part of the segment
			{"/person:other", "404"},
			{"/person/jason%3Averb", `GET /person/{id=*} id="jason%3Averb"`}, // an escaped colon is no verb
		}},
		{"verbs on constants and wildcards", []string{"GET /some/const:verb", "GET /some/*:verb", "GET /some/*/foo:verb", "GET /other/**:verb", "GET /other/**/const:verb"}, [][2]string{
			{"/some/const:verb", "GET /some/const:verb"},
			{"/some/other:verb", "GET /some/*:verb"},
			{"/some/other:verb/", "404"}, // the colon is not in the last segment
			{"/some/bar/foo:verb", "GET /some/*/foo:verb"},
			{"/some/foo1/foo2/foo:verb", "404"},
			{"/some/foo/bar:verb", "404"},
			{"/other/bar/foo:verb", "GET /other/**:verb"},
			{"/other/bar/foo/const:verb", "GET /other/**/const:verb"},
		}},
		{"verb only in the last segment", []string{"GET /{a=*}/{b=*}:verb", "GET /foo/*/hello", "GET /x/{a=**}:verb", "GET /x/{a=**}"}, [][2]string{
			{"/some:verb/const:verb", `GET /{a=*}/{b=*}:verb a="some:verb" b="const"`},
			{"/foo/other:verb/hello", "GET /foo/*/hello"},
			{"/x/some:verb/const:verb", `GET /x/{a=**}:verb a="some:verb/const"*`},
			{"/x/some:verb/const", `GET /x/{a=**} a="some:verb/const"*`},
			{"/x/some:verb2/const:verb2", `GET /x/{a=**} a="some:verb2/const:verb2"*`},
		}},
		{"methods", []string{"GET /a/b", "POST /a/{x}", "* /c/{x}", "PATCH /c/{x}"}, [][2]string{
			{"/a/b", "GET /a/b"},
			{"POST /a/b", `POST /a/{x} x="b"`},
			{"DELETE /a/b", "405"},
			{"DELETE /c/d", `* /c/{x} x="d"`},
			{"PATCH /c/d", `PATCH /c/{x} x="d"`}, // the method's own rule before the wildcard method
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := matcherOf(t, tt.rules...)
			for _, c := range tt.cases {
				method, path := "GET", c[0]
				if i := strings.IndexByte(path, ' '); i > 0 {
					method, path = path[:i], path[i+1:]
				}
				if got := describe(m, tt.rules, method, path); got != c[1] {
					t.Errorf("%s %q: got %s, want %s", method, path, got, c[1])
				}
			}
		})
	}
}

// TestAllowConformance checks the methods listed for a 405.
func TestAllowConformance(t *testing.T) {
	m := matcherOf(t, "GET /a/b", "POST /a/{x}", "DELETE /a/**", "PUT /c", "GET /d:run", "POST /d:run")
	for _, tt := range []struct{ path, want string }{
		{"/a/b", "DELETE, GET, POST"},
		{"/a/c", "DELETE, POST"},
		{"/a/c/d", "DELETE"},
		{"/c", "PUT"},
		{"/d:run", "GET, POST"},
		{"/e", ""},
	} {
		if got := m.allow(tt.path); got != tt.want {
			t.Errorf("allow(%q): got %q, want %q", tt.path, got, tt.want)
		}
	}
}

// TestDuplicates checks that two rules for the same requests are refused,
// whatever their variables are called, and that the message names both.
func TestDuplicates(t *testing.T) {
	for _, tt := range []struct{ first, second string }{
		{"GET /a/b", "GET /a/b"},
		{"GET /v1/{name=shelves/*}", "GET /v1/{shelf=shelves/*}"},
		{"GET /v1/{name=shelves/*}", "GET /v1/shelves/*"},
		{"GET /v1/{x}", "GET /v1/*"},
		{"GET /v1/{x=**}", "GET /v1/**"},
		{"POST /v1/{x}:run", "POST /v1/{y}:run"},
		{"* /v1/a", "* /v1/a"},
	} {
		m := matcherOf(t, tt.first)
		method, path, _ := strings.Cut(tt.second, " ")
		tmpl, err := parseTemplate(path)
		if err != nil {
			t.Fatal(err)
		}
		err = m.add(method, tmpl, 1, "Second")
		if err == nil {
			t.Errorf("%s then %s: no error", tt.first, tt.second)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, tt.first+" for rule 0") || !strings.Contains(msg, tt.second+" for Second") {
			t.Errorf("%s then %s: error %q does not name both", tt.first, tt.second, msg)
		}
	}
	// Not duplicates: other methods, verbs or shapes.
	matcherOf(t, "GET /a/{x}", "POST /a/{x}", "GET /a/{x}:run", "GET /a/{x}/b", "GET /a/**", "* /a/{x}", "GET /a/b")
}

// TestManySegments checks paths of 65,536 slashes and of 32,768 segments:
// no stack overflow, and the answer the rules give.
func TestManySegments(t *testing.T) {
	m := matcherOf(t, "GET /a/**/x", "GET /", "GET /b/{x}")
	slashes := strings.Repeat("/", 65536)
	segments := strings.Repeat("/a", 32768)
	for _, tt := range []struct{ path, want string }{
		{slashes, "GET /"}, // every segment is a trailing empty one
		{"/a" + slashes + "x", "GET /a/**/x"},
		{"/a" + slashes + "y", "404"},
		{segments, "404"},
		{segments + "/x", "GET /a/**/x"},
		{"/b" + segments, "404"},
	} {
		if got := describe(m, []string{"GET /a/**/x", "GET /", "GET /b/{x}"}, "GET", tt.path); got != tt.want {
			t.Errorf("%d-byte path: got %s, want %s", len(tt.path), got, tt.want)
		}
	}
}
