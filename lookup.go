package cairn

// This file holds the lookup tree that requests are routed with, one per
// host, with the routes that end at each node gathered by method into a
// leaf. Registration reads it too, to find conflicts (see tree.go).
//
// A lookup walks the path segment by segment, trying literal children first,
// then constrained wildcards, then the plain wildcard, then the multi, and
// stops at the first node that ends the path and holds a route for the
// request's method. Given "GET /a/b", "POST /a/{x}" and "/a/", for
// "POST /a/b" it tries "b" (which has only GET), backs up to {x}, and
// answers POST /a/{x}. Because conflicting patterns are rejected at
// registration, this first match is the most specific pattern that matches,
// as net/http.ServeMux would choose. The one exception is a set of "ordered"
// patterns, which differ only in the constraints of some wildcards
// (/{n:int} and /{h:hex}): they match the same requests but for those
// constraints, so among the constrained children that match a segment the
// lookup tries them all and keeps the route registered first.
//
// Invariant: a lookup visits each node at most once (a node is reached only
// from its one parent, which tries each child once), so its cost is bounded
// by the size of the tree whatever the pattern set, and its recursion depth
// by the length of the longest pattern, whatever the path.
//
// Most requests never back up, so before lookup a request is walked down
// the first branch lookup would try, in a loop (see walk); lookup runs only
// if that branch ends without the route, so a request visits each node at
// most twice.
//
// Lookup nodes are never changed once a lookup can reach them: a
// registration copies the nodes it changes (see update.go), and the new
// tree is published with the table that holds it (see table.go).

import (
	"cmp"
	"net/http"
	"slices"
	"strings"
)

// lookupNode is a node of the lookup tree.
//
// Optimization: a node is 48 bytes. Which change may modify a node is known
// to the change (see change.own), not kept in the node.
type lookupNode struct {
	// Optimization: literal children are found by their first byte, then
	// compared whole; large sets use a map instead (see nodeMore).
	// Invariant: lits is sorted by key, so keys with the same first byte
	// are adjacent.
	lits []litChild
	wild *lookupNode
	leaf *leaf // nil if no route ends here

	// Optimization: what only some nodes have is kept apart, so that a
	// node is 48 bytes instead of 104: a route with a wildcard ends two
	// nodes below its last literal's parent, and most nodes have neither
	// a multi, nor constrained children, nor claims, nor many literal
	// children. more is nil for such nodes; only the change that owns the
	// node sets it (see mut).
	more *nodeMore
}

// nodeMore holds the parts of a lookupNode that most nodes lack.
type nodeMore struct {
	multi *lookupNode // the {name...} child, or the one of a pattern that ends in a slash

	// With more than maxScannedFirst literal children, litIndex[b] is one
	// more than the index of the first key that starts with b, or 0 if
	// none does, and first bytes are not scanned. A node with a litMap
	// has no lits.
	litIndex *[256]uint8
	litMap   *stringMap[*lookupNode]

	cons []conChild // in registration order

	claim  *groupNode // the group that claims the paths from here down, if any
	claims bool       // some node from here down has a claim

	litSlash bool // some key of lits holds a '/' (the pattern wrote %2F)
}

// multi returns n's multi child, or nil.
func (n *lookupNode) multi() *lookupNode {
	if n.more == nil {
		return nil
	}
	return n.more.multi
}

// multiLeaf returns the leaf of n's multi child, or nil.
func (n *lookupNode) multiLeaf() *leaf {
	if n.more == nil || n.more.multi == nil {
		return nil
	}
	return n.more.multi.leaf
}

// litIndex returns the index of n's literal children by first byte, or nil.
func (n *lookupNode) litIndex() *[256]uint8 {
	if n.more == nil {
		return nil
	}
	return n.more.litIndex
}

// litMap returns the map of n's literal children, or nil if n keeps them
// in lits.
func (n *lookupNode) litMap() *stringMap[*lookupNode] {
	if n.more == nil {
		return nil
	}
	return n.more.litMap
}

// claim returns the group that claims the paths from n down, or nil.
func (n *lookupNode) claim() *groupNode {
	if n.more == nil {
		return nil
	}
	return n.more.claim
}

// claims reports whether some node from n down has a claim.
func (n *lookupNode) claims() bool { return n.more != nil && n.more.claims }

// mut returns n.more, made if n has none. n must be owned by the change
// that calls it.
func (n *lookupNode) mut() *nodeMore {
	if n.more == nil {
		n.more = new(nodeMore)
	}
	return n.more
}

// A litChild is a literal child of a lookupNode: its key, the unescaped
// segment, and the key's first eight bytes as keyWord gives them, so that
// the word's low byte is the key's first (0 for the empty key).
//
// Optimization: the word, the key and the node of a child are side by
// side, so that finding a child reads one place, and a node keeps one
// slice for its children instead of three.
type litChild struct {
	word uint64
	key  string
	node *lookupNode
}

// startsWord reports whether l's key, of up to eight bytes, is the start
// of w, eight bytes as word or keyWord gives them. The shift is 64 for a
// key of eight bytes, which makes the mask all ones.
func (l *litChild) startsWord(w uint64) bool {
	return w&(uint64(1)<<(8*uint(len(l.key)))-1) == l.word
}

// constrained returns the constrained wildcard children of n, in
// registration order.
func (n *lookupNode) constrained() []conChild {
	if n.more == nil {
		return nil
	}
	return n.more.cons
}

// A conChild is a constrained wildcard child of a lookupNode and its
// constraint.
//
// Optimization: the constraint is kept by the parent, which tests it, so
// that every lookup node is a word smaller.
type conChild struct {
	con  *constraint
	node *lookupNode
	// minSeq is at most the seq of every route below node: the index of
	// the route that made the child, whose index no route registered
	// later is below. 0 for a child made by a group's claim.
	minSeq int32
}

// maxScannedLiterals is the number of literal children above which a
// lookupNode uses a map; maxScannedFirst the number above which it indexes
// first bytes with a table instead of scanning them.
const (
	maxScannedLiterals = 64
	maxScannedFirst    = 8
)

// A leaf holds the routes that end at a node, by method.
//
// Optimization: a leaf of one route, most leaves, is 24 bytes. What a
// lookup does not read is worked out when needed: the GET route, which
// also answers HEAD, from byVerb (see getRoute), and the set of methods,
// for Allow, from the methods of its routes (see allowSet.add).
type leaf struct {
	// byVerb[v-1] is one more than the index in explicit() of the route
	// for the method with verb v, or 0 if there is none. A leaf with more
	// than 255 routes is marked versioned instead, so that route takes
	// the path that compares method names.
	byVerb [numVerbs - 1]uint8
	flags  leafFlags
	// first is the first route of an explicit method, in the order of
	// explicit; or, in a leaf marked leafAnyOnly, the method-less route,
	// the leaf's only one.
	//
	// Optimization: the one route of a leaf of one route is in the leaf,
	// and what a leaf of several keeps is apart, in more. byVerb, flags
	// and first come first, so that finding the route of a leaf of one
	// method reads its first 16 bytes.
	first [1]*route
	more  *leafMore // nil for a leaf of one route
}

// leafFlags mark leaves.
type leafFlags uint8

const (
	// leafVersioned is set if some route has versions, or the leaf has
	// more than 255 routes. Optimization: route sends such leaves down a
	// separate path, keeping the common one short.
	leafVersioned leafFlags = 1 << iota
	// leafAnyOnly is set on a leaf whose one route is method-less: it is
	// in first.
	leafAnyOnly
	// leafOffTree is set on a leaf of static routes that only the index of
	// static paths holds, not the lookup tree (see change.addRoute).
	leafOffTree
)

// leafMore is what a leaf of several routes keeps apart.
type leafMore struct {
	routes []*route // the routes of explicit methods, sorted by method, if there are several; or nil
	any    *route   // the method-less route, or nil
}

// versioned reports whether l is marked leafVersioned.
func (l *leaf) versioned() bool { return l.flags&leafVersioned != 0 }

// offTree reports whether l is marked leafOffTree. A nil leaf is not.
func (l *leaf) offTree() bool { return l != nil && l.flags&leafOffTree != 0 }

// explicit returns the routes of l's explicit methods, sorted by method.
func (l *leaf) explicit() []*route {
	switch {
	case l.more != nil && l.more.routes != nil:
		return l.more.routes
	case l.first[0] != nil && l.flags&leafAnyOnly == 0:
		return l.first[:]
	}
	return nil
}

// at returns the route with index i in l.explicit().
func (l *leaf) at(i int) *route {
	if i == 0 {
		return l.first[0]
	}
	return l.more.routes[i]
}

// any returns the method-less route of l, or nil.
func (l *leaf) any() *route {
	switch {
	case l.flags&leafAnyOnly != 0:
		return l.first[0]
	case l.more != nil:
		return l.more.any
	}
	return nil
}

// route returns the route of l for q, or nil: the route with exactly q's
// method, else the GET route for HEAD, else the method-less route. A route
// that has versions stands for the version q's request asks for, and is
// passed over if no version of it is acceptable.
func (l *leaf) route(q *query) *route {
	if l.versioned() {
		return l.routeVersioned(q)
	}
	if q.verb != 0 {
		return l.routeVerb(q.verb)
	}
	for _, rt := range l.explicit() {
		if rt.id.pat.method() == q.method {
			return rt
		}
	}
	return l.any()
}

// firstRoute returns the first route of l if it is the route for the
// verb v, not 0, and l has no versions; or nil, and then route must be
// asked.
//
// Optimization: small enough to be inlined where a lookup ends, so that
// the common case, a leaf whose one route has the request's method, costs
// no call (route costs two).
func (l *leaf) firstRoute(v verb) *route {
	// For verb 0 (unknown), i wraps around, out of byVerb's range.
	if i := uint(v) - 1; i < uint(len(l.byVerb)) && l.byVerb[i] == 1 && l.flags&leafVersioned == 0 {
		return l.first[0]
	}
	return nil
}

// routeVerb is route for a leaf without versions and a request whose
// method has verb v, not 0.
func (l *leaf) routeVerb(v verb) *route {
	if i := l.byVerb[v-1]; i != 0 {
		return l.at(int(i) - 1)
	}
	if v == verbHead {
		if rt := l.getRoute(); rt != nil {
			return rt
		}
	}
	return l.any()
}

// getRoute returns the GET route of l, or nil.
func (l *leaf) getRoute() *route {
	if i := l.byVerb[verbGet-1]; i != 0 {
		return l.at(int(i) - 1)
	}
	if routes := l.explicit(); len(routes) > 255 {
		// byVerb indexes only the first 255.
		for _, rt := range routes {
			if rt.id.pat.method() == http.MethodGet {
				return rt
			}
		}
	}
	return nil
}

// A verb numbers the methods that most requests use, so that a leaf finds
// the route for one by index instead of comparing method names. Other
// methods have verb 0.
type verb uint8

const (
	verbGet verb = 1 + iota
	verbHead
	verbPost
	verbPut
	verbPatch
	verbDelete
	verbOptions
	numVerbs
)

// verbOf returns the verb of method m, or 0.
func verbOf(m string) verb {
	switch m {
	case http.MethodGet:
		return verbGet
	case http.MethodHead:
		return verbHead
	case http.MethodPost:
		return verbPost
	case http.MethodPut:
		return verbPut
	case http.MethodPatch:
		return verbPatch
	case http.MethodDelete:
		return verbDelete
	case http.MethodOptions:
		return verbOptions
	}
	return 0
}

// routeVersioned is route for a leaf with versioned routes.
func (l *leaf) routeVersioned(q *query) *route {
	for _, rt := range l.explicit() {
		if rt.id.pat.method() == q.method {
			if rt := q.pick(rt); rt != nil {
				return rt
			}
			break
		}
	}
	if q.method == http.MethodHead {
		if rt := q.pick(l.getRoute()); rt != nil {
			return rt
		}
	}
	return q.pick(l.any())
}

// pick returns rt or, if rt has versions, the one that q's request asks
// for, or nil if none is acceptable.
func (q *query) pick(rt *route) *route {
	if rt == nil || rt.versions() == nil {
		return rt
	}
	q.varies = true
	if v := q.versioning.choose(q.req, rt.versions()); v != nil {
		return v
	}
	if q.rejected == nil {
		q.rejected = rt
	}
	return nil
}

// compileLeaf builds the leaf for routes, which share their path shape.
// The routes of one method are one route, unless some are versioned: then
// the leaf holds a copy of the unversioned route (or of the first versioned
// one, if there is none) that carries the set of versions. The leaf is *l,
// a zero leaf, unless l is nil.
func compileLeaf(l *leaf, routes []*route, mi *methodIndex) *leaf {
	if l == nil {
		l = new(leaf)
	}
	var buf [8]*route
	explicit, anyRoute := buf[:0], (*route)(nil)
	sorted := routes
	if len(routes) > 1 {
		sorted = slices.Clone(routes)
		slices.SortFunc(sorted, func(a, b *route) int {
			if c := strings.Compare(a.id.pat.method(), b.id.pat.method()); c != 0 {
				return c
			}
			return strings.Compare(a.version(), b.version())
		})
	}
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && sorted[j].id.pat.method() == sorted[i].id.pat.method() {
			j++
		}
		rt := sorted[i]
		if j > i+1 || rt.version() != "" {
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
			vs := &versionSet{versions: group, orig: slices.Clone(sorted[i:j])}
			if rt.version() == "" {
				vs.def, vs.versions = group[0], group[1:]
			}
			c := *group[0]
			more := routeMore{versions: vs}
			if c.more != nil {
				more.version, more.name, more.mount = c.more.version, c.more.name, c.more.mount
			}
			c.more = &more
			rt = &c
			l.flags |= leafVersioned
		}
		i = j
		switch m := rt.id.pat.method(); m {
		case "":
			anyRoute = rt
		default:
			explicit = append(explicit, rt)
			if n := len(explicit); n > 255 {
				l.flags |= leafVersioned
			} else if v := verbOf(m); v != 0 {
				l.byVerb[v-1] = uint8(n)
			}
			mi.bit(m) // for allowSet.add
		}
	}
	switch {
	case len(explicit) == 0:
		if anyRoute != nil {
			l.first[0] = anyRoute
			l.flags |= leafAnyOnly
		}
	case len(explicit) == 1 && anyRoute == nil:
		l.first[0] = explicit[0]
	default:
		l.first[0] = explicit[0]
		l.more = &leafMore{any: anyRoute}
		if len(explicit) > 1 {
			l.more.routes = slices.Clone(explicit)
		}
	}
	return l
}

// all returns the routes that l was compiled from, in a new slice, in
// registration order. A nil leaf has none.
func (l *leaf) all() []*route {
	if l == nil {
		return nil
	}
	var all []*route
	routes := l.explicit()
	for _, rt := range append(routes[:len(routes):len(routes)], l.any()) {
		switch {
		case rt == nil:
		case rt.versions() != nil:
			all = append(all, rt.versions().orig...)
		default:
			all = append(all, rt)
		}
	}
	slices.SortFunc(all, func(a, b *route) int { return cmp.Compare(a.index(), b.index()) })
	return all
}

// each calls f for every route that l was compiled from, in registration
// order.
func (l *leaf) each(f func(*route)) {
	for _, rt := range l.all() {
		f(rt)
	}
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
	if lm := n.litMap(); lm != nil {
		return lm.get(seg)
	}
	c := firstByte(seg)
	i := 0
	if x := n.litIndex(); x != nil {
		i = int(x[c]) - 1
		if i < 0 {
			return nil
		}
	} else {
		for i < len(n.lits) && byte(n.lits[i].word) != c {
			i++
		}
	}
	for ; i < len(n.lits) && byte(n.lits[i].word) == c; i++ {
		if n.lits[i].key == seg {
			return n.lits[i].node
		}
	}
	return nil
}

// A query is what a lookup needs besides the path, and what it found out.
type query struct {
	method     string
	verb       verb   // verbOf(method); 0 means unknown, and method is compared
	host, path string // the host and path of the request, as looked up
	escaped    bool   // path segments must be unescaped before use
	checkClean bool   // stop at an empty, "." or ".." segment
	unclean    bool   // set when checkClean found such a segment
	steps      int    // nodes visited, to check the cost bound in tests
	// staticMiss is set when table.staticRoute found no route for the
	// path and method in the static index, so that match need not look
	// there again. It is set only for the query of the request's own
	// path, when no host pattern of the router can have its host (so
	// that only the tree of patterns without a host is looked in).
	staticMiss bool

	// For routes with versions: the request and how it chooses a version;
	// whether a route with versions was considered (so the answer depends
	// on the version asked for); and the first such route passed over
	// because none of its versions was acceptable.
	req        *http.Request
	versioning *versioning
	varies     bool
	rejected   *route

	// memo remembers constraints' answers for long segments, for every
	// walk of the path this request causes.
	memo conMemo
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
			if rt := n.leaf.firstRoute(q.verb); rt != nil {
				return rt
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
	raw := seg
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
		long := len(raw) >= memoMinLen
		for _, c := range n.constrained() {
			if first != nil && c.minSeq > first.seq {
				// Optimization: no route below c comes before first, so
				// its constraint is not run.
				continue
			}
			// Optimization: the memo's test of length, made once here.
			if !long && c.con.match(seg) || long && q.memo.remember(c.con, raw, seg) {
				if rt := c.node.lookup(rest, slash, q); rt != nil && (first == nil || rt.seq < first.seq) {
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
	if ml := n.multiLeaf(); ml != nil {
		return ml.route(q)
	}
	return nil
}

// allowed adds to acc the methods of every route, whatever its method, that
// matches the path p (followed by "/" if slash is set). m remembers the
// answers of constraints, if not nil.
func (n *lookupNode) allowed(p string, slash, escaped bool, acc *allowSet, m *conMemo) {
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
	raw := seg
	if escaped {
		seg = pathUnescape(seg)
	}
	if c := n.child(seg); c != nil {
		c.allowed(rest, slash, escaped, acc, m)
	}
	if seg != "/" {
		for _, c := range n.constrained() {
			if m.match(c.con, raw, seg) {
				c.node.allowed(rest, slash, escaped, acc, m)
			}
		}
		if n.wild != nil {
			n.wild.allowed(rest, slash, escaped, acc, m)
		}
	}
	if ml := n.multiLeaf(); ml != nil {
		acc.add(ml)
	}
}
