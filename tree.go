package cairn

// This file holds the registration tree, one per host, keyed by path
// segments, and the routes it holds.
//
// Every node stands for a sequence of pattern segments. Its children are
// literal segments, constrained wildcards (in registration order), one
// unconstrained wildcard and one multi wildcard; the routes whose patterns
// end at a node are stored there, at most one per method and version.
// Given the patterns "GET /a/b", "POST /a/{x}" and "/a/", the tree is
//
//	/ -> "a" -> "b"        GET /a/b
//	          -> {x}        POST /a/{x}
//	          -> {...}      /a/
//
// The registration tree is changed only under the router's lock. It finds
// the routes a new pattern might conflict with, and it is what Routes and
// WriteTree show. Lookups never see it: they walk a lookup tree of the same
// shape (see lookup.go), which each registration brings up to date along
// the new pattern's path.
//
// A node may also be claimed by a group: the group's middleware then
// covers the router's own answers (404, 405, OPTIONS, 406, redirects) for
// the paths below the node (see dispatch.go).

import (
	"net/http"
	"slices"
)

// A route is a registered pattern and its handler.
type route struct {
	// Optimization: what serving a route that matched reads comes first,
	// so that it shares as few cache lines as it can.
	handler    http.Handler // as registered, without middleware
	hops       []*groupNode // the groups whose middleware wraps the route, outermost first
	mount      *mounted     // the mount, for a route made by Mount
	multi      bool         // pat ends in a multi wildcard
	pathValues setting      // whether to populate r.PathValue; settingDefault for the router's choice
	nsegs      int32        // the number of segments of pat

	pat     *pattern
	index   int32  // position in the router's routes: registration order
	seq     int32  // the order that ordered patterns are tried in (see lookup.go)
	version string // "" for an unversioned route
	name    string // "" for an unnamed route

	serveID *ident  // r.Pattern when the route serves; its string is pat.str
	r       *Router // the router the route is registered with

	// versions is set only on the routes of lookup leaves: on the one
	// route a leaf holds for a method that has versioned routes.
	versions *versionSet
}

// newRoute returns the route for p and h, the one of index idx.
func newRoute(p *pattern, h http.Handler, idx int) *route {
	return &route{pat: p, handler: h, index: int32(idx), seq: int32(idx), multi: p.lastSegment().kind == segMulti, nsegs: int32(len(p.segments))}
}

// A setting is a per-route or per-group choice that may defer to the
// router's.
type setting int8

const (
	settingDefault setting = iota // the router's choice
	settingOn
	settingOff
)

// String returns the setting's name.
func (s setting) String() string {
	switch s {
	case settingDefault:
		return "default"
	case settingOn:
		return "on"
	case settingOff:
		return "off"
	}
	return "setting(?)"
}

// node is a node of the registration tree.
type node struct {
	lits   map[string]*node // literal children, by unescaped segment; "/" is {$}
	wild   *node            // the unconstrained wildcard child
	multi  *node            // the multi wildcard child
	routes []*route         // the routes that end here: one per method and version
	label  string           // the segment as the first pattern through n wrote it
	// Optimization: what few nodes have is kept apart, so that every node
	// is four words smaller.
	rare *rareNode // nil if n has none of its fields
}

// A rareNode holds the fields of a node that few nodes have.
type rareNode struct {
	cons  []*node     // constrained wildcard children, in registration order
	con   *constraint // the constraint of the node, for a child in cons
	claim *groupNode  // the group that claims the paths from the node down, if any
}

// cons returns the constrained wildcard children of n, in registration
// order.
func (n *node) cons() []*node {
	if n.rare == nil {
		return nil
	}
	return n.rare.cons
}

// con returns the constraint of n, if n is a constrained wildcard child.
func (n *node) con() *constraint {
	if n.rare == nil {
		return nil
	}
	return n.rare.con
}

// claim returns the group that claims the paths from n down, or nil.
func (n *node) claim() *groupNode {
	if n.rare == nil {
		return nil
	}
	return n.rare.claim
}

// more returns the rare fields of n, adding them if needed.
func (n *node) more() *rareNode {
	if n.rare == nil {
		n.rare = &rareNode{}
	}
	return n.rare
}

// descend returns the node for segs below n, creating nodes as needed.
func (n *node) descend(segs []segment) *node {
	for _, s := range segs {
		c := n.child(s)
		if c.label == "" {
			c.label = s.label()
		}
		n = c
	}
	return n
}

// child returns the child of n for s, creating it if needed.
func (n *node) child(s segment) *node {
	switch {
	case s.kind == segLiteral:
		if c := n.lits[s.s]; c != nil {
			return c
		}
		if n.lits == nil {
			n.lits = map[string]*node{}
		}
		c := &node{}
		n.lits[s.s] = c
		return c
	case s.kind == segMulti:
		if n.multi == nil {
			n.multi = &node{}
		}
		return n.multi
	case s.con == nil:
		if n.wild == nil {
			n.wild = &node{}
		}
		return n.wild
	}
	for _, c := range n.cons() {
		if c.con().key == s.con.key {
			return c
		}
	}
	c := &node{rare: &rareNode{con: s.con}}
	m := n.more()
	m.cons = append(m.cons, c)
	return c
}

// eachOverlapping calls f for every route under n whose path might match a
// path that segs also matches. It is the candidate set for conflict checks:
// a superset of the routes that overlap segs, usually a small one.
func (n *node) eachOverlapping(segs []segment, f func(*route)) {
	if n == nil {
		return
	}
	if len(segs) == 0 {
		for _, rt := range n.routes {
			f(rt)
		}
		return
	}
	s, rest := segs[0], segs[1:]
	if s.kind == segMulti {
		n.each(f)
		return
	}
	if s.kind == segLiteral {
		n.lits[s.s].eachOverlapping(rest, f)
	} else {
		for _, c := range n.lits {
			c.eachOverlapping(rest, f)
		}
	}
	for _, c := range n.cons() {
		c.eachOverlapping(rest, f)
	}
	n.wild.eachOverlapping(rest, f)
	if n.multi != nil {
		for _, rt := range n.multi.routes {
			f(rt)
		}
	}
}

// each calls f for every route in the tree rooted at n.
func (n *node) each(f func(*route)) {
	if n == nil {
		return
	}
	for _, rt := range n.routes {
		f(rt)
	}
	for _, k := range sortedKeys(n.lits) {
		n.lits[k].each(f)
	}
	for _, c := range n.cons() {
		c.each(f)
	}
	n.wild.each(f)
	n.multi.each(f)
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// find returns the node for segs below n, or nil if there is none.
func (n *node) find(segs []segment) *node {
	for _, s := range segs {
		if n == nil {
			return nil
		}
		switch {
		case s.kind == segLiteral:
			n = n.lits[s.s]
		case s.kind == segMulti:
			n = n.multi
		case s.con == nil:
			n = n.wild
		default:
			cons := n.cons()
			i := slices.IndexFunc(cons, func(c *node) bool { return c.con().key == s.con.key })
			if i < 0 {
				return nil
			}
			n = cons[i]
		}
	}
	return n
}
