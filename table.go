package cairn

// This file holds the table that requests are routed with: the lookup trees
// of every host, the routes by index and the settings, published as one
// immutable value.
//
// Registration, under the router's lock, makes a new table from the
// current one (see update.go), which it publishes with an atomic store; a
// request loads the current table once and never takes a lock.

import (
	"slices"
	"strings"
	"sync/atomic"
)

// A methodSet is a set of methods, as bits given by a [methodIndex].
type methodSet uint64

// overflowBit stands for every method beyond the first 63 of a router.
const overflowBit = 63

// with returns s with bit added.
func (s methodSet) with(bit uint) methodSet { return s | 1<<bit }

// has reports whether bit is in s.
func (s methodSet) has(bit uint) bool { return s&(1<<bit) != 0 }

// A methodIndex numbers the explicit methods of a router's patterns. The
// bit of a method never changes, so tables share the cache of Allow values
// that bits index.
type methodIndex struct {
	edit  *editToken // the change that made it, the only one that may add to it
	names []string
	bits  map[string]uint
	// verbBits[v] is one more than the bit of the method with verb v, or 0
	// if it has none, so that an Allow header finds the common methods'
	// bits without hashing their names (see allowSet.add).
	verbBits [numVerbs]uint8
}

// hasAll reports whether mi has a bit for every method of routes.
func (mi *methodIndex) hasAll(routes []*route) bool {
	for _, rt := range routes {
		if m := rt.id.pat.method(); m != "" {
			if _, ok := mi.bits[m]; !ok {
				return false
			}
		}
	}
	return true
}

// bit returns the bit of method m, adding m if it is new.
func (mi *methodIndex) bit(m string) uint {
	// Optimization: a common method that has its bit is found without
	// hashing its name, as every route's is when it is registered.
	v := verbOf(m)
	if v != 0 && mi.verbBits[v] != 0 {
		return uint(mi.verbBits[v] - 1)
	}
	if b, ok := mi.bits[m]; ok {
		return b
	}
	b := uint(len(mi.names))
	if b > overflowBit {
		b = overflowBit
	}
	if mi.bits == nil {
		mi.bits = map[string]uint{}
	}
	mi.bits[m] = b
	mi.names = append(mi.names, m)
	if v != 0 {
		mi.verbBits[v] = uint8(b + 1)
	}
	return b
}

// bitOf returns the bit of method m, which mi has.
func (mi *methodIndex) bitOf(m string) uint {
	if v := verbOf(m); v != 0 && mi.verbBits[v] != 0 {
		return uint(mi.verbBits[v] - 1)
	}
	return mi.bits[m]
}

// A hostTree is the lookup tree of the patterns of one host.
type hostTree struct {
	edit *editToken // the change that made it, the only one that may modify it
	root *lookupNode
	// Optimization: the leaves of patterns made only of literals, by path,
	// so that a static route is found with one map lookup. staticLens has
	// bit min(len(path), 63) set for every path in static, so that most
	// paths that are not there skip the lookup.
	static     stringMap[*leaf]
	staticLens uint64
}

// trim gives the hash tables of t, which no lookup has read yet, their
// entries in arrays of their length. From then on a change copies what it
// modifies (see stringMap), so the tables keep what they hold now.
//
// Optimization: a table grows its entries ahead of them (see
// strTable.grow), up to twice as many; trimming them once costs a copy of
// each, less than the room it frees, and only the table that the first
// request publishes pays it. The tables of literal children are found in
// t.wide, not by walking the trees, which for a hundred thousand routes
// took a tenth of the time it took to register them.
func (t *table) trim() {
	t.noHost.static.base.trim()
	t.hosts.base.trim()
	for _, ht := range t.hosts.all {
		ht.static.base.trim()
	}
	for _, lm := range t.wide {
		lm.base.trim()
	}
	t.wide = nil
}

// lenBit returns the bit of staticLens for a path of length n.
func lenBit(n int) uint64 { return 1 << min(n, 63) }

// A table is what requests are routed with. It is immutable once
// published, except for the cache that allow points to, which only grows.
type table struct {
	hosts stringMap[*hostTree] // the trees of host patterns, by host
	// hostLens has bit min(len(host), 63) set for every host of hosts, so
	// that most requests for other hosts skip looking them up; it is 0 if
	// no pattern has a host.
	hostLens uint64
	noHost   *hostTree    // never nil
	methods  *methodIndex // never nil
	routes   []*route     // by index
	cfg      *config      // the settings
	claims   bool         // some group claims a subtree
	// headWildcards is set once a pattern with the method HEAD and a
	// wildcard is registered: static GET routes are then kept in the
	// lookup trees too (see change.addRoute).
	headWildcards bool
	// wide holds the tables of literal children made before the table is
	// published, for trim; it is nil once it is.
	wide  []*stringMap[*lookupNode]
	allow *allowCache // shared by the tables of a router
}

// newTable returns the empty table of a router, for changes made under
// edit.
func newTable(edit *editToken) *table {
	return &table{
		noHost:  &hostTree{edit: edit, root: new(lookupNode)},
		methods: &methodIndex{edit: edit},
		cfg:     defaultConfig(),
		allow:   &allowCache{},
	}
}

// An allowCache maps the method sets met so far to their Allow header
// values, so that answering 405 does not allocate.
type allowCache struct {
	m atomic.Pointer[map[allowKey][]string]
}

// An allowKey identifies an Allow header value: a method set, and whether
// OPTIONS is added.
type allowKey struct {
	set     methodSet
	options bool
}

// hostTree returns the tree of the patterns of host, "" for those
// without one, or nil if there is none.
func (t *table) hostTree(host string) *hostTree {
	if host == "" {
		return t.noHost
	}
	return t.hosts.get(host)
}

// root returns the root of the lookup tree of host ("" for patterns
// without a host), or nil if there is none.
func (t *table) root(host string) *lookupNode {
	if ht := t.hostTree(host); ht != nil {
		return ht.root
	}
	return nil
}

// anyHost reports whether some pattern has a host.
func (t *table) anyHost() bool { return t.hostLens != 0 }

// match returns the route for host, path and q, or nil. Patterns with the
// request's host are tried first, then those without a host.
func (t *table) match(host, p string, slash bool, q *query) *route {
	if host != "" && t.hostLens&lenBit(len(host)) != 0 {
		if ht := t.hosts.get(host); ht != nil {
			if rt := ht.match(p, slash, q); rt != nil {
				return rt
			}
		}
	}
	return t.noHost.match(p, slash, q)
}

// staticRoute returns the route that serves a request with method m and
// path p as it is, if that is a route of ht's static index; p is the
// request's path, without escapes, and ht is the tree of patterns without
// a host, for a request whose host no host pattern of the router has. It
// returns nil if only the full lookup can tell, with miss set if the
// static index has no route for p and m, so that the lookup need not look
// again.
//
// Optimization: this is what hostTree.match does first, for the requests
// that need nothing else. Invariant: a route it returns is the one lookup
// returns, and the request is served as it is: p is a key of the static
// index, so it starts with '/' and is exactly the path of a pattern made of
// literals, which no multi wildcard ends; the leaf has no versions, so the
// route does not depend on the request's Accept header.
func (ht *hostTree) staticRoute(m, p string) (rt *route, miss bool) {
	v := verbOf(m)
	if v == 0 {
		return nil, false
	}
	// Optimization: stringMap.get without its call, when the map has no
	// recent entries, as the index of a router built before it serves.
	var l *leaf
	if ht.static.recent == nil {
		l, _ = ht.static.base.get(p)
	} else {
		l = ht.static.get(p)
	}
	if l == nil {
		return nil, true
	}
	if rt = l.firstRoute(v); rt != nil {
		return rt, false
	}
	if l.versioned() {
		return nil, false
	}
	rt = l.routeVerb(v)
	return rt, rt == nil
}

// match returns the route of ht for path p and q, or nil.
func (ht *hostTree) match(p string, slash bool, q *query) *route {
	// Optimization: staticLeaf's test of the length, made here first, so
	// that most paths that no static route has skip its call.
	if !slash && !q.staticMiss && (q.escaped || ht.staticLens&lenBit(len(p)) != 0) {
		if l := ht.staticLeaf(p, q.escaped); l != nil {
			if rt := l.route(q); rt != nil {
				return rt
			}
		}
	}
	if !slash {
		if rt, ok := ht.root.walk(p, q); ok {
			return rt
		}
	}
	return ht.root.lookup(p, slash, q)
}

// staticLeaf returns the leaf of the index of static paths for the path
// p, escaped if escaped is set, or nil.
//
// Allocation: none, unless p is escaped and longer than 64 bytes, and a
// static path has the length of p unescaped.
func (ht *hostTree) staticLeaf(p string, escaped bool) *leaf {
	if escaped && strings.IndexByte(p, '%') >= 0 {
		return ht.escapedStaticLeaf(p)
	}
	if ht.staticLens&lenBit(len(p)) == 0 {
		return nil
	}
	return ht.static.get(p)
}

// escapedStaticLeaf is staticLeaf for a path p that holds an escape.
//
// Its key is its segments unescaped, unless one holds an escaped '/',
// which no static path can match. The lookup tree matches it segment by
// segment, so only the leaves held off the tree (see change.addRoute)
// are returned for it.
func (ht *hostTree) escapedStaticLeaf(p string) *leaf {
	// Optimization: an escape takes three bytes for one, so the length of
	// the key is known before unescaping, which most lengths make
	// needless. An escape that does not decode leaves the path as it is,
	// and no key held off the tree has a '%'.
	if ht.staticLens&lenBit(len(p)-2*strings.Count(p, "%")) == 0 || escapesSlash(p) {
		return nil
	}
	// Without an escaped '/', the path unescaped is its segments
	// unescaped, which is what the tree compares with literals.
	var buf [maxUnescapedOnStack]byte
	if l := ht.static.get(unescapeTo(&buf, p)); l.offTree() {
		return l
	}
	return nil
}

// allowed returns the methods that some pattern for host and path allows,
// as a set and, if the set holds the overflow bit, as names too.
//
// Under SlashRedirect and SlashServe, a path that ends in a slash stands,
// for the methods that no route of its own takes, for the path without
// the slash (see decideSlow): their methods are added, unless a pattern
// without a method matches the path, which takes every method itself.
func (t *table) allowed(host, p string, escaped bool, m *conMemo) allowSet {
	acc := allowSet{methods: t.methods}
	t.collectAllowed(host, p, escaped, &acc, m)
	if acc.set.has(overflowBit) {
		acc = allowSet{methods: t.methods, names: []string{}}
		t.collectAllowed(host, p, escaped, &acc, m)
	}
	return acc
}

// ownAllowed is allowed without the methods of the path without its
// slash.
func (t *table) ownAllowed(host, p string, escaped bool, m *conMemo) allowSet {
	acc := allowSet{methods: t.methods, own: true}
	t.collectAllowed(host, p, escaped, &acc, m)
	return acc
}

// collectAllowed adds to acc the methods allowed for host and path, and for
// path followed by "/", since a request for it would be redirected there;
// and for the path without its slash, as allowed says, unless acc.own.
func (t *table) collectAllowed(host, p string, escaped bool, acc *allowSet, m *conMemo) {
	t.collectPath(host, p, escaped, acc, m)
	if !acc.own && !acc.any && t.cfg.slash != SlashStrict && len(p) > 1 && p[len(p)-1] == '/' {
		t.collectPath(host, p[:len(p)-1], escaped, acc, m)
	}
}

// collectPath adds to acc the methods allowed for host and path, and for
// path followed by "/".
func (t *table) collectPath(host, p string, escaped bool, acc *allowSet, m *conMemo) {
	if host != "" && t.anyHost() {
		if ht := t.hosts.get(host); ht != nil {
			ht.allowed(p, escaped, acc, m)
		}
	}
	t.noHost.allowed(p, escaped, acc, m)
}

// allowed adds to acc the methods of ht allowed for path p, and for p
// followed by "/".
func (ht *hostTree) allowed(p string, escaped bool, acc *allowSet, m *conMemo) {
	ht.root.allowed(p, false, escaped, acc, m)
	if l := ht.staticLeaf(p, escaped); l.offTree() {
		acc.add(l)
	}
	if !strings.HasSuffix(p, "/") {
		ht.root.allowed(p, true, escaped, acc, m)
	}
}

// An allowSet accumulates the methods allowed for a path.
type allowSet struct {
	set     methodSet
	names   []string     // collected only when non-nil
	methods *methodIndex // the bits of the methods, which hold every method of a leaf
	any     bool         // a leaf with a route without a method was added
	own     bool         // collect the path's own methods only (see allowed)
}

// add adds the methods of l.
func (a *allowSet) add(l *leaf) {
	if l.any() != nil {
		a.any = true
	}
	for _, rt := range l.explicit() {
		a.set = a.set.with(a.methods.bitOf(rt.id.pat.method()))
		if a.names != nil {
			a.names = append(a.names, rt.id.pat.method())
		}
	}
}

// allowHeader returns the value of the Allow header for a, as a header
// value slice that callers must not modify. GET implies HEAD; options adds
// OPTIONS.
//
// Allocation: none once the set has been seen, unless the router has more
// than 63 methods.
func (t *table) allowHeader(a allowSet, options bool) []string {
	if a.names != nil {
		return []string{joinMethods(a.names, options)}
	}
	key := allowKey{a.set, options}
	cache := t.allow.m.Load()
	if cache != nil {
		if v, ok := (*cache)[key]; ok {
			return v
		}
	}
	var names []string
	for i, m := range t.methods.names {
		if a.set.has(uint(i)) {
			names = append(names, m)
		}
	}
	v := []string{joinMethods(names, options)}
	// Copy on write; losing a race only loses a cache entry.
	next := make(map[allowKey][]string, 1)
	if cache != nil {
		if len(*cache) >= 1024 {
			return v // keep the cache bounded
		}
		for k, x := range *cache {
			next[k] = x
		}
	}
	next[key] = v
	t.allow.m.CompareAndSwap(cache, &next)
	return v
}

// joinMethods returns the sorted, distinct methods, with HEAD if GET is
// there and OPTIONS if options is set, joined by ", ".
func joinMethods(names []string, options bool) string {
	names = slices.Clone(names)
	if slices.Contains(names, "GET") {
		names = append(names, "HEAD")
	}
	if options {
		names = append(names, "OPTIONS")
	}
	slices.Sort(names)
	return strings.Join(slices.Compact(names), ", ")
}
