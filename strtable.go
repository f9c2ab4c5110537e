package cairn

// This file holds strTable, the hash table from strings under every
// stringMap: the static paths of a host, the hosts, and the literal
// children of wide nodes.
//
// It does what a Go map does for these tables, faster for the one thing a
// request asks of them, a lookup: the hash reads a key eight bytes at a
// time, and each slot keeps its key's hash, so a probe compares strings
// only when their hashes agree. A lookup of a path that is not there, the
// most common one for a request with wildcards, usually ends at the first
// slot, after one hash and one load.
//
// The keys are the patterns' own, chosen by whoever registers the routes,
// while the strings looked up come from requests. A request chooses only
// where its probe starts, so the work it causes is bounded by the longest
// run of used slots, which the registered keys alone decide; the table
// stays at most half full.

import "math/bits"

// A strTable maps strings to values of type V. The zero value is empty
// and ready to use; a table read by a lookup is never changed (see
// stringMap).
type strTable[V any] struct {
	slots []strSlot[V] // len is 0 or a power of two
	n     int          // keys present
}

// A strSlot is a slot of a strTable. Invariant: hash is 0 only in an empty
// slot; a key's hash is never 0 (see strHash).
type strSlot[V any] struct {
	hash uint64
	key  string
	val  V
}

// Multipliers for strHash: odd 64-bit constants with well-spread bits.
const (
	strMul1 = 0x9E3779B97F4A7C15
	strMul2 = 0xC2B2AE3D27D4EB4F
)

// strHash returns the hash of s, never 0.
func strHash(s string) uint64 {
	h := uint64(len(s)) * strMul1
	i := 0
	for ; i+8 <= len(s); i += 8 {
		h = bits.RotateLeft64((h^word(s, i))*strMul2, 31)
	}
	if i < len(s) {
		var t uint64
		for j := len(s) - 1; j >= i; j-- {
			t = t<<8 | uint64(s[j])
		}
		h = bits.RotateLeft64((h^t)*strMul2, 31)
	}
	h ^= h >> 29
	h *= strMul1
	h ^= h >> 32
	return h | 1
}

// get returns the value of key and whether it is present.
//
// Allocation: none.
func (t *strTable[V]) get(key string) (V, bool) {
	if t == nil || len(t.slots) == 0 {
		var zero V
		return zero, false
	}
	h := strHash(key)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.hash == h && s.key == key {
			return s.val, true
		}
		if s.hash == 0 {
			var zero V
			return zero, false
		}
	}
}

// set sets the value of key to v.
func (t *strTable[V]) set(key string, v V) {
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	h := strHash(key)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.hash == 0 {
			*s = strSlot[V]{hash: h, key: key, val: v}
			t.n++
			return
		}
		if s.hash == h && s.key == key {
			s.val = v
			return
		}
	}
}

// grow doubles the slots of t, with at least 8.
func (t *strTable[V]) grow() {
	old := t.slots
	t.slots = make([]strSlot[V], max(8, 2*len(old)))
	mask := uint64(len(t.slots) - 1)
	for _, s := range old {
		if s.hash == 0 {
			continue
		}
		i := s.hash & mask
		for t.slots[i].hash != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}

// len returns the number of keys in t.
func (t *strTable[V]) len() int {
	if t == nil {
		return 0
	}
	return t.n
}

// all yields every entry of t, in no particular order.
func (t *strTable[V]) all(yield func(string, V) bool) {
	if t == nil {
		return
	}
	for _, s := range t.slots {
		if s.hash != 0 && !yield(s.key, s.val) {
			return
		}
	}
}
