package cairn

// This file holds the table that lookups read: the compiled trees of every
// host, published as one immutable value.
//
// Registration changes the router's registration trees under a lock and then
// compiles a new table, which it publishes with an atomic store; a lookup
// loads the current table once and never takes a lock. While a router has
// not served any request, registrations only mark the table stale, and the
// first request compiles it once, so registering n routes at start-up costs
// one compilation, not n.

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

// union returns the union of s and t.
func (s methodSet) union(t methodSet) methodSet { return s | t }

// has reports whether bit is in s.
func (s methodSet) has(bit uint) bool { return s&(1<<bit) != 0 }

// A methodIndex numbers the explicit methods of a router's patterns.
type methodIndex struct {
	names []string
	bits  map[string]uint
}

// bit returns the bit of method m, adding m if it is new.
func (mi *methodIndex) bit(m string) uint {
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
	return b
}

// A hostTree is the compiled tree of the patterns of one host.
type hostTree struct {
	root *lookupNode
	// Optimization: the leaves of patterns made only of literals, by path,
	// so that a static route is found with one map lookup. staticLens has
	// bit min(len(path), 63) set for every path in static, so that most
	// paths that are not there skip the lookup.
	static     map[string]*leaf
	staticLens uint64
}

// lenBit returns the bit of staticLens for a path of length n.
func lenBit(n int) uint64 { return 1 << min(n, 63) }

// A table is what lookups read. It is immutable once published, except for
// allowCache, which only grows.
type table struct {
	hosts   map[string]*hostTree // nil if no pattern has a host
	noHost  *hostTree
	methods *methodIndex

	fallback *fallback // answers when no route serves a request as it is

	// allowCache maps the method sets met so far to their Allow header
	// values, so that answering 405 does not allocate.
	allowCache atomic.Pointer[map[allowKey][]string]
}

// An allowKey identifies an Allow header value: a method set, and whether
// OPTIONS is added.
type allowKey struct {
	set     methodSet
	options bool
}

// compileTable compiles the registration trees, keyed by host.
func compileTable(roots map[string]*node) *table {
	t := &table{methods: &methodIndex{}}
	for _, host := range sortedKeys(roots) {
		c := &compiler{methods: t.methods, static: map[string]*leaf{}}
		ht := &hostTree{root: c.compile(roots[host], "", true), static: c.static}
		for k := range ht.static {
			ht.staticLens |= lenBit(len(k))
		}
		if host == "" {
			t.noHost = ht
			continue
		}
		if t.hosts == nil {
			t.hosts = map[string]*hostTree{}
		}
		t.hosts[host] = ht
	}
	if t.noHost == nil {
		t.noHost = &hostTree{root: &lookupNode{}}
	}
	return t
}

// match returns the route for host, path and q, or nil. Patterns with the
// request's host are tried first, then those without a host.
func (t *table) match(host, p string, slash bool, q *query) *route {
	if host != "" && t.hosts != nil {
		if ht := t.hosts[host]; ht != nil {
			if rt := ht.match(p, slash, q); rt != nil {
				return rt
			}
		}
	}
	return t.noHost.match(p, slash, q)
}

// match returns the route of ht for path p and q, or nil.
func (ht *hostTree) match(p string, slash bool, q *query) *route {
	if !slash && ht.staticLens&lenBit(len(p)) != 0 && (!q.escaped || strings.IndexByte(p, '%') < 0) {
		if l := ht.static[p]; l != nil {
			if rt := l.route(q); rt != nil {
				return rt
			}
		}
	}
	return ht.root.lookup(p, slash, q)
}

// allowed returns the methods that some pattern for host and path allows,
// as a set and, if the set holds the overflow bit, as names too.
func (t *table) allowed(host, p string, escaped bool) allowSet {
	acc := allowSet{}
	t.collectAllowed(host, p, escaped, &acc)
	if acc.set.has(overflowBit) {
		acc = allowSet{names: []string{}}
		t.collectAllowed(host, p, escaped, &acc)
	}
	return acc
}

// collectAllowed adds to acc the methods allowed for host and path, and for
// path followed by "/", since a request for it would be redirected there.
func (t *table) collectAllowed(host, p string, escaped bool, acc *allowSet) {
	trailing := strings.HasSuffix(p, "/")
	if host != "" && t.hosts != nil {
		if ht := t.hosts[host]; ht != nil {
			ht.root.allowed(p, false, escaped, acc)
			if !trailing {
				ht.root.allowed(p, true, escaped, acc)
			}
		}
	}
	t.noHost.root.allowed(p, false, escaped, acc)
	if !trailing {
		t.noHost.root.allowed(p, true, escaped, acc)
	}
}

// An allowSet accumulates the methods allowed for a path.
type allowSet struct {
	set   methodSet
	names []string // collected only when non-nil
}

// add adds the methods of l.
func (a *allowSet) add(l *leaf) {
	a.set = a.set.union(l.mask)
	if a.names != nil {
		a.names = append(a.names, l.methods...)
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
	cache := t.allowCache.Load()
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
	t.allowCache.CompareAndSwap(cache, &next)
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
