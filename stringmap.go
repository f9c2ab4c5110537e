package cairn

// This file holds stringMap, the map from strings that the lookup tables
// use for wide nodes, the index of static paths and the hosts: a hash
// table for reading (see strtable.go), kept up to date in O(1) amortized
// time per change.
//
// A published table is never changed, so a change cannot add to its hash
// tables. Copying a table on every change would make registration
// quadratic, and a persistent map (see pmap.go) alone is slower to read.
// So a stringMap is a hash table, base, that is never changed once a
// lookup can read it, and a persistent map, recent, of the entries set
// since base was made. A lookup tries recent, when there is one, and then
// base. Once recent holds more than an eighth of base's entries, a change
// makes a new base from both and drops recent, so each entry is copied a
// constant number of times on average, and a router that stopped
// registering reads a single table again soon. A change may set entries of
// a base it made itself in place, as it may modify the nodes it made (see
// update.go), so that registering before the first request fills one
// table.

// A stringMap maps strings to values of type V. The zero value is an empty
// map.
type stringMap[V any] struct {
	edit   *editToken   // the change that made base, the only one that may add to it
	base   *strTable[V] // never changed once read by a lookup
	recent *pmap[V]     // entries set since base was made, if any; they win over base
}

// get returns the value of key, or the zero value if there is none.
//
// Allocation: none.
func (m *stringMap[V]) get(key string) V {
	if m.recent != nil {
		if v, ok := m.recent.get(key); ok {
			return v
		}
	}
	v, _ := m.base.get(key)
	return v
}

// set sets key to v, for the change edit, which owns the value m (a field
// of a node or table that edit made or copied).
func (m *stringMap[V]) set(key string, v V, edit *editToken) {
	if m.edit == edit && m.recent == nil {
		if m.base == nil {
			m.base = &strTable[V]{}
		}
		m.base.set(key, v)
		return
	}
	m.recent = m.recent.set(key, v, edit)
	if m.recent.len() > m.base.len()/8 {
		// Optimization: the new base is made to size, so that filling it
		// neither grows its slots nor its entries. The size counts twice
		// the keys of recent that base has too, at most an eighth more.
		base := newStrTable[V](m.base.len() + m.recent.len())
		for k, x := range m.base.all {
			base.set(k, x)
		}
		for k, x := range m.recent.all {
			base.set(k, x)
		}
		m.edit, m.base, m.recent = edit, base, nil
	}
}

// all yields every entry of m, in no particular order.
func (m *stringMap[V]) all(yield func(string, V) bool) {
	for k, v := range m.recent.all {
		if !yield(k, v) {
			return
		}
	}
	for k, v := range m.base.all {
		if _, ok := m.recent.get(k); ok {
			continue
		}
		if !yield(k, v) {
			return
		}
	}
}
