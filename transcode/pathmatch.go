package transcode

// This file matches request paths to templates, as the reference
// implementation (grpc-httpjson-transcoding, behind Envoy and ESP) does.
//
// Templates are kept in a trie of segments. Each node has literal
// children, one child for "*" (and {x}, which is {x=*}) and one for "**";
// its results map an HTTP method and verb to a route. A request path is
// cut into segments (trailing empty segments dropped, so /v1/shelves/ is
// /v1/shelves), and its verb split off if the last segment ends in
// ":verb" for a verb some template has; otherwise the colon stays in the
// segment, so /v1/books/a:b reaches /v1/books/*. The walk then tries, at
// each segment, the literal child first, then "*", then "**", and goes
// back to try the next when a choice fails further on. Given the
// templates /v1/a/*/c and /v1/*/b/d, the path /v1/a/b/d first follows the
// literal a, fails at d, and comes back to take * for a: specificity, not
// registration order, decides. A "**" node takes segments one by one
// until the rest matches one of its literal children (only literals may
// follow "**"), or the path ends.
//
// Bound: outside a "**" a trie node sits at one depth, so it is visited at
// most once; below a "**" at most once per segment of the path. A lookup
// therefore visits at most (template segments registered) × (path
// segments) nodes, and recursion is no deeper than the longest template.
//
// Segments are compared as they appear in the escaped path: %2F in a
// segment does not split it, and a literal matches only the same text.

import (
	"fmt"
	"sort"
	"strings"
)

// matchStatus is the outcome of a lookup.
type matchStatus uint8

const (
	matched          matchStatus = iota // a route matched
	notFound                            // no template matches the path
	methodNotAllowed                    // templates match the path, for other methods
)

// String names the status.
func (s matchStatus) String() string {
	switch s {
	case matched:
		return "matched"
	case notFound:
		return "not found"
	}
	return "method not allowed"
}

// binding is the value of one variable in a request path.
type binding struct {
	variable int    // index into the route template's variables
	raw      string // the value as it is in the escaped path: one segment, or several with their slashes
	multi    bool   // the variable covers several segments or a "**": reserved characters stay escaped
}

// bindings holds the values of a match. Up to 8 are kept inline, so that a
// match allocates nothing.
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

// at returns the i-th value.
func (b *bindings) at(i int) binding {
	if i < len(b.b) {
		return b.b[i]
	}
	return b.more[i-len(b.b)]
}

// span is one segment of a request path: path[lo:hi].
type span struct{ lo, hi int }

// maxInlineSegments is the number of segments a lookup keeps without
// allocating.
const maxInlineSegments = 32

// matchResult is a route at a trie node.
type matchResult struct {
	method, verb string // "*" for the method matches any
	route        int
	tmpl         *pathTemplate
	desc         string
}

// matchNode is a node of the trie.
type matchNode struct {
	literals map[string]*matchNode
	star     *matchNode // "*" and {x}
	double   *matchNode // "**"
	isDouble bool       // this node is a "**": it takes segments in a loop
	results  []matchResult
}

// pathMatcher finds the route of a request path.
type pathMatcher struct {
	root    matchNode
	verbs   map[string]bool // verbs of the templates
	methods []string        // HTTP methods of the routes, sorted, without "*"
}

// add adds the route for method and t. A route that matches exactly the
// requests of an earlier one is an error that names both.
func (m *pathMatcher) add(method string, t *pathTemplate, route int, desc string) error {
	n := &m.root
	for _, sg := range t.segs {
		var next **matchNode
		switch sg.kind {
		case segLiteral:
			if n.literals == nil {
				n.literals = map[string]*matchNode{}
			}
			c := n.literals[sg.lit]
			if c == nil {
				c = &matchNode{}
				n.literals[sg.lit] = c
			}
			n = c
			continue
		case segStar:
			next = &n.star
		case segDoubleStar:
			next = &n.double
		}
		if *next == nil {
			*next = &matchNode{isDouble: sg.kind == segDoubleStar}
		}
		n = *next
	}
	for _, r := range n.results {
		if r.method == method && r.verb == t.verb() {
			return fmt.Errorf("transcode: %s %s for %s matches the same requests as %s %s for %s",
				method, t, desc, r.method, r.tmpl, r.desc)
		}
	}
	n.results = append(n.results, matchResult{method: method, verb: t.verb(), route: route, tmpl: t, desc: desc})
	if t.verb() != "" {
		if m.verbs == nil {
			m.verbs = map[string]bool{}
		}
		m.verbs[t.verb()] = true
	}
	if method != "*" {
		i := sort.SearchStrings(m.methods, method)
		if i == len(m.methods) || m.methods[i] != method {
			m.methods = append(m.methods, "")
			copy(m.methods[i+1:], m.methods[i:])
			m.methods[i] = method
		}
	}
	return nil
}

// split cuts path, which starts with "/" or is empty, into its segments
// and verb, into buf if they fit.
func (m *pathMatcher) split(path string, buf []span) (parts []span, verb string) {
	if c := strings.LastIndexByte(path, ':'); c >= 0 && c > strings.LastIndexByte(path, '/') && m.verbs[path[c+1:]] {
		verb = path[c+1:]
		path = path[:c]
	}
	parts = buf[:0]
	if path != "" {
		for lo := 1; ; {
			i := strings.IndexByte(path[lo:], '/')
			if i < 0 {
				parts = append(parts, span{lo, len(path)})
				break
			}
			parts = append(parts, span{lo, lo + i})
			lo += i + 1
		}
	}
	for len(parts) > 0 && parts[len(parts)-1].lo == parts[len(parts)-1].hi {
		parts = parts[:len(parts)-1]
	}
	return parts, verb
}

// lookup finds the result for method and verb at or below n, for the
// segments of path from parts[i] on.
func (n *matchNode) lookup(path string, parts []span, i int, method, verb string) *matchResult {
	for ; ; i++ {
		if i == len(parts) {
			if r := n.result(method, verb); r != nil {
				return r
			}
			if n.double != nil { // "**" matches no segment at the end
				return n.double.result(method, verb)
			}
			return nil
		}
		if c := n.literals[path[parts[i].lo:parts[i].hi]]; c != nil {
			if r := c.lookup(path, parts, i+1, method, verb); r != nil {
				return r
			}
		}
		if !n.isDouble {
			break
		}
	}
	if n.star != nil {
		if r := n.star.lookup(path, parts, i+1, method, verb); r != nil {
			return r
		}
	}
	if n.double != nil {
		if r := n.double.lookup(path, parts, i+1, method, verb); r != nil {
			return r
		}
	}
	return nil
}

// result returns n's result for method (or any method) and verb.
func (n *matchNode) result(method, verb string) *matchResult {
	var any *matchResult
	for i := range n.results {
		r := &n.results[i]
		if r.verb != verb {
			continue
		}
		if r.method == method {
			return r
		}
		if r.method == "*" {
			any = r
		}
	}
	return any
}

// match finds the route for method and the escaped path, and stores its
// variables' values in b.
//
// Allocation: none for a path of up to 32 segments and a template of up to
// 8 variables.
func (m *pathMatcher) match(method, path string, b *bindings) (route int, st matchStatus) {
	if path != "" && path[0] != '/' { // "*" of OPTIONS *, say
		return -1, notFound
	}
	var buf [maxInlineSegments]span
	parts, verb := m.split(path, buf[:])
	r := m.root.lookup(path, parts, 0, method, verb)
	if r == nil {
		for _, other := range m.methods {
			if other != method && m.root.lookup(path, parts, 0, other, verb) != nil {
				return -1, methodNotAllowed
			}
		}
		return -1, notFound
	}
	for i, v := range r.tmpl.vars {
		end := v.end
		if v.toEnd {
			end = len(parts) - v.end
		}
		raw := ""
		if end > v.start {
			raw = path[parts[v.start].lo:parts[end-1].hi]
		}
		b.add(binding{variable: i, raw: raw, multi: v.toEnd || end-v.start > 1})
	}
	return r.route, matched
}

// allow returns the methods whose routes match path, sorted.
func (m *pathMatcher) allow(path string) []string {
	var buf [maxInlineSegments]span
	parts, verb := m.split(path, buf[:])
	var ms []string
	for _, method := range m.methods {
		if m.root.lookup(path, parts, 0, method, verb) != nil {
			ms = append(ms, method)
		}
	}
	return ms
}
