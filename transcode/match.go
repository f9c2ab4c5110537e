package transcode

// This file finds the route of a request path among the templates of the
// rules, with the semantics of grpc-httpjson-transcoding, the library
// behind Envoy's and ESP's transcoders.
//
// Templates are kept in a trie with one node per template prefix: a node
// has children for literal segments, one for "*" (which {x} is) and one
// for "**", and the routes of the templates that end there, each with its
// HTTP method (or "*" for any) and verb. Templates of the same shape, as
// /v1/{name=shelves/*} and /v1/shelves/{shelf}, end at the same node.
//
// A request path is first cut at its verb and into segments. If the last
// segment ends in ":verb" for a verb that some template has, the verb is
// split off; otherwise the colon stays in the segment, so /v1/books/a:b
// matches /v1/books/* with the value "a:b". A path whose verb is split off
// matches only templates with that verb: as in the reference, it does not
// fall back to keeping the colon in the segment. Empty segments at the end
// are dropped, so /v1/shelves/ is /v1/shelves, and "/", "" and "//" are
// the root, which the template "/" (and "/**") matches. Empty segments
// elsewhere stay: /v1//books has the segments v1, "" and books. A path
// that does not start with "/" (the "*" of OPTIONS *) matches nothing.
//
// Segments are compared as they appear in the escaped path, as the
// reference does: %2F in a segment does not split it, and a literal
// matches only the same text, escapes included: the literal a~b does not
// match the segment a%7Eb, nor a%2Fb the segment a%2fb.
//
// The walk goes down the trie segment by segment, trying at each node the
// literal child that equals the segment first, then "*", then "**", and
// comes back to try the next when a choice fails further down:
// specificity, never the order of registration, decides. Given GET /a/b/d
// (route 0) and GET /a/*/c (route 1), the path /a/b/c follows the literal
// b, finds no child c below /a/b, comes back and takes * for b, and
// matches route 1; /a/b/d matches route 0. A "**" node loops over the
// remaining segments, at each trying the literal child equal to it (only
// literals follow "**"); a segment no literal child takes becomes part of
// the "**". Entered from its parent, a "**" takes at least one segment,
// except at the end of the path, where it may take none: /a/** matches
// /a, but /a/**/b does not match /a/b. When the segments run out, the
// node's route for the method and verb matches, or else one for any
// method, or else the route of its "**" child.
//
// Bound: a node not below a "**" stands for a fixed number of request
// segments, so one walk visits it at most once; a "**" node too, since
// only literals follow it. Its loop starts one walk down its literal
// children per remaining segment, each no longer than the longest literal
// tail below it. A walk is therefore O(N + D·S·L) for N trie nodes, D
// "**" nodes, S request segments and L the longest literal tail: linear
// in the path for a given set of rules. Recursion is no deeper than the
// longest template, however long the path: the "**" loop iterates. match
// walks at most twice (the second time for methodNotAllowed) and allow
// once per HTTP method of the routes.
//
// Where this differs from the reference, on purpose: two routes of the
// same method, shape and verb are an error from add (the reference keeps
// both and then matches neither); a path that only routes of other methods
// match is methodNotAllowed (the reference cannot tell it from notFound);
// a route for any method ("*") matches requests with its verb only (the
// reference matches such a route with a verb never, and one without a
// verb whatever the request's verb); and a path that does not start with
// "/" matches nothing (the reference drops its first byte).

import (
	"fmt"
	"slices"
	"strings"
)

// matchStatus is the outcome of matching a request.
type matchStatus int

const (
	matched          matchStatus = iota // a route matched
	notFound                            // no template matches the path
	methodNotAllowed                    // templates match the path, for other methods only
)

// String names the status.
func (s matchStatus) String() string {
	switch s {
	case matched:
		return "matched"
	case notFound:
		return "notFound"
	case methodNotAllowed:
		return "methodNotAllowed"
	}
	return fmt.Sprintf("matchStatus(%d)", int(s))
}

// binding is the value of one variable of a matched template.
type binding struct {
	variable int    // index into the route template's variables()
	raw      string // the value as it is in the escaped path: one segment, or several with the slashes between them
	multi    bool   // the variable covers several segments or a "**" (see unescapeValue)
}

// bindings holds the values of the variables of a match, in the order of
// the template's variables. The first 8 are kept inline, so that a match
// allocates nothing for templates of up to 8 variables.
type bindings struct {
	n    int
	b    [8]binding
	more []binding
}

// add appends v.
func (b *bindings) add(v binding) {
	if b.n < len(b.b) {
		b.b[b.n] = v
	} else {
		b.more = append(b.more, v)
	}
	b.n++
}

// len returns the number of values.
func (b *bindings) len() int { return b.n }

// at returns value i, for 0 <= i < b.len().
func (b *bindings) at(i int) binding {
	if i < len(b.b) {
		return b.b[i]
	}
	return b.more[i-len(b.b)]
}

// reset empties b, keeping the storage of more.
func (b *bindings) reset() {
	b.n = 0
	b.more = b.more[:0]
}

// matchLeaf is a route that ends at a trie node.
type matchLeaf struct {
	method string // HTTP method, or "*" for any
	verb   string
	route  int
	tmpl   *pathTemplate
	desc   string
}

// trieNode is a node of the matcher's trie: a template prefix.
type trieNode struct {
	lits    map[string]*trieNode // children for literal segments, by their text
	star    *trieNode            // child for "*"
	dstar   *trieNode            // child for "**"
	isDStar bool                 // the node is a "**": it loops over segments
	leaves  []matchLeaf
}

// matchKey is what a walk looks for at the nodes where a path ends.
type matchKey struct {
	method    string
	verb      string
	anyMethod bool // a route of any method will do
}

// pathMatcher finds the route of a request path. Its zero value has no
// routes; add adds them. It may serve lookups from several goroutines
// once no more routes are added.
type pathMatcher struct {
	root    trieNode
	verbs   map[string]struct{} // the verbs of the templates
	methods []string            // the HTTP methods of the routes, sorted, without "*"
}

// add adds the route numbered route, for the HTTP method (or "*", the
// custom kind that matches any method) and template t; desc describes it
// in messages (the gRPC method, say). A route of the same method, shape
// and verb as an earlier one would never be matched, and is an error that
// names both:
//
//	transcode: GET /v1/{name=shelves/*} for pkg.S.GetShelf duplicates GET /v1/shelves/{shelf} for pkg.S.Other (both match /v1/shelves/x)
//
// Variables compare equal whatever their field names.
func (m *pathMatcher) add(method string, t *pathTemplate, route int, desc string) error {
	if method == "" {
		return fmt.Errorf("transcode: %s for %s: no HTTP method", t, desc)
	}
	if n := m.root.find(t); n != nil {
		for _, l := range n.leaves {
			if l.method == method && l.verb == t.verb() {
				return fmt.Errorf("transcode: %s %s for %s duplicates %s %s for %s (both match %s)",
					method, t, desc, l.method, l.tmpl, l.desc, examplePath(t))
			}
		}
	}
	n := &m.root
	for _, s := range t.segs {
		n = n.child(s)
	}
	n.leaves = append(n.leaves, matchLeaf{method: method, verb: t.verb(), route: route, tmpl: t, desc: desc})
	if v := t.verb(); v != "" {
		if m.verbs == nil {
			m.verbs = map[string]struct{}{}
		}
		m.verbs[v] = struct{}{}
	}
	if i, ok := slices.BinarySearch(m.methods, method); !ok && method != "*" {
		m.methods = slices.Insert(m.methods, i, method)
	}
	return nil
}

// find returns the node where t ends, nil if there is none yet.
func (n *trieNode) find(t *pathTemplate) *trieNode {
	for _, s := range t.segs {
		switch s.kind {
		case segLiteral:
			n = n.lits[s.lit]
		case segStar:
			n = n.star
		case segDoubleStar:
			n = n.dstar
		}
		if n == nil {
			return nil
		}
	}
	return n
}

// child returns n's child for s, adding it if there is none.
func (n *trieNode) child(s tmplSegment) *trieNode {
	var p **trieNode
	switch s.kind {
	case segLiteral:
		if c := n.lits[s.lit]; c != nil {
			return c
		}
		c := &trieNode{}
		if n.lits == nil {
			n.lits = map[string]*trieNode{}
		}
		n.lits[s.lit] = c
		return c
	case segStar:
		p = &n.star
	default:
		p = &n.dstar
	}
	if *p == nil {
		*p = &trieNode{isDStar: s.kind == segDoubleStar}
	}
	return *p
}

// examplePath returns a request path that t matches.
func examplePath(t *pathTemplate) string {
	var sb strings.Builder
	for _, s := range t.segs {
		sb.WriteByte('/')
		if s.kind == segLiteral {
			sb.WriteString(s.lit)
		} else {
			sb.WriteByte('x')
		}
	}
	if sb.Len() == 0 {
		sb.WriteByte('/')
	}
	if t.verb() != "" {
		sb.WriteString(":" + t.verb())
	}
	return sb.String()
}

// match finds the route for the HTTP method and path, the escaped path of
// the request (r.URL.EscapedPath(), no query), and stores the raw values
// of its variables in b (emptied first; b may be nil). It returns the
// route's number, or -1 with notFound, or with methodNotAllowed when
// routes of other methods match the path.
//
// Allocation: none, for any path, when the template has at most 8
// variables; the values are substrings of path.
func (m *pathMatcher) match(method, path string, b *bindings) (route int, st matchStatus) {
	if b != nil {
		b.reset()
	}
	p, verb, ok := m.split(path)
	if !ok {
		return -1, notFound
	}
	l := m.root.walk(p, 1, matchKey{method: method, verb: verb})
	if l == nil {
		if m.root.walk(p, 1, matchKey{verb: verb, anyMethod: true}) != nil {
			return -1, methodNotAllowed
		}
		return -1, notFound
	}
	if b != nil {
		bindValues(l.tmpl, p, b)
	}
	return l.route, matched
}

// allow returns the value of the Allow header for a request to path that
// match answers methodNotAllowed: the HTTP methods for which match finds
// a route, sorted and joined by ", " ("GET, POST"); "" if there is none.
// It names only methods of the routes: a route for any method ("*") that
// matches path would make every method allowed, but then match never
// answers methodNotAllowed for path. HEAD and OPTIONS are not added.
//
// Allocation: the returned string.
func (m *pathMatcher) allow(path string) string {
	p, verb, ok := m.split(path)
	if !ok {
		return ""
	}
	var sb strings.Builder
	for _, method := range m.methods {
		if m.root.walk(p, 1, matchKey{method: method, verb: verb}) != nil {
			if sb.Len() > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(method)
		}
	}
	return sb.String()
}

// split returns the part of path the segments come from and the verb, as
// the file comment says: path without its verb and trailing slashes, so
// that its segments start after each "/" of it; ok is false if path does
// not start with "/" and is not empty.
func (m *pathMatcher) split(path string) (p, verb string, ok bool) {
	if path == "" {
		return "", "", true
	}
	if path[0] != '/' {
		return "", "", false
	}
	if c := strings.LastIndexByte(path, ':'); c > strings.LastIndexByte(path, '/') {
		if _, isVerb := m.verbs[path[c+1:]]; isVerb {
			path, verb = path[:c], path[c+1:]
		}
	}
	return strings.TrimRight(path, "/"), verb, true
}

// walk returns the route for k at n or below, for the segments of p that
// start at offset pos (none if pos > len(p)); nil if there is none.
func (n *trieNode) walk(p string, pos int, k matchKey) *matchLeaf {
	for {
		if pos > len(p) {
			if l := n.pick(k); l != nil {
				return l
			}
			if n.dstar != nil { // "**" taking no segment
				return n.dstar.pick(k)
			}
			return nil
		}
		seg, next := p[pos:], len(p)+1
		if i := strings.IndexByte(seg, '/'); i >= 0 {
			seg, next = seg[:i], pos+i+1
		}
		if c := n.lits[seg]; c != nil {
			if l := c.walk(p, next, k); l != nil {
				return l
			}
		}
		if n.isDStar { // the segment is part of the "**"
			pos = next
			continue
		}
		if n.star != nil {
			if l := n.star.walk(p, next, k); l != nil {
				return l
			}
		}
		if n.dstar != nil {
			return n.dstar.walk(p, next, k)
		}
		return nil
	}
}

// pick returns n's route for k: the one for k's method, else one for any
// method; nil if neither ends at n.
func (n *trieNode) pick(k matchKey) *matchLeaf {
	var anyMethod *matchLeaf
	for i := range n.leaves {
		l := &n.leaves[i]
		if l.verb != k.verb {
			continue
		}
		if k.anyMethod || l.method == k.method {
			return l
		}
		if l.method == "*" {
			anyMethod = l
		}
	}
	return anyMethod
}

// bindValues adds to b the values of t's variables in p, a path (as split
// returns it) that t matches.
func bindValues(t *pathTemplate, p string, b *bindings) {
	if len(t.vars) == 0 {
		return
	}
	c := segCursor{p: p, n: strings.Count(p, "/"), off: 1}
	for i, v := range t.vars {
		lo, hi := t.segIndex(v.start, c.n), t.segIndex(v.end, c.n)
		raw := ""
		if hi > lo {
			raw = p[c.start(lo) : c.start(hi)-1]
		}
		b.add(binding{variable: i, raw: raw, multi: v.multi})
	}
}

// segCursor finds where the segments of a path start, going forward.
type segCursor struct {
	p      string
	n      int // the number of segments
	i, off int // segment i starts at p[off]
}

// start returns the offset in c.p where segment i starts, or len(c.p)+1 for
// i == c.n. i never decreases from one call to the next.
func (c *segCursor) start(i int) int {
	if i >= c.n {
		return len(c.p) + 1
	}
	for c.i < i {
		c.off += strings.IndexByte(c.p[c.off:], '/') + 1
		c.i++
	}
	return c.off
}
