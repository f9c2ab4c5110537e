package cairn

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp/syntax"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// builtinLookup resolves constraints as a new Router does.
func builtinLookup(expr string) (*constraint, error) {
	var cs constraintSet
	return cs.lookup(expr)
}

// describeSegments renders segments for comparison in tests.
func describeSegments(segs []segment) string {
	var parts []string
	for _, s := range segs {
		d := fmt.Sprintf("%s(%q)", s.kind(), s.s)
		if s.constrainedBy() != nil {
			d += ":" + s.constrainedBy().key
		}
		parts = append(parts, d)
	}
	return strings.Join(parts, " ")
}

// TestParsePattern checks the parse of valid patterns.
func TestParsePattern(t *testing.T) {
	for _, tt := range []struct {
		in, method, host, segs string
	}{
		{"/", "", "", `multi("")`},
		{"/a", "", "", `literal("a")`},
		{"/a/", "", "", `literal("a") multi("")`},
		{"GET /a/{x}", "GET", "", `literal("a") wild("x")`},
		{"POST \t example.com/a/{x...}", "POST", "example.com", `literal("a") multi("x")`},
		{"/a/{$}", "", "", `literal("a") literal("/")`},
		{"/%61/b%2Fc", "", "", `literal("a") literal("b/c")`},
		{"/{id:uuid}", "", "", `wild("id"):uuid`},
		{"/{n:int}/{h:hex}", "", "", `wild("n"):int wild("h"):hex`},
		{"/c/{code:[A-Z]{3}}", "", "", `literal("c") wild("code"):regexp:[A-Z]{3}`},
		{"/c/{code:a\\{1\\}}", "", "", `literal("c") wild("code"):regexp:a\{1\}`},
		{"/a}", "", "", `literal("a}")`},
		{"/a//b", "", "", `literal("a") literal("") literal("b")`},
		{"CONNECT /a/../b", "CONNECT", "", `literal("a") literal("..") literal("b")`},
		{"/{ünicode}", "", "", `wild("ünicode")`},
	} {
		p, err := parsePattern(tt.in, builtinLookup)
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if p.method() != tt.method || p.host() != tt.host || describeSegments(p.segments()) != tt.segs {
			t.Errorf("%q: got method %q host %q segments %s, want %q %q %s", tt.in, p.method(), p.host(), describeSegments(p.segments()), tt.method, tt.host, tt.segs)
		}
	}
}

// TestParsePatternErrors checks that invalid patterns are rejected with
// the offset and reason.
func TestParsePatternErrors(t *testing.T) {
	for _, tt := range []struct {
		in      string
		offset  int
		contain string
	}{
		{"", 0, "empty pattern"},
		{"a", 0, "missing /"},
		{"GET", 0, "missing /"},
		{"G@T /", 0, "invalid method"},
		{"example{.com/", 7, "host contains '{'"},
		{"GET /a/../b", 4, "unclean path"},
		{"/a{x}", 2, "must start with '{'"},
		{"/{x}a", 4, "must end with '}'"},
		{"/{x", 1, "unbalanced braces"},
		{"/{x:[a-z]{2}", 1, "unbalanced braces"},
		{"/{x:a/b}", 1, "may not contain '/'"},
		{"/{}", 1, "empty wildcard"},
		{"/{...}", 1, "empty wildcard"},
		{"/{1x}", 1, "bad wildcard name"},
		{"/{x}/{x}", 5, `duplicate wildcard name "x"`},
		{"/{a}/b/{c}/{a:int}", 11, `duplicate wildcard name "a"`},
		// From the eighth name on, duplicates are found in a map.
		{"/{a}/{b}/{c}/{d}/{e}/{f}/{g}/{a}", 29, `duplicate wildcard name "a"`},
		{"/{a}/{b}/{c}/{d}/{e}/{f}/{g}/{h}/{g...}", 33, `duplicate wildcard name "g"`},
		{"/{a}/{b}/{c}/{d}/{e}/{f}/{g}/{h}/{i}/{j}/{j}", 41, `duplicate wildcard name "j"`},
		{"/{x...}/a", 1, "not at end"},
		{"/{$}/a", 1, "{$} not at end"},
		{"/{x:}", 4, "empty constraint"},
		{"/{x:nosuch}", 4, `unknown constraint "nosuch"`},
		{"/{x:[a-z}", 4, "invalid regexp"},
		{"/{x...:int}", 7, "cannot have a constraint"},
		{"/{x:int...}", 4, "cannot have a constraint"},
		{"GET " + strings.Repeat("h", maxPatternHost-3) + "/", 4, "method and host longer than 65535 bytes"},
		{strings.Repeat("h", maxPatternHost+1) + "/", 0, "method and host longer than 65535 bytes"},
	} {
		_, err := parsePattern(tt.in, builtinLookup)
		var perr *PatternError
		if !errors.As(err, &perr) {
			t.Errorf("%q: got error %v, want a *PatternError", tt.in, err)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "cairn: ") || !strings.Contains(msg, tt.contain) || perr.Offset != tt.offset {
			t.Errorf("%q: got %q (offset %d), want offset %d and %q", tt.in, msg, perr.Offset, tt.offset, tt.contain)
		}
	}
}

// TestLongHost checks that a method and host of maxPatternHost bytes, the
// most a pattern keeps the bounds of, are read back whole.
func TestLongHost(t *testing.T) {
	method, host := "GET", strings.Repeat("h", maxPatternHost-4)
	p, err := parsePattern(method+" "+host+"/{x}", builtinLookup)
	if err != nil {
		t.Fatal(err)
	}
	if p.method() != method || p.host() != host || p.path() != "/{x}" {
		t.Errorf("got method %q, a host of %d bytes and path %q", p.method(), len(p.host()), p.path())
	}
}

// TestRegexpErrorUnwraps checks that an invalid regexp's *syntax.Error can
// be reached from the PatternError.
func TestStaticPath(t *testing.T) {
	for _, c := range []struct {
		pattern, want string
		shared        bool // the path is a part of the pattern's string
	}{
		{"/a/b", "/a/b", true},
		{"GET example.com/a/b", "/a/b", true},
		{"GET  /a", "/a", true},
		{"/a/{$}", "/a/", false},
		{"/{$}", "/", false},
		{"/a%62/c", "/ab/c", false},
		{"/a%2Fb", "", false}, // a literal holding '/'
		{"/%2F/b", "", false}, // the literal "/", which is {$} only at the end
		{"/a/", "", false},
		{"/a/{x}", "", false},
		{"/a/{x...}", "", false},
		{"/{n:int}/b", "", false},
		{"/", "", false},
	} {
		p, err := parsePattern(c.pattern, builtinLookup)
		if err != nil {
			t.Fatal(err)
		}
		got := p.staticPath()
		if got != c.want {
			t.Errorf("%q: staticPath = %q, want %q", c.pattern, got, c.want)
		}
		shared := got != "" && unsafe.StringData(got) == unsafe.StringData(p.str[len(p.str)-len(got):])
		if shared != c.shared {
			t.Errorf("%q: path shares the pattern's bytes: %v, want %v", c.pattern, shared, c.shared)
		}
	}
}

func TestRegexpErrorUnwraps(t *testing.T) {
	_, err := parsePattern("/{x:a(b}", builtinLookup)
	var serr *syntax.Error
	if !errors.As(err, &serr) || serr.Code != syntax.ErrMissingParen {
		t.Errorf("got %v, want a *syntax.Error with code %q", err, syntax.ErrMissingParen)
	}
}

// TestConstraints checks the built-in constraints and inline regexps.
func TestConstraints(t *testing.T) {
	for _, tt := range []struct {
		name    string
		match   []string
		noMatch []string
	}{
		{"int", []string{"0", "42", "-7", "007"}, []string{"", "-", "+1", "1.5", "1a", "٣"}},
		{"uint", []string{"0", "42"}, []string{"", "-1", "x"}},
		{"hex", []string{"0", "deadBEEF"}, []string{"", "0x1", "g"}},
		{"alpha", []string{"a", "Zed"}, []string{"", "a1", "é", "a-b"}},
		{"alnum", []string{"a1", "Z9z"}, []string{"", "a_1", "-"}},
		{"uuid", []string{"123e4567-e89b-12d3-a456-426614174000", "ABCDEFAB-CDEF-ABCD-EFAB-CDEFABCDEFAB"}, []string{"", "123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400g", "123e4567-e89b-12d3-a456-4266141740000"}},
		{"ipv4", []string{"0.0.0.0", "127.0.0.1", "255.255.255.255", "10.200.3.99"}, []string{"", "256.0.0.1", "1.2.3", "1.2.3.4.5", "01.2.3.4", "1..2.3", "1.2.3.4.", "a.b.c.d", "1.2.3.1000"}},
		{"[A-Z]{3}", []string{"ABC"}, []string{"AB", "ABCD", "abc"}},
		{"a|b", []string{"a", "b"}, []string{"ab", ""}},
	} {
		c, err := builtinLookup(tt.name)
		if err != nil {
			t.Fatalf("%q: %v", tt.name, err)
		}
		for _, s := range tt.match {
			if !c.match(s) {
				t.Errorf("%s: %q: got false, want true", tt.name, s)
			}
		}
		for _, s := range tt.noMatch {
			if c.match(s) {
				t.Errorf("%s: %q: got true, want false", tt.name, s)
			}
		}
	}
}

// TestCompare checks relationships between patterns, both ways.
func TestCompare(t *testing.T) {
	for _, tt := range []struct {
		p1, p2 string
		want   relationship
	}{
		{"/a", "/a", equivalent},
		{"/a", "/b", disjoint},
		{"/{x}", "/a", moreGeneral},
		{"/{x}", "/{y}", equivalent},
		{"/a/{x}", "/{y}/b", overlaps},
		{"/", "/a/b", moreGeneral},
		{"/a/{$}", "/a/{x}", disjoint},
		{"/a/{$}", "/a/", moreSpecific},
		{"/{n:int}", "/{x}", moreSpecific},
		{"/{n:int}", "/42", moreGeneral},
		{"/{n:int}", "/abc", disjoint},
		{"/{n:int}", "/{m:int}", equivalent},
		{"/{n:int}", "/{h:hex}", ordered},
		{"/{n:int}/{a:alpha}", "/{h:hex}/{b:alnum}", ordered},
		{"/{n:int}/a", "/{h:hex}/{x}", overlaps},
		{"/{n:int}/a", "/{h:hex}/b", disjoint},
		{"GET /{n:int}", "/{h:hex}", overlaps},
		{"GET /{n:int}", "POST /{h:hex}", disjoint},
		{"/{n:int}/{x}", "/{y}/b", overlaps},
		{"GET /a", "/a", moreSpecific},
		{"GET /a", "HEAD /a", moreGeneral},
		{"GET /a", "POST /a", disjoint},
		{"GET /{x}", "/a", overlaps},
	} {
		p1, err1 := parsePattern(tt.p1, builtinLookup)
		p2, err2 := parsePattern(tt.p2, builtinLookup)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		got := combine(compareMethods(p1.method(), p2.method()), p1.comparePaths(p2))
		if got != tt.want {
			t.Errorf("%q vs %q: got %s, want %s", tt.p1, tt.p2, got, tt.want)
		}
		// The relationship is antisymmetric, so conflict detection is symmetric.
		back := combine(compareMethods(p2.method(), p1.method()), p2.comparePaths(p1))
		if back != got.inverse() {
			t.Errorf("%q vs %q: got %s one way and %s the other", tt.p1, tt.p2, got, back)
		}
		if p1.conflictsWith(p2) != p2.conflictsWith(p1) {
			t.Errorf("%q vs %q: conflict is not symmetric", tt.p1, tt.p2)
		}
	}
}

// TestCleanPath checks cleanPath and isClean on examples.
func TestCleanPath(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", "/"},
		{"a", "/a"},
		{"/", "/"},
		{"//", "/"},
		{"/a/./b/", "/a/b/"},
		{"/a/../b", "/b"},
		{"/a//b", "/a/b"},
		{"/a/b/..", "/a"},
		{"/..", "/"},
		{"/a/.", "/a"},
		{"/a/b/", "/a/b/"},
	} {
		if got := cleanPath(tt.in); got != tt.want {
			t.Errorf("cleanPath(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if isClean(tt.in) != (tt.in == tt.want) {
			t.Errorf("isClean(%q) = %v, want %v", tt.in, isClean(tt.in), tt.in == tt.want)
		}
	}
}

// FuzzParsePattern checks that parsing never panics and that every error is
// a *PatternError whose message starts with "cairn:" and whose offset lies
// within the pattern.
func FuzzParsePattern(f *testing.F) {
	for _, s := range []string{"/", "GET /a/{x}", "h.com/{x...}", "/{$}", "/{n:int}", "/{c:[A-Z]{3}}", "/{", "/{x:[}", "/{x}/{x}", "GET /../a", "/{a:\\}}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := parsePattern(s, builtinLookup)
		var simple pattern
		if parseSimple(&simple, new([]segment), s) {
			if err != nil {
				t.Fatalf("%q: parseSimple parsed what the general parser rejects: %v", s, err)
			}
			if simple.str != p.str || simple.methodEnd != p.methodEnd || simple.hostStart != p.hostStart || !slices.Equal(*simple.parsed, p.segments()) {
				t.Fatalf("%q: parseSimple and the general parser differ", s)
			}
		}
		if err != nil {
			var perr *PatternError
			if !errors.As(err, &perr) || !strings.HasPrefix(err.Error(), "cairn: ") {
				t.Fatalf("%q: error %v is not a cairn PatternError", s, err)
			}
			if perr.Offset < 0 || perr.Offset > len(s) {
				t.Fatalf("%q: offset %d out of range", s, perr.Offset)
			}
			return
		}
		if len(p.segments()) == 0 {
			t.Fatalf("%q: parsed with no segments", s)
		}
		for i, seg := range p.segments() {
			if seg.kind() == segMulti && i != len(p.segments())-1 {
				t.Fatalf("%q: multi wildcard at %d of %d", s, i, len(p.segments()))
			}
		}
	})
}

// FuzzCleanPath checks that cleaning is idempotent and agrees with isClean.
func FuzzCleanPath(f *testing.F) {
	for _, s := range []string{"", "/", "//a", "/a/./b/../c/", "a/b", "/..", "/a/b/."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := cleanPath(s)
		if cc := cleanPath(c); cc != c {
			t.Fatalf("cleanPath(%q) = %q, but cleanPath(%q) = %q", s, c, c, cc)
		}
		if !isClean(c) {
			t.Fatalf("isClean(cleanPath(%q) = %q) = false", s, c)
		}
		if isClean(s) != (c == s) {
			t.Fatalf("isClean(%q) = %v, but cleanPath gives %q", s, isClean(s), c)
		}
	})
}

// TestLookupValue checks where Param finds a wildcard's value.
func TestLookupValue(t *testing.T) {
	for _, tt := range []struct {
		pattern, path, name, want string
		ok                        bool
	}{
		{"/a/{x}", "/a/b", "x", "b", true},
		{"/{xx}/{x}", "/1/2", "x", "2", true},
		{"/{x:int}", "/42", "x", "42", true},
		{"/a/{rest...}", "/a/b/c", "rest", "b/c", true},
		{"/a/{rest...}", "/a/", "rest", "", true},
		{"/x/{y}", "/x/1", "x", "", false},
		{"/{c:a{x}}", "/1", "x", "", false},
		{"/{a}/{b}/{c}", "/1/2/3", "c", "3", true},
		{"/{a}/{b}", "/1", "b", "", false},
		{"/a/{x}/", "/a/b/", "x", "b", true},
		{"/{a}", "", "a", "", false},
	} {
		got, ok := lookupValue(tt.pattern, tt.path, tt.name)
		if got != tt.want || ok != tt.ok {
			t.Errorf("lookupValue(%q, %q, %q) = %q, %v, want %q, %v", tt.pattern, tt.path, tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

// FuzzStripHostPort checks stripHostPort against net.SplitHostPort, which
// net/http.ServeMux uses.
func FuzzStripHostPort(f *testing.F) {
	for _, s := range []string{"", "a.com", "a.com:80", "a.com:", "[::1]:80", "[::1]", "::1", "a:b:c", "[a]b:1", "[a:1", "a]:1", "[[a]]:1", ":80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		want := h
		if strings.Contains(h, ":") {
			if host, _, err := net.SplitHostPort(h); err == nil {
				want = host
			}
		}
		if got := stripHostPort(h); got != want {
			t.Fatalf("stripHostPort(%q) = %q, want %q", h, got, want)
		}
	})
}

// TestSettle checks that a settled pattern reads the segments it was
// parsed with, whether it kept them or reads them again from its string,
// and that exactly the patterns without escapes, {$} and constraints are
// made compact.
func TestSettle(t *testing.T) {
	patterns := []struct {
		s       string
		compact bool
	}{
		{"/", true},
		{"/a", true},
		{"/a/", true},
		{"GET /a/{x}", true},
		{"GET example.com/a/{x}/b/{rest...}", true},
		{"  GET /users/{id}/", true},
		{"/files/{path...}", true},
		{"/a}/b{c}", false}, // a '{' not at the start of a segment is an error
		{"/a}/b", true},
		{"/{$}", false},
		{"/a/{$}", false},
		{"/a%2Fb/{x}", false},
		{"/%41", false},
		{"/{id:int}", false},
		{"/{code:[A-Z]{3}}/x", false},
		{"/a/b/c/d/e/f/g/h/i/{j}", true}, // more segments than settle's buffer
	}
	for _, s := range listPatterns(t) {
		patterns = append(patterns, struct {
			s       string
			compact bool
		}{s, true})
	}
	for _, tt := range patterns {
		p, err := parsePatternInto(new(pattern), new([]segment), tt.s, builtinLookup)
		if err != nil {
			if tt.compact {
				t.Errorf("%q: %v", tt.s, err)
			}
			continue
		}
		want := slices.Clone(*p.parsed)
		wantStatic, wantWildcards := p.staticPath(), p.wildcards()
		if oracle := staticPathOf(want); wantStatic != oracle {
			t.Errorf("%q: staticPath %q, want %q", tt.s, wantStatic, oracle)
		}
		if compact := slices.Equal(splitPath(nil, p.path()), want); compact != (readAsWritten(p.path()) == 1) && readAsWritten(p.path()) != 0 {
			t.Errorf("%q: readAsWritten %d, but the segments read as written are the parsed ones: %v", tt.s, readAsWritten(p.path()), compact)
		}
		p.settle()
		if p.compact() != tt.compact {
			t.Errorf("%q: compact = %v, want %v", tt.s, p.compact(), tt.compact)
		}
		if got := p.segments(); !slices.Equal(got, want) {
			t.Errorf("%q: segments %s, want %s", tt.s, describeSegments(got), describeSegments(want))
		}
		if got := p.segmentsIn(nil); !slices.Equal(got, want) {
			t.Errorf("%q: segmentsIn %s, want %s", tt.s, describeSegments(got), describeSegments(want))
		}
		if p.numSegments() != len(want) {
			t.Errorf("%q: numSegments = %d, want %d", tt.s, p.numSegments(), len(want))
		}
		for i, s := range want {
			if got := p.segment(i); got != s {
				t.Errorf("%q: segment(%d) = %s, want %s", tt.s, i, describeSegments([]segment{got}), describeSegments([]segment{s}))
			}
		}
		if p.lastSegment() != want[len(want)-1] {
			t.Errorf("%q: lastSegment = %s", tt.s, describeSegments([]segment{p.lastSegment()}))
		}
		if p.staticPath() != wantStatic || p.wildcards() != wantWildcards {
			t.Errorf("%q: staticPath %q and wildcards %d, want %q and %d", tt.s, p.staticPath(), p.wildcards(), wantStatic, wantWildcards)
		}
	}
}

// staticPathOf returns the path that the segments segs match if they are
// all literals without a '/' ({$} may end them), or "": what staticPath
// returns, built from the segments one by one.
func staticPathOf(segs []segment) string {
	var b strings.Builder
	for i, s := range segs {
		switch {
		case s.kind() != segLiteral:
			return ""
		case s.s == "/" && i == len(segs)-1: // {$}
			b.WriteString("/")
		case strings.Contains(s.s, "/"):
			return ""
		default:
			b.WriteString("/" + s.s)
		}
	}
	return b.String()
}

// listPatterns returns the patterns of the route lists in testdata, in
// cairn's syntax, but for those of the routes that some routers cannot
// express ('#' lines).
func listPatterns(t *testing.T) []string {
	var patterns []string
	for _, name := range []string{"github", "gplus", "parse", "static"} {
		data, err := os.ReadFile(filepath.Join("testdata", name+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.Lines(string(data)) {
			method, path, ok := strings.Cut(strings.TrimSpace(line), " ")
			if !ok || strings.HasPrefix(method, "#") {
				continue
			}
			patterns = append(patterns, BracedRoute(method, path))
		}
	}
	return patterns
}

// BracedRoute returns a route of the lists in testdata, written in their
// notation, as a pattern: "GET /repos/:owner/:repo" becomes
// "GET /repos/{owner}/{repo}", and a trailing "*name" becomes "{name...}".
// The rest of the path is kept as it is. Exported for the external tests,
// which read the same lists (see cairnPattern).
func BracedRoute(method, path string) string {
	segs := strings.Split(path, "/")
	for i, seg := range segs {
		switch {
		case strings.HasPrefix(seg, ":"):
			segs[i] = "{" + seg[1:] + "}"
		case strings.HasPrefix(seg, "*"):
			segs[i] = "{" + seg[1:] + "...}"
		}
	}
	return method + " " + strings.Join(segs, "/")
}

// TestRoutesSettled checks that a registered route keeps its pattern's
// segments only if it cannot read them again from its string, that the
// buffer they were parsed into is not shared with any route, and that
// each keeps where it was registered.
func TestRoutesSettled(t *testing.T) {
	r := New()
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	r.Handle("GET /a/{x}", h)
	r.Handle("GET /b/{y:int}", h)
	r.Handle("GET /c/{$}", h)
	r.Handle("GET /d/{rest...}", h)
	want := map[string]bool{"GET /a/{x}": true, "GET /b/{y:int}": false, "GET /c/{$}": false, "GET /d/{rest...}": true}
	locs := map[string]bool{} // each registered at a line of its own
	for _, rt := range r.routes {
		if loc := rt.id.pat.loc().String(); locs[loc] {
			t.Errorf("%q: registered at %s, as another", rt.id.pat.str, loc)
		} else {
			locs[loc] = true
		}
		if rt.id.pat.compact() != want[rt.id.pat.str] {
			t.Errorf("%q: compact = %v", rt.id.pat.str, rt.id.pat.compact())
		}
		if loc := rt.id.pat.loc().String(); !strings.Contains(loc, "pattern_test.go:") {
			t.Errorf("%q: registered at %s", rt.id.pat.str, loc)
		}
		if rt.id.pat.parsed != nil && (rt.id.pat.parsed == r.segs ||
			cap(*r.segs) > 0 && unsafe.SliceData(*rt.id.pat.parsed) == unsafe.SliceData((*r.segs)[:1])) {
			t.Errorf("%q: keeps the parse buffer", rt.id.pat.str)
		}
	}
	// The constrained route reads its constraint still.
	req := httptest.NewRequest("GET", "/b/12", nil)
	w := httptest.NewRecorder()
	r.ServeHTTP(w, req)
	if req.Pattern != "GET /b/{y:int}" || Param(req, "y") != "12" {
		t.Errorf("GET /b/12: pattern %q, y = %q", req.Pattern, Param(req, "y"))
	}
	req = httptest.NewRequest("GET", "/b/x", nil)
	w = httptest.NewRecorder()
	r.ServeHTTP(w, req)
	if w.Code != http.StatusNotFound {
		t.Errorf("GET /b/x: %d, want 404", w.Code)
	}
}

// TestParseSimple checks parseSimple against the general parser: a
// pattern it parses, the general parser parses the same way, and one the
// general parser rejects, it does not parse. The patterns are those of
// the route lists and random ones made of pieces, simple or not.
func TestParseSimple(t *testing.T) {
	patterns := listPatterns(t)
	lists := len(patterns)
	methods := []string{"", "GET ", "POST ", "CONNECT ", "get ", "GET  ", "GET\t", "G-T ", "GET"}
	hosts := []string{"", "", "", "h.com", "H"}
	pieces := []string{"a", "b1", "A-Z_~", "a.b", "...", "{x}", "{y}", "{x...}", "{y...}", "{$}", ".", "..", "", "%41", "{n:int}", "a}", "{", "{x}y", "{_9}", "{9x}", "{é}", "é", "a b", "{x.y}"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		var b strings.Builder
		b.WriteString(methods[rng.IntN(len(methods))])
		b.WriteString(hosts[rng.IntN(len(hosts))])
		for range 1 + rng.IntN(4) {
			b.WriteString("/" + pieces[rng.IntN(len(pieces))])
		}
		if rng.IntN(4) == 0 {
			b.WriteString("/")
		}
		patterns = append(patterns, b.String())
	}
	simple, simpleLists := 0, 0
	for i, s := range patterns {
		var got pattern
		gotBuf := new([]segment)
		ok := parseSimple(&got, gotBuf, s)
		want, err := parseFull(new(pattern), new([]segment), s, builtinLookup)
		switch {
		case !ok:
			continue
		case err != nil:
			t.Errorf("%q: parseSimple parsed what the general parser rejects: %v", s, err)
			continue
		}
		simple++
		if i < lists {
			simpleLists++
		}
		if got.str != want.str || got.methodEnd != want.methodEnd || got.hostStart != want.hostStart || got.parsed != gotBuf ||
			!slices.Equal(*got.parsed, *want.parsed) || got.where != want.where {
			t.Errorf("%q: parseSimple gives %q %d %d %s, the general parser %q %d %d %s", s,
				got.str, got.methodEnd, got.hostStart, describeSegments(*got.parsed),
				want.str, want.methodEnd, want.hostStart, describeSegments(*want.parsed))
		}
	}
	// The patterns of the lists are simple, and some of the random ones.
	if simpleLists < lists*9/10 || simple-simpleLists < (len(patterns)-lists)/50 {
		t.Errorf("parseSimple parsed %d patterns of the lists' %d and %d of %d random ones", simpleLists, lists, simple-simpleLists, len(patterns)-lists)
	}
}

// TestLocations checks where routes are recorded as registered, for every
// method that registers a route, called directly, through a method value,
// and through an interface that a type embedding the router or the group
// satisfies: the call in the program, never a wrapper the compiler made
// (see callerPC and locationOf).
func TestLocations(t *testing.T) {
	r := New()
	g := r.Group("/g")
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	f := func(http.ResponseWriter, *http.Request) {}
	type registrar interface {
		Handle(string, http.Handler)
		HandleFunc(string, func(http.ResponseWriter, *http.Request))
	}
	type embedRouter struct{ *Router }
	type embedGroup struct{ *Group }
	var ri, gi registrar = embedRouter{r}, embedGroup{g}
	rh, rf, gh, gf := r.Handle, r.HandleFunc, g.Handle, g.HandleFunc
	// line returns the line of its call.
	line := func() int {
		_, _, l, _ := runtime.Caller(1)
		return l
	}
	want := map[string]int{} // pattern to the line that registers it
	// Each registers a route and returns the line it registered it at.
	for _, tt := range []struct {
		pattern  string // as the route has it
		register func() int
	}{
		{"GET /r/direct", func() int { r.Handle("GET /r/direct", h); return line() }},
		{"GET /rf/direct", func() int { r.HandleFunc("GET /rf/direct", f); return line() }},
		{"GET /g/direct", func() int { g.Handle("GET /direct", h); return line() }},
		{"GET /g/f/direct", func() int { g.HandleFunc("GET /f/direct", f); return line() }},
		{"GET /r/value", func() int { rh("GET /r/value", h); return line() }},
		{"GET /rf/value", func() int { rf("GET /rf/value", f); return line() }},
		{"GET /g/value", func() int { gh("GET /value", h); return line() }},
		{"GET /g/f/value", func() int { gf("GET /f/value", f); return line() }},
		{"GET /r/interface", func() int { ri.Handle("GET /r/interface", h); return line() }},
		{"GET /rf/interface", func() int { ri.HandleFunc("GET /rf/interface", f); return line() }},
		{"GET /g/interface", func() int { gi.Handle("GET /interface", h); return line() }},
		{"GET /g/f/interface", func() int { gi.HandleFunc("GET /f/interface", f); return line() }},
		// A deferred call: a line of the program, not of the runtime.
		{"GET /r/defer", func() int { defer r.Handle("GET /r/defer", h); return line() }},
	} {
		want[tt.pattern] = tt.register()
	}
	for i := range 3 {
		// One line, many routes: the remembered program counter.
		r.Handle(fmt.Sprintf("GET /loop/%d", i), h)
		want[fmt.Sprintf("GET /loop/%d", i)] = line() - 1
	}
	if len(r.routes) != len(want) {
		t.Fatalf("%d routes, want %d", len(r.routes), len(want))
	}
	for _, rt := range r.routes {
		loc := rt.id.pat.loc().String()
		if w := fmt.Sprintf("pattern_test.go:%d", want[rt.id.pat.str]); !strings.HasSuffix(loc, w) {
			t.Errorf("%q: registered at %s, want %s", rt.id.pat.str, loc, w)
		}
	}
}
