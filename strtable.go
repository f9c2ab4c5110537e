package cairn

// This file holds strTable, the hash table from strings under every
// stringMap: the static paths of a host, the hosts, and the literal
// children of wide nodes.
//
// It does what a Go map does for these tables, faster for the one thing a
// request asks of them, a lookup. The entries sit in a dense array, in the
// order they were set; an index of slots, at most half full, maps a key's
// hash to its entry. Each slot holds bits of its key's hash and the
// entry's position, in 32 bits, so a lookup of a string that is not
// there, the most common one for a request with wildcards, usually ends at
// its first slot without reading an entry, and a lookup that finds its key
// reads one slot and one entry, and usually compares strings once.
// A table of a few entries, as the index of a small router's static paths
// is, is read without its slots: its entries are compared in turn.
//
// The keys are the patterns' own, chosen by whoever registers the routes,
// while the strings looked up come from requests. A request chooses only
// where its probe starts, so the work it causes is bounded by the longest
// run of used slots, which the registered keys alone decide.

import (
	"math/bits"
	"slices"
)

// A strTable maps strings to values of type V. The zero value is empty
// and ready to use; a table read by a lookup is never changed (see
// stringMap).
//
// Optimization: a slot is 32 bits, so that the slots cost 8 to 16 bytes
// an entry instead of 16 to 32. A table of 1<<k slots keeps an entry's
// position plus one in the low k bits of its slot, which hold more than
// the entries it may have (at most half as many as slots), and a tag of
// the key's hash in the other 32-k, the top bits of the hash's top half
// (its low bits choose the slot): 14 bits for a table of a hundred
// thousand keys, enough to tell most other keys apart without reading
// their entries.
type strTable[V any] struct {
	slots   []uint32 // the key's tag | position+1 of its entry, or 0; len is 0 or a power of two
	entries []strEntry[V]
	// pos is 1<<k - 1 for 1<<k slots: the bits of a slot that hold a
	// position. Optimization: kept, though len(slots) gives it, since
	// working it out on each lookup was 2.3% slower on a one-route lookup.
	pos uint32
}

// A strEntry is an entry of a strTable.
type strEntry[V any] struct {
	key string
	val V
}

// slotTag returns the tag that a slot keeps of hash h in a table whose
// positions take the bits pos: the top half of h, less those bits (the
// low half chooses the slot).
func slotTag(h uint64, pos uint32) uint32 { return uint32(h>>32) &^ pos }

// Seeds for strHash: 64-bit constants with well-spread bits.
const (
	strSeed0 = 0xa0761d6478bd642f
	strSeed1 = 0xe7037ed1a0b428db
	strSeed2 = 0x8ebc6af09c88c6e3
)

// strHash returns the hash of s.
//
// Optimization: one 128-bit multiplication, folded to 64 bits, mixes
// sixteen bytes of s, so a string of up to sixteen bytes, as most paths'
// segments and many static paths are, costs one multiplication, read as
// its first and last eight bytes (four under eight bytes; its first,
// middle and last under four). A longer one costs one per sixteen
// bytes, the last sixteen read again if its length is not a multiple of
// sixteen. The strings hashed are a table's keys, chosen by whoever
// registers the routes, and the strings looked up; a lookup only chooses
// where its probe starts (see the top of this file), so a weakness of the
// hash for some keys can only slow the routes of whoever registered those
// keys. (A product is zero when either operand is: a first word equal to
// strSeed1, or a second one that cancels what it is XORed with; in the
// loop, a zero product drops what came before, so keys that then go on
// alike share a hash.)
func strHash(s string) uint64 {
	n := len(s)
	switch {
	case n == 0:
		return foldMul(strSeed1, strSeed2)
	case n < 4:
		// The first, middle and last bytes, which cover them all.
		return foldMul((uint64(s[0])|uint64(s[n/2])<<8|uint64(s[n-1])<<16)^strSeed1, uint64(n)^strSeed2)
	case n < 8:
		// The first four bytes and the last four, which overlap.
		return foldMul(uint64(word32(s, 0))^strSeed1, uint64(word32(s, n-4))^strSeed2^uint64(n))
	case n <= 16:
		return foldMul(word(s, 0)^strSeed1, lastWord(s)^strSeed2^uint64(n))
	}
	h := uint64(n) ^ strSeed0
	for i := 0; i+16 < n; i += 16 {
		h = foldMul(word(s, i)^strSeed1, word(s, i+8)^h)
	}
	return foldMul(word(s, n-16)^strSeed1, lastWord(s)^h^strSeed2)
}

// word32 returns the four bytes of s from i, the first in the low byte.
func word32(s string, i int) uint32 {
	s = s[i : i+4]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// foldMul returns the 128-bit product of a and b, its two halves XORed.
func foldMul(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// maxScannedEntries is the number of entries up to which get compares
// the key with each entry instead of hashing it.
const maxScannedEntries = 4

// get returns the value of key and whether it is present.
//
// Allocation: none.
func (t *strTable[V]) get(key string) (V, bool) {
	if t == nil || len(t.slots) == 0 {
		var zero V
		return zero, false
	}
	if len(t.entries) <= maxScannedEntries {
		// Optimization: a few entries are compared in turn, without
		// hashing the key or reading a slot: a router of one static
		// route serves it 10% faster, and the four of the benchmarks'
		// static suite 6% (each string comparison first compares
		// lengths).
		for i := range t.entries {
			if e := &t.entries[i]; e.key == key {
				return e.val, true
			}
		}
		var zero V
		return zero, false
	}
	// Optimization: strHash written out for keys of one to sixteen bytes,
	// as most static paths and segments are, since the compiler does not
	// inline it: a lookup of one static route spent 7% of its time in the
	// call, before tables that small were scanned instead. The dispatch on
	// the length is strHash's, repeated; TestStrTableOracle fails if the
	// two differ for any length. Invariant: h is strHash(key).
	var h uint64
	switch n := len(key); {
	case n > 16:
		h = strHash(key)
	case n >= 8:
		h = foldMul(word(key, 0)^strSeed1, lastWord(key)^strSeed2^uint64(n))
	case n >= 4:
		h = foldMul(uint64(word32(key, 0))^strSeed1, uint64(word32(key, n-4))^strSeed2^uint64(n))
	case n > 0:
		h = foldMul((uint64(key[0])|uint64(key[n/2])<<8|uint64(key[n-1])<<16)^strSeed1, uint64(n)^strSeed2)
	default:
		h = strHash(key)
	}
	pos := t.pos
	tag := slotTag(h, pos)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			var zero V
			return zero, false
		}
		if s&^pos != tag {
			continue
		}
		// Optimization: a key of up to sixteen bytes is compared without
		// a call, by parts that cover it: from nine bytes its first and
		// last eight, from four its first and last four, under four its
		// first, middle and last bytes.
		e := &t.entries[s&pos-1]
		if len(e.key) != len(key) {
			continue
		}
		switch n := len(key); {
		case n > 16:
			if e.key == key {
				return e.val, true
			}
		case n > 8:
			if word(e.key, 0) == word(key, 0) && lastWord(e.key) == lastWord(key) {
				return e.val, true
			}
		case n >= 4:
			if word32(e.key, 0) == word32(key, 0) && word32(e.key, n-4) == word32(key, n-4) {
				return e.val, true
			}
		default:
			// The first, middle and last bytes cover the key.
			if n == 0 || e.key[0] == key[0] && e.key[n/2] == key[n/2] && e.key[n-1] == key[n-1] {
				return e.val, true
			}
		}
	}
}

// set sets the value of key to v.
func (t *strTable[V]) set(key string, v V) {
	if 2*(len(t.entries)+1) > len(t.slots) {
		t.grow()
	}
	h := strHash(key)
	tag := slotTag(h, t.pos)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			t.entries = append(t.entries, strEntry[V]{key: key, val: v})
			// Invariant: len(t.entries) <= t.pos, as the slots are more
			// than twice as many.
			t.slots[i] = tag | uint32(len(t.entries))
			return
		}
		if s&^t.pos == tag {
			if e := &t.entries[s&t.pos-1]; e.key == key {
				e.val = v
				return
			}
		}
	}
}

// newStrTable returns an empty table that takes n keys without growing:
// set grows a table only to keep its slots at most half full.
func newStrTable[V any](n int) *strTable[V] {
	size := 8
	for size < 2*n {
		size *= 2
	}
	return &strTable[V]{slots: make([]uint32, size), entries: make([]strEntry[V], 0, n), pos: uint32(size - 1)}
}

// grow doubles the slots of t, with at least 8, and indexes its entries
// again.
func (t *strTable[V]) grow() {
	t.slots = make([]uint32, max(8, 2*len(t.slots)))
	t.pos = uint32(len(t.slots) - 1)
	// Optimization: the entries get room for as many as the slots take
	// before they grow again, so that appending to them copies nothing
	// until then. Left to append, which grows a large slice by a quarter,
	// a table of a hundred thousand keys allocated twice as much in all.
	if n := len(t.slots) / 2; cap(t.entries) < n {
		entries := make([]strEntry[V], len(t.entries), n)
		copy(entries, t.entries)
		t.entries = entries
	}
	mask := uint64(len(t.slots) - 1)
	for j, e := range t.entries {
		h := strHash(e.key)
		i := h & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = slotTag(h, t.pos) | uint32(j+1)
	}
}

// trim gives t's entries an array of their length, if they have more
// room.
func (t *strTable[V]) trim() {
	if t != nil && cap(t.entries) > len(t.entries) {
		t.entries = slices.Clone(t.entries)
	}
}

// len returns the number of keys in t.
func (t *strTable[V]) len() int {
	if t == nil {
		return 0
	}
	return len(t.entries)
}

// all yields every entry of t, in no particular order.
func (t *strTable[V]) all(yield func(string, V) bool) {
	if t == nil {
		return
	}
	for _, e := range t.entries {
		if !yield(e.key, e.val) {
			return
		}
	}
}
