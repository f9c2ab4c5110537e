package cairn

// This file brings a table up to date after a registration, in time that
// depends on the new pattern's path and not on the number of routes.
//
// Lookups read a table and its lookup trees without locks, so nothing they
// can reach may change. A registration therefore copies what it changes:
// the table, the host tree, and the lookup nodes on the new pattern's path,
// sharing every other node with the table it replaces; registering
// "GET /a/c" next to "GET /a/b" and "GET /x" copies the root and the node
// "a", adds the node "c", and keeps "b" and "x" as they are. Literal
// children beyond maxScannedLiterals, the index of static paths and the
// hosts are stringMaps (see stringmap.go), which take an entry in O(1)
// amortized time, so that a node with 10 000 children is not copied whole
// either.
//
// Before a router serves its first request no lookup can read its table, so
// copying would be waste: until then every change modifies the table in
// place. A change after it may modify the nodes it made, which it keeps in
// a set, and copies the others, so that published nodes are never modified
// again. The other parts of a table (host trees, string maps, the method
// index) record the change that made them instead, as an editToken: the
// router uses one token for every change before the first request, and a
// new token for each change after it.

import (
	"net/http"
	"slices"
	"strings"
)

// A change is one registration's or one setting's update of a table.
type change struct {
	edit *editToken
	t    *table // the table being made: the router's own before it serves, a copy after
	// inPlace is set for a change before the router serves, which may
	// modify every node of the table: no lookup reads them yet.
	inPlace bool
	// made holds the nodes that a change after the router serves made,
	// the only ones it may modify; the others, which lookups may be
	// reading, it copies.
	made map[*lookupNode]struct{}
	// slabs allocate the nodes and leaves of a change before the router
	// serves; nil after.
	slabs *slabs
}

// own returns n, or a copy of it that c may modify, or a new node if n is
// nil.
//
// Optimization: a node does not record the change that made it (a node is
// 48 bytes instead of 64); a change before the router serves owns them
// all, and a later one, which copies the few on the path of one pattern,
// keeps the copies in a set.
func (c *change) own(n *lookupNode) *lookupNode {
	if c.inPlace {
		if n == nil {
			n = c.slabs.node()
		}
		return n
	}
	if _, ok := c.made[n]; ok {
		return n
	}
	m := new(lookupNode)
	if c.made == nil {
		c.made = make(map[*lookupNode]struct{})
	}
	c.made[m] = struct{}{}
	if n == nil {
		return m
	}
	*m = *n
	m.lits = slices.Clone(n.lits)
	if n.more != nil {
		more := *n.more
		more.cons = slices.Clone(n.more.cons)
		if more.litIndex != nil {
			idx := *more.litIndex
			more.litIndex = &idx
		}
		if more.litMap != nil {
			lm := *more.litMap
			more.litMap = &lm
		}
		m.more = &more
	}
	return m
}

// hostTree returns the host tree of host in c's table, owned by c, creating
// it if needed.
func (c *change) hostTree(host string) *hostTree {
	t := c.t
	var ht *hostTree
	if host == "" {
		ht = t.noHost
	} else {
		ht = t.hosts.get(host)
	}
	switch {
	case ht == nil:
		// Invariant: a host tree has a root, even if its routes are all
		// off the tree (see addRoute).
		ht = &hostTree{edit: c.edit, root: c.own(nil)}
	case ht.edit != c.edit:
		copied := *ht
		copied.edit = c.edit
		ht = &copied
	default:
		return ht
	}
	if host == "" {
		t.noHost = ht
	} else {
		t.hosts.set(host, ht, c.edit)
		t.hostLens |= lenBit(len(host))
	}
	return ht
}

// methods returns the method index of c's table for compileLeaf(routes):
// owned by c if it lacks a method of routes, which compileLeaf adds.
//
// Optimization: a change after the first request copies the index only
// when it adds a method, which few registrations do.
func (c *change) methods(routes []*route) *methodIndex {
	mi := c.t.methods
	if mi.edit != c.edit && !mi.hasAll(routes) {
		mi = &methodIndex{edit: c.edit, names: slices.Clip(mi.names), bits: make(map[string]uint, len(mi.bits)+1), verbBits: mi.verbBits}
		for k, v := range c.t.methods.bits {
			mi.bits[k] = v
		}
		c.t.methods = mi
	}
	return mi
}

// addRoute adds rt to the lookup tree of its pattern's host.
//
// Optimization: a static route whose pattern has a method goes only into
// the index of static paths, not into the lookup tree, so that it costs
// no node, no literal child and no second hash table entry: at a hundred
// thousand static routes, a quarter less heap, and a tenth fewer
// instructions to register them. This is sound because of what the tree
// is for besides lookups, the candidates of conflict checks (see
// Router.conflict). Such a route q matches one path. A static pattern p
// of that path finds q by the path's key; a pattern p with a wildcard
// that matches the path has a less specific path, and so conflicts with q
// only if p's method is more specific than q's: q has no method, or q has
// GET and p HEAD. So a route stays out of the tree (its leaf is marked
// leafOffTree) while
//
//   - every route of its path has a method, other than CONNECT, and no
//     version, so that the leaf found by the path is the whole answer;
//   - its path is clean, holds no '%' and does not end in a slash, so
//     that a lookup of a path with a slash added, which reads the tree
//     only, need not find it, and an escaped path finds it by the path
//     unescaped (see hostTree.staticLeaf); and
//   - its method is not GET once a pattern with HEAD and a wildcard is
//     registered: the first such pattern brings the GET routes into the
//     tree (see moveGetIntoTree), even if it then fails to register.
//
// Invariant: every lookup that could reach the leaf of a static path in
// the tree looks the path up in the index first, and a leaf that the
// index holds off the tree is found there only.
func (c *change) addRoute(rt *route) {
	p := &rt.id.pat
	ht := c.hostTree(p.host())
	key := p.staticKey()
	if key != "" {
		old := ht.static.get(key)
		if old == nil || old.offTree() {
			routes := append(old.all(), rt)
			if keepsOffTree(key, routes, c.t.headWildcards) {
				var l *leaf
				if old == nil {
					l = c.slabs.leaf()
				}
				l = compileLeaf(l, routes, c.methods(routes))
				l.flags |= leafOffTree
				ht.static.set(key, l, c.edit)
				ht.staticLens |= lenBit(len(key))
				return
			}
			// The leaf goes into the tree, its routes first.
			for _, o := range old.all() {
				ht.root = c.update(ht, ht.root, o.id.pat.segments(), o, nil, key)
			}
		}
	}
	ht.root = c.update(ht, ht.root, p.segments(), rt, nil, key)
}

// keepsOffTree reports whether the routes of the static path key may stay
// out of the lookup tree (see addRoute); headWildcards is the table's.
//
// The index holds no unclean path but a CONNECT pattern's (see
// pattern.staticKey), which stays in the tree, and no path of a Mount,
// which ends in a slash.
func keepsOffTree(key string, routes []*route, headWildcards bool) bool {
	if strings.IndexByte(key, '%') >= 0 || strings.HasSuffix(key, "/") {
		return false
	}
	for _, rt := range routes {
		m := rt.id.pat.method()
		if m == "" || m == http.MethodConnect || m == http.MethodGet && headWildcards || rt.version() != "" {
			return false
		}
	}
	return true
}

// moveGetIntoTree brings into the lookup trees the static paths that have
// a GET route and are held off them, and marks the table so that later
// ones go in too: a pattern with HEAD and a wildcard, about to be
// registered, may conflict with them (see addRoute).
func (c *change) moveGetIntoTree() {
	c.t.headWildcards = true
	hosts := []string{""}
	for h := range c.t.hosts.all {
		hosts = append(hosts, h)
	}
	for _, host := range hosts {
		var keys []string
		for k, l := range c.t.hostTree(host).static.all {
			if l.offTree() && slices.ContainsFunc(l.explicit(), isGet) {
				keys = append(keys, k)
			}
		}
		if len(keys) == 0 {
			continue
		}
		ht := c.hostTree(host)
		for _, k := range keys {
			for _, rt := range ht.static.get(k).all() {
				ht.root = c.update(ht, ht.root, rt.id.pat.segments(), rt, nil, k)
			}
		}
	}
}

// fullRoot returns the root of the lookup tree ht of t with the routes
// held off it put in (see addRoute): the tree every route would be in.
// Neither ht nor t changes: the nodes on the paths of those routes are
// copies. It is for what reads a whole tree, not for lookups.
func (t *table) fullRoot(ht *hostTree) *lookupNode {
	if ht == nil {
		return nil
	}
	root := ht.root
	var c *change
	for _, l := range ht.static.all {
		if !l.offTree() {
			continue
		}
		if c == nil {
			copied := *t
			c = &change{edit: new(editToken), t: &copied}
		}
		for _, rt := range l.all() {
			root = c.update(ht, root, rt.id.pat.segments(), rt, nil, "")
		}
	}
	return root
}

// isGet reports whether rt's method is GET.
func isGet(rt *route) bool { return rt.id.pat.method() == http.MethodGet }

// addClaim adds to the lookup tree of host the claim of g on the node at
// the end of segs.
func (c *change) addClaim(host string, segs []segment, g *groupNode) {
	ht := c.hostTree(host)
	ht.root = c.update(ht, ht.root, segs, nil, g, "")
	c.t.claims = true
}

// update returns ln, owned by c, with what is added at the end of segs:
// the route rt, or, if claim is not nil, its claim. If key is not empty,
// it is the clean path that segs, all literals, match (see
// [pattern.staticPath]): the leaf at their end also goes into the host
// tree's index of static paths.
func (c *change) update(ht *hostTree, ln *lookupNode, segs []segment, rt *route, claim *groupNode, key string) *lookupNode {
	ln = c.own(ln)
	if claim != nil {
		ln.mut().claims = true
	}
	if len(segs) == 0 {
		if claim != nil {
			ln.mut().claim = claim
			return ln
		}
		routes := append(ln.leaf.all(), rt)
		var l *leaf
		if ln.leaf == nil {
			// Only a node's first leaf comes from a slab: one made
			// again drops the last (see slab).
			l = c.slabs.leaf()
		}
		ln.leaf = compileLeaf(l, routes, c.methods(routes))
		if key != "" {
			ht.static.set(key, ln.leaf, c.edit)
			ht.staticLens |= lenBit(len(key))
		}
		return ln
	}
	s, rest := segs[0], segs[1:]
	switch {
	case s.kind() == segLiteral:
		// Optimization: a child that c already owned comes back as it
		// was, and need not be set again, which costs a search of the
		// children or a hash.
		old := ln.child(s.s)
		if child := c.update(ht, old, rest, rt, claim, key); child != old {
			ln.setLiteral(c, s.s, child)
		}
	case s.kind() == segMulti:
		if m := c.update(ht, ln.multi(), rest, rt, claim, ""); m != ln.multi() {
			ln.mut().multi = m
		}
	case s.constrainedBy() == nil:
		ln.wild = c.update(ht, ln.wild, rest, rt, claim, "")
	default:
		con := s.constrainedBy().lookupCon()
		cons := ln.constrained()
		i := slices.IndexFunc(cons, func(x conChild) bool { return x.con.key == con.key })
		if i < 0 {
			// Invariant: constrained children are in registration order,
			// so a new one comes last.
			child := conChild{con: con}
			if rt != nil {
				child.minSeq = int32(rt.index())
			}
			cons = append(cons, child)
			ln.mut().cons = cons
			i = len(cons) - 1
		}
		cons[i].node = c.update(ht, cons[i].node, rest, rt, claim, "")
	}
	return ln
}

// setLiteral sets the literal child of n, which c owns, for the segment k.
func (n *lookupNode) setLiteral(c *change, k string, child *lookupNode) {
	if lm := n.litMap(); lm != nil {
		lm.set(k, child, c.edit)
		return
	}
	i, found := slices.BinarySearchFunc(n.lits, k, func(l litChild, k string) int { return strings.Compare(l.key, k) })
	if found {
		n.lits[i].node = child
		return
	}
	if len(n.lits) == maxScannedLiterals {
		// Optimization: beyond this many children, a map finds one faster
		// than scanning first bytes does.
		m := &stringMap[*lookupNode]{edit: c.edit, base: &strTable[*lookupNode]{}}
		for _, l := range n.lits {
			m.set(l.key, l.node, c.edit)
		}
		m.set(k, child, c.edit)
		if c.inPlace {
			c.t.wide = append(c.t.wide, m)
		}
		more := n.mut()
		more.litMap, more.litIndex, more.litSlash = m, nil, false
		n.lits = nil
		return
	}
	n.lits = slices.Insert(n.lits, i, litChild{word: keyWord(k), key: k, node: child})
	n.indexLiterals(k)
}

// indexLiterals brings litSlash and litIndex up to date with lits, to
// which k was just added.
//
// Optimization: an index n already has is rebuilt in place rather than
// made anew for each key. n is owned by the change that calls this, and so
// are its nodeMore and index (own copies both), which no lookup reads
// before the change is committed.
func (n *lookupNode) indexLiterals(k string) {
	slash := strings.Contains(k, "/") || n.more != nil && n.more.litSlash
	if len(n.lits) <= maxScannedFirst {
		if slash {
			n.mut().litSlash = true
		}
		return
	}
	more := n.mut()
	idx := more.litIndex
	if idx == nil {
		idx = new([256]uint8)
	} else {
		clear(idx[:])
	}
	for i := len(n.lits) - 1; i >= 0; i-- {
		idx[byte(n.lits[i].word)] = uint8(i + 1)
	}
	more.litSlash, more.litIndex = slash, idx
}
