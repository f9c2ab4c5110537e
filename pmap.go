package cairn

// This file holds pmap, a persistent map from strings to values: a hash
// array mapped trie (HAMT) whose versions share every node that a change
// does not touch. Setting a key copies the O(log n) nodes on the key's path
// instead of the whole map, and a version once published is never changed,
// so lookups read it without locks.
//
// A key's 64-bit hash is read pmapBits (6) bits at a time, low bits first;
// the group read at a level picks one of 64 slots in a node. A node marks
// in datamap the slots that hold an entry (hash, key and value) and in
// nodemap those that hold a child: the trie of the keys whose hashes agree
// in every bit read so far. Entries and children are stored densely in
// slot order, so slot s is at the index given by the number of bits below
// s in its bitmap. Given keys whose hashes end in the 6-bit groups
//
//	a: ... 000111 000011    (slot 3, then slot 7)
//	b: ... 010000 000011    (slot 3, then slot 16)
//	c: ... 000000 100001    (slot 33)
//
// the root holds c in slot 33 and a child in slot 3, which holds a in
// slot 7 and b in slot 16. A lookup of b reads slot 3 of the root, finds
// it in nodemap and descends; reads slot 16 of the child, finds it in
// datamap, and compares the stored hash and key. A key whose slot is in
// neither bitmap is absent. Keys with equal 64-bit hashes sit together in
// a collision node below the last level, which is searched linearly.
//
// Setting a key that lands on an empty slot adds an entry there; one that
// lands on another key's entry replaces the entry with a child holding
// both. Either way every node on the path is copied, unless the change may
// modify it in place, which the edit token decides: every node records the
// token it was made under, and a set under a non-nil token t modifies the
// nodes made under t and copies the others, stamping the copies with t.
// A caller that builds a map in many steps (before it publishes it) passes
// one token throughout and so copies each node at most once, as Clojure's
// transients do; once it publishes the map, it never passes that token
// again. For a map m0 made under t0 and published:
//
//	m1 := m0.set("/a", x, t1) // copies the path of "/a", stamped t1
//	m2 := m1.set("/b", y, t1) // m2 == m1: m1's root changes in place, and
//	                          // the nodes on the path of "/b" made under t0
//	                          // are copied; m0 is unchanged
//	publish(m2)               // and retire t1
//	m3 := m2.set("/c", z, t2) // copies the path of "/c": m2 is unchanged
//
// A nil token never modifies anything: each set makes a new version.
//
// The map is its root node: a pmap is a node, and each child is the pmap of
// its keys. Keys are never removed, so there is no deletion.

import (
	"hash/maphash"
	"math/bits"
	"slices"
)

// An editToken marks the nodes created by one batch of changes, which only
// that batch may modify in place (see the top of this file). Its field
// gives it a size, so that distinct tokens have distinct addresses.
type editToken struct{ _ byte }

// pmapBits is the number of hash bits a level of a pmap reads; pmapMask
// selects them. Six bits make 64-slot nodes, and a map of 100 000 keys has
// most of them at the third level and the rest at the fourth. Five bits
// (32 slots) put most at the fourth, and made lookups 10-25% slower and
// path-copying sets 10-30% faster (BenchmarkPmapGet, BenchmarkPmapSet):
// lookups serve requests and sets only registrations, so six it is.
const (
	pmapBits = 6
	pmapMask = 1<<pmapBits - 1
	hashBits = 64 // bits of a hash; nodes at this shift or more are collision nodes
)

// pmapSeed is the seed of every pmap's hash, set once at start-up.
var pmapSeed = maphash.MakeSeed()

// pmapHash returns the hash of key.
func pmapHash(key string) uint64 { return maphash.String(pmapSeed, key) }

// A pentry is one key of a pmap with its value.
type pentry[V any] struct {
	// Optimization: the hash is kept, so that a set that pushes an entry
	// down a level never hashes its key again, and a lookup of an absent
	// key compares hashes, not strings. It also lets tests pass hashes
	// of their choosing to lookup and insert.
	hash uint64
	key  string
	val  V
}

// A pmap is a persistent map from strings to V, and a node of the trie
// that implements it (see the top of this file). The zero value and the
// nil *pmap are the empty map.
//
// Invariant: in a node at a depth whose shift (pmapBits times the level)
// is below hashBits, datamap&nodemap == 0, entries holds one entry per
// bit of datamap and children one non-nil child per bit of nodemap, both
// in slot order, and the entry or child in slot s holds only keys whose
// hash bits at the shift are s. A node at shift hashBits or more is a
// collision node: both bitmaps are zero, it has no children, and it has
// two or more entries, all with the same hash. size is the number of keys
// of the node and all its descendants. A node's entries and children
// arrays belong to it alone, so modifying them in place changes no other
// node.
type pmap[V any] struct {
	edit     *editToken // the token the node was made under; nil for none
	datamap  uint64
	nodemap  uint64
	entries  []pentry[V]
	children []*pmap[V]
	size     int
}

// get returns the value of key in m and whether m has it. m may be nil.
//
// get does not allocate.
func (m *pmap[V]) get(key string) (V, bool) { return m.lookup(key, pmapHash(key)) }

// lookup is get for a key whose hash is h.
func (m *pmap[V]) lookup(key string, h uint64) (v V, ok bool) {
	n := m
	if n == nil {
		return v, false
	}
	for shift := uint(0); shift < hashBits; shift += pmapBits {
		bit := uint64(1) << (h >> shift & pmapMask)
		if n.datamap&bit != 0 {
			e := &n.entries[bits.OnesCount64(n.datamap&(bit-1))]
			if e.hash == h && e.key == key {
				return e.val, true
			}
			return v, false
		}
		if n.nodemap&bit == 0 {
			return v, false
		}
		n = n.children[bits.OnesCount64(n.nodemap&(bit-1))]
	}
	for i := range n.entries {
		if n.entries[i].key == key {
			return n.entries[i].val, true
		}
	}
	return v, false
}

// len returns the number of keys in m. m may be nil.
func (m *pmap[V]) len() int {
	if m == nil {
		return 0
	}
	return m.size
}

// set returns the map m with key set to v. m may be nil.
//
// With a nil edit, set changes nothing: it copies the nodes on key's path
// and returns a new map that shares the rest with m. With a non-nil edit,
// it modifies in place the nodes of m that were made under edit, and
// copies the others, stamping the copies with edit; in particular, if m
// itself was made under edit, set modifies m and returns it. A map that
// readers may see must therefore never again be passed to set with the
// token it was made under: later changes use a new token, or nil.
func (m *pmap[V]) set(key string, v V, edit *editToken) *pmap[V] {
	return m.insert(key, pmapHash(key), v, edit)
}

// insert is set for a key whose hash is h.
func (m *pmap[V]) insert(key string, h uint64, v V, edit *editToken) *pmap[V] {
	e := pentry[V]{hash: h, key: key, val: v}
	if m == nil {
		return &pmap[V]{edit: edit, datamap: 1 << (h & pmapMask), entries: []pentry[V]{e}, size: 1}
	}
	r, _ := m.put(e, 0, edit)
	return r
}

// put returns the node m, at the given shift, with e set in it, modified
// in place or copied as edit allows (see [pmap.set]), and whether e's key
// is new to m.
func (m *pmap[V]) put(e pentry[V], shift uint, edit *editToken) (*pmap[V], bool) {
	if shift >= hashBits {
		for i := range m.entries {
			if m.entries[i].key == e.key {
				m = m.own(edit, 0, 0)
				m.entries[i].val = e.val
				return m, false
			}
		}
		m = m.own(edit, 1, 0)
		m.entries = append(m.entries, e)
		m.size++
		return m, true
	}
	bit := uint64(1) << (e.hash >> shift & pmapMask)
	switch {
	case m.datamap&bit != 0:
		i := bits.OnesCount64(m.datamap & (bit - 1))
		if x := m.entries[i]; x.key != e.key {
			child := newPair(x, e, shift+pmapBits, edit)
			m = m.own(edit, 0, 1)
			m.entries = slices.Delete(m.entries, i, i+1)
			m.datamap &^= bit
			m.nodemap |= bit
			m.children = slices.Insert(m.children, bits.OnesCount64(m.nodemap&(bit-1)), child)
			m.size++
			return m, true
		}
		m = m.own(edit, 0, 0)
		m.entries[i].val = e.val
		return m, false
	case m.nodemap&bit != 0:
		j := bits.OnesCount64(m.nodemap & (bit - 1))
		c, added := m.children[j].put(e, shift+pmapBits, edit)
		m = m.own(edit, 0, 0)
		m.children[j] = c
		if added {
			m.size++
		}
		return m, added
	default:
		m = m.own(edit, 1, 0)
		m.datamap |= bit
		m.entries = slices.Insert(m.entries, bits.OnesCount64(m.datamap&(bit-1)), e)
		m.size++
		return m, true
	}
}

// own returns m if it was made under edit and edit is not nil, and
// otherwise a copy of m stamped with edit, with room for moreEntries more
// entries and moreChildren more children.
//
// Optimization: the room lets the set that makes a copy add to it without
// allocating again, and a copy has no other room to spare, so the versions
// of a map made without a token hold no more memory than they need.
func (m *pmap[V]) own(edit *editToken, moreEntries, moreChildren int) *pmap[V] {
	if edit != nil && m.edit == edit {
		return m
	}
	c := *m
	c.edit = edit
	c.entries = append(make([]pentry[V], 0, len(m.entries)+moreEntries), m.entries...)
	c.children = append(make([]*pmap[V], 0, len(m.children)+moreChildren), m.children...)
	return &c
}

// newPair returns a new node, at the given shift and stamped with edit,
// that holds the entries a and b of different keys.
func newPair[V any](a, b pentry[V], shift uint, edit *editToken) *pmap[V] {
	n := &pmap[V]{edit: edit, size: 2}
	if shift >= hashBits {
		n.entries = []pentry[V]{a, b}
		return n
	}
	sa, sb := a.hash>>shift&pmapMask, b.hash>>shift&pmapMask
	switch {
	case sa == sb:
		n.nodemap = 1 << sa
		n.children = []*pmap[V]{newPair(a, b, shift+pmapBits, edit)}
	case sa < sb:
		n.datamap = 1<<sa | 1<<sb
		n.entries = []pentry[V]{a, b}
	default:
		n.datamap = 1<<sa | 1<<sb
		n.entries = []pentry[V]{b, a}
	}
	return n
}

// all calls yield with each key of m and its value, in no particular order,
// until yield returns false. m may be nil. It suits range-over-func:
//
//	for k, v := range m.all { ... }
func (m *pmap[V]) all(yield func(string, V) bool) { m.each(yield) }

// each is all, reporting whether yield always returned true.
func (m *pmap[V]) each(yield func(string, V) bool) bool {
	if m == nil {
		return true
	}
	for i := range m.entries {
		if !yield(m.entries[i].key, m.entries[i].val) {
			return false
		}
	}
	for _, c := range m.children {
		if !c.each(yield) {
			return false
		}
	}
	return true
}
