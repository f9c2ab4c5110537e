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
	escaped bool   // whether unescaping changed it before the constraint saw it
	ok      bool
}

// match returns con's answer for seg, the raw segment raw as the
// constraint sees it (unescaped, if the path is matched escaped), running
// con only if m has no answer for them yet.
func (m *conMemo) match(con *constraint, raw, seg string) bool {
	if len(raw) < memoMinLen || m == nil {
		return con.match(seg)
	}
	return m.remember(con, raw, seg)
}

// remember is match for a long segment.
//
// Invariant: the key is the raw segment and whether unescaping changed it,
// which decide the segment the constraint sees. Unescaping only shortens a
// segment, so it changed it exactly when their lengths differ. Raw
// segments of one path share their bytes, so the comparison usually stops
// at the pointers. A raw segment that unescaping leaves as it is keys the
// same whether the path was matched escaped or not: the walk of a path as
// it is and that of its escaped form (the cleaned form of an unclean path,
// say) share its answers.
func (m *conMemo) remember(con *constraint, raw, seg string) bool {
	escaped := len(seg) != len(raw)
	for i := range m.answers {
		if a := &m.answers[i]; a.con == con && a.escaped == escaped && a.raw == raw {
			return a.ok
		}
	}
	ok := con.match(seg)
	m.answers = append(m.answers, conAnswer{con: con, raw: raw, escaped: escaped, ok: ok})
	return ok
}
