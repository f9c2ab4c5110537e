package cairn

// This file describes where the wildcards of a pattern are, so that Param
// finds a value without scanning the pattern.
//
// A layout lists a pattern's wildcard names and the index of each one's
// path segment: for "GET /repos/{owner}/{repo}" it is owner at 1 and repo at
// 2. Param gets to the layout from r.Pattern through the registry of
// pattern identities (see ident.go).

// A layout says where the wildcards of a pattern are.
type layout struct {
	names   []string // wildcard names, in path order
	index   []int    // index[i] is the path segment of names[i]
	multi   bool     // the last name is a {name...} wildcard
	nsegs   int      // segments in the pattern, and in every path it matches unless it ends in a multi
	tail    bool     // the pattern ends in a multi wildcard, named or not
	version string   // the route's version, for RouteVersion
	// stripped marks the pattern a Mount gives the requests it passes on,
	// whose path no longer holds the prefix: their values are path values.
	stripped bool
}

// newLayout returns the layout of p, registered for version.
func newLayout(p *pattern, version string) *layout {
	l := &layout{nsegs: len(p.segments), tail: p.lastSegment().kind == segMulti, version: version}
	for i, s := range p.segments {
		if s.kind != segLiteral && s.s != "" {
			l.names = append(l.names, s.s)
			l.index = append(l.index, i)
			l.multi = s.kind == segMulti
		}
	}
	return l
}

// mountedLayout returns the layout of the full pattern of a route of a
// mounted Router: the route's layout inner, behind a prefix of nprefix
// segments with the wildcards of prefix. A wildcard of the route hides one
// of the prefix with the same name, as it does for the mounted Router's own
// handlers.
func mountedLayout(prefix *layout, nprefix int, inner *layout) *layout {
	l := &layout{nsegs: nprefix + inner.nsegs, tail: inner.tail, multi: inner.multi, version: inner.version}
	for i, name := range prefix.names {
		if inner.position(name) < 0 {
			l.names = append(l.names, name)
			l.index = append(l.index, prefix.index[i])
		}
	}
	if len(inner.names) == 0 {
		l.multi = false
	}
	for i, name := range inner.names {
		l.names = append(l.names, name)
		l.index = append(l.index, nprefix+inner.index[i])
	}
	return l
}

// position returns the position of name in l.names, or -1.
func (l *layout) position(name string) int {
	for i, n := range l.names {
		if n == name {
			return i
		}
	}
	return -1
}

// find returns the segment index of the wildcard name and whether it is a
// {name...} wildcard, or -1.
func (l *layout) find(name string) (int, bool) {
	if i := l.position(name); i >= 0 {
		return l.index[i], l.multi && i == len(l.names)-1
	}
	return -1, false
}
