package cairn

// This file keeps the identities of the patterns that routers set as
// r.Pattern, so that whatever runs after routing can tell, from the request
// alone and without allocating, to which route it was routed and with what
// answer, and a router whether it routed it.
//
// A Router keeps no per-request state: a request carries what routing
// decided in r.Pattern, a field that survives http.Request.WithContext and
// every other shallow copy. Each route owns private copies of its pattern
// string, one per answer the router can give with that pattern:
//
//	GET /users/{id}  (served)      the route serves the request
//	GET /users/{id}  (redirected)  the request is redirected to a path the route matches
//	GET /users/{id}  (rejected)    the route's versions all reject the request: 406
//
// The first is made when the route is registered; the others the first time
// the route gives that answer (see answerID).
//
// A Mount adds two more kinds: the pattern it gives the requests it passes
// on, with their prefix stripped, and, for a mounted Router, the full
// pattern of each of its routes ("GET /orgs/{org}/repos/{repo}"), which the
// outer router's middleware sees.
//
// The copies are equal strings, so middleware and handlers see the pattern
// ServeMux would set, but their bytes live at different addresses, and the
// address of a copy's first byte is its key in a process-wide registry. The
// registry gives the identity: where the wildcards are (for Param), the
// route's version and the route's index in its router. An identity does
// not name its router: a router knows its own by their addresses (see
// table.routeOf).
// Given r.Pattern, one lock-free probe of the registry finds it, or finds
// nothing for a pattern no live Router made (one set by ServeMux, by hand,
// or "", which a router sets when no route matched).
//
// The registry is an open-addressing hash table keyed by pointers. Readers
// load its slot array atomically and probe it without locks; writers hold a
// mutex, fill free slots in place (one atomic store each) and copy the table
// only to double it, so adding an identity costs O(1) amortized whatever
// the number of routes of all routers. A router's identities go in
// together when it first serves, since no request can carry one before
// (see identTable.addAll), and a cleanup attached to each router takes
// them out, under one lock, once the router is unreachable.

import (
	"iter"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"unsafe"
)

// An identKind says what a router decided for a request whose r.Pattern is
// an identity of that kind.
type identKind uint8

const (
	identServe         identKind = iota // the route serves the request
	identRedirect                       // the request is redirected to a path the route matches
	identSlashRedirect                  // as identRedirect, to the clean path with a trailing slash added or removed
	identReject                         // no version of the route accepts the request (406)
	identStripped                       // a Mount passes the request on, its prefix stripped
	identThrough                        // a route of a mounted Router serves the request: the full pattern
	identOtherForm                      // the request the router was given, served under SlashServe as the other form of its path
	identClaim                          // the router's own answer below a group's prefix: r.Pattern is empty, see claimPattern
)

// String returns the kind's name.
func (k identKind) String() string {
	switch k {
	case identServe:
		return "serve"
	case identRedirect:
		return "redirect"
	case identSlashRedirect:
		return "slash redirect"
	case identReject:
		return "reject"
	case identStripped:
		return "stripped"
	case identThrough:
		return "through"
	case identOtherForm:
		return "other form"
	case identClaim:
		return "claim"
	}
	return "identKind(" + strconv.Itoa(int(k)) + ")"
}

// An ident is the identity of one copy of a route's pattern.
type ident struct {
	l *layout // where the wildcards are; shared by the identities of one pattern
	// pat.str is the copy: its bytes are the pattern, its first byte's
	// address the key. An identity of kind identServe holds its route's
	// parsed pattern; one of another kind holds only the string.
	//
	// Optimization: a route's pattern is part of its identity, so that
	// the two are one value of 48 bytes instead of two. The
	// layout comes first, so that Param reads it and the key from the
	// first 24 bytes.
	pat pattern
	// route is the route's index in its router. Optimization: 32 bits,
	// which hold the index of any route a router can have room for, and
	// no record of the router, which tells its own identities by their
	// addresses (see table.routeOf), so that an identity is 48 bytes
	// instead of 64.
	route uint32
	kind  identKind
}

// newIdent returns a new identity of kind for the pattern s of the route
// with index idx. The identity's string is a new copy of s.
func newIdent(s string, l *layout, idx int, kind identKind) *ident {
	return &ident{pat: pattern{str: cloneString(s)}, l: l, route: uint32(idx), kind: kind}
}

// cloneString returns a copy of s in new memory, even if s is empty, so
// that its data pointer is its own.
func cloneString(s string) string {
	b := make([]byte, len(s), len(s)+1) // +1: never a zero-size allocation
	copy(b, s)
	return unsafe.String(unsafe.SliceData(b), len(s))
}

// idents is the registry of the identities of live routers.
var idents identTable

// findIdent returns the identity that s is, or nil if s is not one.
//
// Allocation: none.
func findIdent(s string) *ident { return idents.find(s) }

// An identTable is the registry: a hash table from the address of an
// identity's first byte to the identity, which readers probe without
// locks. Writers hold mu; they store into free slots in place, each store
// atomic, and replace the slot array only to grow it, so adding an identity
// costs O(1) amortized. The slots point to the identities themselves, which
// hold their keys, so that the probe every Param makes loads nothing else.
//
// Invariant: at most half of the slots are used (live or deleted), so a
// probe always ends at an empty slot. A deleted identity's slot points to
// deletedIdent, whose key, nil, is no identity's.
type identTable struct {
	mu    sync.Mutex
	slots atomic.Pointer[identSlots]
	live  int // identities present
	used  int // slots not empty: live identities and deleted ones
}

// identSlots is the slot array of an identTable: len(s) is a power of
// two, 1<<(64-shift).
type identSlots struct {
	s     []atomic.Pointer[ident]
	shift uint
}

// find returns the identity that s is, or nil. (Param makes the first
// step of the probe itself; see there.)
func (t *identTable) find(s string) *ident {
	if s == "" {
		return nil
	}
	key := unsafe.StringData(s)
	sl := t.slots.Load()
	if sl == nil {
		return nil
	}
	mask := uintptr(len(sl.s) - 1)
	for i := sl.slot(key); ; i = (i + 1) & mask {
		id := sl.s[i].Load()
		if id == nil {
			return nil
		}
		if id.key() == key {
			// A prefix of an identity shares its data pointer.
			if len(id.pat.str) == len(s) {
				return id
			}
			return nil
		}
	}
}

// findClaim returns the identity of kind identClaim whose key is the data
// pointer of s, an empty string, or nil if there is none.
//
// The router's own answer (404, 405, OPTIONS) for a path below the prefix
// of a group that covers it sets r.Pattern to "", as ServeMux does, but to
// an empty string that points at the first byte of the group's claim
// identity (see claimPattern), so that Param reads the values of the
// prefix's wildcards. An empty string that points elsewhere, or nowhere
// (as "" does), finds nothing, and no identity of another kind is found
// this way.
//
// Optimization: the probe is find's, written again. With a helper that
// both call, find, which Param and every hop between middleware chains
// reach, costs a call more: 0.5% more instructions on the GitHub suite.
func (t *identTable) findClaim(s string) *ident {
	key := unsafe.StringData(s)
	if key == nil || s != "" {
		return nil
	}
	sl := t.slots.Load()
	if sl == nil {
		return nil
	}
	mask := uintptr(len(sl.s) - 1)
	for i := sl.slot(key); ; i = (i + 1) & mask {
		id := sl.s[i].Load()
		if id == nil {
			return nil
		}
		if id.key() == key {
			if id.kind == identClaim {
				return id
			}
			return nil
		}
	}
}

// claimPattern returns the empty string whose data pointer is id's key,
// which findClaim finds id from.
//
// Soundness: the string has length 0, so nothing reads the byte it points
// to; the pointer, to the first byte of id's copy of its pattern (never
// empty, see cloneString), keeps that copy alive, as a route's r.Pattern
// does. Assignments and copies of the request keep the pointer; a string
// built anew ("" or a slice of another string) has another, and finds no
// identity.
func (id *ident) claimPattern() string { return unsafe.String(id.key(), 0) }

// key returns id's key, the address of its first byte.
func (id *ident) key() *byte { return unsafe.StringData(id.pat.str) }

// deletedIdent marks the slot of a removed identity.
var deletedIdent = &ident{}

// slot returns the first slot to probe for key.
func (sl *identSlots) slot(key *byte) uintptr {
	// Fibonacci hashing: the multiplication spreads the pointer's bits,
	// whose low ones vary little (most keys are a few bytes apart in a
	// router's blocks of patterns, or aligned allocations), to the top
	// ones kept.
	// The shift is below 64 (see grow); masking it says so to the
	// compiler, which then drops its check for larger shifts.
	return uintptr(uint64(uintptr(unsafe.Pointer(key)))*slotHashMul) >> (sl.shift & 63)
}

// slotHashMul is the multiplier of slot's Fibonacci hashing: 2⁶⁴ divided
// by the golden ratio.
const slotHashMul = 0x9E3779B97F4A7C15

// add adds id, whose key no identity present has.
func (t *identTable) add(id *ident) {
	t.mu.Lock()
	defer t.mu.Unlock()
	sl := t.slots.Load()
	if sl == nil || 2*(t.used+1) > len(sl.s) {
		sl = t.grow(sl)
	}
	mask := uintptr(len(sl.s) - 1)
	for i := sl.slot(unsafe.StringData(id.pat.str)); ; i = (i + 1) & mask {
		switch e := sl.s[i].Load(); e {
		case nil:
			t.used++
			fallthrough
		case deletedIdent:
			sl.s[i].Store(id)
			t.live++
			return
		}
	}
}

// addAll adds ids, whose keys no identity present has, nor two of them
// share.
//
// Optimization: the slot array grows once, to its size for them all, and
// they are added in about the order of their first slots, so that the
// adds walk the array from start to end: added one at a time, at slots
// that the hash scatters, a hundred thousand identities cost a cache miss
// each, a quarter of a microsecond on a virtual machine.
func (t *identTable) addAll(ids []*ident) {
	t.mu.Lock()
	defer t.mu.Unlock()
	sl := t.slots.Load()
	if sl == nil || 2*(t.used+len(ids)) > len(sl.s) {
		sl = t.growFor(sl, len(ids))
	}
	if len(ids) >= minSortedAdds {
		ids = sortBySlot(ids)
	}
	mask := uintptr(len(sl.s) - 1)
	for _, id := range ids {
		for i := sl.slot(unsafe.StringData(id.pat.str)); ; i = (i + 1) & mask {
			if e := sl.s[i].Load(); e == nil || e == deletedIdent {
				if e == nil {
					t.used++
				}
				sl.s[i].Store(id)
				t.live++
				break
			}
		}
	}
}

// minSortedAdds is the number of identities from which addAll sorts them.
const minSortedAdds = 1024

// sortBySlot returns ids ordered by the top slotSortBits bits of their
// keys' hashes, which order their first slots in any slot array (see
// slot).
func sortBySlot(ids []*ident) []*ident {
	const bits = slotSortBits
	var counts [1<<bits + 1]int32
	bucket := func(id *ident) uint64 {
		return uint64(uintptr(unsafe.Pointer(id.key()))) * slotHashMul >> (64 - bits)
	}
	for _, id := range ids {
		counts[bucket(id)+1]++
	}
	for i := 1; i < len(counts); i++ {
		counts[i] += counts[i-1]
	}
	sorted := make([]*ident, len(ids))
	for _, id := range ids {
		b := bucket(id)
		sorted[counts[b]] = id
		counts[b]++
	}
	return sorted
}

// slotSortBits is the number of the hash's top bits that sortBySlot
// orders identities by: 4096 buckets, each the first slots of an
// 4096th of any slot array.
const slotSortBits = 12

// remove removes the identity whose key is key, if present.
func (t *identTable) remove(key *byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.removeLocked(key)
}

// removeAll removes the identities whose keys keys yields, if present,
// under one lock. If then at most a sixteenth of the slots of an array of
// more than minShrinkSlots hold identities, the array is replaced by one
// at most a quarter full: the registry keeps room for the most routes it
// has held only while it holds a fair part of as many, so that a program
// that drops a large router gets that memory back.
//
// Optimization: between a sixteenth, where the array shrinks, and a half,
// where it grows, the number of identities may change eightfold without
// a copy of the array. With an eighth, a program that builds a router of
// 100 000 routes while two dropped ones wait for their cleanups (as the
// benchmarks module's BenchmarkRegister does, one build after another)
// copied the array twice per build, shrinking it and growing it again.
//
// Allocation: none, unless the array shrinks. A collected router's cleanup
// calls it, and may run while a program measures its own heap, so the keys
// are not gathered, nor sorted by slot as addAll's identities are.
func (t *identTable) removeAll(keys iter.Seq[*byte]) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for key := range keys {
		t.removeLocked(key)
	}
	if sl := t.slots.Load(); sl != nil && len(sl.s) > minShrinkSlots && 16*t.live <= len(sl.s) {
		t.growFor(sl, t.live)
	}
}

// minShrinkSlots is the number of slots, 32 KiB of them, up to which
// removeAll never replaces the slot array by a smaller one.
const minShrinkSlots = 4096

// removeLocked is remove, for a caller that holds t.mu.
func (t *identTable) removeLocked(key *byte) {
	sl := t.slots.Load()
	if sl == nil {
		return
	}
	mask := uintptr(len(sl.s) - 1)
	for i := sl.slot(key); ; i = (i + 1) & mask {
		switch id := sl.s[i].Load(); {
		case id == nil:
			return
		case id.key() == key:
			sl.s[i].Store(deletedIdent)
			t.live--
			if sl.s[(i+1)&mask].Load() == nil {
				t.clearDeleted(sl, i)
			}
			return
		}
	}
}

// clearDeleted empties slot i of sl, which marks a deleted identity and is
// followed by an empty slot, and the slots before it that mark deleted
// identities too, up to the first that does not.
//
// Invariant: a slot that marks a deletion may be emptied when the next one
// is empty. A probe for a present identity passes no empty slot, so no
// probe that passes this one ends at an identity beyond it: a reader that
// now stops here, lock-free, finds what it would have found. So the marks
// do not pile up: without this, a program that builds a router and drops
// another, again and again, left the marks of each dropped one's
// identities until the array had to grow, and the next router's first
// request copied the whole array (about 12% of the time to build 100 000
// routes, one build after another, in the benchmarks module).
func (t *identTable) clearDeleted(sl *identSlots, i uintptr) {
	mask := uintptr(len(sl.s) - 1)
	for sl.s[i].Load() == deletedIdent {
		sl.s[i].Store(nil)
		t.used--
		i = (i - 1) & mask
	}
}

// grow returns a new slot array, published, with room for twice the live
// identities of sl and at least 16 slots, holding them.
func (t *identTable) grow(sl *identSlots) *identSlots { return t.growFor(sl, t.live+2) }

// growFor returns a new slot array, published, holding the live identities
// of sl, with room for n more without growing: at least twice their number
// of slots, and at least 16. It may be smaller than sl (see removeAll).
func (t *identTable) growFor(sl *identSlots, n int) *identSlots {
	shift := uint(64 - 4)
	for 1<<(64-shift) < 2*(t.live+n) {
		shift--
	}
	next := &identSlots{s: make([]atomic.Pointer[ident], 1<<(64-shift)), shift: shift}
	mask := uintptr(len(next.s) - 1)
	if sl != nil {
		for i := range sl.s {
			id := sl.s[i].Load()
			if id == nil || id == deletedIdent {
				continue
			}
			j := next.slot(unsafe.StringData(id.pat.str))
			for next.s[j].Load() != nil {
				j = (j + 1) & mask
			}
			next.s[j].Store(id)
		}
	}
	t.used = t.live
	t.slots.Store(next)
	return next
}

// answerID returns the identity of kind, identRedirect,
// identSlashRedirect or identReject, of the route rt of r, making it on
// first use.
//
// Optimization: most routes never redirect nor answer 406, so their
// identities for those answers are made, and added to the registry, only
// when one does; a route keeps one identity instead of three.
func (r *Router) answerID(rt *route, kind identKind) *ident {
	ids := &r.redirectIDs
	switch kind {
	case identSlashRedirect:
		ids = &r.slashRedirectIDs
	case identReject:
		ids = &r.rejectIDs
	}
	sid := rt.id
	if id, ok := ids.Load(sid); ok {
		return id.(*ident)
	}
	r.answerMu.Lock()
	defer r.answerMu.Unlock()
	if id, ok := ids.Load(sid); ok {
		return id.(*ident)
	}
	l := sid.l
	switch kind {
	case identRedirect:
		// The request's path is not the one the redirect leads to, so
		// its segments are not the pattern's values.
		rl := *l
		rl.asPathValues = true
		l = &rl
	case identSlashRedirect:
		// The request's path is clean, and the one it leads to has a
		// trailing slash more or less: their segments are the same from
		// the start, so Param reads there the values the redirect leads
		// to, as for a request served as the other form (otherFormID).
		rl := *l
		rl.fromStart = true
		l = &rl
	}
	id := newIdent(sid.pat.str, l, int(sid.route), kind)
	r.addIdents(nil, false, id)
	ids.Store(sid, id)
	return id
}

// otherFormID returns the identity for a request that r, or a Router it
// mounts, serves as the other form of its path under SlashServe, of id,
// the identity of the pattern that serves the other form: the route's own
// (or one of a mount's full patterns) if the route serves it, or the one
// for a 406 if it rejects it. r sets it on the request it was given, and
// a mount (see mounted.through) as the full pattern, on the request it
// passes on. It makes the identity on first use.
//
// The request's path has a trailing slash more or less than the copy's,
// so its segments line up with the pattern's from the start, not from the
// end: Param reads them from the start, and gives the values the handler
// sees.
func (r *Router) otherFormID(id *ident) *ident {
	if oid, ok := r.otherFormIDs.Load(id); ok {
		return oid.(*ident)
	}
	r.answerMu.Lock()
	defer r.answerMu.Unlock()
	if oid, ok := r.otherFormIDs.Load(id); ok {
		return oid.(*ident)
	}
	l := *id.l
	l.fromStart = true
	oid := newIdent(id.pat.str, &l, int(id.route), identOtherForm)
	r.addIdents(nil, false, oid)
	r.otherFormIDs.Store(id, oid)
	return oid
}

// An identSet holds the identities a router has added to the registry, so
// that a cleanup can remove them once the router is unreachable. It must
// not refer to the router.
//
// Optimization: an identity whose key is in one of the router's blocks of
// patterns (see copyPattern), as the identity of every route is, is kept
// as the offset of its key in the block, 2 bytes instead of a pointer of
// 8, and one the collector does not follow; the others, made when a route
// first gives an answer or by a mount, are kept as they are.
type identSet struct {
	mu     sync.Mutex
	blocks []keyBlock
	ids    []*ident // identities whose keys are in none of blocks
}

// keys yields the keys of the identities of set, whose lock is held.
func (set *identSet) keys(yield func(*byte) bool) {
	for _, b := range set.blocks {
		for _, off := range b.offs {
			if !yield(&b.data[off]) {
				return
			}
		}
	}
	for _, id := range set.ids {
		if !yield(id.key()) {
			return
		}
	}
}

// A keyBlock is a block of patterns and the offsets in it of the keys of
// identities.
type keyBlock struct {
	data []byte   // the whole block, to its capacity
	offs []uint16 // below maxPatternBlock
}

// addIdents adds ids to the identities of r and, unless wait is set, to
// the registry. The first time, it attaches the cleanup that removes them
// from the registry again. block is r's current block of patterns, for a
// caller that holds r's lock, or nil.
//
// Optimization: before r serves, no request can carry an identity of r, so
// the identities that add makes for r's routes wait (add sets wait until r
// serves), and go into the registry together when r first serves (see
// waitingIdents and identTable.addAll).
func (r *Router) addIdents(block []byte, wait bool, ids ...*ident) {
	set := r.identSet()
	set.mu.Lock()
	defer set.mu.Unlock()
	block = block[:cap(block)]
	start := uintptr(unsafe.Pointer(unsafe.SliceData(block)))
	for _, id := range ids {
		if !wait {
			idents.add(id)
		}
		// Invariant: the key of an identity whose copy copyPattern packed
		// is in the block it packed it into, the last one so far.
		key := uintptr(unsafe.Pointer(id.key()))
		if len(block) == 0 || key < start || key >= start+uintptr(len(block)) {
			set.ids = append(set.ids, id)
			continue
		}
		if n := len(set.blocks); n == 0 || unsafe.SliceData(set.blocks[n-1].data) != unsafe.SliceData(block) {
			set.blocks = append(set.blocks, keyBlock{data: block})
		}
		b := &set.blocks[len(set.blocks)-1]
		b.offs = append(b.offs, uint16(key-start))
	}
}

// waitingIdents returns the identities that wait to go into the registry
// until r first serves (see addIdents): those that add made for the routes
// registered before, the route's own and, for a mount, that of its
// stripped pattern. r's lock is held.
func (r *Router) waitingIdents() []*ident {
	ids := make([]*ident, 0, len(r.routes)) // a mount's takes one more
	for _, rt := range r.routes {
		ids = append(ids, rt.id)
		if m := rt.mount(); m != nil {
			ids = append(ids, m.stripped)
		}
	}
	return ids
}

// identSet returns the identity set of r, creating it and attaching its
// cleanup on first use.
func (r *Router) identSet() *identSet {
	r.identsOnce.Do(func() {
		r.ids = &identSet{}
		runtime.AddCleanup(r, func(set *identSet) {
			set.mu.Lock()
			defer set.mu.Unlock()
			idents.removeAll(set.keys)
		}, r.ids)
	})
	return r.ids
}
