package cairn

// This file holds what a Router does with a request: the middleware before
// routing, routing, and then, through the middleware after routing and the
// groups' (see dispatch.go), the route's handler or the router's own
// answer. It also holds Handler and Allowed, which route a request without
// serving it.

import (
	"net/http"
	"runtime"
)

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
// OPTIONS, whatever middleware and groups wrap them, unless the router has
// more than 63 methods, or the request's URL.RawPath escapes a '/' or a '.'
// ("%2F", "%2E"; other escapes cost nothing) and an escape falls in a
// wildcard's value, in a segment longer than 64 bytes, or in a segment
// that a constraint checks, or the path is longer than 64 bytes and a
// static route's path has its length unescaped. Middleware and handlers may allocate, and
// redirects do.
func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	// Invariant: r stays reachable until the request is answered, so that
	// its identities stay in the registry while the handler reads them
	// (Param, RouteVersion): a router that a program has dropped, as a
	// reload does, may be collected once nothing refers to it, and its
	// cleanup takes them out. Go keeps a receiver alive only until its
	// last use, so every return below that follows a handler has a
	// runtime.KeepAlive(r).
	t := r.current()
	if pre := t.cfg.pre; len(pre) > 0 {
		// The last hop of the middleware before routing calls
		// routeAfterMiddleware.
		pre[0].entry.ServeHTTP(w, req)
		runtime.KeepAlive(r)
		return
	}
	// Optimization: routing is written out here rather than called, and
	// the common cases (a static route, a route that serves the request
	// as it is) are served without a verdict. routeAfterMiddleware is the
	// general version, which decides every request with a verdict; the
	// differential test checks that the two answer alike.
	if req.RequestURI == "*" {
		r.serveAsterisk(t, w, req)
		runtime.KeepAlive(r)
		return
	}
	// miss is set when the static index is known to hold no route for
	// the request. A router with host patterns takes this path only for
	// requests whose host no host pattern can have.
	miss := false
	host := t.requestHost(req)
	if u := req.URL; u.RawPath == "" && t.hostLens&lenBit(len(host)) == 0 {
		if t.noHost.staticLens&lenBit(len(u.Path)) == 0 {
			miss = true
		} else {
			var rt *route
			if rt, miss = t.noHost.staticRoute(req.Method, u.Path); rt != nil && !rt.hasMount && len(t.cfg.post) == 0 {
				// Optimization: the most common request of all, for a
				// static route that no host pattern can take over, is
				// served without a query; see staticRoute. Its pattern
				// has no wildcard, so there are no path values to set.
				req.Pattern = rt.id.pat.str
				rt.entry().ServeHTTP(w, req)
				runtime.KeepAlive(r)
				return
			}
		}
	}
	var q query
	var rt *route
	if req.Method != http.MethodConnect {
		if p := req.URL.Path; miss && p != "" && p[0] == '/' {
			// Optimization: t.lookup, without its call, for a request that
			// no host pattern can take and the static index has no route
			// for (miss), whose path needs no unescaping (miss is set only
			// when RawPath is empty). The walk goes straight to the tree
			// of patterns without a host.
			q.method, q.verb, q.host, q.path, q.checkClean, q.staticMiss = req.Method, verbOf(req.Method), host, p, true, true
			q.req, q.versioning = req, t.cfg.versioning
			root := t.noHost.root
			var ok bool
			if rt, ok = root.walk(p, &q); !ok {
				rt = root.lookup(p, false, &q)
			}
		} else {
			rt = t.lookup(req, host, &q)
		}
		if rt != nil && !rt.multi && !q.unclean {
			// Optimization: the common case, a route that serves the
			// request as it is, is decided and served here, without a
			// verdict.
			if !rt.hasMount && len(t.cfg.post) == 0 {
				if q.varies {
					t.cfg.versioning.addVary(w.Header())
				}
				req.Pattern = rt.id.pat.str
				if rt.pathValues == settingOn || rt.pathValues == settingDefault && !r.noPathValues.Load() {
					setPathValues(req, rt.id.l, q.path, q.escaped)
				}
				rt.entry().ServeHTTP(w, req)
				runtime.KeepAlive(r)
				return
			}
			r.serveVerdict(t, w, req, &verdict{rt: rt}, &q)
			runtime.KeepAlive(r)
			return
		}
	}
	r.decideAndServe(t, w, req, rt, &q)
	runtime.KeepAlive(r)
}

// routeAfterMiddleware routes req with t and serves it, as ServeHTTP does,
// for the last hop of the middleware before routing.
func (r *Router) routeAfterMiddleware(t *table, w http.ResponseWriter, req *http.Request) {
	if req.RequestURI == "*" {
		r.serveAsterisk(t, w, req)
		return
	}
	var q query
	v := t.decide(req, &q)
	r.serveVerdict(t, w, req, &v, &q)
}

// serveAsterisk serves a request for "*" (OPTIONS * or another method),
// which ServeMux answers 400 without routing it: through the middleware
// after routing, which sees an empty r.Pattern, as for the router's other
// answers, and then with answerAsterisk.
func (r *Router) serveAsterisk(t *table, w http.ResponseWriter, req *http.Request) {
	v := verdict{kind: verdictAsterisk}
	var q query
	r.serveVerdict(t, w, req, &v, &q)
}

// answerAsterisk answers a request for "*" as net/http.ServeMux does.
func answerAsterisk(w http.ResponseWriter, req *http.Request) {
	if req.ProtoAtLeast(1, 1) {
		w.Header().Set("Connection", "close")
	}
	w.WriteHeader(http.StatusBadRequest)
}

// decideAndServe decides what to do with req, for which lookup found rt,
// described by q, when that is not simply to serve rt, and does it; for a
// CONNECT request, which lookup does not see, rt is nil and q empty.
func (r *Router) decideAndServe(t *table, w http.ResponseWriter, req *http.Request, rt *route, q *query) {
	var v verdict
	if req.Method == http.MethodConnect {
		v = t.decideConnect(req, q)
	} else {
		v = t.decideSlow(req, rt, q)
	}
	r.serveVerdict(t, w, req, &v, q)
}

// serveVerdict marks req with what the router decided for it, v, which q
// describes, and serves it: through the middleware after routing, then
// through the groups' middleware, and then the route or the answer. If
// q.varies is set, a version was considered, and the response's Vary
// header gets the header that chooses versions.
func (r *Router) serveVerdict(t *table, w http.ResponseWriter, req *http.Request, v *verdict, q *query) {
	if q.varies {
		t.cfg.versioning.addVary(w.Header())
	}
	orig := req
	if v.serveAs != "" {
		// SlashServe: a copy of the request with the other form's path.
		req = withPath(req, v.serveAs)
		q.path, q.escaped = requestPath(req.URL)
		q.req = req
	}
	var id *ident // the identity set as r.Pattern, if any
	switch v.kind {
	case verdictServe:
		rt := v.rt
		var through bool
		id, through = servedIdent(rt, req, q)
		req.Pattern = id.pat.str
		if !through {
			r.setPathValues(req, rt, q)
			break
		}
		// The full pattern's values, for the outer middleware.
		if r.populates(rt) {
			eachLayoutValue(req, id.l, func(name, value string) bool {
				req.SetPathValue(name, value)
				return true
			})
		}
	case verdictRedirect:
		req.Pattern = v.pattern
		if v.rt != nil {
			kind := identRedirect
			if v.slashOnly {
				kind = identSlashRedirect
			}
			req.Pattern = r.answerID(v.rt, kind).pat.str
		}
	case verdictReject:
		id = r.answerID(v.rt, identReject)
		req.Pattern = id.pat.str
		r.setPathValues(req, v.rt, q)
	case verdictAsterisk:
		req.Pattern = ""
	default:
		req.Pattern = ""
		if t.claims {
			// Below a group's prefix, r.Pattern is still "", but one that
			// Param reads the prefix's values from (see findClaim).
			if g := t.claimFor(q.host, q.path, q.escaped, &q.memo); g != nil && g.claimID != nil {
				req.Pattern = g.claimID.claimPattern()
			}
		}
	}
	if orig != req {
		// Middleware around the router reads the pattern of the request
		// it passed in, as with every other answer, and Param the values
		// the handler sees, from the path the client sent.
		orig.Pattern = ""
		if id != nil {
			orig.Pattern = r.otherFormID(id).pat.str
		}
	}
	if post := t.cfg.post; len(post) > 0 {
		post[0].entry.ServeHTTP(w, req)
		return
	}
	t.dispatch(w, req, v, q)
}

// setPathValues stores the values of rt's wildcards in req for
// [http.Request.PathValue], unless rt or r says not to.
func (r *Router) setPathValues(req *http.Request, rt *route, q *query) {
	if r.populates(rt) {
		setPathValues(req, rt.id.l, q.path, q.escaped)
	}
}

// populates reports whether rt populates path values.
func (r *Router) populates(rt *route) bool {
	return rt.pathValues == settingOn || rt.pathValues == settingDefault && !r.noPathValues.Load()
}

// withPath returns a shallow copy of req whose URL's path is the escaped
// path p.
func withPath(req *http.Request, p string) *http.Request {
	s := &strippedRequest{req: *req, url: *req.URL}
	s.req.URL = &s.url
	s.url.Path = pathUnescape(p)
	if s.url.RawPath != "" {
		s.url.RawPath = p
	}
	return &s.req
}

// Handler returns the handler to use for req and the pattern that matches
// it, as [http.ServeMux.Handler] does, without serving req or changing it.
// It consults req.Method, req.Host and req.URL as ServeHTTP does, but does
// not run the middleware of [Router.UseBeforeRouting].
//
// The handler serves req as ServeHTTP would once it has routed it: it sets
// req.Pattern and the path values, and runs the middleware of [Router.Use]
// and of the route's groups before the route's handler. It is never nil:
// for a request that no route serves, it gives the router's answer. The
// pattern is the one req.Pattern will hold: the matched pattern, the
// pattern of the path a redirect leads to, or "" (for 404 and 405).
//
// Allocation: none for a route that serves req as it is; a redirect
// allocates, as ServeMux's does.
func (r *Router) Handler(req *http.Request) (h http.Handler, pattern string) {
	t := r.current()
	var q query
	v := t.decide(req, &q)
	switch v.kind {
	case verdictServe:
		pattern = v.rt.id.pat.str
		if m := v.rt.mount(); m != nil && m.inner != nil {
			mq := q
			if v.serveAs != "" {
				mq.path, mq.escaped = v.serveAs, true
			}
			if id := m.through(req, &mq); id != nil {
				pattern = id.pat.str
			}
		}
		switch {
		case v.serveAs != "":
			return &verdictEntry{r: r, v: v, vary: q.varies}, pattern
		case q.varies:
			return (*varyRouteEntry)(v.rt), pattern
		}
		return (*routeEntry)(v.rt), pattern
	case verdictNone:
		if v.serveAs != "" || q.varies {
			return &verdictEntry{r: r, v: v, vary: q.varies}, ""
		}
	case verdictRedirect:
		pattern = v.pattern
		if v.rt != nil {
			pattern = v.rt.id.pat.str
		}
		return &verdictEntry{r: r, v: v, vary: q.varies}, pattern
	case verdictReject:
		return &verdictEntry{r: r, v: v, vary: q.varies}, v.rt.id.pat.str
	}
	return r.none, ""
}

// A routeEntry is a route as the handler that serves a request with it, as
// the router does once it has chosen the route: it is what
// [Router.Handler] returns for the route.
//
// Optimization: a route is its own handler, by conversion, so that a route
// costs no allocation for it.
type routeEntry route

// ServeHTTP serves req with e's route.
func (e *routeEntry) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	serveRoute((*route)(e), w, req, false)
}

// A varyRouteEntry is a routeEntry whose answer varies with the version a
// request asks for: it adds the Vary header of versions.
type varyRouteEntry route

// ServeHTTP serves req with e's route.
func (e *varyRouteEntry) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	serveRoute((*route)(e), w, req, true)
}

// serveRoute serves req with rt, adding the Vary header of versions if
// vary is set.
func serveRoute(rt *route, w http.ResponseWriter, req *http.Request, vary bool) {
	t := rt.router().current()
	var q query
	t.fillQuery(req, &q)
	q.varies = vary
	v := verdict{kind: verdictServe, rt: rt}
	r := rt.router()
	r.serveVerdict(t, w, req, &v, &q)
	// As in ServeHTTP: the router stays reachable until the handler
	// returns, since the caller may hold only this entry.
	runtime.KeepAlive(r)
}

// A verdictEntry serves a request as the router does once it has decided
// v: it is what [Router.Handler] returns when no route serves the request
// as it is.
type verdictEntry struct {
	r    *Router
	v    verdict
	vary bool // a version was considered: the answer varies with it
}

// ServeHTTP serves req as e's verdict says.
func (e *verdictEntry) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	t := e.r.current()
	var q query
	t.fillQuery(req, &q)
	q.varies = e.vary
	v := e.v
	e.r.serveVerdict(t, w, req, &v, &q)
	runtime.KeepAlive(e.r) // as in serveRoute
}

// fillQuery fills in q for req as a lookup would, without looking up.
func (t *table) fillQuery(req *http.Request, q *query) {
	p, escaped := requestPath(req.URL)
	host := ""
	if req.Method == http.MethodConnect {
		host = req.URL.Host
	} else if t.anyHost() {
		host = stripHostPort(req.Host)
	}
	*q = t.newQuery(req, host, p, escaped)
}

// Allowed returns the value of the Allow header that the router would send
// for req's path, such as "GET, HEAD, OPTIONS": the methods of the
// patterns that match the path, whatever req's method, or "" if none does
// (or only patterns without a method, which match every method, do). A
// pattern without a method that matches too (a Mount's, say) adds nothing:
// it serves the methods the list lacks, so the router sends the list in
// no answer for the path, unless the mounted handler is a Router, whose
// 405 and OPTIONS answers give its own routes' methods.
// A middleware that answers CORS preflight requests can read the methods
// from it; the router sets the Allow header of its 405 and OPTIONS answers
// only after the middleware has run, so that a middleware that refuses a
// request (with 401, say) does not tell which methods exist.
//
// Under [SlashServe], the path is the one the router would serve req as:
// /items/1/ stands for /items/1 when only that has routes. Under
// SlashRedirect and SlashServe, the list for a path that ends in a slash
// also has the methods of the path without it, which it stands for (as
// the 405 and OPTIONS answers' Allow has them).
//
// Allocation: none, once the router has answered with the same set of
// methods, unless the router has more than 63 methods (or, under
// SlashServe, the path it serves as holds escapes).
func (r *Router) Allowed(req *http.Request) string {
	t := r.current()
	var q query
	if t.cfg.slash == SlashServe && req.Method != http.MethodConnect {
		// As serveVerdict does, with the path that req is served as.
		if v := t.decide(req, &q); v.serveAs != "" {
			q.path = v.serveAs
			if !q.escaped {
				q.path = pathUnescape(v.serveAs)
			}
			return t.allowedValue(req, &q)
		}
	}
	t.fillQuery(req, &q)
	return t.allowedValue(req, &q)
}

// allowedValue returns the Allow value for the host and path of q, which
// describes req: from the routes of t's router, or from those of a Router
// mounted there.
func (t *table) allowedValue(req *http.Request, q *query) string {
	a := t.allowed(q.host, q.path, q.escaped, &q.memo)
	if a.set != 0 {
		return t.allowHeader(a, t.cfg.options != nil)[0]
	}
	if q.path == "" || q.path[0] != '/' {
		return ""
	}
	if rt := t.match(q.host, q.path, false, q); rt != nil {
		if m := rt.mount(); m != nil && m.inner != nil {
			it := m.inner.current()
			host := ""
			if it.anyHost() {
				host = stripHostPort(req.Host)
			}
			iq := it.newQuery(req, host, afterSegments(q.path, m.nsegs), q.escaped)
			return it.allowedValue(req, &iq)
		}
	}
	return ""
}
