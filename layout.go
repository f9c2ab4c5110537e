package cairn

// This file keeps the layouts of the patterns of live routers, so that
// Param finds a wildcard without scanning the pattern.
//
// A layout lists a pattern's wildcard names and the index of each one's
// path segment: for "GET /repos/{owner}/{repo}" it is owner at 1 and repo at
// 2. Param gets to the layout from r.Pattern: every route owns a private
// copy of its pattern string, whose data pointer is the key of a global
// registry. The registry is copied on write under a lock when a router
// compiles new routes, and read with one atomic load; a cleanup attached to
// the router removes its layouts once the router is unreachable.

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// A layout says where the wildcards of a pattern are.
type layout struct {
	pattern string   // the route's private copy of its pattern
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

// newLayout returns the layout of p, whose str is the route's own copy,
// registered for version.
func newLayout(p *pattern, version string) *layout {
	l := &layout{pattern: p.str, nsegs: len(p.segments), tail: p.lastSegment().kind == segMulti, version: version}
	for i, s := range p.segments {
		if s.kind != segLiteral && s.s != "" {
			l.names = append(l.names, s.s)
			l.index = append(l.index, i)
			l.multi = s.kind == segMulti
		}
	}
	return l
}

// find returns the segment index of the wildcard name and whether it is a
// {name...} wildcard, or -1.
func (l *layout) find(name string) (int, bool) {
	for i, n := range l.names {
		if n == name {
			return l.index[i], l.multi && i == len(l.names)-1
		}
	}
	return -1, false
}

// layouts is the registry of the layouts of live routers.
var layouts layoutRegistry

// A layoutRegistry maps the data pointer of a route's pattern string to the
// route's layout.
type layoutRegistry struct {
	mu sync.Mutex // serializes writers
	m  atomic.Pointer[map[*byte]*layout]
}

// find returns the layout of pattern, or nil if no live router owns it.
//
// Allocation: none.
func (lr *layoutRegistry) find(pattern string) *layout {
	m := lr.m.Load()
	if m == nil || pattern == "" {
		return nil
	}
	l := (*m)[unsafe.StringData(pattern)]
	// A prefix of a registered pattern shares its data pointer.
	if l == nil || len(l.pattern) != len(pattern) {
		return nil
	}
	return l
}

// update copies the registry, adding add and removing remove.
func (lr *layoutRegistry) update(add, remove []*layout) {
	lr.mu.Lock()
	defer lr.mu.Unlock()
	next := map[*byte]*layout{}
	if m := lr.m.Load(); m != nil {
		for k, v := range *m {
			next[k] = v
		}
	}
	for _, l := range remove {
		delete(next, unsafe.StringData(l.pattern))
	}
	for _, l := range add {
		next[unsafe.StringData(l.pattern)] = l
	}
	lr.m.Store(&next)
}

// routerLayouts are the layouts of one router's routes.
type routerLayouts struct {
	pending    []*layout // registered, not yet in the registry
	published  []*layout // in the registry
	hasCleanup bool
}

// addLayout adds l to the layouts of r, whose lock is held, to be published
// with the next table.
func (r *Router) addLayout(l *layout) {
	if r.layouts == nil {
		r.layouts = &routerLayouts{}
	}
	r.layouts.pending = append(r.layouts.pending, l)
}

// publish adds the pending layouts of r, which holds r.mu, to the registry.
// The first time, it attaches the cleanup that removes them again.
func (r *Router) publishLayouts() {
	rl := r.layouts
	if rl == nil || len(rl.pending) == 0 {
		return
	}
	layouts.update(rl.pending, nil)
	rl.published = append(rl.published, rl.pending...)
	rl.pending = nil
	if !rl.hasCleanup {
		rl.hasCleanup = true
		runtime.AddCleanup(r, func(rl *routerLayouts) { layouts.update(nil, rl.published) }, rl)
	}
}
