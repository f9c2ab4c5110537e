package cairn

// This file holds the Router: registration, which parses a pattern, checks
// it against the patterns it might conflict with and adds it to the
// registration tree; and ServeHTTP, which finds the route for a request and
// otherwise answers as net/http.ServeMux does, with a redirect, 404 or 405.

import (
	"fmt"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

// A Router is an HTTP request multiplexer. It matches the method, host and
// path of each request against the registered patterns and calls the handler
// of the most specific pattern that matches; see the package documentation
// for patterns and precedence.
//
// A Router is safe for concurrent use. Routes may be registered while it
// serves: a lookup sees every route whose registration returned before the
// lookup began, and takes no lock, except that the first request after
// routes were registered at start-up compiles them, once, under the
// registration lock.
//
// The zero value is an empty Router ready to use, as is the one [New]
// returns.
type Router struct {
	mu          sync.Mutex       // guards the registration state below
	roots       map[string]*node // registration trees, by host ("" for none)
	constraints constraintSet
	seq         int                 // routes registered so far
	routes      []*route            // in registration order
	patterns    map[string]*pattern // by pattern string, for Path
	layouts     *routerLayouts      // for Param

	settings   settings  // router-level middleware and fallback answers
	fallback   *fallback // built from settings; nil for the defaults
	generation int       // changes of routes and settings so far

	table        atomic.Pointer[table] // what lookups read; nil until compiled
	stale        atomic.Bool           // table lags behind roots
	serving      atomic.Bool           // a request has been served
	noPathValues atomic.Bool           // do not populate r.PathValue
}

// New returns a new, empty Router. It populates [http.Request.PathValue].
func New() *Router { return &Router{} }

// PopulatePathValues sets whether the router stores the matched wildcards in
// the request with [http.Request.SetPathValue], so that handlers can read them
// with [http.Request.PathValue]. It is on by default, as with
// [http.ServeMux]; storing them allocates. [Param] works either way and does
// not allocate, so turning this off makes every lookup allocation-free.
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
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.constraints.define(name, &constraint{key: name, match: match}); err != nil {
		panic(err)
	}
}

// DefineRegexp defines a named constraint from a regular expression (in the
// syntax of package regexp), which must match the whole unescaped segment.
// It panics with an error if the name is taken or the expression does not
// compile.
func (r *Router) DefineRegexp(name, expr string) {
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
// pattern already registered (a duplicate included).
func (r *Router) Handle(pattern string, h http.Handler) {
	r.register(pattern, h, routeOptions{loc: callerLocation()})
}

// HandleFunc registers f for pattern, as [Router.Handle] does.
func (r *Router) HandleFunc(pattern string, f func(http.ResponseWriter, *http.Request)) {
	var h http.Handler
	if f != nil {
		h = http.HandlerFunc(f)
	}
	r.register(pattern, h, routeOptions{loc: callerLocation()})
}

// callerLocation returns the file:line of the caller of the caller.
func callerLocation() string {
	_, file, line, ok := runtime.Caller(2)
	if !ok {
		return "unknown location"
	}
	return fmt.Sprintf("%s:%d", file, line)
}

// routeOptions is what a registration says besides the pattern and handler.
type routeOptions struct {
	loc     string       // file:line of the registration
	mw      []Middleware // group and per-route middleware, outermost first
	version string       // "" for an unversioned route
	mount   *mounted     // set for a Mount
}

// register parses pattern, checks it against the registered patterns and
// adds it, panicking on any error.
func (r *Router) register(pattern string, h http.Handler, opts routeOptions) {
	if err := r.registerErr(pattern, h, opts); err != nil {
		panic(err)
	}
}

// registerErr is register returning its error.
func (r *Router) registerErr(s string, h http.Handler, opts routeOptions) error {
	if h == nil {
		return fmt.Errorf("cairn: nil handler for pattern %q", s)
	}
	for {
		r.mu.Lock()
		p, err := r.check(s, opts)
		if err != nil {
			r.mu.Unlock()
			return err
		}
		gen, mw := r.generation, r.settings.mw
		r.mu.Unlock()
		// The chain is built without the lock, so that middleware
		// constructors may call the router. If the routes or settings
		// changed meanwhile, the pattern is checked and the chain built
		// again.
		handler := chain(mw, chain(opts.mw, h))
		r.mu.Lock()
		if r.generation == gen {
			r.add(p, handler, opts)
			r.mu.Unlock()
			return nil
		}
		r.mu.Unlock()
	}
}

// check parses s and checks it against the routes of r, whose lock is
// held.
func (r *Router) check(s string, opts routeOptions) (*pattern, error) {
	p, err := parsePattern(s, r.constraints.lookup)
	if err != nil {
		return nil, err
	}
	p.loc = opts.loc
	// The route's own copy of the pattern, whose address identifies its
	// layout (see layout.go).
	p.str = strings.Clone(s)
	var conflict *ConflictError
	r.roots[p.host].eachOverlapping(p.segments, func(rt *route) {
		if conflict == nil && p.conflictsWith(rt.pat) && !isVariant(p, opts.version, rt) {
			conflict = newConflictError(p, rt.pat)
			conflict.addVersions(opts.version, rt.version)
		}
	})
	if conflict != nil {
		return nil, conflict
	}
	return p, nil
}

// add adds the route for p, which check accepted, to r, whose lock is
// held.
func (r *Router) add(p *pattern, handler http.Handler, opts routeOptions) {
	if r.roots == nil {
		r.roots = map[string]*node{}
	}
	root := r.roots[p.host]
	if root == nil {
		root = &node{}
		r.roots[p.host] = root
	}
	r.seq++
	r.generation++
	rt := newRoute(p, handler, r.seq)
	rt.version, rt.mw, rt.mount = opts.version, len(opts.mw), opts.mount
	root.insert(rt)
	r.routes = append(r.routes, rt)
	if r.patterns == nil {
		r.patterns = map[string]*pattern{}
	}
	if r.patterns[p.str] == nil {
		r.patterns[p.str] = p
	}
	if p.wildcards() > 0 || rt.version != "" {
		r.addLayout(newLayout(p, rt.version))
	}
	if m := opts.mount; m != nil {
		// The pattern is the prefix followed by a multi wildcard.
		m.nsegs = len(p.segments) - 1
		for _, s := range p.segments[:m.nsegs] {
			if s.kind == segWild {
				m.names = append(m.names, s.s)
			}
		}
		// The requests the mount passes on get their own copy of the
		// pattern, whose layout sends Param to their path values.
		m.pattern = strings.Clone(p.str)
		r.addLayout(&layout{pattern: m.pattern, version: rt.version, stripped: true})
	}
	r.changed()
}

// changed brings the table up to date after a change to the routes or
// settings of r, whose lock is held: at once if r has served requests,
// otherwise at the first request.
func (r *Router) changed() {
	if r.serving.Load() {
		r.publishLayouts()
		r.table.Store(r.compile())
	} else {
		r.stale.Store(true)
	}
}

// compile returns a new table for the routes and settings of r, whose lock
// is held.
func (r *Router) compile() *table {
	t := compileTable(r.roots)
	if r.fallback == nil {
		// The zero settings: no middleware constructor runs.
		r.fallback = r.newFallback(settings{})
	}
	t.fallback = r.fallback
	return t
}

// current returns the table to serve with, compiling it first if routes
// were registered before the first request.
func (r *Router) current() *table {
	t := r.table.Load()
	if t == nil || r.stale.Load() {
		r.mu.Lock()
		if t = r.table.Load(); t == nil || r.stale.Load() {
			r.publishLayouts()
			t = r.compile()
			r.table.Store(t)
			r.stale.Store(false)
		}
		r.serving.Store(true)
		r.mu.Unlock()
	} else if !r.serving.Load() {
		r.serving.Store(true)
	}
	return t
}

// ServeHTTP dispatches the request to the handler of the most specific
// pattern that matches it. As [http.ServeMux] does, it sets req.Pattern (and,
// unless turned off, the path values), redirects requests for unclean paths
// and for a subtree's root without its trailing slash, and answers 404 Not
// Found, or 405 Method Not Allowed with an Allow header when other methods
// would match. Unlike ServeMux, it answers OPTIONS for a path that has
// routes but no OPTIONS route itself (see [Router.AutomaticOptions]), and
// all these answers can be replaced and go through the router's middleware.
//
// Allocation: none for a static route, none for a route with wildcards when
// path values are not populated, and none for 404, 405 and automatic
// OPTIONS, unless the request's URL has a RawPath (the path held escapes
// that differ from the default encoding) or the router has more than 63
// methods. Middleware and handlers may allocate, and redirects do.
func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.RequestURI == "*" {
		if req.ProtoAtLeast(1, 1) {
			w.Header().Set("Connection", "close")
		}
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	t := r.current()
	var q query
	// Optimization: this is table.route, with the common case decided
	// here rather than by building a verdict in a call.
	var v verdict
	if req.Method == http.MethodConnect {
		v = t.routeConnect(req, &q)
	} else if rt := t.lookup(req, &q); rt != nil && !rt.multi && !q.unclean {
		v.rt = rt
	} else {
		v = t.routeSlow(req, rt, &q)
	}
	if q.varies {
		t.fallback.versioning.addVary(w.Header())
	}
	switch {
	case v.rt != nil:
		r.serveRoute(w, req, v.rt, &q, v.rt.handler)
	case v.loc != "":
		req.Pattern = v.pattern
		t.fallback.serveRedirect(w, req, v.loc)
	case q.rejected != nil:
		// Middleware sees the pattern the path matched.
		r.serveRoute(w, req, q.rejected, &q, t.fallback.notAcceptable)
	default:
		req.Pattern = ""
		t.serveNoRoute(w, req, q.host, q.path, q.escaped)
	}
}

// serveRoute calls h for rt, which q found for req, after setting
// req.Pattern and the path values.
func (r *Router) serveRoute(w http.ResponseWriter, req *http.Request, rt *route, q *query, h http.Handler) {
	req.Pattern = rt.pat.str
	if !r.noPathValues.Load() {
		setPathValues(req, rt.pat, q.path, q.escaped)
	}
	h.ServeHTTP(w, req)
}

// A verdict is what the routing table says to do with a request: serve a
// route, redirect, or answer that no route serves it; the query used says
// more.
type verdict struct {
	rt      *route // the route to serve, if any
	loc     string // where to redirect, if not ""
	pattern string // req.Pattern for a redirect
}

// route decides what to do with req, using q, which it fills in.
func (t *table) route(req *http.Request, q *query) verdict {
	if req.Method == http.MethodConnect {
		return t.routeConnect(req, q)
	}
	rt := t.lookup(req, q)
	if rt != nil && !rt.multi && !q.unclean {
		return verdict{rt: rt}
	}
	return t.routeSlow(req, rt, q)
}

// lookup fills in q for req, which is not a CONNECT request, and returns
// the route it finds, if any.
func (t *table) lookup(req *http.Request, q *query) *route {
	host := ""
	if t.hosts != nil {
		// Optimization: only routers with host patterns look at the host.
		host = stripHostPort(req.Host)
	}
	p, escaped := requestPath(req.URL)
	q.method, q.host, q.path, q.escaped, q.checkClean = req.Method, host, p, escaped, true
	q.req, q.versioning = req, t.fallback.versioning
	if p == "" || p[0] != '/' {
		// A path without its leading slash (which http.StripPrefix can
		// leave) is not clean; it is redirected.
		return nil
	}
	return t.match(host, p, false, q)
}

// routeSlow decides what to do with req, for which lookup found rt, when
// that is not simply to serve rt: a match of a pattern without a multi
// wildcard visited every segment of the path and found each clean, so the
// path is clean and the match exact, but everything else needs the whole
// path checked first.
func (t *table) routeSlow(req *http.Request, rt *route, q *query) verdict {
	p := q.path
	if !isClean(p) {
		return t.routeUnclean(req, q)
	}
	if rt == nil || !rt.exact(p, false) {
		// A route passed over for its versions counts only if it matched
		// the path itself, not the path with a slash added.
		rejected := q.rejected
		if srt, u := slashRedirect(t, q.host, p, q, req.URL); srt != nil {
			// As net/http.ServeMux does, report the pattern that the
			// new path matches.
			return verdict{loc: u, pattern: srt.pat.str}
		}
		q.rejected = rejected
	}
	return verdict{rt: rt}
}

// newQuery returns a query for req, for path p on host.
func (t *table) newQuery(req *http.Request, host, p string, escaped bool) query {
	return query{method: req.Method, host: host, path: p, escaped: escaped, req: req, versioning: t.fallback.versioning}
}

// routeUnclean decides what to do with a request whose path is not clean:
// redirect it to the clean path (or, first, to that path's subtree root).
func (t *table) routeUnclean(req *http.Request, q *query) verdict {
	escapedPath := req.URL.EscapedPath()
	p := cleanPath(escapedPath)
	*q = t.newQuery(req, q.host, p, true)
	rt := t.match(q.host, p, false, q)
	if rt == nil || !rt.exact(p, false) {
		if srt, u := slashRedirect(t, q.host, p, q, req.URL); srt != nil {
			return verdict{loc: u, pattern: srt.pat.str}
		}
	}
	// Invariant: p != escapedPath, since the caller found the path unclean
	// and escaping changes neither slashes nor dots.
	v := verdict{loc: redirectURL(p, req.URL.RawQuery)}
	if rt != nil {
		v.pattern = rt.pat.str
	}
	return v
}

// routeConnect decides what to do with a CONNECT request. As with
// net/http.ServeMux, its path is not cleaned, the trailing-slash redirect
// is decided with the host of its URL, and the route is then found with
// req.Host, port included.
func (t *table) routeConnect(req *http.Request, q *query) verdict {
	p := req.URL.EscapedPath()
	*q = t.newQuery(req, req.URL.Host, p, true)
	rt := t.match(req.URL.Host, p, false, q)
	if rt == nil || !rt.exact(p, false) {
		if _, u := slashRedirect(t, req.URL.Host, p, q, req.URL); u != "" {
			// As net/http.ServeMux does, report the unescaped path redirected
			// to.
			return verdict{loc: u, pattern: pathUnescape(p + "/")}
		}
	}
	q.rejected = nil // the route is found again, with another host
	return verdict{rt: t.match(req.Host, p, false, q)}
}

// slashRedirect returns the route that p followed by a slash matches
// exactly with q's method, and the URL to redirect u to for it, or nil and
// "" if p already ends in a slash or no route matches so.
func slashRedirect(t *table, host, p string, q *query, u *url.URL) (*route, string) {
	if p == "" || strings.HasSuffix(p, "/") {
		return nil, ""
	}
	rt := t.match(host, p, true, q)
	if rt == nil || !rt.exact(p, true) {
		return nil, ""
	}
	escaped := p
	if !q.escaped {
		escaped = u.EscapedPath()
	}
	return rt, redirectURL(escaped+"/", u.RawQuery)
}

// redirectURL returns the location of a redirect to the escaped path p with
// the query rawQuery. The path keeps its escapes as they are, as
// net/http.ServeMux keeps them since Go 1.27: "%2F" stays an escaped slash
// and "%61" stays "%61".
func redirectURL(p, rawQuery string) string {
	u := url.URL{Path: pathUnescape(p), RawPath: p, RawQuery: rawQuery}
	return u.String()
}

// exact reports whether rt's match of path p is exact, as net/http.ServeMux
// defines it: a multi wildcard that matches a non-empty string makes a
// match inexact. If slash is set, the path is p followed by "/".
func (rt *route) exact(p string, slash bool) bool {
	if !rt.multi {
		return true
	}
	if slash {
		return rt.nsegs == strings.Count(p, "/")+1
	}
	return strings.HasSuffix(p, "/") && rt.nsegs == strings.Count(p, "/")
}
