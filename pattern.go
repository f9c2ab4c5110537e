package cairn

// This file parses patterns.
//
// A pattern is [METHOD ][HOST]/PATH, exactly as for net/http.ServeMux, plus
// constrained wildcards. Parsing "GET example.com/repos/{owner}/{n:int}/" yields
// method "GET", host "example.com" and the segments
//
//	literal "repos", wildcard "owner", wildcard "n" (constraint int), multi ""
//
// where the final, anonymous multi wildcard comes from the trailing slash. A
// final "{$}" is kept as the literal segment "/", which is what the last
// segment of a path that ends in a slash looks like to the matcher.

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strings"
	"unicode"
)

// segKind says what a pattern segment matches.
type segKind uint8

const (
	segLiteral segKind = iota // exactly the (unescaped) text; "/" stands for {$}
	segWild                   // one segment, possibly constrained
	segMulti                  // the rest of the path, possibly empty
)

// String returns the kind's name, for test failures.
func (k segKind) String() string {
	switch k {
	case segLiteral:
		return "literal"
	case segWild:
		return "wild"
	case segMulti:
		return "multi"
	}
	return fmt.Sprintf("segKind(%d)", uint8(k))
}

// A segment is one element of a pattern's path.
//
// Optimization: the kind of a segment is told by tag, so that a segment is
// 24 bytes instead of 32: nil for a literal, multiTag for a multi
// wildcard, wildTag for a wildcard without a constraint, and the
// constraint of a constrained one.
type segment struct {
	s   string      // the unescaped literal, or the wildcard name ("" for a trailing slash)
	tag *constraint // see kind and constrainedBy
}

// The tags of the wildcards without a constraint; no constraint is either.
// Their match is nil: they are never a segment's constraint (see
// constrainedBy), so they never reach a conChild nor a match.
var (
	wildTag  = &constraint{key: "(wildcard)"}
	multiTag = &constraint{key: "(multi)"}
)

// literalSegment, wildSegment and multiSegment return segments of each
// kind; con is the constraint of a wildcard, or nil.
func literalSegment(s string) segment  { return segment{s: s} }
func multiSegment(name string) segment { return segment{s: name, tag: multiTag} }
func wildSegment(name string, con *constraint) segment {
	if con == nil {
		con = wildTag
	}
	return segment{s: name, tag: con}
}

// kind returns the kind of s.
func (s segment) kind() segKind {
	switch s.tag {
	case nil:
		return segLiteral
	case multiTag:
		return segMulti
	}
	return segWild
}

// constrainedBy returns the constraint of a constrained wildcard, or nil.
func (s segment) constrainedBy() *constraint {
	if s.tag == wildTag || s.tag == multiTag {
		return nil
	}
	return s.tag
}

// segmentLabel returns the label of segment i of p. A literal "/" that is
// not the last segment is not {$}: the pattern wrote it %2F.
func (p *pattern) segmentLabel(i int) string {
	s := p.segment(i)
	if s.kind() == segLiteral && s.s == "/" && i < p.numSegments()-1 {
		return s.pathText(false)
	}
	return s.label()
}

// pathText returns the literal segment s as a request's path writes it,
// where last says whether s ends its pattern: "" for {$}, the literal "/"
// that ends a pattern, and otherwise its text escaped, so that "/" (which
// the pattern wrote %2F) stays one segment, and "." and ".." (which it
// wrote %2E and %2E%2E) are not dot segments, which cleaning removes.
func (s segment) pathText(last bool) string {
	switch {
	case last && s.s == "/":
		return ""
	case s.s == "." || s.s == "..":
		return strings.Repeat("%2E", len(s.s))
	}
	return url.PathEscape(s.s)
}

// label returns s as a pattern writes it, for printing: a literal escaped
// as needed (the dot segments "." and ".." too, as a path must write them),
// {$}, or a wildcard with its name and constraint. The trailing slash of a
// subtree pattern is "".
func (s segment) label() string {
	switch {
	case s.kind() == segLiteral && s.s == "/":
		return "{$}"
	case s.kind() == segLiteral:
		return s.pathText(false)
	case s.kind() == segMulti && s.s == "":
		return ""
	case s.kind() == segMulti:
		return "{" + s.s + "...}"
	}
	if c := s.constrainedBy(); c != nil {
		return "{" + s.s + ":" + strings.TrimPrefix(c.key, "regexp:") + "}"
	}
	return "{" + s.s + "}"
}

// A pattern is a parsed pattern string.
type pattern struct {
	str string // the pattern as registered, as it appears in r.Pattern
	// parsed points to the segments of the path; read them with
	// segments, segmentsIn or segment. It is nil for a compact pattern:
	// one whose segments are the path of str split at its slashes, read
	// as they are written (see splitPath), with no escapes, no {$} and no
	// constraints, which keeps no parsed segments (see settle).
	//
	// Optimization: a pointer, so that a pattern is 32 bytes instead of
	// 56; most patterns keep no segments.
	parsed *[]segment
	where  locRef // where the pattern was registered, for conflict messages

	// Optimization: the method and the host are parts of str, kept as
	// bounds, so that a pattern is 24 bytes smaller: the method is
	// str[:methodEnd], and the host runs from hostStart to the first '/'
	// after it, since neither a method nor a host may contain one. The
	// method and host of a pattern take at most maxPatternHost bytes.
	methodEnd, hostStart uint16
}

// compact reports whether p keeps no parsed segments.
func (p *pattern) compact() bool { return p.parsed == nil }

// hostEnd returns the index in p.str of the end of p's host: of the first
// '/' from hostStart, or len(p.str) if there is none (in a pattern that
// holds only its string).
func (p *pattern) hostEnd() int {
	// Optimization: inlined for a pattern without a host, as most are.
	if rest := p.str[p.hostStart:]; rest != "" && rest[0] == '/' {
		return int(p.hostStart)
	}
	return p.hostEndSlow()
}

// hostEndSlow is hostEnd for a pattern with a host.
func (p *pattern) hostEndSlow() int {
	i := strings.IndexByte(p.str[p.hostStart:], '/')
	if i < 0 {
		return len(p.str)
	}
	return int(p.hostStart) + i
}

// loc returns where p was registered, or 0 if unknown.
func (p *pattern) loc() location { return p.where.location() }

// maxPatternHost is the most bytes that the method and host of a pattern,
// with the blanks between them, may take.
const maxPatternHost = math.MaxUint16

// newPattern returns a new, empty pattern with room for n segments.
//
// Optimization: a pattern of up to four segments, as most are, is made
// with its segments in one allocation. A route's pattern is parsed
// otherwise, and most keep no segments (see parsePatternInto).
func newPattern(n int) *pattern {
	switch {
	case n <= 1:
		b := new(struct {
			p pattern
			h []segment
			s [1]segment
		})
		b.h = b.s[:0]
		b.p.parsed = &b.h
		return &b.p
	case n == 2:
		b := new(struct {
			p pattern
			h []segment
			s [2]segment
		})
		b.h = b.s[:0]
		b.p.parsed = &b.h
		return &b.p
	case n == 3:
		b := new(struct {
			p pattern
			h []segment
			s [3]segment
		})
		b.h = b.s[:0]
		b.p.parsed = &b.h
		return &b.p
	case n == 4:
		b := new(struct {
			p pattern
			h []segment
			s [4]segment
		})
		b.h = b.s[:0]
		b.p.parsed = &b.h
		return &b.p
	}
	segs := make([]segment, 0, n)
	return &pattern{parsed: &segs}
}

// segments returns the segments of p's path. Those of a compact pattern
// are read again from its string, into a new slice.
func (p *pattern) segments() []segment { return p.segmentsIn(nil) }

// segmentsIn returns the segments of p's path, those of a compact pattern
// appended to buf, so that a caller may read them into an array of its
// own.
func (p *pattern) segmentsIn(buf []segment) []segment {
	if !p.compact() {
		return *p.parsed
	}
	return splitPath(buf, p.path())
}

// segment returns the segment of p's path at index i, which is less than
// p.numSegments().
//
// Allocation: none.
func (p *pattern) segment(i int) segment {
	if !p.compact() {
		return (*p.parsed)[i]
	}
	path := p.path()
	for ; i > 0; i-- {
		path = path[1+strings.IndexByte(path[1:], '/'):]
	}
	end := 1 + strings.IndexByte(path[1:], '/')
	if end == 0 {
		end = len(path)
	}
	var buf [1]segment
	return splitPath(buf[:0], path[:end])[0]
}

// numSegments returns the number of segments of p's path.
func (p *pattern) numSegments() int {
	if !p.compact() {
		return len(*p.parsed)
	}
	// Each segment starts with a '/'.
	return strings.Count(p.path(), "/")
}

// path returns the path of p as written in its pattern: what follows its
// host, from its first '/', since neither a method nor a host may contain
// one.
func (p *pattern) path() string { return p.str[p.hostEnd():] }

// splitPath appends to dst the segments of the pattern path p, read as
// they are written: each segment starts with a '/'; "{name}" is a
// wildcard, "{name...}" a multi, a final "/" the unnamed multi of a
// subtree, and anything else a literal. These are the segments that
// parsePattern gives a path without escapes, {$} or constraints, for
// which it is a shorter parse that never fails (see settle).
func splitPath(dst []segment, p string) []segment {
	for len(p) > 0 {
		// Invariant: p[0] == '/'.
		p = p[1:]
		if p == "" {
			return append(dst, multiSegment(""))
		}
		i := strings.IndexByte(p, '/')
		if i < 0 {
			i = len(p)
		}
		seg := p[:i]
		p = p[i:]
		switch {
		case len(seg) < 2 || seg[0] != '{' || seg[len(seg)-1] != '}':
			dst = append(dst, literalSegment(seg))
		case strings.HasSuffix(seg, "...}"):
			dst = append(dst, multiSegment(seg[1:len(seg)-4]))
		default:
			dst = append(dst, wildSegment(seg[1:len(seg)-1], nil))
		}
	}
	return dst
}

// settle makes p, which parsePatternInto parsed into a buffer, compact if
// its segments are its path as written, and otherwise gives it a copy of
// its segments of its own.
//
// Optimization: the segments of a pattern are read when registering
// another that may conflict with it, when building a path from it and
// when storing path values, but not when routing. A route's pattern
// without escapes, {$} or constraints, most of them, reads them again
// from its string instead of keeping them: 24 bytes a segment, or 72 for
// "GET /api/users/{id}".
func (p *pattern) settle() {
	compact := false
	switch readAsWritten(p.path()) {
	case 1:
		compact = true
	case 0:
		var buf [8]segment
		compact = slices.Equal(splitPath(buf[:0], p.path()), *p.parsed)
	}
	if compact {
		p.parsed = nil
		return
	}
	segs := slices.Clone(*p.parsed)
	p.parsed = &segs
}

// readAsWritten tells, from the path of a pattern that parsed, whether
// its segments are those that splitPath reads: 1 if they are, -1 if a
// constraint or a {$} makes them differ, 0 if an escape ('%') leaves it
// to a comparison of the two (an escape that does not decode is read as
// written).
//
// Optimization: most patterns are told apart in one pass over their
// bytes, without splitting them again.
func readAsWritten(path string) int {
	if strings.IndexByte(path, '%') >= 0 {
		return 0
	}
	// Only at the start of a segment, in a pattern that parsed, a '{'
	// starts a wildcard, a constraint after a ':', or {$}.
	for rest := path; ; {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			return 1
		}
		rest = rest[i:]
		seg := rest
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			seg, rest = rest[:j], rest[j:]
		} else {
			rest = ""
		}
		if seg == "{$}" || strings.IndexByte(seg, ':') >= 0 {
			return -1
		}
	}
}

// method returns the method of p; "" matches every method.
func (p *pattern) method() string { return p.str[:p.methodEnd] }

// host returns the host of p; "" matches every host.
func (p *pattern) host() string { return p.str[p.hostStart:p.hostEnd()] }

// String returns the pattern as it was registered.
func (p *pattern) String() string { return p.str }

// lastSegment returns the final segment of p's path.
func (p *pattern) lastSegment() segment {
	if !p.compact() {
		return (*p.parsed)[len(*p.parsed)-1]
	}
	return p.segment(p.numSegments() - 1)
}

// endsInMulti reports whether p's path ends in a multi wildcard, named or
// not (a trailing slash).
func (p *pattern) endsInMulti() bool { return p.lastSegment().kind() == segMulti }

// named reports whether s is a named wildcard, single or multi.
func (s segment) named() bool { return s.kind() != segLiteral && s.s != "" }

// staticKey returns p's key in the index of static paths: its static
// path, if it has one and it is clean, and otherwise "". Unclean paths
// are redirected before they could match, so they are kept out of the
// index.
//
// Optimization: a pattern with a method other than CONNECT was checked
// clean when it was parsed, and its static path is its path as written
// unless it has escapes or ends in {$}.
func (p *pattern) staticKey() string {
	key := p.staticPath()
	if m := p.method(); key != "" && (m == "" || m == "CONNECT" || key != p.path()) && !isClean(key) {
		return ""
	}
	return key
}

// staticPath returns the path that p matches if its segments are all
// literals without a '/' ({$} may end it), and "" otherwise.
//
// Optimization: when p writes the path as it is, without escapes or {$},
// the path is the end of p.str, so that the index of static paths shares
// the pattern's bytes.
func (p *pattern) staticPath() string {
	// Optimization: a path without escapes or braces is made of literals
	// as written, none with a '/'; it is static unless it ends in a
	// slash, the multi of a subtree.
	raw := p.path()
	if !hasEscapeOrBrace(raw) {
		if strings.HasSuffix(raw, "/") {
			return ""
		}
		return raw
	}
	if i := strings.IndexByte(raw, '{'); i >= 0 && raw[i:] != "{$}" {
		return "" // a wildcard: a '{' elsewhere would not have parsed
	}
	var buf [8]segment
	segs := p.segmentsIn(buf[:0])
	n := 0
	for i, s := range segs {
		switch {
		case s.kind() != segLiteral:
			return ""
		case s.s == "/" && i == len(segs)-1: // {$}
			n++
		case strings.Contains(s.s, "/"):
			return ""
		default:
			n += 1 + len(s.s)
		}
	}
	// The method and the host hold no '/'.
	if len(raw) == n && !hasEscapeOrBrace(raw) {
		return raw
	}
	var b strings.Builder
	b.Grow(n)
	for _, s := range segs {
		if s.s != "/" {
			b.WriteByte('/')
		}
		b.WriteString(s.s)
	}
	return b.String()
}

// wildcards reports the number of named wildcards in p.
func (p *pattern) wildcards() int {
	var buf [8]segment
	n := 0
	for _, s := range p.segmentsIn(buf[:0]) {
		if s.named() {
			n++
		}
	}
	return n
}

// A PatternError reports a pattern that cannot be registered because it is
// malformed. Offset is the byte offset in Pattern where the problem was
// found, and Err says what it is.
type PatternError struct {
	Pattern string
	Offset  int
	Err     error
}

// Error implements the error interface.
func (e *PatternError) Error() string {
	return fmt.Sprintf("cairn: parsing %q: at offset %d: %v", e.Pattern, e.Offset, e.Err)
}

// Unwrap returns e.Err, so that errors.As finds a *syntax.Error from an
// invalid regular expression.
func (e *PatternError) Unwrap() error { return e.Err }

// constraintLookup resolves a constraint expression to a constraint.
type constraintLookup func(expr string) (*constraint, error)

// parsePattern parses s. Constraint expressions are resolved with lookup.
//
// The rules are those of net/http.ServeMux, with one addition: a wildcard may
// be written {name:constraint}, where constraint is a defined constraint name
// or a regular expression that may contain balanced braces but no '/'.
func parsePattern(s string, lookup constraintLookup) (*pattern, error) {
	return parsePatternInto(nil, nil, s, lookup)
}

// parsePatternInto is parsePattern, with the pattern in *into and its
// segments in *buf unless into is nil: its segments are then buf's until
// settle gives it its own or none.
func parsePatternInto(into *pattern, buf *[]segment, s string, lookup constraintLookup) (_ *pattern, err error) {
	if into != nil && parseSimple(into, buf, s) {
		return into, nil
	}
	return parseFull(into, buf, s, lookup)
}

// parseSimple is parsePatternInto for a simple pattern, into *into and
// *buf, in one pass over its bytes; it reports false, with *into and *buf
// left to be overwritten, for any other. A simple pattern is a method of
// upper-case letters and one space, or none, then a path of segments made
// of letters, digits, '-', '.', '_' and '~', other than "." and "..", or
// of one wildcard {name} or {name...} (the last) whose name is an ASCII
// identifier that no other has; it may end in a slash. It has no host,
// no escapes, no {$} and no constraints, and its path is clean.
//
// Optimization: most patterns are simple, and the general parser, which
// searches each segment for several bytes in turn, cost a tenth of what
// registering a route does. TestParseSimple checks that the two agree.
func parseSimple(into *pattern, buf *[]segment, s string) bool {
	i := 0
	for i < len(s) && 'A' <= s[i] && s[i] <= 'Z' {
		i++
	}
	method := s[:i]
	if i > 0 {
		if i >= len(s) || s[i] != ' ' || i > 32 {
			return false
		}
		i++
	}
	if i >= len(s) || s[i] != '/' {
		return false
	}
	segs := (*buf)[:0]
	start := i // of the path
	for i < len(s) {
		// Invariant: s[i] == '/'.
		i++
		j := i
		if j < len(s) && s[j] == '{' {
			end := strings.IndexByte(s[j:], '}')
			if end < 0 {
				return false
			}
			end += j
			name, multi := strings.CutSuffix(s[j+1:end], "...")
			if !isASCIIName(name) || end+1 < len(s) && (multi || s[end+1] != '/') {
				return false
			}
			for _, sg := range segs {
				if sg.s == name && sg.kind() != segLiteral {
					return false // a duplicate: the general parser tells
				}
			}
			if multi {
				segs = append(segs, multiSegment(name))
			} else {
				segs = append(segs, wildSegment(name, nil))
			}
			i = end + 1
			continue
		}
		for j < len(s) && s[j] != '/' {
			if !simpleBytes[s[j]] {
				return false
			}
			j++
		}
		seg := s[i:j]
		switch {
		case seg == "" && j == len(s):
			segs = append(segs, multiSegment("")) // a trailing slash
		case seg == "", seg == ".", seg == "..":
			return false // unclean
		default:
			segs = append(segs, literalSegment(seg))
		}
		i = j
	}
	*buf = segs
	*into = pattern{str: s, parsed: buf, methodEnd: uint16(len(method)), hostStart: uint16(start)}
	return true
}

// simpleBytes holds the bytes of the literal segments of simple patterns:
// letters, digits, '-', '.', '_' and '~'.
var simpleBytes = func() (set [256]bool) {
	for c := range set {
		set[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
	}
	return set
}()

// isASCIIName reports whether s is an identifier of ASCII letters, digits
// and underscores.
func isASCIIName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', c == '_':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// parseFull is parsePatternInto for any pattern.
func parseFull(into *pattern, buf *[]segment, s string, lookup constraintLookup) (_ *pattern, err error) {
	if s == "" {
		return nil, &PatternError{Pattern: s, Err: errors.New("empty pattern")}
	}
	off := 0
	fail := func(format string, args ...any) (*pattern, error) {
		return nil, &PatternError{Pattern: s, Offset: off, Err: fmt.Errorf(format, args...)}
	}

	method, rest := "", s
	if i := indexBlank(s); i >= 0 {
		method, rest = s[:i], trimBlanks(s[i+1:])
		off = len(s) - len(rest)
		// As with ServeMux, leading blanks leave the method empty.
		if method != "" && !isToken(method) {
			off = 0
			return fail("invalid method %q", method)
		}
	}
	i := strings.IndexByte(rest, '/')
	if i < 0 {
		return fail("host/path missing /")
	}
	// Each segment starts with a '/', and no constraint may contain one.
	var p *pattern
	if into != nil {
		*buf = (*buf)[:0]
		p = into
		*p = pattern{parsed: buf}
	} else {
		p = newPattern(strings.Count(rest[i:], "/"))
	}
	host := rest[:i]
	if hostEnd := len(s) - len(rest) + i; hostEnd > maxPatternHost {
		return fail("method and host longer than %d bytes", maxPatternHost)
	}
	p.str, p.methodEnd = s, uint16(len(method))
	p.hostStart = uint16(len(s) - len(rest))
	rest = rest[i:]
	if j := strings.IndexByte(host, '{'); j >= 0 {
		off += j
		return fail("host contains '{' (missing initial '/'?)")
	}
	off += i

	// Paths are cleaned before matching, so an unclean path can only ever
	// match CONNECT requests, which are not cleaned.
	if method != "" && method != "CONNECT" && !isClean(rest) {
		return fail("non-CONNECT pattern with unclean path can never match")
	}

	// seen holds the names of the wildcards so far from the
	// maxNamesScanned-th on; until then they are found among the segments.
	var seen map[string]bool
	named := 0
	for len(rest) > 0 {
		// Invariant: rest[0] == '/'.
		rest = rest[1:]
		off = len(s) - len(rest)
		if rest == "" {
			*p.parsed = append(*p.parsed, multiSegment(""))
			break
		}
		i := strings.IndexByte(rest, '/')
		if i < 0 {
			i = len(rest)
		}
		var seg string
		seg, rest = rest[:i], rest[i:]
		if j := strings.IndexByte(seg, '{'); j < 0 {
			*p.parsed = append(*p.parsed, literalSegment(pathUnescape(seg)))
			continue
		} else if j != 0 {
			off += j
			return fail("bad wildcard segment (must start with '{')")
		}
		end, ok := closingBrace(seg)
		if !ok {
			if strings.IndexByte(rest, '}') >= 0 && strings.Count(seg, "{") > strings.Count(seg, "}") {
				return fail("bad wildcard segment (a constraint may not contain '/')")
			}
			return fail("bad wildcard segment (unbalanced braces)")
		}
		if end != len(seg)-1 {
			off += end + 1
			return fail("bad wildcard segment (must end with '}')")
		}
		body := seg[1:end]
		if body == "$" {
			if rest != "" {
				return fail("{$} not at end")
			}
			*p.parsed = append(*p.parsed, literalSegment("/"))
			break
		}
		name, expr, constrained := strings.Cut(body, ":")
		name, multi := strings.CutSuffix(name, "...")
		if multi && rest != "" {
			return fail("{...} wildcard not at end")
		}
		if name == "" {
			return fail("empty wildcard")
		}
		if !isValidWildcardName(name) {
			return fail("bad wildcard name %q", name)
		}
		if p.hasName(name, seen) {
			return fail("duplicate wildcard name %q", name)
		}
		if named++; named == maxNamesScanned {
			seen = map[string]bool{}
			for _, sg := range *p.parsed {
				if sg.named() {
					seen[sg.s] = true
				}
			}
		}
		if seen != nil {
			seen[name] = true
		}
		sg := wildSegment(name, nil)
		if multi {
			sg = multiSegment(name)
		}
		if constrained {
			off += strings.IndexByte(body, ':') + 2
			if multi {
				return fail("a {name...} wildcard cannot have a constraint")
			}
			if expr == "" {
				return fail("empty constraint for wildcard %q", name)
			}
			c, err := lookup(expr)
			if err != nil {
				return fail("wildcard %q: %w", name, err)
			}
			sg = wildSegment(name, c)
		}
		*p.parsed = append(*p.parsed, sg)
	}
	return p, nil
}

// indexBlank returns the index of the first space or tab in s, or -1.
//
// Optimization: strings.IndexAny builds a set of the bytes on each call,
// which cost more than parsing the rest of a short pattern.
func indexBlank(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' || s[i] == '\t' {
			return i
		}
	}
	return -1
}

// trimBlanks returns s without its leading spaces and tabs.
func trimBlanks(s string) string {
	for s != "" && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	return s
}

// hasEscapeOrBrace reports whether s holds a '%' or a '{'.
func hasEscapeOrBrace(s string) bool {
	return strings.IndexByte(s, '{') >= 0 || strings.IndexByte(s, '%') >= 0
}

// maxNamesScanned is the number of wildcard names from which parsePattern
// keeps them in a map, to find a duplicate in constant time, instead of
// looking for it among the segments parsed so far.
const maxNamesScanned = 8

// hasName reports whether a wildcard of p so far is named name: seen has
// the names, or, if it is nil, the segments do.
func (p *pattern) hasName(name string, seen map[string]bool) bool {
	if seen != nil {
		return seen[name]
	}
	for _, sg := range *p.parsed {
		if sg.named() && sg.s == name {
			return true
		}
	}
	return false
}

// closingBrace returns the index of the '}' that closes the '{' at seg[0],
// counting nested braces, and whether there is one.
func closingBrace(seg string) (int, bool) {
	depth := 0
	for i := 0; i < len(seg); i++ {
		switch seg[i] {
		case '\\':
			i++ // an escaped character in a regexp, such as \{
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i, true
			}
		}
	}
	return 0, false
}

// isValidWildcardName reports whether s is a Go identifier.
func isValidWildcardName(s string) bool {
	if s == "" {
		return false
	}
	// Optimization: most names are ASCII, checked without decoding runes.
	if isASCIIName(s) {
		return true
	}
	for i, c := range s {
		if !unicode.IsLetter(c) && c != '_' && (i == 0 || !unicode.IsDigit(c)) {
			return false
		}
	}
	return true
}

// isToken reports whether s is an HTTP token (RFC 9110, section 5.6.2), the
// syntax of a method.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}
