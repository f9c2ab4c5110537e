package cairn

// This file decides which of two patterns wins a request, or that they
// conflict.
//
// As with net/http.ServeMux, a pattern with a host beats one without, and
// otherwise the pattern that matches a strict subset of the other's requests
// (by method and path) is more specific and wins. Two patterns conflict when
// some request matches both and neither is more specific.
//
// Paths are compared segment by segment. Given /a/{x}/c and /a/b/{y}, the
// first segments are equivalent, the second makes the first pattern more
// general and the third more specific, so they overlap: "/a/b/c" matches
// both, neither wins, and registering the second panics.
//
// Constraints slot in between literals and plain wildcards: {n:int} is more
// specific than {x} and more general than the literal "42" (and disjoint
// from the literal "abc", which it cannot match). Two different constraints
// at the same position, as in /{n:int} and /{h:hex}, are "ordered": the
// pattern registered first wins the requests both match. That is allowed
// only when the patterns otherwise match the same requests; /{n:int}/a and
// /{h:hex}/{x} conflict, since the second is more general elsewhere.

import (
	"fmt"
	"net/url"
	"strings"
)

// relationship is how the requests matched by one pattern relate to those
// matched by another.
type relationship uint8

const (
	equivalent   relationship = iota // both match the same requests
	moreGeneral                      // p1 matches everything p2 does, and more
	moreSpecific                     // p2 matches everything p1 does, and more
	disjoint                         // no request matches both
	overlaps                         // some request matches both, neither is more specific
	ordered                          // they differ only in constraints; the first registered wins
)

// String returns the relationship's name.
func (r relationship) String() string {
	switch r {
	case equivalent:
		return "equivalent"
	case moreGeneral:
		return "moreGeneral"
	case moreSpecific:
		return "moreSpecific"
	case disjoint:
		return "disjoint"
	case overlaps:
		return "overlaps"
	case ordered:
		return "ordered"
	}
	return fmt.Sprintf("relationship(%d)", uint8(r))
}

// inverse returns the relationship of p2 to p1 given that of p1 to p2.
func (r relationship) inverse() relationship {
	switch r {
	case moreGeneral:
		return moreSpecific
	case moreSpecific:
		return moreGeneral
	}
	return r
}

// combine returns the relationship of two patterns given r1 and r2, their
// relationships on two disjoint parts (methods and paths, or two segments).
func combine(r1, r2 relationship) relationship {
	switch {
	case r1 == disjoint || r2 == disjoint:
		return disjoint
	case r1 == equivalent:
		return r2
	case r2 == equivalent:
		return r1
	case r1 == ordered && r2 == ordered:
		return ordered
	case r1 == ordered || r2 == ordered || r1 == overlaps || r2 == overlaps:
		return overlaps
	case r1 == r2.inverse():
		return overlaps
	}
	// r1 == r2, both moreGeneral or both moreSpecific.
	return r1
}

// conflictsWith reports whether some request matches both p1 and p2 and
// neither takes precedence, by specificity or, for ordered patterns, by
// registration order.
func (p1 *pattern) conflictsWith(p2 *pattern) bool {
	if p1.host() != p2.host() {
		// Either one has a host and wins, or the hosts differ.
		return false
	}
	rel := combine(compareMethods(p1.method(), p2.method()), p1.comparePaths(p2))
	return rel == equivalent || rel == overlaps
}

// compareMethods relates two pattern methods. "" matches every method and
// "GET" also matches HEAD.
func compareMethods(m1, m2 string) relationship {
	switch {
	case m1 == m2:
		return equivalent
	case m1 == "":
		return moreGeneral
	case m2 == "":
		return moreSpecific
	case m1 == "GET" && m2 == "HEAD":
		return moreGeneral
	case m1 == "HEAD" && m2 == "GET":
		return moreSpecific
	}
	return disjoint
}

// comparePaths relates the paths of p1 and p2.
func (p1 *pattern) comparePaths(p2 *pattern) relationship {
	var b1, b2 [8]segment
	s1, s2 := p1.segmentsIn(b1[:0]), p2.segmentsIn(b2[:0])
	multi1, multi2 := p1.endsInMulti(), p2.endsInMulti()
	if len(s1) != len(s2) && !multi1 && !multi2 {
		return disjoint
	}
	rel := equivalent
	for ; len(s1) > 0 && len(s2) > 0; s1, s2 = s1[1:], s2[1:] {
		if rel = combine(rel, compareSegments(s1[0], s2[0])); rel == disjoint {
			return disjoint
		}
	}
	switch {
	case len(s1) == 0 && len(s2) == 0:
		return rel
	case len(s1) < len(s2) && multi1:
		return combine(rel, moreGeneral)
	case len(s2) < len(s1) && multi2:
		return combine(rel, moreSpecific)
	}
	return disjoint
}

// compareSegments relates two segments at the same position.
func compareSegments(a, b segment) relationship {
	switch {
	case a.kind() == segMulti && b.kind() == segMulti:
		return equivalent
	case a.kind() == segMulti:
		return moreGeneral
	case b.kind() == segMulti:
		return moreSpecific
	case a.kind() == segWild && b.kind() == segWild:
		ac, bc := a.constrainedBy(), b.constrainedBy()
		switch {
		case ac == nil && bc == nil:
			return equivalent
		case ac == nil:
			return moreGeneral
		case bc == nil:
			return moreSpecific
		case ac.key == bc.key:
			return equivalent
		}
		return ordered
	case a.kind() == segWild:
		return wildVersusLiteral(a, b.s)
	case b.kind() == segWild:
		return wildVersusLiteral(b, a.s).inverse()
	case a.s == b.s:
		return equivalent
	}
	return disjoint
}

// wildVersusLiteral relates the wildcard w to the literal lit.
func wildVersusLiteral(w segment, lit string) relationship {
	if lit == "/" {
		// A single wildcard never matches the trailing slash ({$}).
		return disjoint
	}
	if c := w.constrainedBy(); c != nil && !c.match(lit) {
		return disjoint
	}
	return moreGeneral
}

// A ConflictError reports that a pattern cannot be registered because a
// request would match it and an already registered pattern with neither
// taking precedence. Path is an example of such a request path, or "" if
// none could be made up (for a regexp constraint that no sample satisfies).
type ConflictError struct {
	Pattern, PatternLocation   string // the pattern being registered, and where
	Existing, ExistingLocation string // the pattern it conflicts with, and where
	Path                       string
	Detail                     string
}

// Error implements the error interface.
func (e *ConflictError) Error() string {
	both := "both match some paths"
	if e.Path != "" {
		both = fmt.Sprintf("both match %q", e.Path)
	}
	return fmt.Sprintf("cairn: pattern %q (registered at %s) conflicts with pattern %q (registered at %s): %s\n%s",
		e.Pattern, e.PatternLocation, e.Existing, e.ExistingLocation, both, e.Detail)
}

// newConflictError explains the conflict between p1 and p2.
func newConflictError(p1, p2 *pattern) *ConflictError {
	e := &ConflictError{
		Pattern: p1.str, PatternLocation: p1.loc().String(),
		Existing: p2.str, ExistingLocation: p2.loc().String(),
		Path: commonPath(p1, p2),
	}
	mrel, prel := compareMethods(p1.method(), p2.method()), p1.comparePaths(p2)
	switch {
	case combine(mrel, prel) == equivalent:
		e.Detail = fmt.Sprintf("%s matches the same requests as %s", p1, p2)
	case differInConstraints(p1, p2):
		e.Detail = fmt.Sprintf("%s and %s have differently constrained wildcards at the same position, "+
			"so the first registered would win, but that is allowed only when they otherwise match the same requests", p1, p2)
	case prel == overlaps:
		e.Detail = fmt.Sprintf("neither is more specific: %s matches %q but %s does not, and %s matches %q but %s does not",
			p1, differencePath(p1, p2), p2, p2, differencePath(p2, p1), p1)
	case mrel == moreGeneral:
		e.Detail = fmt.Sprintf("%s matches more methods than %s, but has a more specific path", p1, p2)
	default:
		e.Detail = fmt.Sprintf("%s matches fewer methods than %s, but has a more general path", p1, p2)
	}
	return e
}

// addVersions notes in e that the patterns are for the same version v.
func (e *ConflictError) addVersions(v, existing string) {
	if v != "" && v == existing {
		e.Detail += fmt.Sprintf(" (both for version %s)", v)
	}
}

// differInConstraints reports whether p1 and p2 have wildcards with
// different constraints at the same position.
func differInConstraints(p1, p2 *pattern) bool {
	s1, s2 := p1.segments(), p2.segments()
	for i := 0; i < len(s1) && i < len(s2); i++ {
		if compareSegments(s1[i], s2[i]) == ordered {
			return true
		}
	}
	return false
}

// commonPath returns a path that both p1 and p2 match. It assumes there is
// one, and returns "" if it cannot find a value for a constrained wildcard.
func commonPath(p1, p2 *pattern) string {
	var b strings.Builder
	s1, s2 := p1.segments(), p2.segments()
	for ; len(s1) > 0 && len(s2) > 0; s1, s2 = s1[1:], s2[1:] {
		a, c := s1[0], s2[0]
		switch {
		case a.kind() == segMulti && c.kind() == segMulti:
			b.WriteByte('/')
		case a.kind() == segMulti:
			if !writeExample(&b, c, len(s2) == 1, nil, false) {
				return ""
			}
		case !writeExample(&b, a, len(s1) == 1, &c, len(s2) == 1):
			return ""
		}
	}
	for _, rest := range [][]segment{s1, s2} {
		for i, s := range rest {
			if !writeExample(&b, s, i == len(rest)-1, nil, false) {
				return ""
			}
		}
	}
	return b.String()
}

// differencePath returns a path that p1 matches and p2 does not, or "" if it
// finds none. It is used only to explain overlapping paths.
func differencePath(p1, p2 *pattern) string {
	var b strings.Builder
	s1, s2 := p1.segments(), p2.segments()
	for ; len(s1) > 0 && len(s2) > 0; s1, s2 = s1[1:], s2[1:] {
		a, c := s1[0], s2[0]
		switch {
		case a.kind() == segMulti && c.kind() == segMulti:
			b.WriteByte('/')
			return b.String()
		case a.kind() == segMulti:
			// A trailing slash tells them apart, unless p2 has {$} here.
			b.WriteByte('/')
			if c.kind() == segLiteral && c.s == "/" && len(s2) == 1 {
				b.WriteString("x")
			}
			return b.String()
		case a.kind() == segWild && c.kind() != segMulti:
			// Prefer a value that c rejects.
			v := exampleValue(a, func(v string) bool { return !segmentAccepts(c, v) })
			if v == "" {
				v = exampleValue(a, nil)
			}
			if v == "" {
				return ""
			}
			b.WriteByte('/')
			b.WriteString(url.PathEscape(v))
		case !writeExample(&b, a, len(s1) == 1, nil, false):
			return ""
		}
	}
	for i, s := range s1 {
		if !writeExample(&b, s, i == len(s1)-1, nil, false) {
			return ""
		}
	}
	return b.String()
}

// writeExample writes to b a "/" and a value that s matches and, if other
// is not nil, that other matches too, escaped as in a request's path; last
// and otherLast say whether s and other end their patterns. It reports
// whether it found one.
func writeExample(b *strings.Builder, s segment, last bool, other *segment, otherLast bool) bool {
	b.WriteByte('/')
	switch {
	case s.kind() == segMulti:
		return true
	case s.kind() == segLiteral:
		b.WriteString(s.pathText(last))
		return true
	case other != nil && other.kind() == segLiteral:
		b.WriteString(other.pathText(otherLast))
		return true
	}
	var v string
	if other != nil && other.kind() == segWild {
		v = exampleValue(s, func(v string) bool { return segmentAccepts(*other, v) })
	} else {
		v = exampleValue(s, nil)
	}
	b.WriteString(url.PathEscape(v))
	return v != ""
}

// segmentAccepts reports whether the segment s matches the path segment v.
func segmentAccepts(s segment, v string) bool {
	switch s.kind() {
	case segLiteral:
		return s.s == v
	case segWild:
		c := s.constrainedBy()
		return c == nil || c.match(v)
	}
	return true
}

// sampleValues are tried, after a wildcard's name, as example values for
// constrained wildcards in conflict messages.
var sampleValues = []string{"1", "x", "a", "ABC", "a1", "ff", "-1", "00000000-0000-0000-0000-000000000000", "127.0.0.1"}

// exampleValue returns a value that the wildcard s matches and that ok
// accepts (if ok is not nil), or "" if it finds none.
func exampleValue(s segment, ok func(string) bool) string {
	candidates := append([]string{s.s}, sampleValues...)
	for _, v := range candidates {
		if v != "" && segmentAccepts(s, v) && (ok == nil || ok(v)) {
			return v
		}
	}
	return ""
}
