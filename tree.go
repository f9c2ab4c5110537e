package cairn

// This file holds the routes and what registration asks of the lookup
// tree (see lookup.go): the routes a new pattern might conflict with, and
// the nodes that groups claim. Registration reads the trees of the
// router's newest table, under the router's lock; the same trees route
// requests.
//
// Every node stands for a sequence of pattern segments. Its children are
// literal segments, constrained wildcards (in registration order), one
// unconstrained wildcard and one multi wildcard; the routes whose patterns
// end at a node are in its leaf, at most one per method and version.
// Given the patterns "GET /a/b", "POST /a/{x}" and "/a/", the tree is
//
//	/ -> "a" -> "b"        GET /a/b
//	          -> {x}        POST /a/{x}
//	          -> {...}      /a/
//
// Most static routes are not in the tree: those with a method are only
// in the index of static paths, which lookups read first (see
// change.addRoute).
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
	//
	// Optimization: a route is 48 bytes. Its index in the router's routes
	// is its identity's (see index), the number of its segments its
	// layout's, and its router its group's.
	handler http.Handler // as registered, without middleware
	// group is the innermost group whose middleware wraps the route, or
	// the router's base group, which has none; see hops.
	group      *groupNode
	multi      bool    // pat ends in a multi wildcard
	hasMount   bool    // the route was made by Mount: more.mount is set
	pathValues setting // whether to populate r.PathValue; settingDefault for the router's choice
	seq        int32   // the order that ordered patterns are tried in (see lookup.go)

	// id is the identity the route serves with, which holds its pattern:
	// id.pat.str is what the route sets as r.Pattern.
	id *ident

	// Optimization: a version, a name, a set of versions and a mount,
	// which most routes lack, are kept apart, so that a route is 48 bytes
	// smaller. more is nil for such routes, and never changed once the
	// route is made: a copy of a route that needs other values gets its
	// own.
	more *routeMore
}

// index returns rt's position in its router's routes: its registration
// order.
func (rt *route) index() int { return int(rt.id.route) }

// router returns the router rt is registered with.
func (rt *route) router() *Router { return rt.group.r }

// routeMore holds the parts of a route that most routes lack.
type routeMore struct {
	version string   // "" for an unversioned route
	name    string   // "" for an unnamed route
	mount   *mounted // the mount, for a route made by Mount

	// versions is set only on the routes of lookup leaves: on the one
	// route a leaf holds for a method that has versioned routes.
	versions *versionSet
}

// version returns the version rt was registered for, or "".
func (rt *route) version() string {
	if rt.more == nil {
		return ""
	}
	return rt.more.version
}

// name returns the name of rt, or "".
func (rt *route) name() string {
	if rt.more == nil {
		return ""
	}
	return rt.more.name
}

// mount returns the mount that made rt, or nil.
func (rt *route) mount() *mounted {
	if !rt.hasMount {
		return nil
	}
	return rt.more.mount
}

// versions returns the versions among which a request that rt, the route
// of a lookup leaf, matched is served, or nil if rt has none.
func (rt *route) versions() *versionSet {
	if rt.more == nil {
		return nil
	}
	return rt.more.versions
}

// entry returns the handler that serves a request rt matched: rt's
// handler, inside the middleware of the groups that wrap it.
func (rt *route) entry() http.Handler {
	if len(rt.group.hops) == 0 {
		return rt.handler
	}
	return rt.group.hops[0].entry
}

// hops returns the groups whose middleware wraps rt, outermost first.
//
// Optimization: a route keeps its innermost group, whose hops they are,
// instead of the slice, so that a route is 16 bytes smaller. A group
// node is not changed once made.
func (rt *route) hops() []*groupNode {
	return rt.group.hops
}

// initRoute makes *rt, a zero route, the route for h, the one of index
// idx, whose identity id holds its pattern; the index is kept in id.
func initRoute(rt *route, id *ident, h http.Handler, idx int) {
	id.route = uint32(idx)
	*rt = route{id: id, handler: h, seq: int32(idx), multi: id.pat.endsInMulti()}
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

// eachOverlapping calls f for every route under n whose path might match a
// path that segs also matches. It is the candidate set for conflict checks:
// a superset of the routes that overlap segs, usually a small one.
func (n *lookupNode) eachOverlapping(segs []segment, f func(*route)) {
	if n == nil {
		return
	}
	if len(segs) == 0 {
		n.leaf.each(f)
		return
	}
	s, rest := segs[0], segs[1:]
	if s.kind() == segMulti {
		n.each(f)
		return
	}
	switch {
	case s.kind() == segLiteral:
		n.child(s.s).eachOverlapping(rest, f)
	case n.litMap() != nil:
		// In any order: the keys are not sorted first.
		for _, c := range n.litMap().all {
			c.eachOverlapping(rest, f)
		}
	default:
		for _, l := range n.lits {
			l.node.eachOverlapping(rest, f)
		}
	}
	for _, c := range n.constrained() {
		c.node.eachOverlapping(rest, f)
	}
	n.wild.eachOverlapping(rest, f)
	if m := n.multi(); m != nil {
		m.leaf.each(f)
	}
}

// each calls f for every route in the tree rooted at n, literal children
// in the order of their keys.
func (n *lookupNode) each(f func(*route)) {
	if n == nil {
		return
	}
	n.leaf.each(f)
	n.eachLiteral(func(_ string, c *lookupNode) { c.each(f) })
	for _, c := range n.constrained() {
		c.node.each(f)
	}
	n.wild.each(f)
	n.multi().each(f)
}

// eachLiteral calls f for every literal child of n and its key, in the
// order of the keys.
func (n *lookupNode) eachLiteral(f func(key string, c *lookupNode)) {
	lm := n.litMap()
	if lm == nil {
		for _, l := range n.lits {
			f(l.key, l.node)
		}
		return
	}
	var keys []string
	for k := range lm.all {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		f(k, lm.get(k))
	}
}

// first returns the route under n that was registered first, or nil.
func (n *lookupNode) first() *route {
	var first *route
	n.each(func(rt *route) {
		if first == nil || rt.index() < first.index() {
			first = rt
		}
	})
	return first
}

// label returns the segment at depth of the patterns through n, n a child
// at that depth, as the first registered pattern that names it writes it:
// a trailing slash ("" for "/files/") gives way to a later
// "/files/{path...}". A node that only a group's claim made (a group's
// prefix, with routes under another host or none yet) takes its label
// from the claim's prefix.
func (n *lookupNode) label(depth int) string {
	var first *route
	below := false // some route goes on below n
	n.each(func(rt *route) {
		below = below || rt.id.pat.numSegments() > depth+1
		if rt.id.pat.segmentLabel(depth) != "" && (first == nil || rt.index() < first.index()) {
			first = rt
		}
	})
	if first != nil {
		l := first.id.pat.segmentLabel(depth)
		if l == "{$}" && below {
			// The literal "/" that {$} ends a pattern with, which a route
			// that goes on wrote %2F; the two match the same segments.
			return "%2F"
		}
		return l
	}
	if g := n.firstClaim(); g != nil && depth < g.prefix.numSegments() {
		return g.prefix.segmentLabel(depth)
	}
	return ""
}

// firstClaim returns the claim of n or of a node below it, or nil: the
// one nearest n, in the order of each.
func (n *lookupNode) firstClaim() *groupNode {
	if n == nil || !n.claims() {
		return nil
	}
	if g := n.claim(); g != nil {
		return g
	}
	var g *groupNode
	n.eachLiteral(func(_ string, c *lookupNode) {
		if g == nil {
			g = c.firstClaim()
		}
	})
	for _, c := range n.constrained() {
		if g == nil {
			g = c.node.firstClaim()
		}
	}
	if g == nil {
		g = n.wild.firstClaim()
	}
	if g == nil {
		g = n.multi().firstClaim()
	}
	return g
}

// find returns the node for segs below n, or nil if there is none.
func (n *lookupNode) find(segs []segment) *lookupNode {
	for _, s := range segs {
		if n == nil {
			return nil
		}
		switch {
		case s.kind() == segLiteral:
			n = n.child(s.s)
		case s.kind() == segMulti:
			n = n.multi()
		case s.constrainedBy() == nil:
			n = n.wild
		default:
			key := s.constrainedBy().key
			cons := n.constrained()
			i := slices.IndexFunc(cons, func(c conChild) bool { return c.con.key == key })
			if i < 0 {
				return nil
			}
			n = cons[i].node
		}
	}
	return n
}
