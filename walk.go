package cairn

// This file holds walk, the loop that routes most requests before lookup
// (see lookup.go) is needed: it follows, segment by segment, the branch of
// the lookup tree that lookup would try first, and matches literal
// segments against the path eight bytes at a time. Given "GET /a/b",
// "POST /a/{x}" and "/a/", for "GET /a/b" it takes "a", then "b", and finds
// the route; for "POST /a/b" it takes "a", then "b", finds no POST route
// there and, since lookup would back up to {x}, leaves the request to
// lookup.

import "math/bits"

// walk is lookup for a path that no backing up can change: it follows one
// branch of the tree, in a loop, and reports whether it decided the
// request. If it did not (it met a segment that lookup must check, or a
// dead end after a node where lookup would try another child), the caller
// runs lookup.
//
// Optimization: lookup tries the children of a node in precedence order,
// each to the end of the path before the next. walk takes at each node the
// first child that lookup would try and that matches the segment alone: the
// literal child, else the constrained wildcard whose constraint the
// segment meets when only one does (if several do, lookup chooses among
// them), else the wildcard, else the multi. Invariant: when
// walk finds a route, it is the one lookup finds, since lookup's first
// attempt at every node along the way is walk's and succeeds; when walk
// decides that nothing matches, no node on its way had another child for
// lookup to try. walk gives up on an empty, "." or ".." segment (lookup
// marks the path unclean) and on an escaped segment that unescapes to "/".
// The path must not be followed by a slash. With lookup after it, a
// request visits each node at most twice; when walk decides, at most once.
func (n *lookupNode) walk(p string, q *query) (*route, bool) {
	// alt is set once walk has passed a node with a child that lookup
	// would try after the one walk took: then only lookup may say that
	// nothing matches.
	alt := false
	if !q.escaped {
		// Optimization: the steps of most paths, through nodes that have
		// nothing but literal children and a wildcard (n.more is nil or
		// plain), are taken in this loop, which calls nothing but
		// literalPrefix, so that its variables stay in registers. It
		// takes the steps that the loop below takes at such nodes: the
		// literal child whose key is the segment, else, at a node
		// without literal children, the wildcard. It leaves to that
		// loop the end of the path, a segment that is empty or starts
		// with '.', a segment that no literal child has as its key, and
		// a wildcard's segment that goes on past the sixteen bytes after
		// its slash.
	fast:
		for len(p) >= 2 && (n.more == nil || n.more.plain()) {
			if b := p[1]; b == '/' || b == '.' {
				break
			}
			if len(n.lits) == 1 {
				// literalPrefix for one key of up to eight bytes,
				// without its call.
				l := &n.lits[0]
				end := 1 + len(l.key)
				if len(l.key) > 8 || len(p) < end || len(p) > end && p[end] != '/' {
					break
				}
				// The eight bytes after p's slash, padded with zeros,
				// as keyWord gives them.
				var w uint64
				switch {
				case len(p) >= 9:
					w = word(p, 1)
				case len(p) >= 5:
					w = midWord(p[1:])
				default:
					w = shortWord(p[1:])
				}
				if !l.startsWord(w) {
					break
				}
				q.steps++
				alt = alt || n.wild != nil
				n, p = l.node, p[end:]
				continue
			}
			if len(n.lits) > 1 {
				c, rest := n.literalPrefix(p)
				if c == nil {
					break
				}
				q.steps++
				alt = alt || n.wild != nil
				n, p = c, rest
				continue
			}
			if n.wild == nil {
				break
			}
			rest := ""
			switch {
			case len(p) >= 9:
				if m := slashMask(word(p, 1)); m != 0 {
					rest = p[1+bits.TrailingZeros64(m)/8:]
				} else if len(p) >= 17 {
					// A segment of nine to sixteen bytes.
					m = slashMask(word(p, 9))
					if m == 0 {
						break fast
					}
					rest = p[9+bits.TrailingZeros64(m)/8:]
				} else if m = slashMask(word(p, len(p)-8)); m != 0 {
					// p's last eight bytes, which overlap the eight
					// just searched.
					rest = p[len(p)-8+bits.TrailingZeros64(m)/8:]
				}
			case len(p) >= 5:
				// midWord pads with zeros, which are not '/'.
				if m := slashMask(midWord(p[1:])); m != 0 {
					rest = p[1+bits.TrailingZeros64(m)/8:]
				}
			default:
				// As does shortWord.
				if m := slashMask(shortWord(p[1:])); m != 0 {
					rest = p[1+bits.TrailingZeros64(m)/8:]
				}
			}
			q.steps++
			n, p = n.wild, rest
		}
	}
	for {
		if p == "" {
			q.steps++
			if n.leaf == nil {
				return nil, !alt
			}
			rt := n.leaf.firstRoute(q.verb)
			if rt == nil {
				rt = n.leaf.route(q)
			}
			return rt, rt != nil || !alt
		}
		// Optimization: n's multi is looked at only where it matters,
		// not at every step, which kept it on the stack across the loop.
		if len(p) == 1 {
			// The trailing slash: {$}, else the multi.
			q.steps++
			ml := n.multiLeaf()
			if c := n.child("/"); c != nil {
				alt = alt || ml != nil
				n, p = c, ""
				continue
			}
			if ml != nil {
				rt := ml.route(q)
				return rt, rt != nil || !alt
			}
			return nil, !alt
		}
		// Invariant: p starts with '/' and its first segment, seg, is not
		// "/"; rest is p after seg, once known.
		var c *lookupNode
		var seg, rest string
		if b := p[1]; b == '/' || b == '.' || n.more != nil && (n.more.litMap != nil || n.more.litSlash) || q.escaped {
			seg, rest = nextSegment(p)
			if seg == "" || seg == "." || seg == ".." {
				return nil, false
			}
			if q.escaped {
				// As lookup does: a segment of an escaped path is
				// matched unescaped, and "%2F", which unescapes to the
				// "/" that stands for a trailing slash, is left to it.
				var slash bool
				if c, slash = n.escapedChild(seg); slash {
					return nil, false
				}
			} else {
				c = n.child(seg)
			}
		} else if len(n.lits) == 1 && len(p) >= 9 && len(n.lits[0].key) <= 8 {
			// Optimization: literalPrefix for a node with one literal
			// child of up to eight bytes, the common step of a deep path,
			// without its call.
			l := &n.lits[0]
			end := 1 + len(l.key)
			if (len(p) == end || p[end] == '/') && l.startsWord(word(p, 1)) {
				c, rest = l.node, p[end:]
			}
		} else if len(n.lits) > 0 {
			c, rest = n.literalPrefix(p)
		}
		if c != nil {
			q.steps++
			alt = alt || n.wild != nil || n.constrained() != nil || n.multiLeaf() != nil
			n, p = c, rest
			continue
		}
		if cs := n.constrained(); cs != nil {
			if seg == "" {
				seg, rest = nextSegment(p)
			}
			// lookup tries each constrained wildcard whose constraint
			// the segment meets, and takes the first route, in
			// precedence order, below any of them. When exactly one
			// meets it, that one is the child lookup tries first, and
			// walk takes it; when none does, lookup goes on to the
			// wildcard, as walk does below. Escaped segments, long ones
			// (whose answers lookup remembers) and segments that
			// several constraints accept are left to lookup, which
			// counts n as a step; if it finds nothing, lookup may back
			// up above.
			only, ok := onlyConstrained(cs, seg, q.escaped)
			if !ok {
				rt := n.lookup(p, false, q)
				return rt, rt != nil || !alt
			}
			if only != nil {
				q.steps++
				alt = alt || n.wild != nil || n.multiLeaf() != nil
				n, p = only, rest
				continue
			}
		}
		q.steps++
		if n.wild != nil {
			if seg == "" {
				// Optimization: nextSegment without its call for a
				// segment that ends in the eight bytes after p's '/',
				// or, when p has four to eight bytes after it, in
				// them (midWord pads them with zeros, not '/').
				switch {
				case len(p) >= 9:
					if m := slashMask(word(p, 1)); m != 0 {
						rest = p[1+bits.TrailingZeros64(m)/8:]
					} else {
						_, rest = nextSegment(p)
					}
				case len(p) >= 5:
					if m := slashMask(midWord(p[1:])); m != 0 {
						rest = p[1+bits.TrailingZeros64(m)/8:]
					}
				default:
					_, rest = nextSegment(p)
				}
			}
			alt = alt || n.multiLeaf() != nil
			n, p = n.wild, rest
			continue
		}
		if ml := n.multiLeaf(); ml != nil {
			rt := ml.route(q)
			return rt, rt != nil || !alt
		}
		return nil, !alt
	}
}

// plain reports whether m holds nothing that walk's first loop must look
// at: no multi, no constrained children, no litMap and no key with a
// slash, only what literalPrefix reads itself (litIndex) or what walk does
// not read (claims).
func (m *nodeMore) plain() bool {
	return m.multi == nil && m.cons == nil && m.litMap == nil && !m.litSlash
}

// escapedChild returns the literal child of n for the escaped segment seg,
// and false; or nil and true if seg unescapes to "/".
//
// Optimization: apart from walk, so that walk does not clear, on every
// call, the buffer that only escaped paths use.
func (n *lookupNode) escapedChild(seg string) (*lookupNode, bool) {
	var buf [maxUnescapedOnStack]byte
	u := unescapeTo(&buf, seg)
	if u == "/" {
		return nil, true
	}
	return n.child(u), false
}

// onlyConstrained returns the child of the one constrained wildcard of cs
// whose constraint accepts the segment seg, or nil if none does, and true;
// or false if lookup must choose: when several accept seg, or seg is
// escaped, or long (lookup remembers the answers for long segments).
func onlyConstrained(cs []conChild, seg string, escaped bool) (*lookupNode, bool) {
	if escaped || len(seg) >= memoMinLen {
		return nil, false
	}
	var only *lookupNode
	for i := range cs {
		if cs[i].con.match(seg) {
			if only != nil {
				return nil, false
			}
			only = cs[i].node
		}
	}
	return only, true
}

// literalPrefix returns the literal child of n whose key is the first
// segment of p, and the rest of p after that segment, or nil. p starts
// with '/' and a byte other than '/' and '.'; n has no litMap, and no key
// that holds a '/'.
//
// Optimization: the segment is not cut out of p first. A key matches if
// p continues with it and then ends or goes on with '/', so a path whose
// segments are all literals is walked without searching for slashes.
func (n *lookupNode) literalPrefix(p string) (*lookupNode, string) {
	c := p[1]
	i := 0
	if x := n.litIndex(); x != nil {
		if i = int(x[c]) - 1; i < 0 {
			return nil, ""
		}
	} else {
		for i < len(n.lits) && byte(n.lits[i].word) != c {
			i++
		}
	}
	// The eight bytes of p after its '/', padded with zeros.
	var w uint64
	switch n := len(p) - 1; {
	case n >= 8:
		w = word(p, 1)
	case n >= 4:
		w = midWord(p[1:])
	default:
		w = shortWord(p[1:])
	}
	// Invariant: keys with the same first byte are adjacent.
	for ; i < len(n.lits) && byte(n.lits[i].word) == c; i++ {
		l := &n.lits[i]
		end := 1 + len(l.key)
		if len(p) < end || len(p) > end && p[end] != '/' {
			continue
		}
		// Optimization: a key of up to eight bytes is compared as one
		// word, one of up to sixteen as its first and last words, a longer
		// one as a word and the rest.
		if len(l.key) <= 8 {
			if l.startsWord(w) {
				return l.node, p[end:]
			}
		} else if w != l.word {
			continue
		} else if len(l.key) <= 16 {
			// The last eight bytes of a key of up to sixteen, which
			// with the first cover it.
			if lastWord(p[:end]) == lastWord(l.key) {
				return l.node, p[end:]
			}
		} else if p[9:end] == l.key[8:] {
			return l.node, p[end:]
		}
	}
	return nil, ""
}

// midWord is keyWord for a string s of four to eight bytes, read as its
// first four bytes and its last four, which overlap with the same bytes
// at the same places.
//
// Optimization: two loads, where keyWord shifts in one byte at a time. It
// is written out byte by byte, not with word32, to stay within the
// compiler's budget for inlining.
func midWord(s string) uint64 {
	t := s[len(s)-4:]
	return uint64(uint32(s[0])|uint32(s[1])<<8|uint32(s[2])<<16|uint32(s[3])<<24) |
		uint64(uint32(t[0])|uint32(t[1])<<8|uint32(t[2])<<16|uint32(t[3])<<24)<<(8*(len(s)-4))
}

// shortWord is keyWord for a string s of one to three bytes, read as its
// first, middle and last bytes, which for such a string are each at its
// own place or the same byte twice at the same place.
//
// Optimization: three loads and no loop, where keyWord loops once a byte.
func shortWord(s string) uint64 {
	n := uint(len(s)) >> 1
	return uint64(s[0]) | uint64(s[n])<<(8*n) | uint64(s[len(s)-1])<<(8*uint(len(s)-1))
}

// keyWord returns the first eight bytes of s, the first in the low byte,
// padded with zeros.
func keyWord(s string) uint64 {
	var w uint64
	for i := min(len(s), 8) - 1; i >= 0; i-- {
		w = w<<8 | uint64(s[i])
	}
	return w
}
