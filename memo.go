package cairn

// This file keeps the answers of constraints for long segments, so that a
// request runs each constraint at most once on such a segment, however
// many times the router walks its path: a miss is walked, then looked up,
// then tried with a trailing slash, then walked twice more for the Allow
// header, and a group's claim is walked once more. With a regular
// expression and a segment of a megabyte, each walk used to run every
// sibling constraint again.
//
// Optimization: segments shorter than memoMinLen are not remembered; a
// constraint on them costs little even run the five times a miss can run
// it, and the common path stays as it was, free of allocation. The memo
// allocates its answers, only for the segments it remembers. (walk, the
// first of those walks, leaves long segments to lookup, which remembers.)

import "strings"

// memoMinLen is the length from which a segment's constraint answers are
// remembered.
const memoMinLen = 256

// A conMemo holds the answers of constraints for the long segments of one
// request. The zero value is empty; a nil *conMemo remembers nothing.
type conMemo struct {
	answers []conAnswer
}

// A conAnswer is the answer of a constraint for a segment.
type conAnswer struct {
	con     *constraint
	raw     string // the segment as it is in the path, before unescaping
	escaped bool   // whether it was unescaped before the constraint saw it
	ok      bool
}

// match returns con's answer for seg, the unescaped form of the raw
// segment raw (seg == raw unless escaped), running con only if m has no
// answer for them yet.
func (m *conMemo) match(con *constraint, raw, seg string, escaped bool) bool {
	if len(raw) < memoMinLen || m == nil {
		return con.match(seg)
	}
	return m.remember(con, raw, seg, escaped)
}

// remember is match for a long segment.
//
// Invariant: the key is the raw segment and whether it is unescaped, which
// decide the segment the constraint sees. Raw segments of one path share
// their bytes, so the comparison usually stops at the pointers. A raw
// segment without an escape is the segment, unescaped or not, so its key
// says not unescaped: the walk of a path as it is and that of its escaped
// form (the cleaned form of an unclean path, say) share its answers.
func (m *conMemo) remember(con *constraint, raw, seg string, escaped bool) bool {
	if escaped && strings.IndexByte(raw, '%') < 0 {
		escaped = false
	}
	for i := range m.answers {
		if a := &m.answers[i]; a.con == con && a.escaped == escaped && a.raw == raw {
			return a.ok
		}
	}
	ok := con.match(seg)
	m.answers = append(m.answers, conAnswer{con: con, raw: raw, escaped: escaped, ok: ok})
	return ok
}
