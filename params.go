package cairn

// This file reads path parameters.
//
// A Router keeps no per-request state. A wildcard's value is derived when
// asked for, from two things the request already carries: req.Pattern, which
// the router sets to the matched pattern, and the request's path. The
// wildcard {repo} is the third segment of "GET /repos/{owner}/{repo}/issues",
// so its value is the third segment of the path. Both fields survive
// [http.Request.WithContext], so the values stay readable in every
// middleware and handler that runs after matching, with nothing allocated
// and nothing to release. Where the wildcard is comes from the layout of
// the pattern's identity (see ident.go and layout.go) or, for a pattern
// that no live Router owns, from scanning the pattern.

import (
	"iter"
	"math/bits"
	"net/http"
	"strings"
	"unsafe"
)

// Param returns the value of the wildcard name in the pattern that matched
// r. The value is unescaped; for a {name...} wildcard it is the rest of the
// path, without its leading slash. If the pattern has no such wildcard,
// Param returns r.PathValue(name): the value a [Router.Mount] keeps for a
// wildcard of its prefix, or "".
//
// Param reads r.Pattern and r.URL, so it works for requests routed by a
// [Router] (with or without path-value population) or by [http.ServeMux],
// and it derives the value from the path as it is at the time of the call.
// If r.URL.Path changes after routing, as it does behind [http.StripPrefix],
// its segments no longer line up with the pattern's, and which value Param
// returns is not specified: a segment of the new path (for {name...}, the
// rest of it), r.PathValue(name), or "". Behind StripPrefix("/b"), the route
// "GET /b/{bucket}/{key...}" serving /b/photos/2024/cat.jpg passes on the
// path /photos/2024/cat.jpg, in which bucket is no longer "photos". Use
// [Router.Mount] to strip a prefix (the mounted handler reads the prefix's
// values with Param), or read the values before the path changes, or read
// them with r.PathValue, which the router fills before any handler runs
// when path values are on.
//
// For the router's own answers (404, 405, automatic OPTIONS) for a path
// below the prefix of a group that covers it (see [Router.Group]), r.Pattern
// is "", as ServeMux leaves it, and Param returns the values of the
// wildcards of that group's prefix: with the group "/orgs/{org}", "acme"
// for org in the 404 for /orgs/acme/nothing, to the group's middleware, the
// middleware of [Router.Use] and the 404 handler alike. r.PathValue stays
// empty then. An r.Pattern set to "" by anything else reads no values.
//
// For a redirect, the middleware of [Router.Use] sees r.Pattern set to the
// pattern of the route the redirect leads to, while the path is the one
// redirected. For a redirect that adds or removes a trailing slash only,
// Param returns the value in the path it leads to, whose segments are the
// same; for one that cleans the path, r.PathValue(name), which is "": a
// redirect sets no path values, as ServeMux's does not. A request read once the
// Router that routed it is collected (by a goroutine that outlived the
// handler) gives r.PathValue(name) if it is set, else the value in the
// path if the path lines up with the pattern, else "".
//
// Allocation: none, unless r.URL.RawPath escapes a '/' or a '.' ("%2F",
// "%2E") and the value holds an escape: the value is then unescaped into a
// new string. Otherwise values come unescaped from r.URL.Path.
func Param(r *http.Request, name string) string {
	// Optimization: findIdent, which the compiler does not inline, with
	// the first step of its probe written out, where most identities are
	// found without a call. Invariant: an identity found here is the one
	// find returns, since its key and length are those of r.Pattern and
	// no two identities share a key; anything else is left to find.
	var id *ident
	if sl, pat := idents.slots.Load(), r.Pattern; sl != nil && pat != "" {
		id = sl.s[sl.slot(unsafe.StringData(pat))].Load()
		if id == nil || id.key() != unsafe.StringData(pat) || len(id.pat.str) != len(pat) {
			id = idents.find(pat)
		}
	}
	if id == nil {
		// The router's own answer below a group's prefix has an empty
		// r.Pattern (see findClaim); anything else is a pattern of no
		// live Router: from a ServeMux, or set by hand.
		if r.Pattern == "" {
			id = idents.findClaim(r.Pattern)
		}
		if id == nil {
			return patternParam(r, name)
		}
	}
	l := id.l
	if l.asPathValues {
		return pathValue(r, name)
	}
	i := l.position(name)
	if i < 0 {
		return pathValue(r, name)
	}
	idx := l.vars[i].seg
	p, escaped := requestPath(r.URL)
	var v string
	var ok bool
	if nsegs := int(l.nsegs); !l.fromStart && idx >= int(uint32(nsegs)/2) {
		// Optimization: the path has exactly nsegs segments, and this
		// one is closer to the end; most often it is the last, whose
		// slash is most often in the path's last eight bytes: then it
		// is found here, without lastSegment's call. (nsegs is not
		// negative: halved unsigned, it takes one shift.)
		if k := nsegs - 1 - idx; k != 0 {
			v, ok = segmentFromEnd(p, k)
		} else if m := slashMask(lastWordOrZero(p)); m != 0 {
			v, ok = p[len(p)-8+(63-bits.LeadingZeros64(m))/8+1:], true
		} else if len(p) >= 16 {
			// The eight bytes before those.
			if m = slashMask(word(p, len(p)-16)); m != 0 {
				v, ok = p[len(p)-16+(63-bits.LeadingZeros64(m))/8+1:], true
			} else {
				v, ok = lastSegment(p)
			}
		} else {
			v, ok = lastSegment(p)
		}
	} else {
		v, ok = segmentAt(p, idx, l.multi && i == len(l.vars)-1)
	}
	if !ok {
		return ""
	}
	return segmentValue(v, escaped)
}

// pathValue returns r.PathValue(name).
//
// Optimization: not inlined, so that Param, where it is the answer for a
// name the pattern does not have or for a mount's stripped pattern, keeps
// the loop of PathValue out of its own code: Param was 1171 bytes with it
// inlined twice, and how fast its common path ran depended by up to 17%
// on where the linker placed it.
//
//go:noinline
func pathValue(r *http.Request, name string) string { return r.PathValue(name) }

// patternParam is Param for a request whose pattern no live Router owns:
// one that ServeMux set, or a Router since collected (the request is read
// after its handler returned), or a program. The value is r.PathValue's if
// it has one, which ServeMux always sets, and a Router too unless told not
// to, and always for the values that are not in the path (a Mount's prefix
// once stripped); else it is read from the path if the path lines up with
// the pattern (see linesUp); else it is "".
func patternParam(r *http.Request, name string) string {
	if !plausibleName(name) {
		return ""
	}
	if v := r.PathValue(name); v != "" {
		return v
	}
	pat := r.Pattern
	// The path of a pattern is what follows its first '/': neither a method
	// nor a host may contain one.
	i := strings.IndexByte(pat, '/')
	if i < 0 {
		return ""
	}
	p, escaped := requestPath(r.URL)
	if !linesUp(pat[i:], p) {
		return ""
	}
	v, ok := lookupValue(pat[i:], p, name)
	if !ok {
		return ""
	}
	return segmentValue(v, escaped)
}

// linesUp reports whether the path p has as many segments as the pattern
// path pat, or at least as many if pat ends in a multi wildcard or a
// slash, so that the segments of p can be the values of pat's wildcards.
// A path that a router redirects, an unclean one or one with a slash too
// many or too few, does not line up with the pattern of the redirect, nor a
// Mount's stripped path with the Mount's pattern, most of the time; when
// the pattern's router is alive, its identities say so for sure (see
// layout.asPathValues).
func linesUp(pat, p string) bool {
	np, n := strings.Count(pat, "/"), strings.Count(p, "/")
	if strings.HasSuffix(pat, "/") || strings.HasSuffix(pat, "...}") {
		return n >= np
	}
	return n == np
}

// lookupValue walks the pattern path pat and the request path p together,
// segment by segment, and returns the raw value in p of the wildcard name.
//
// Optimization: one pass over both strings, with no allocation. A '/' in
// pat always separates segments, since a constraint may not contain one,
// and a wildcard's '{' always starts a segment, while a '{' inside a
// constraint never does.
func lookupValue(pat, p, name string) (string, bool) {
	if p == "" || p[0] != '/' {
		return "", false
	}
	for {
		// Invariant: pat[0] == '/' and p[0] == '/', at corresponding segments.
		seg := pat[1:]
		if len(seg) > len(name)+1 && seg[0] == '{' && seg[1:1+len(name)] == name {
			switch rest := seg[1+len(name):]; rest[0] {
			case '}', ':':
				if j := strings.IndexByte(p[1:], '/'); j >= 0 {
					return p[1 : 1+j], true
				}
				return p[1:], true
			case '.':
				if strings.HasPrefix(rest, "...}") {
					return p[1:], true
				}
			}
		}
		j := strings.IndexByte(seg, '/')
		k := strings.IndexByte(p[1:], '/')
		if j < 0 || k < 0 {
			return "", false
		}
		pat, p = seg[j:], p[1+k:]
	}
}

// segmentAt returns the raw segment at index idx of path p, or with multi
// the rest of the path from that segment on.
//
// Optimization: p is read eight bytes at a time (see slashMask). A word
// with no more slashes than are still to pass is passed whole, by the
// count of its slashes, so finding a segment costs a few steps per word
// rather than a few per segment; only in the word that holds the slash
// that starts the segment are slashes passed one by one.
func segmentAt(p string, idx int, multi bool) (string, bool) {
	if p == "" || p[0] != '/' {
		return "", false
	}
	// Invariant: until start is found, k is the number of slashes still
	// to pass before the one that starts segment idx; then start is the
	// segment's first byte, and the next slash ends it.
	k, start := idx, -1
	i := 0
	for ; i+8 <= len(p); i += 8 {
		m := slashMask(word(p, i))
		if start < 0 {
			if c := slashCount(m); k >= c {
				k -= c
				continue
			}
			for ; k > 0; k-- {
				m &= m - 1
			}
			j := i + bits.TrailingZeros64(m)/8
			if multi {
				return p[j+1:], true
			}
			start = j + 1
			m &= m - 1
		}
		if m != 0 {
			return p[start : i+bits.TrailingZeros64(m)/8], true
		}
	}
	for ; i < len(p); i++ {
		if p[i] != '/' {
			continue
		}
		if start >= 0 {
			return p[start:i], true
		}
		if k == 0 {
			if multi {
				return p[i+1:], true
			}
			start = i + 1
		}
		k--
	}
	if start < 0 {
		return "", false
	}
	return p[start:], true
}

// segmentFromEnd returns the raw segment of path p that has k segments
// after it.
//
// Optimization: as segmentAt, from the end: a word is passed whole by the
// count of its slashes while it has no more than are still to pass.
func segmentFromEnd(p string, k int) (string, bool) {
	// Invariant: until end is found, k is the number of slashes still to
	// pass, going back, before the one that ends the segment (none if
	// the segment is the last); then end is where the segment ends, and
	// the next slash going back starts it.
	end := -1
	if k == 0 {
		end = len(p)
	}
	k--
	i := len(p)
	for ; i >= 8; i -= 8 {
		m := slashMask(word(p, i-8))
		if end < 0 {
			if c := slashCount(m); k >= c {
				k -= c
				continue
			}
			for ; k > 0; k-- {
				m &^= 1 << (63 - bits.LeadingZeros64(m))
			}
			top := 63 - bits.LeadingZeros64(m)
			end = i - 8 + top/8
			m &^= 1 << top
		}
		if m != 0 {
			return p[i-8+(63-bits.LeadingZeros64(m))/8+1 : end], true
		}
	}
	for i--; i >= 0; i-- {
		if p[i] != '/' {
			continue
		}
		if end >= 0 {
			return p[i+1 : end], true
		}
		if k == 0 {
			end = i
		}
		k--
	}
	return "", false
}

// lastSegment returns the segment of p after its last slash, as
// segmentFromEnd(p, 0) does, or false if p has none.
//
// Optimization: the segment of most wildcards that Param finds from the
// end is the last, which needs none of segmentFromEnd's counting.
func lastSegment(p string) (string, bool) {
	i := len(p)
	for ; i >= 8; i -= 8 {
		if m := slashMask(word(p, i-8)); m != 0 {
			return p[i-8+(63-bits.LeadingZeros64(m))/8+1:], true
		}
	}
	for i--; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:], true
		}
	}
	return "", false
}

// Optimization: segmentAt and segmentFromEnd count the slashes of a path
// eight bytes at a time. For each word they compute a mask with the high
// bit set in exactly the bytes that are '/', and count its bits. A value
// among twenty segments is found in a few words instead of one IndexByte
// call per segment.

const (
	slashes = 0x2f2f2f2f2f2f2f2f // '/' in every byte
	low7    = 0x7f7f7f7f7f7f7f7f
)

// slashCount returns the number of bits of m, a mask from slashMask.
//
// Optimization: bits.OnesCount64 compiles, below GOAMD64=v2, to a check
// of the CPU and a call for CPUs without the instruction, which costs its
// caller a stack frame; a mask has at most one bit in each byte, the high
// one, so one multiplication sums them into the top byte.
func slashCount(m uint64) int { return int((m >> 7) * 0x0101010101010101 >> 56) }

// slashMask returns the high bit of every byte of w that is '/'.
//
// Invariant: exact for every byte, with no borrow from one byte to the
// next: after the XOR, a byte is zero iff it was '/'; adding 0x7f to its
// low seven bits sets its high bit iff those bits are not all zero, and
// OR-ing in the byte itself covers its own high bit.
func slashMask(w uint64) uint64 {
	x := w ^ slashes
	return ^((x&low7 + low7) | x | low7)
}

// word returns the eight bytes of s from i, the first in the low byte.
func word(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// lastWordOrZero returns lastWord(s) if s has at least eight bytes, or
// else 0, a word without slashes.
func lastWordOrZero(s string) uint64 {
	if len(s) < 8 {
		return 0
	}
	return word(s, len(s)-8)
}

// lastWord returns the last eight bytes of s, which has at least eight,
// the first in the low byte. Two strings of the same length, from eight to
// sixteen bytes, are equal exactly when their words and last words are.
func lastWord(s string) uint64 { return word(s, len(s)-8) }

// plausibleName reports whether name could be a wildcard name: it is not
// empty and has none of the bytes that delimit names in a pattern. (A full
// identifier check is left out of this hot path: a name that passes this
// test but is not an identifier cannot be found in a valid pattern.)
func plausibleName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch name[i] {
		case '{', '}', ':', '.', '/':
			return false
		}
	}
	return true
}

// setPathValues stores the wildcards of the pattern whose layout is l,
// which matched path p, in r for [http.Request.PathValue]. It walks the
// path once, up to the last wildcard.
//
// Allocation: what [http.Request.SetPathValue] costs, a map for the first
// value and its growth; nothing for a pattern without named wildcards.
//
// Optimization: eachLayoutValue's walk, written out so that SetPathValue is
// called directly; through a yield function shared with eachLayoutValue,
// path-value mode measured 3% slower (10 interleaved pairs, in runs where a
// rewrite of this walk with the same calls measured 1.6% apart).
func setPathValues(r *http.Request, l *layout, p string, escaped bool) {
	if p == "" {
		return
	}
	// Invariant: rest is the path from segment k on, without its '/'.
	rest, k := p[1:], 0
	for i, v := range l.vars {
		for ; k < v.seg; k++ {
			j := strings.IndexByte(rest, '/')
			if j < 0 {
				return
			}
			rest = rest[j+1:]
		}
		if l.multi && i == len(l.vars)-1 {
			r.SetPathValue(v.name, segmentValue(rest, escaped))
			return
		}
		j := strings.IndexByte(rest, '/')
		if j < 0 {
			j = len(rest)
		}
		r.SetPathValue(v.name, segmentValue(rest[:j], escaped))
	}
}

// Params returns an iterator over the wildcards of the pattern that
// matched r and their values, in the order of the pattern, as [Param]
// returns them, also once the path has changed: for
// "GET /repos/{owner}/{repo}" and /repos/golang/go, it yields ("owner",
// "golang") and ("repo", "go"). It is for handlers and adapters that need
// every value, and reads most of them in one pass over the path. In a
// handler that a [Router.Mount] calls directly, it yields the wildcards of
// the mount's prefix; in the handlers of a Router mounted there, those of
// their own patterns, which r.Pattern holds, while Param reads the
// prefix's values too. For the router's own answers below a group's
// prefix, it yields the prefix's wildcards, as Param reads them.
//
// Allocation: none for the iteration, unless, as for Param, r.URL.RawPath
// escapes a '/' or a '.' and a value holds an escape.
func Params(r *http.Request) iter.Seq2[string, string] {
	return func(yield func(name, value string) bool) {
		id := findIdent(r.Pattern)
		if id == nil {
			id = idents.findClaim(r.Pattern)
		}
		switch {
		case id == nil:
			eachPatternValue(r, yield)
		case id.l.asPathValues:
			for _, v := range id.l.vars {
				if !yield(v.name, r.PathValue(v.name)) {
					return
				}
			}
		default:
			eachLayoutValue(r, id.l, yield)
		}
	}
}

// eachLayoutValue yields the wildcards of l, the layout of r.Pattern, and
// the values Param gives them.
//
// Optimization: one pass over the path for the wildcards that Param finds
// from the start, where the pass is one IndexByte call per segment.
// Invariant: a wildcard that Param finds from the end (see there) is found
// here the same way, so that the two agree on every path, including one
// changed after routing, whose segments no longer line up with l.
func eachLayoutValue(r *http.Request, l *layout, yield func(string, string) bool) {
	p, escaped := requestPath(r.URL)
	// Invariant: while inStep, rest is the path from segment seg on,
	// without its '/'. Once the path has no segment seg (it has changed
	// since routing), values are "", as in Param.
	inStep := p != "" && p[0] == '/'
	var rest string
	if inStep {
		rest = p[1:]
	}
	seg, nsegs := 0, int(l.nsegs)
	for i, lv := range l.vars {
		var v string
		switch {
		case !l.fromStart && lv.seg >= nsegs/2:
			var ok bool
			if k := nsegs - 1 - lv.seg; k == 0 {
				v, ok = lastSegment(p)
			} else {
				v, ok = segmentFromEnd(p, k)
			}
			if ok {
				v = segmentValue(v, escaped)
			}
		default:
			for ; inStep && seg < lv.seg; seg++ {
				j := strings.IndexByte(rest, '/')
				inStep = j >= 0
				rest = rest[j+1:] // all of rest when j < 0, no longer read
			}
			if !inStep {
				break
			}
			v = rest
			if !l.multi || i < len(l.vars)-1 {
				if j := strings.IndexByte(rest, '/'); j >= 0 {
					v = rest[:j]
				}
			}
			v = segmentValue(v, escaped)
		}
		if !yield(lv.name, v) {
			return
		}
	}
}

// eachPatternValue yields the wildcards of r.Pattern, a pattern that no
// live Router owns, and the values Param gives them: walking the pattern
// and the path together, as lookupValue does, and once the path has no
// more segments, r.PathValue's.
func eachPatternValue(r *http.Request, yield func(string, string) bool) {
	pat := r.Pattern
	i := strings.IndexByte(pat, '/')
	if i < 0 {
		return
	}
	pat = pat[i:]
	p, escaped := requestPath(r.URL)
	// Invariant: pat[0] == '/', and while inStep, p[0] == '/', at the
	// segment that corresponds to pat's.
	inStep := p != "" && p[0] == '/' && linesUp(pat, p)
	for {
		seg := pat[1:]
		if len(seg) > 1 && seg[0] == '{' {
			end := strings.IndexAny(seg, ":}")
			name, multi := seg[1:max(end, 1)], false
			if n, ok := strings.CutSuffix(name, "..."); ok {
				name, multi = n, true
			}
			if end > 0 && name != "$" {
				// As patternParam: the path value, else the
				// segment of a path that lines up.
				v := r.PathValue(name)
				if v == "" && inStep {
					v = p[1:]
					if j := strings.IndexByte(v, '/'); j >= 0 && !multi {
						v = v[:j]
					}
					v = segmentValue(v, escaped)
				}
				if !yield(name, v) || multi {
					return
				}
			}
		}
		j := strings.IndexByte(seg, '/')
		if j < 0 {
			return
		}
		pat = seg[j:]
		if inStep {
			k := strings.IndexByte(p[1:], '/')
			inStep = k >= 0
			p = p[1+k:] // all of p when k < 0, no longer read
		}
	}
}
