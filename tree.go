package cairn

// This file holds the routing tree: one per host, keyed by path segments.
//
// Every node stands for a sequence of pattern segments. Its children are
// literal segments, constrained wildcards (in registration order), one
// unconstrained wildcard and one multi wildcard; the routes whose patterns end
// at a node are stored there, at most one per method. Given the patterns
// "GET /a/b", "POST /a/{x}" and "/a/", the tree is
//
//	/ -> "a" -> "b"        GET /a/b
//	          -> {x}        POST /a/{x}
//	          -> {...}      /a/
//
// A lookup walks the path segment by segment, trying literal children first,
// then constrained wildcards, then the plain wildcard, then the multi, and
// stops at the first node that ends the path and holds a route for the
// request's method. For "POST /a/b" it tries "b" (which has only GET), backs
// up to {x}, and answers POST /a/{x}. Because conflicting patterns are
// rejected at registration, this first match is the most specific pattern
// that matches, as net/http.ServeMux would choose. The one exception is a
// set of "ordered" patterns, which differ only in the constraints of some
// wildcards (/{n:int} and /{h:hex}): they match the same requests but for
// those constraints, so among the constrained children that match a
// segment the lookup tries them all and keeps the route registered first.
//
// Invariant: a lookup visits each node at most once (a node is reached only
// from its one parent, which tries each child once), so its cost is bounded
// by the size of the tree whatever the pattern set, and its recursion depth
// by the length of the longest pattern, whatever the path.
//
// Registration builds the mutable tree of [node]s under the router's lock.
// Lookups never see it: they use an immutable compiled copy made of
// [lookupNode]s, published atomically (see table.go).

import (
	"net/http"
	"slices"
	"strings"
)

// A route is a registered pattern and its handler.
type route struct {
	pat     *pattern
	handler http.Handler // the whole chain: router, group and route middleware
	seq     int          // registration order, for ordered patterns
	multi   bool         // pat ends in a multi wildcard
	nsegs   int          // the number of segments of pat
	version string       // "" for an unversioned route
	mw      int          // group and route middleware in the chain
	mount   *mounted     // the mount, for a route made by Mount

	// versions is set only on the routes of compiled leaves: on the one
	// route a leaf holds for a method that has versioned routes.
	versions *versionSet
}

// newRoute returns the route for p and h, the seq-th registered.
func newRoute(p *pattern, h http.Handler, seq int) *route {
	return &route{pat: p, handler: h, seq: seq, multi: p.lastSegment().kind == segMulti, nsegs: len(p.segments)}
}

// node is a node of the registration tree.
type node struct {
	lits   map[string]*node // literal children, by unescaped segment; "/" is {$}
	cons   []*node          // constrained wildcard children, in registration order
	con    *constraint      // the constraint of this node, for a child in cons
	wild   *node            // the unconstrained wildcard child
	multi  *node            // the multi wildcard child
	routes []*route         // the routes that end here: one per method and version
	label  string           // the segment as the first pattern through n wrote it
}

// insert adds rt to the tree rooted at n.
func (n *node) insert(rt *route) {
	for _, s := range rt.pat.segments {
		c := n.child(s)
		if c.label == "" {
			c.label = s.label()
		}
		n = c
	}
	n.routes = append(n.routes, rt)
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
	for _, c := range n.cons {
		if c.con.key == s.con.key {
			return c
		}
	}
	c := &node{con: s.con}
	n.cons = append(n.cons, c)
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
	for _, c := range n.cons {
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
	for _, c := range n.cons {
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

// lookupNode is a node of the compiled tree that lookups walk. It mirrors a
// [node] and is never modified once published.
type lookupNode struct {
	// Optimization: literal children are found by their first byte, then
	// compared whole; large sets use a map instead. Invariant: litKeys is
	// sorted, so keys with the same first byte are adjacent;
	// litFirst[i] == litKeys[i][0] (0 for the empty key); litNodes[i] is
	// the child for litKeys[i]; with more than maxScannedFirst children,
	// litIndex[b] is one more than the index of the first key that starts
	// with b, or 0 if none does, and litFirst is not scanned.
	litFirst string
	litIndex *[256]uint8
	litKeys  []string
	litNodes []*lookupNode
	litMap   map[string]*lookupNode

	cons  []*lookupNode
	con   *constraint
	wild  *lookupNode
	multi *lookupNode
	leaf  *leaf // nil if no route ends here
}

// maxScannedLiterals is the number of literal children above which a
// lookupNode uses a map; maxScannedFirst the number above which it indexes
// first bytes with a table instead of scanning them.
const (
	maxScannedLiterals = 64
	maxScannedFirst    = 8
)

// A leaf holds the routes that end at a node, by method.
type leaf struct {
	methods []string // explicit methods, sorted
	routes  []*route // routes[i] is the route for methods[i]
	get     *route   // the GET route, which also answers HEAD
	any     *route   // the method-less route
	mask    methodSet
	// versioned is set if some route has versions. Optimization: route
	// sends such leaves down a separate path, keeping the common one short.
	versioned bool
}

// route returns the route of l for q, or nil: the route with exactly q's
// method, else the GET route for HEAD, else the method-less route. A route
// that has versions stands for the version q's request asks for, and is
// passed over if no version of it is acceptable.
func (l *leaf) route(q *query) *route {
	if l.versioned {
		return l.routeVersioned(q)
	}
	for i, m := range l.methods {
		if m == q.method {
			return l.routes[i]
		}
	}
	if q.method == http.MethodHead && l.get != nil {
		return l.get
	}
	return l.any
}

// routeVersioned is route for a leaf with versioned routes.
func (l *leaf) routeVersioned(q *query) *route {
	for i, m := range l.methods {
		if m == q.method {
			if rt := q.pick(l.routes[i]); rt != nil {
				return rt
			}
			break
		}
	}
	if q.method == http.MethodHead && l.get != nil {
		if rt := q.pick(l.get); rt != nil {
			return rt
		}
	}
	return q.pick(l.any)
}

// pick returns rt or, if rt has versions, the one that q's request asks
// for, or nil if none is acceptable.
func (q *query) pick(rt *route) *route {
	if rt == nil || rt.versions == nil {
		return rt
	}
	q.varies = true
	if v := q.versioning.choose(q.req, rt.versions); v != nil {
		return v
	}
	if q.rejected == nil {
		q.rejected = rt
	}
	return nil
}

// A compiler turns a registration tree into a lookup tree.
type compiler struct {
	methods *methodIndex
	static  map[string]*leaf // leaves of all-literal patterns, by path
}

// compile returns the lookup form of n. If literal is set, every segment on
// the way to n is a literal without a '/' ({$} only at the end) and key is
// the path that leads to n; such leaves also go into c.static.
func (c *compiler) compile(n *node, key string, literal bool) *lookupNode {
	if n == nil {
		return nil
	}
	ln := &lookupNode{con: n.con}
	keys := sortedKeys(n.lits)
	if len(keys) > maxScannedLiterals {
		ln.litMap = make(map[string]*lookupNode, len(keys))
	}
	for _, k := range keys {
		childKey, childLiteral := "", false
		switch {
		case !literal:
		case k == "/":
			childKey, childLiteral = key+"/", true
		case strings.IndexByte(k, '/') < 0:
			childKey, childLiteral = key+"/"+k, true
		}
		child := c.compile(n.lits[k], childKey, childLiteral)
		if ln.litMap != nil {
			ln.litMap[k] = child
		} else {
			ln.litKeys = append(ln.litKeys, k)
			ln.litNodes = append(ln.litNodes, child)
			ln.litFirst += string([]byte{firstByte(k)})
		}
	}
	if len(ln.litKeys) > maxScannedFirst {
		ln.litIndex = new([256]uint8)
		for i := len(ln.litKeys) - 1; i >= 0; i-- {
			ln.litIndex[ln.litFirst[i]] = uint8(i + 1)
		}
	}
	for _, cn := range n.cons {
		ln.cons = append(ln.cons, c.compile(cn, "", false))
	}
	ln.wild = c.compile(n.wild, "", false)
	ln.multi = c.compile(n.multi, "", false)
	if len(n.routes) > 0 {
		ln.leaf = compileLeaf(n.routes, c.methods)
		// Unclean paths are redirected before they could match.
		if literal && isClean(key) {
			c.static[key] = ln.leaf
		}
	}
	return ln
}

// compileLeaf builds the leaf for routes, which share their path shape.
// The routes of one method are one route, unless some are versioned: then
// the leaf holds a copy of the unversioned route (or of the first versioned
// one, if there is none) that carries the set of versions.
func compileLeaf(routes []*route, mi *methodIndex) *leaf {
	l := &leaf{}
	sorted := slices.Clone(routes)
	slices.SortFunc(sorted, func(a, b *route) int {
		if c := strings.Compare(a.pat.method, b.pat.method); c != 0 {
			return c
		}
		return strings.Compare(a.version, b.version)
	})
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && sorted[j].pat.method == sorted[i].pat.method {
			j++
		}
		rt := sorted[i]
		if j > i+1 || rt.version != "" {
			// Copies of the routes of the method, all with the order of
			// the first registered, so that ordered patterns keep their
			// order whatever version is chosen.
			seq := rt.seq
			for _, v := range sorted[i+1 : j] {
				seq = min(seq, v.seq)
			}
			group := make([]*route, j-i)
			for k, v := range sorted[i:j] {
				c := *v
				c.seq = seq
				group[k] = &c
			}
			vs := &versionSet{versions: group}
			if rt.version == "" {
				vs.def, vs.versions = group[0], group[1:]
			}
			c := *group[0]
			c.versions = vs
			rt = &c
			l.versioned = true
		}
		i = j
		switch m := rt.pat.method; m {
		case "":
			l.any = rt
		default:
			if m == http.MethodGet {
				l.get = rt
			}
			l.methods = append(l.methods, m)
			l.routes = append(l.routes, rt)
			l.mask = l.mask.with(mi.bit(m))
		}
	}
	return l
}

// firstByte returns the first byte of s, or 0 if s is empty.
func firstByte(s string) byte {
	if s == "" {
		return 0
	}
	return s[0]
}

// child returns the literal child of n for the unescaped segment seg.
func (n *lookupNode) child(seg string) *lookupNode {
	if n.litMap != nil {
		return n.litMap[seg]
	}
	c := firstByte(seg)
	if n.litIndex != nil {
		for i := int(n.litIndex[c]) - 1; i >= 0 && i < len(n.litKeys) && n.litFirst[i] == c; i++ {
			if n.litKeys[i] == seg {
				return n.litNodes[i]
			}
		}
		return nil
	}
	for i := 0; i < len(n.litFirst); i++ {
		if n.litFirst[i] != c {
			continue
		}
		for ; i < len(n.litKeys) && n.litFirst[i] == c; i++ {
			if n.litKeys[i] == seg {
				return n.litNodes[i]
			}
		}
		break
	}
	return nil
}

// A query is what a lookup needs besides the path, and what it found out.
type query struct {
	method     string
	host, path string // the host and path of the request, as looked up
	escaped    bool   // path segments must be unescaped before use
	checkClean bool   // stop at an empty, "." or ".." segment
	unclean    bool   // set when checkClean found such a segment
	steps      int    // nodes visited, to check the cost bound in tests

	// For routes with versions: the request and how it chooses a version;
	// whether a route with versions was considered (so the answer depends
	// on the version asked for); and the first such route passed over
	// because none of its versions was acceptable.
	req        *http.Request
	versioning *versioning
	varies     bool
	rejected   *route
}

// lookup returns the first route, in precedence order, that matches the path
// p (followed by one more "/" if slash is set) and q's method, or nil.
//
// Allocation: none, unless q.escaped is set and a segment that must be
// compared holds a percent-escape.
func (n *lookupNode) lookup(p string, slash bool, q *query) *route {
	q.steps++
	if p == "" {
		if !slash {
			if n.leaf == nil {
				return nil
			}
			return n.leaf.route(q)
		}
		p, slash = "/", false
	}
	seg, rest := nextSegment(p)
	if q.checkClean && (seg == "" || seg[0] == '.' && (seg == "." || seg == "..")) {
		// The path is not clean: the caller redirects it.
		q.unclean = true
		return nil
	}
	if q.escaped {
		seg = pathUnescape(seg)
	}
	if c := n.child(seg); c != nil {
		if rt := c.lookup(rest, slash, q); rt != nil {
			return rt
		}
	}
	// A single wildcard never matches the trailing slash.
	if seg != "/" {
		var first *route
		for _, c := range n.cons {
			if c.con.match(seg) {
				if rt := c.lookup(rest, slash, q); rt != nil && (first == nil || rt.seq < first.seq) {
					first = rt
				}
			}
		}
		if first != nil {
			return first
		}
		if n.wild != nil {
			if rt := n.wild.lookup(rest, slash, q); rt != nil {
				return rt
			}
		}
	}
	if n.multi != nil && n.multi.leaf != nil {
		return n.multi.leaf.route(q)
	}
	return nil
}

// allowed adds to acc the methods of every route, whatever its method, that
// matches the path p (followed by "/" if slash is set).
func (n *lookupNode) allowed(p string, slash, escaped bool, acc *allowSet) {
	if p == "" {
		if !slash {
			if n.leaf != nil {
				acc.add(n.leaf)
			}
			return
		}
		p, slash = "/", false
	}
	seg, rest := nextSegment(p)
	if escaped {
		seg = pathUnescape(seg)
	}
	if c := n.child(seg); c != nil {
		c.allowed(rest, slash, escaped, acc)
	}
	if seg != "/" {
		for _, c := range n.cons {
			if c.con.match(seg) {
				c.allowed(rest, slash, escaped, acc)
			}
		}
		if n.wild != nil {
			n.wild.allowed(rest, slash, escaped, acc)
		}
	}
	if n.multi != nil && n.multi.leaf != nil {
		acc.add(n.multi.leaf)
	}
}
