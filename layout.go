package cairn

// This file describes where the wildcards of a pattern are, so that Param
// finds a value without scanning the pattern.
//
// A layout lists a pattern's wildcard names and the index of each one's
// path segment: for "GET /repos/{owner}/{repo}" it is owner at 1 and repo at
// 2. Param gets to the layout from r.Pattern through the registry of
// pattern identities (see ident.go).

import (
	"math/bits"
	"sync"
	"sync/atomic"
	"weak"
)

// A layout says where the wildcards of a pattern are. Layouts are never
// changed once made, so that patterns may share one.
//
// Optimization: the fields are ordered, nsegs is 32 bits, and names and
// segment indexes are one slice, so that a layout is 64 bytes, a size
// class.
type layout struct {
	vars    []layoutVar // the named wildcards, in path order
	version string      // the route's version, for RouteVersion
	// byName finds a name's position in one probe, or is nil; see
	// indexNames.
	byName *nameIndex
	nsegs  int32 // segments in the pattern, and in every path it matches unless it ends in a multi
	multi  bool  // the last name is a {name...} wildcard
	// fromStart says that Param finds every value counting segments from
	// the start of the path, never from its end: the pattern ends in a
	// multi wildcard, named or not, so the path may have more segments
	// than the pattern; or the layout is the copy for the request a
	// router serves as the other form of its path, under SlashServe,
	// whose path has a trailing slash more or less than the pattern.
	fromStart bool
	// asPathValues marks a pattern whose values Param reads with
	// r.PathValue, since the request's path does not line up with it: the
	// pattern a Mount gives the requests it passes on, whose path no
	// longer holds the prefix (a Mount sets the prefix's values as path
	// values), and the copy a router sets for a redirect, whose path is
	// not the one the redirect leads to (a redirect sets no values, as
	// ServeMux's does not).
	asPathValues bool
	// through is, in the layout of an identity of kind identThrough, the
	// mount that made the identity; nil in any other. It is weak: the
	// registry of identities is process-wide, and must not keep the
	// mount's router from being collected (its cleanup takes the
	// identity out of the registry).
	through weak.Pointer[mounted]
}

// A layoutVar is a named wildcard of a layout.
type layoutVar struct {
	name string
	// Optimization: word is keyWord(name), the first eight bytes. Two
	// names of the same length, up to eight bytes, are equal exactly when
	// their words are; of nine to sixteen bytes, when their words and
	// last words are (see lastWord). So position compares such names
	// without a call to compare bytes.
	word uint64
	seg  int // the index of its path segment
}

// newLayoutVar returns the layoutVar for the wildcard name at segment seg.
func newLayoutVar(name string, seg int) layoutVar {
	return layoutVar{name: name, word: keyWord(name), seg: seg}
}

// init makes l the layout of p, registered for version.
func (l *layout) init(p *pattern, version string) {
	*l = layout{nsegs: int32(p.numSegments()), fromStart: p.endsInMulti(), version: version}
	for i, s := range p.segments() {
		if s.named() {
			l.vars = append(l.vars, newLayoutVar(s.s, i))
			l.multi = s.kind() == segMulti
		}
	}
	l.byName = indexNames(l.vars)
}

// indexable reports whether indexNames looks for an index of vars.
func indexable(vars []layoutVar) bool {
	if len(vars) < 2 || len(vars) > maxIndexedNames {
		return false
	}
	short := true
	for _, v := range vars {
		if len(v.name) > 255 {
			return false // nameKey would not tell every short name apart
		}
		short = short && len(v.name) <= 8
	}
	if short {
		return len(vars) >= minIndexedShort
	}
	return len(vars) >= minIndexedNames || !distinctLengths(vars)
}

// distinctLengths reports whether no two of vars have names of the same
// length.
func distinctLengths(vars []layoutVar) bool {
	for i, a := range vars {
		for _, b := range vars[:i] {
			if len(a.name) == len(b.name) {
				return false
			}
		}
	}
	return true
}

// layoutOf returns the layout of p, registered for version: one that a
// pattern of r with the same wildcards at the same positions, the same
// number of segments and the same version already has, or a new one. r's
// lock is held.
//
// Optimization: the routes of an API share few layouts. Of the 167 routes
// with wildcards of the GitHub API, 38 layouts are distinct: every
// "/repos/{owner}/{repo}/..." of four segments has the same. Sharing them
// saves a layout and its names for most routes, and keeps the layouts that
// Param reads few enough to stay in cache. The hash and the comparison read
// p, so that a pattern whose layout r has costs no allocation.
func (r *Router) layoutOf(p *pattern, version string) *layout {
	if version == "" && p.wildcards() == 0 {
		// Optimization: a pattern without named wildcards, registered
		// without a version, shares its layout with every other of its
		// number of segments and kind of end, across routers.
		return sharedLayout(int32(p.numSegments()), p.endsInMulti())
	}
	h := layoutHash(p, version)
	if shared := r.layouts[h]; shared != nil && shared.fits(p, version) {
		return shared
	}
	l := new(layout)
	l.init(p, version)
	if r.layouts == nil {
		r.layouts = map[uint64]*layout{}
	}
	if r.layouts[h] == nil {
		// A layout whose hash another has is not shared; that is rare
		// enough to cost nothing.
		r.layouts[h] = l
	}
	return l
}

// layoutHash returns a hash of what fits compares: the number of segments
// of p, whether it ends in a multi, the names, positions and kinds of its
// named wildcards, and version.
func layoutHash(p *pattern, version string) uint64 {
	// Optimization: mixed with strHash's multiplication rather than
	// hash/maphash, which cost a fifth of what registering a route with a
	// wildcard does. A collision only keeps two layouts from being shared.
	h := uint64(p.numSegments()) << 1
	if p.endsInMulti() {
		h |= 1
	}
	h = foldMul(h^strSeed0, strHash(version)^strSeed1)
	for i, s := range p.segments() {
		if s.named() {
			h = foldMul(h^uint64(i)<<8^uint64(s.kind())^strSeed2, strHash(s.s)^strSeed1)
		}
	}
	return h
}

// fits reports whether l is the layout of p, registered for version: the
// layout that init would make.
func (l *layout) fits(p *pattern, version string) bool {
	if l.asPathValues || int(l.nsegs) != p.numSegments() || l.fromStart != p.endsInMulti() || l.version != version {
		return false
	}
	n := 0
	multi := false
	for i, s := range p.segments() {
		if s.named() {
			if n == len(l.vars) || l.vars[n].name != s.s || l.vars[n].seg != i {
				return false
			}
			n++
			multi = s.kind() == segMulti
		}
	}
	return n == len(l.vars) && l.multi == multi
}

// sharedLayouts holds the layouts that sharedLayout gives, by number of
// segments and whether the pattern ends in a multi. Layouts are never
// changed once made.
//
// Optimization: those of fewer than len(short[0]) segments are read
// without the lock: every static route registered asks for one, and the
// lock and the map cost 3% of registering a static route.
var sharedLayouts struct {
	short [2][16]atomic.Pointer[layout] // [tail][nsegs]
	mu    sync.Mutex
	m     map[sharedLayoutKey]*layout
}

// A sharedLayoutKey tells apart the layouts of patterns without named
// wildcards, registered without a version.
type sharedLayoutKey struct {
	nsegs int32
	tail  bool
}

// sharedLayout returns the layout shared by the patterns without names
// and version of nsegs segments, ending in a multi if tail is set.
func sharedLayout(nsegs int32, tail bool) *layout {
	var short *atomic.Pointer[layout]
	if nsegs >= 0 && int(nsegs) < len(sharedLayouts.short[0]) {
		t := 0
		if tail {
			t = 1
		}
		short = &sharedLayouts.short[t][nsegs]
		if l := short.Load(); l != nil {
			return l
		}
	}
	key := sharedLayoutKey{nsegs: nsegs, tail: tail}
	sharedLayouts.mu.Lock()
	defer sharedLayouts.mu.Unlock()
	if shared := sharedLayouts.m[key]; shared != nil {
		return shared
	}
	if sharedLayouts.m == nil {
		sharedLayouts.m = map[sharedLayoutKey]*layout{}
	}
	shared := &layout{nsegs: nsegs, fromStart: tail}
	sharedLayouts.m[key] = shared
	if short != nil {
		short.Store(shared)
	}
	return shared
}

// mountedLayout returns the layout of the full pattern of a route of a
// mounted Router: the route's layout inner, behind a prefix of nprefix
// segments with the wildcards of prefix. A wildcard of the route hides one
// of the prefix with the same name, as it does for the mounted Router's own
// handlers.
func mountedLayout(prefix *layout, nprefix int, inner *layout) *layout {
	l := &layout{nsegs: int32(nprefix) + inner.nsegs, fromStart: inner.fromStart, multi: inner.multi, version: inner.version}
	for _, v := range prefix.vars {
		if inner.position(v.name) < 0 {
			l.vars = append(l.vars, v)
		}
	}
	if len(inner.vars) == 0 {
		l.multi = false
	}
	for _, v := range inner.vars {
		v.seg += nprefix
		l.vars = append(l.vars, v)
	}
	l.byName = indexNames(l.vars)
	return l
}

// position returns the position of name in l.vars, or -1.
func (l *layout) position(name string) int {
	if name == "" {
		return -1
	}
	if l.byName != nil {
		return l.byName.position(l.vars, name)
	}
	if len(name) > 8 {
		// Optimization: a name of up to sixteen bytes is compared as its
		// first and last eight bytes, which cover it, without a call.
		w := word(name, 0)
		if len(name) <= 16 {
			t := lastWord(name)
			for i, v := range l.vars {
				if v.word == w && len(v.name) == len(name) && lastWord(v.name) == t {
					return i
				}
			}
			return -1
		}
		for i, v := range l.vars {
			if v.word == w && v.name == name {
				return i
			}
		}
		return -1
	}
	var w uint64
	if len(name) >= 4 {
		w = midWord(name)
	} else {
		w = shortWord(name)
	}
	for i, v := range l.vars {
		if v.word == w && len(v.name) == len(name) {
			return i
		}
	}
	return -1
}

// position returns the position of name in vars, which x indexes, or -1.
// name must not be empty.
func (x *nameIndex) position(vars []layoutVar, name string) int {
	// Invariant: a name of vars is in the slot its key gives, and only a
	// name of vars can be. The key holds every byte of a name of up to
	// three bytes, and its length.
	k := nameKey(name)
	if s := x.slots[k*x.mul>>x.shift]; s.key == k && s.pos != 0 {
		// The key holds the low byte of the name's length, which is all
		// of it for an indexed name and for a name of up to eight bytes.
		v := &vars[s.pos-1]
		switch {
		case len(name) <= 3:
		case len(name) <= 8:
			if v.word != midWord(name) {
				return -1
			}
		case len(name) <= 16:
			// As in layout.position: the first and last eight bytes, once
			// the lengths are known to be equal (a shorter name's word
			// has zeros where this one has bytes).
			if v.word != word(name, 0) || len(v.name) != len(name) || lastWord(v.name) != lastWord(name) {
				return -1
			}
		case v.name != name:
			return -1
		}
		return int(s.pos) - 1
	}
	return -1
}

// A nameIndex is a perfect hash of the wildcard names of a layout: each
// name has a slot of its own, so finding a name takes one hash, one load
// and, for a name longer than three bytes, one string comparison, however
// many wildcards the pattern has.
//
// Optimization: the hash reads four things of a name, its length and its
// first, middle and last bytes, packed in a key (see nameKey), and mixes
// them with a multiplier chosen when the layout is made so that no two
// names share a slot. A pattern with few names or very many (see
// indexable), or with names that no multiplier separates (they agree on
// all four), has no index, and position compares the names in turn.
type nameIndex struct {
	slots []nameSlot // len is a power of two, at most 128
	mul   uint32
	shift uint8 // 32 - log2(len(slots))
}

// A nameSlot is a slot of a nameIndex.
type nameSlot struct {
	key uint32 // nameKey of the name whose slot this is
	pos uint8  // position+1 of that name, or 0 for an empty slot
}

// nameKey returns the length and the first, middle and last bytes of the
// non-empty name s, packed. Invariant: for names shorter than 256 bytes it
// is one to one on those four things, so a name of up to three bytes has a
// key of its own.
func nameKey(s string) uint32 {
	return uint32(len(s)) ^ uint32(s[0])<<8 ^ uint32(s[len(s)>>1])<<16 ^ uint32(s[len(s)-1])<<24
}

// The numbers of names a layout needs for indexNames to index them. A
// linear search compares a name of up to eight bytes with each name as one
// word, which for up to eight names costs less than the hash and its
// loads (depth 4 to 16 in the benchmarks module: 4-10% less time); it
// compares the bytes of a longer name only with the names of its length,
// so for a few names of different lengths it costs no more than the hash.
const (
	minIndexedShort = 9 // when every name has at most eight bytes
	minIndexedNames = 5 // when some name is longer, and two have the same length
	maxIndexedNames = 32
)

// indexNames returns a perfect hash of the names of vars, or nil if there
// are more than maxIndexedNames, fewer than minIndexedShort of up to eight
// bytes each, fewer than minIndexedNames all of different lengths, or if
// none was found.
func indexNames(vars []layoutVar) *nameIndex {
	if !indexable(vars) {
		return nil
	}
	// With a quarter of the slots used, a random multiplier separates 32
	// names one time in seventy, and 20 names one time in five.
	size := 2
	for size < 4*len(vars) {
		size *= 2
	}
	shift := uint8(32 - bits.TrailingZeros(uint(size)))
	// The candidates: odd multipliers from a fixed sequence, so the index
	// of a pattern is the same in every process.
	mul := uint32(0x9E3779B9)
	x := &nameIndex{slots: make([]nameSlot, size), shift: shift}
	for try := 0; try < 512; try++ {
		clear(x.slots)
		x.mul = mul | 1
		ok := true
		for i, v := range vars {
			k := nameKey(v.name)
			s := &x.slots[k*x.mul>>x.shift]
			if s.pos != 0 {
				ok = false
				break
			}
			*s = nameSlot{key: k, pos: uint8(i + 1)}
		}
		if ok {
			return x
		}
		mul = mul*0x2C1B3C6D + 0x297A2D39
	}
	return nil
}
