package cairn

// This file holds the Router and registration, which parses a pattern,
// checks it against the patterns it might conflict with, and adds it to
// the table that requests are routed with (see update.go). Serving is in
// serve.go.

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"
)

// A Router is an HTTP request multiplexer. It matches the method, host and
// path of each request against the registered patterns and calls the handler
// of the most specific pattern that matches; see the package documentation
// for patterns and precedence.
//
// A Router is safe for concurrent use. Routes may be registered and
// settings changed while it serves: a request sees every route and setting
// whose registration returned before the request began, and routing takes
// no lock. Once the router has served, a registration copies the part of
// the lookup tables on its pattern's path, so its cost does not grow with
// the number of routes elsewhere (see the package documentation).
//
// The zero value is an empty Router ready to use, as is the one [New]
// returns.
type Router struct {
	mu          sync.Mutex // guards the registration state below
	constraints constraintSet
	// constraintFuncs keeps the constraints that call the functions
	// DefineConstraint was given, which patterns' segments reach weakly.
	constraintFuncs []*constraint
	routes          []*route // in registration order
	// patterns is the first route of each pattern string, for Path; it is
	// made by the first Path by pattern, so that a router that never
	// asks keeps no map.
	patterns map[string]*route
	names    map[string]*route // routes by name
	// layouts are the layouts of r's patterns with named wildcards or a
	// version, by their hash, for layoutOf to share.
	layouts map[uint64]*layout
	mounts  []*mounted // mounts of Routers, in registration order
	// segs is a buffer for check to parse a pattern's segments into; see
	// there.
	segs *[]segment
	// lastLoc and lastWhere are the location of the last pattern
	// registered and its reference, for check.
	lastLoc   location
	lastWhere locRef
	// patternBlock is the block of memory that copyPattern packs the
	// copies of r's patterns into.
	patternBlock []byte
	// mountNames are the wildcards of the prefixes r is mounted at, by
	// name, with the prefix: r's patterns may not use them.
	mountNames map[string]string
	// mountHosts are the hosts of the prefixes r is mounted at, with the
	// prefix: a pattern of r with another host would never serve.
	mountHosts map[string]string
	// slabs allocate what registering makes before the router serves;
	// nil once it serves.
	slabs *slabs
	tab   *table        // the newest table, published once the router serves
	edit  *editToken    // the token of the changes before the first request
	none  *verdictEntry // what Handler returns when no route matches
	base  *groupNode    // the group of the routes registered through no group: no middleware

	table        atomic.Pointer[table] // the published table; nil until the first request
	noPathValues atomic.Bool           // do not populate r.PathValue

	identsOnce sync.Once
	ids        *identSet // the router's pattern identities, for the cleanup

	// The identities of the answers other than serving, by the serving
	// identity of their route, made when first needed (see answerID).
	answerMu         sync.Mutex
	redirectIDs      sync.Map // *ident to *ident
	slashRedirectIDs sync.Map // *ident to *ident
	rejectIDs        sync.Map // *ident to *ident
	// otherFormIDs maps the identity of a route's answer (its own, a
	// mount's full pattern, or a 406) to the one for the request served
	// as the other form of its path; see otherFormID.
	otherFormIDs sync.Map // *ident to *ident
}

// New returns a new, empty Router. It populates [http.Request.PathValue].
func New() *Router { return &Router{} }

// PopulatePathValues sets whether the router stores the matched wildcards in
// the request with [http.Request.SetPathValue], so that handlers can read them
// with [http.Request.PathValue]. It is on by default, as with
// [http.ServeMux]; storing them allocates. [Param] works either way and does
// not allocate, so turning this off makes every lookup allocation-free.
// [Group.PopulatePathValues] overrides it for the routes of a group: turn
// path values off here and on for the group where a library that reads
// r.PathValue is mounted, and the rest of the router stays
// allocation-free.
func (r *Router) PopulatePathValues(enabled bool) { r.noPathValues.Store(!enabled) }

// DefineConstraint defines a named constraint, usable in the patterns
// registered afterwards as {name:constraintName}. match is called with
// unescaped path segments when serving, and with literal segments and
// sample values when checking patterns at registration, so it must be a
// pure function, safe for concurrent use. DefineConstraint panics with an
// error if the name is not an identifier or is already defined.
func (r *Router) DefineConstraint(name string, match func(segment string) bool) {
	if match == nil {
		panic(fmt.Errorf("cairn: nil function for constraint %q", name))
	}
	// A route's identity, which the process-wide registry holds until the
	// router is collected, keeps the route's parsed pattern, and so the
	// constraints of its segments; a match that refers to the router, as
	// a method of a server that holds the router does, would keep the
	// router from ever being collected. So segments get a constraint that
	// reaches match only through a weak pointer to the one that calls it,
	// which the router and its lookup nodes keep (see lookupCon): the
	// weak pointer is read when registering, never when routing. A
	// constraint runs only while its router is alive, so the pointer is
	// never nil then.
	c := &constraint{key: name, match: match}
	w := weak.Make(c)
	seg := &constraint{key: name, match: func(s string) bool { return w.Value().match(s) }, strong: w}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.constraints.define(name, seg); err != nil {
		panic(err)
	}
	r.constraintFuncs = append(r.constraintFuncs, c)
}

// DefineRegexp defines a named constraint from a regular expression (in the
// syntax of package regexp), which must match the whole unescaped segment.
// As in an inline constraint, the expression may not contain '/'. It panics
// with an error if the name is taken or the expression does not compile.
func (r *Router) DefineRegexp(name, expr string) {
	if strings.Contains(expr, "/") {
		panic(fmt.Errorf("cairn: constraint %q: regexp %q contains '/', which a constraint may not", name, expr))
	}
	c, err := compileConstraint(expr)
	if err != nil {
		panic(fmt.Errorf("cairn: constraint %q: %w", name, err))
	}
	c.key = name
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.constraints.define(name, c); err != nil {
		panic(err)
	}
}

// Handle registers h for pattern. It panics with a [*PatternError] if the
// pattern is invalid and with a [*ConflictError] if it conflicts with a
// pattern already registered (a duplicate included), and with an error if
// h is nil.
//
//go:noinline
func (r *Router) Handle(pattern string, h http.Handler) {
	r.register(pattern, h, nil, locationOf(callerPC())) // see callerPC
}

// HandleFunc registers f for pattern, as [Router.Handle] does.
//
//go:noinline
func (r *Router) HandleFunc(pattern string, f func(http.ResponseWriter, *http.Request)) {
	r.register(pattern, http.HandlerFunc(f), nil, locationOf(callerPC())) // see callerPC
}

// locationOf returns the location of the call of the method that
// registers, which calls it, given pc, what callerPC gave that method.
//
// A method that the program calls through a method value or an interface
// is called by a wrapper that the compiler made, whose code is at no line
// of the program; runtime.Callers leaves such wrappers out, and so does
// locationOf, by asking it when pc is in one. Optimization: the program
// counter last found not to be is remembered, since most programs
// register many routes from one line, in a loop.
func locationOf(pc uintptr) location {
	if pc == lastDirectPC.Load() {
		return location(pc)
	}
	if f := runtime.FuncForPC(pc - 1); f != nil {
		if file, _ := f.FileLine(pc - 1); file == "<autogenerated>" {
			var pcs [1]uintptr
			// Skipped: runtime.Callers, locationOf, and the registering
			// method.
			runtime.Callers(3, pcs[:])
			return location(pcs[0])
		}
	}
	lastDirectPC.Store(pc)
	return location(pc)
}

// lastDirectPC is the last program counter that locationOf found in the
// program's own code, not in a wrapper.
var lastDirectPC atomic.Uintptr

// callerLocation returns the location of the call that registers: the
// caller of callerLocation's caller. The methods that register routes,
// which programs call most, use callerPC instead, which costs less.
func callerLocation() location {
	var pc [1]uintptr
	// Skipped: runtime.Callers, callerLocation, and the registering
	// method.
	runtime.Callers(3, pc[:])
	return location(pc[0])
}

// A location is where a pattern or a group was registered: the program
// counter of the call, 0 if unknown.
//
// Optimization: a route keeps a word, and the file and line are looked up
// only for the messages and introspection that show them.
type location uintptr

// A locRef refers to a location in locations: one more than its index
// there, or 0 for an unknown location.
//
// Optimization: 32 bits, so that a pattern is 32 bytes instead of 40 (see
// pattern). The places a program registers patterns at are its lines of
// code that do, few enough to number.
type locRef uint32

// locations holds every location that patterns were registered at, once
// each. It only grows, by one entry for each call of a registering method
// in the program's code.
var locations struct {
	mu   sync.Mutex
	locs []location
	refs map[location]locRef
}

// refLocation returns the reference of l, adding l to locations if needed.
func refLocation(l location) locRef {
	if l == 0 {
		return 0
	}
	locations.mu.Lock()
	defer locations.mu.Unlock()
	ref, ok := locations.refs[l]
	if !ok {
		if locations.refs == nil {
			locations.refs = make(map[location]locRef)
		}
		locations.locs = append(locations.locs, l)
		ref = locRef(len(locations.locs))
		locations.refs[l] = ref
	}
	return ref
}

// location returns the location that ref refers to.
func (ref locRef) location() location {
	if ref == 0 {
		return 0
	}
	locations.mu.Lock()
	defer locations.mu.Unlock()
	return locations.locs[ref-1]
}

// String returns "file:line", or "unknown location".
func (l location) String() string {
	if l == 0 {
		return "unknown location"
	}
	f, _ := runtime.CallersFrames([]uintptr{uintptr(l)}).Next()
	return fmt.Sprintf("%s:%d", f.File, f.Line)
}

// isNil reports whether h is nil or a nil HandlerFunc, which net/http.ServeMux
// rejects too.
func isNil(h http.Handler) bool {
	if h == nil {
		return true
	}
	f, ok := h.(http.HandlerFunc)
	return ok && f == nil
}

// register registers h for the pattern s through the group g (nil for
// none); it panics on any error. Every lock it takes is
// released even if a constraint's function panics.
func (r *Router) register(s string, h http.Handler, g *Group, loc location) {
	r.registerMount(s, h, g, loc, nil)
}

// registerMount is register for a route that may be a mount.
func (r *Router) registerMount(s string, h http.Handler, g *Group, loc location, m *mounted) {
	if isNil(h) {
		panic(fmt.Errorf("cairn: nil handler for pattern %q", s))
	}
	if g == nil {
		g = &Group{r: r}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.init()
	id, err := r.check(s, g, loc)
	if err != nil {
		panic(err)
	}
	claims, err := r.checkClaims(g.node)
	if err != nil {
		panic(err)
	}
	c := r.change()
	r.add(c, id, h, g, m)
	for _, gn := range claims {
		r.addClaim(c, gn)
	}
	r.commit(c)
}

// init gives r its first table, if it has none; r.mu is held.
func (r *Router) init() {
	if r.tab == nil {
		r.slabs = new(slabs)
		r.edit = new(editToken)
		r.tab = newTable(r.edit)
		r.none = &verdictEntry{r: r, v: verdict{kind: verdictNone}}
		r.base = &groupNode{r: r}
	}
}

// change returns a change of r's table; r.mu is held and r initialized.
// Before the router serves, the change modifies r's table in place; after,
// it modifies a copy, which commit publishes.
func (r *Router) change() *change {
	if r.table.Load() == nil {
		return &change{edit: r.edit, t: r.tab, inPlace: true, slabs: r.slabs}
	}
	t := *r.tab
	return &change{edit: new(editToken), t: &t}
}

// commit makes c's table r's, publishing it if r serves; r.mu is held.
func (r *Router) commit(c *change) {
	r.tab = c.t
	if r.table.Load() != nil {
		r.table.Store(c.t)
	}
}

// current returns the table to route requests with, publishing r's table
// if it is the first request.
func (r *Router) current() *table {
	if t := r.table.Load(); t != nil {
		return t
	}
	return r.publish()
}

// publish publishes r's table, on the first request, and returns it.
func (r *Router) publish() *table {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.init()
	if r.table.Load() == nil {
		// From now on lookups may read the table: changes copy it.
		r.edit, r.slabs = nil, nil
		r.tab.trim()
		if cap(r.routes) > len(r.routes) {
			r.routes = slices.Clone(r.routes)
			r.tab.routes = r.routes
		}
		idents.addAll(r.waitingIdents())
		r.table.Store(r.tab)
	}
	return r.tab
}

// check parses s, registered through g at loc, and checks it against the
// routes and names of r, whose lock is held. It returns the identity of
// the route to be, which holds the pattern.
func (r *Router) check(s string, g *Group, loc location) (*ident, error) {
	// The route's own copy of the pattern, the identity it sets as
	// r.Pattern (see ident.go). It is parsed, so that the pattern's parts
	// share its bytes instead of keeping s.
	//
	// The segments go to r.segs, which the pattern holds until add settles
	// it (see pattern.settle) and returns the buffer; if registering fails
	// before, the buffer goes with the pattern, and the next parse makes
	// another.
	buf := r.segs
	if buf == nil {
		buf = new([]segment)
	}
	r.segs = nil
	id := r.slabs.ident()
	id.kind = identServe
	p, err := parsePatternInto(&id.pat, buf, r.copyPattern(s), r.constraints.lookup)
	if err != nil {
		return nil, err
	}
	if loc != r.lastLoc {
		r.lastLoc, r.lastWhere = loc, refLocation(loc)
	}
	p.where = r.lastWhere
	if p.method() == http.MethodHead && !r.tab.headWildcards && p.staticKey() == "" {
		// The static GET routes held off the lookup trees, which p may
		// conflict with, go into them (see change.addRoute).
		c := r.change()
		c.moveGetIntoTree()
		r.commit(c)
	}
	if conflict := r.conflict(p, g.version, r.soleCandidates(p)); conflict != nil {
		return nil, conflict
	}
	for _, seg := range p.segments() {
		if prefix, ok := r.mountNames[seg.s]; ok && seg.named() {
			return nil, fmt.Errorf("cairn: pattern %q (registered at %s) has a wildcard {%s}, as the prefix %q the router is mounted at has, "+
				"which would hide the prefix's value", s, loc, seg.s, prefix)
		}
	}
	if host := p.host(); host != "" {
		for mh, prefix := range r.mountHosts {
			if host != mh {
				return nil, fmt.Errorf("cairn: pattern %q (registered at %s) has the host %s, and the router is mounted at %q, "+
					"whose requests have the host %s: it would never serve", s, loc, host, prefix, mh)
			}
		}
	}
	if g.name != "" {
		if other := r.names[g.name]; other != nil && other.id.pat.str != s {
			return nil, fmt.Errorf("cairn: route name %q for pattern %q (registered at %s) is taken by pattern %q (registered at %s)",
				g.name, s, loc, other.id.pat.str, other.id.pat.loc())
		}
	}
	return id, nil
}

// conflict returns the error for the first route of r that p, parsed for
// version and not yet registered, conflicts with, or nil. If key is not
// "", it is what soleCandidates returned: only the routes of the path
// with that key are checked; otherwise those that the tree holds on and
// below the wildcards of p's path, and, for a static p, those of its path
// that only the index of static paths holds (see change.addRoute). r's
// lock is held.
func (r *Router) conflict(p *pattern, version, key string) *ConflictError {
	var conflict *ConflictError
	visit := func(rt *route) {
		if conflict == nil && p.conflictsWith(&rt.id.pat) && !isVariant(p, version, rt) {
			conflict = newConflictError(p, &rt.id.pat)
			conflict.addVersions(version, rt.version())
		}
	}
	ht := r.tab.hostTree(p.host())
	if key == "" {
		if ht == nil {
			return nil
		}
		segs := p.segments()
		ht.root.eachOverlapping(segs, visit)
		// The routes of p's own path if they are off the tree (see
		// change.addRoute), the only ones off it that p may conflict
		// with. Optimization: a pattern with a wildcard has no such
		// path, and is told without working out its key.
		if slices.ContainsFunc(segs, func(s segment) bool { return s.kind() != segLiteral }) {
			return conflict
		}
		if key = p.staticKey(); key == "" || !ht.static.get(key).offTree() {
			return conflict
		}
	}
	if ht != nil {
		if l := ht.static.get(key); l != nil {
			l.each(visit)
		}
	}
	return conflict
}

// soleCandidates returns, if the only patterns that p, parsed and not yet
// registered, can conflict with are those of its own path, the key of
// that path in the index of static paths; and "" otherwise. r's lock is
// held.
//
// Optimization: a static pattern with a method need not be checked
// against the patterns below the wildcards of its path, which a walk of
// the tree visits. Such a pattern q can conflict with p only if neither is
// more specific (see conflictsWith): p's path is more specific than q's,
// so p would have to be more general in its method, and the only method
// more general than another but "" is GET, than HEAD. So this holds for p
// with any method but GET, and with GET if the router has no pattern with
// HEAD. The patterns of p's own path are those of the leaf that its key
// finds, since the key is clean, and patterns with the same literal
// segments have the same key.
func (r *Router) soleCandidates(p *pattern) string {
	switch p.method() {
	case "":
		return ""
	case http.MethodGet:
		if r.tab.methods.verbBits[verbHead] != 0 {
			return ""
		}
	}
	return p.staticKey()
}

// copyPattern returns a copy of the pattern s for the
// identity of a route of r, whose lock is held. Its bytes are r's alone,
// so its first byte's address tells the identity apart (see ident.go).
//
// Optimization: the copies are packed into blocks that r allocates,
// instead of one allocation each, rounded up to a size class. A block is
// twice as large as the last, from minPatternBlock to maxPatternBlock
// bytes, so a router of a few routes keeps little room unused; a pattern
// longer than that has an allocation of its own. A copy's bytes are never
// written again: blocks are only appended to.
func (r *Router) copyPattern(s string) string {
	if s == "" || len(s) > maxPatternBlock {
		// Not a pattern, whose parsing fails; or a long one.
		return cloneString(s)
	}
	if cap(r.patternBlock)-len(r.patternBlock) < len(s) {
		size := min(max(2*cap(r.patternBlock), minPatternBlock), maxPatternBlock)
		r.patternBlock = make([]byte, 0, size)
	}
	i := len(r.patternBlock)
	r.patternBlock = append(r.patternBlock, s...)
	return unsafe.String(&r.patternBlock[i], len(s))
}

// The sizes of the blocks copyPattern allocates.
const (
	minPatternBlock = 256
	maxPatternBlock = 16 << 10
)

// add adds the route whose identity id check made, registered through g, to
// r and to c's table; r's lock is held.
func (r *Router) add(c *change, id *ident, h http.Handler, g *Group, m *mounted) {
	p := &id.pat
	idx := len(r.routes)
	rt := r.slabs.route()
	initRoute(rt, id, h, idx)
	rt.pathValues, rt.hasMount = g.pathValues, m != nil
	if g.version != "" || g.name != "" || m != nil {
		rt.more = &routeMore{version: g.version, name: g.name, mount: m}
	}
	rt.group = r.base
	if g.node != nil {
		rt.group = g.node
	}
	if len(r.routes) == cap(r.routes) {
		// Optimization: the routes double, where append grows a long
		// slice by a quarter, which allocated five times its final
		// size in all for a router of a hundred thousand routes. The
		// first request trims them (see publish).
		r.routes = slices.Grow(r.routes, max(len(r.routes), 8))
	}
	r.routes = append(r.routes, rt)
	c.t.routes = r.routes

	id.l = r.layoutOf(&id.pat, rt.version())
	ids := []*ident{id}
	if m != nil {
		m.attach(r, rt, id)
		ids = append(ids, m.stripped)
		if m.inner != nil {
			r.mounts = append(r.mounts, m)
		}
	}
	r.addIdents(r.patternBlock, r.table.Load() == nil, ids...)

	if r.patterns != nil && r.patterns[p.str] == nil {
		r.patterns[p.str] = rt
	}
	if name := rt.name(); name != "" {
		if r.names == nil {
			r.names = map[string]*route{}
		}
		if r.names[name] == nil {
			r.names[name] = rt
		}
	}
	c.addRoute(rt)
	buf := p.parsed
	p.settle()
	r.segs = buf
}

// markMounted notes that r is to be mounted at prefix, whose wildcards are
// names: its patterns may no longer use those names, nor, if the prefix
// has a host, another host; and its redirects that add or remove a
// trailing slash become relative (see verdict.location). It panics,
// noting nothing, if a route of r already does what it rules out. It
// returns a function that undoes the notes, for a mount that fails to be
// registered.
//
// Invariant: the check and the notes are made under r's lock, and before
// the mount's route is registered in the outer router, so that a route
// registered with r meanwhile is checked against the notes, and no
// request reaches r through the mount before r knows of it. The caller
// holds mountGraph, so that no other mount of r comes in between the notes
// and their undoing.
func (r *Router) markMounted(prefix *pattern, names []string) (undo func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.init()
	at := strings.TrimSuffix(prefix.str, "/")
	mh := prefix.host()
	if mh != "" {
		for _, rt := range r.routes {
			if host := rt.id.pat.host(); host != "" && host != mh {
				panic(fmt.Errorf("cairn: mounting a router at %q: its pattern %q (registered at %s) has the host %s, "+
					"which requests through the mount never have: it would never serve", at, rt.id.pat.str, rt.id.pat.loc(), host))
			}
		}
	}
	for _, name := range names {
		for _, rt := range r.routes {
			if rt.id.pat.hasWildcard(name) {
				panic(fmt.Errorf("cairn: mounting a router at %q: its pattern %q (registered at %s) has a wildcard {%s}, as the prefix has, "+
					"which would hide the prefix's value", at, rt.id.pat.str, rt.id.pat.loc(), name))
			}
		}
	}
	oldNames, oldHosts, wasRelative := maps.Clone(r.mountNames), maps.Clone(r.mountHosts), r.tab.cfg.relative
	for _, name := range names {
		if r.mountNames == nil {
			r.mountNames = map[string]string{}
		}
		r.mountNames[name] = at
	}
	if mh != "" {
		if r.mountHosts == nil {
			r.mountHosts = map[string]string{}
		}
		r.mountHosts[mh] = at
	}
	if !wasRelative {
		r.setRelative(true)
	}
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.mountNames, r.mountHosts = oldNames, oldHosts
		if !wasRelative {
			r.setRelative(false)
		}
	}
}

// setRelative sets whether r's redirects that add or remove a trailing
// slash are relative; r's lock is held.
func (r *Router) setRelative(relative bool) {
	c := r.change()
	cfg := *c.t.cfg
	cfg.relative = relative
	c.t.cfg = &cfg
	r.commit(c)
}

// errNilMiddleware is the error of a nil middleware.
var errNilMiddleware = errors.New("cairn: nil middleware")
