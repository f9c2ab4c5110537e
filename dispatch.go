package cairn

// This file takes a routed request through the middleware of its groups to
// its answer: the route's handler, or the router's own answer (404, 405,
// automatic OPTIONS, 406 or a redirect).
//
// Which groups wrap a request depends on what routing decided. A route's
// groups are those it was registered through. For the router's own answers,
// they are the groups that claim the request's path: a group with
// middleware claims the paths below its prefix once a route is registered
// through it, and the most specific claim wins, as routes do (a literal
// segment before a constrained wildcard before a wildcard, at the first
// position where two prefixes differ). So with
//
//	api := r.Group("/api", cors)
//	admin := api.Group("/admin", auth)
//
// a request for DELETE /api/admin/users/1, where only GET routes exist,
// gets its 405 from behind cors and auth, and one for /api/nothing its 404
// from behind cors. The 405's Allow header (and a redirect's Location) is
// set just before the answer's handler runs, after the middleware: auth can
// refuse a stranger without the response telling which methods exist.
//
// The chains of the groups are built once (see compose.go); between them,
// a hop finds the next chain from the request alone: from r.Pattern, which
// identifies the route for a served request (see ident.go), or by deciding
// again, from the request, for the router's own answers, which are rare
// enough for that to be cheap overall.

import (
	"net/http"
	"strings"
)

// servedRoute returns the route that serves req, as its r.Pattern tells,
// or nil if r.Pattern names no route of t's router that serves it.
//
// Optimization: this is the common case of resolve, without a verdict or
// a query to fill.
func (t *table) servedRoute(req *http.Request) *route {
	if id := findIdent(req.Pattern); id != nil && (id.kind == identServe || id.kind == identThrough || id.kind == identOtherForm) {
		return t.routeOf(id)
	}
	return nil
}

// servedIdent returns the identity whose pattern routing sets as r.Pattern
// when rt serves req, which q describes: for a Router mounted by rt, that
// of the full pattern of its route that serves req (through is then set),
// and otherwise rt's own.
func servedIdent(rt *route, req *http.Request, q *query) (id *ident, through bool) {
	if m := rt.mount(); m != nil && m.inner != nil {
		if tid := m.through(req, q); tid != nil {
			return tid, true
		}
	}
	return rt.id, false
}

// routeOf returns the route of t whose identity of kind identServe,
// identThrough, identOtherForm or identReject id is, or nil if id is none
// of t's router: it may be another router's, or one of a route that t
// does not have yet.
//
// An identity does not name its router. It is t's if the route at its
// index is t's own and gave id for that answer: the route's own identity
// for identServe, one its mount made for identThrough or identOtherForm
// (its layout names the mount), and the one answerID made for
// identReject.
func (t *table) routeOf(id *ident) *route {
	if int(id.route) >= len(t.routes) {
		return nil
	}
	rt := t.routes[id.route]
	switch id.kind {
	case identServe:
		if rt.id == id {
			return rt
		}
	case identThrough, identOtherForm:
		// An identity of the other form that routeOf finds is one of a
		// mounted router's route served as the other form of its path
		// (see mounted.through); the others are set only on the request
		// a router was given, which it does not route again.
		if m := rt.mount(); m != nil && id.l.through == m.self {
			return rt
		}
	case identReject:
		if x, ok := rt.router().rejectIDs.Load(rt.id); ok && x.(*ident) == id {
			return rt
		}
	}
	return nil
}

// resolve returns what t's router decided for req, from its r.Pattern if
// that identifies a route that serves req (a request for "*" gets 400
// whatever its pattern), and otherwise by deciding again;
// q is filled in when the decision is made again. If the decision made
// again is to serve a route whose pattern r.Pattern does not hold, the
// request was changed after routing (by middleware) so that the router's
// decision no longer holds: the answer is then 404, rather than a route
// whose middleware may already have run. A
// middleware after routing that changes the path otherwise changes the
// router's own answers (they are worked out for the path as it finds it),
// never the route.
func (t *table) resolve(req *http.Request, q *query) verdict {
	if req.RequestURI == "*" {
		return verdict{kind: verdictAsterisk}
	}
	if id := findIdent(req.Pattern); id != nil {
		if rt := t.routeOf(id); rt != nil {
			if id.kind == identReject {
				t.fillQuery(req, q)
				return verdict{kind: verdictReject, rt: rt}
			}
			return verdict{kind: verdictServe, rt: rt}
		}
	} else if req.Pattern == "" && req.Method != http.MethodConnect {
		// Optimization: a clean path that routing left without a pattern
		// matched no route (a redirect of a clean path has the pattern of
		// its target, except one of the trailing-slash policy for a method
		// no route of the target has), so the answer is 404, 405 or
		// OPTIONS, which answer tells apart; unless a middleware changed
		// the path so that a route now serves it.
		if t.fillQuery(req, q); isClean(q.path) && (t.cfg.slash == SlashStrict || !strings.HasSuffix(q.path, "/")) {
			return verdict{kind: verdictNone, recheck: true}
		}
	}
	v := t.decide(req, q)
	if v.kind == verdictServe {
		if v.serveAs == "" {
			if id, _ := servedIdent(v.rt, req, q); req.Pattern == id.pat.str {
				// A middleware set r.Pattern to a string equal to the
				// one routing set, but not that string itself (a copy):
				// the decision holds. The router's string goes back, so
				// that the next hop and Param find the route from it.
				req.Pattern = id.pat.str
				return v
			}
		}
		return verdict{kind: verdictNotFound}
	}
	return v
}

// dispatch serves req, for which the router decided v, described by q:
// through the middleware of the groups that wrap it, then the answer.
func (t *table) dispatch(w http.ResponseWriter, req *http.Request, v *verdict, q *query) {
	if hops := t.hops(v, q); len(hops) > 0 {
		hops[0].entry.ServeHTTP(w, req)
		return
	}
	t.answer(w, req, v, q)
}

// hops returns the groups whose middleware wraps a request for which the
// router decided v, described by q, outermost first.
func (t *table) hops(v *verdict, q *query) []*groupNode {
	if v.kind == verdictServe {
		return v.rt.hops()
	}
	if !t.claims || v.kind == verdictAsterisk {
		return nil
	}
	host, p, escaped := q.host, q.path, q.escaped
	if v.kind == verdictRedirect {
		p, escaped = v.target, true
	}
	if g := t.claimFor(host, p, escaped, &q.memo); g != nil {
		return g.hops
	}
	return nil
}

// A groupHop ends the chain of a group's middleware: it passes the request
// on to the next group's chain, or to the answer.
type groupHop struct{ g *groupNode }

// ServeHTTP passes req on to what follows h's group.
func (h groupHop) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	t := h.g.r.current()
	if rt := t.servedRoute(req); rt != nil {
		if next := h.next(rt.hops()); next != nil {
			next.entry.ServeHTTP(w, req)
			return
		}
		rt.handler.ServeHTTP(w, req)
		return
	}
	var q query
	v := t.resolve(req, &q)
	if next := h.next(t.hops(&v, &q)); next != nil {
		next.entry.ServeHTTP(w, req)
		return
	}
	t.answer(w, req, &v, &q)
}

// next returns the group that follows h's in hops, or nil if h's group is
// the last (or, after a middleware changed the request, not there).
func (h groupHop) next(hops []*groupNode) *groupNode {
	for i, g := range hops {
		if g == h.g {
			if i+1 < len(hops) {
				return hops[i+1]
			}
			return nil
		}
	}
	return nil
}

// answer serves req as v says, with no more middleware: the route's
// handler, or the router's own answer.
func (t *table) answer(w http.ResponseWriter, req *http.Request, v *verdict, q *query) {
	cfg := t.cfg
	switch v.kind {
	case verdictServe:
		v.rt.handler.ServeHTTP(w, req)
	case verdictRedirect:
		w.Header()["Location"] = []string{v.location(req, cfg.relative)}
		cfg.redirect.ServeHTTP(w, req)
	case verdictReject:
		cfg.notAcceptable.ServeHTTP(w, req)
	case verdictNotFound:
		cfg.notFound.ServeHTTP(w, req)
	case verdictAsterisk:
		answerAsterisk(w, req)
	default:
		if v.recheck && t.match(q.host, q.path, false, q) != nil {
			// A middleware made the request routable: see resolve.
			cfg.notFound.ServeHTTP(w, req)
			return
		}
		allowed := t.allowed(q.host, q.path, q.escaped, &q.memo)
		if allowed.set == 0 {
			cfg.notFound.ServeHTTP(w, req)
			return
		}
		w.Header()["Allow"] = t.allowHeader(allowed, cfg.options != nil)
		if req.Method == http.MethodOptions && cfg.options != nil {
			cfg.options.ServeHTTP(w, req)
			return
		}
		cfg.notAllowed.ServeHTTP(w, req)
	}
}

// claimFor returns the group that claims the path p on host, or nil.
// Claims of host patterns come first, as routes do.
func (t *table) claimFor(host, p string, escaped bool, m *conMemo) *groupNode {
	if host != "" && t.anyHost() {
		if ht := t.hosts.get(host); ht != nil {
			if g := ht.root.claimFor(p, escaped, m); g != nil {
				return g
			}
		}
	}
	return t.noHost.root.claimFor(p, escaped, m)
}

// claimFor returns the most specific claim of n and the nodes below it for
// the path p, or nil: the claim of the deepest node that a path's prefix
// leads to, trying literal children first, then constrained wildcards, then
// the wildcard, as a lookup does.
func (n *lookupNode) claimFor(p string, escaped bool, m *conMemo) *groupNode {
	if !n.claims() {
		return nil
	}
	if p == "" || p == "/" {
		return n.claim()
	}
	seg, rest := nextSegment(p)
	raw := seg
	if escaped {
		seg = pathUnescape(seg)
	}
	if c := n.child(seg); c != nil {
		if g := c.claimFor(rest, escaped, m); g != nil {
			return g
		}
	}
	for _, c := range n.constrained() {
		if m.match(c.con, raw, seg) {
			if g := c.node.claimFor(rest, escaped, m); g != nil {
				return g
			}
		}
	}
	if n.wild != nil {
		if g := n.wild.claimFor(rest, escaped, m); g != nil {
			return g
		}
	}
	return n.claim()
}
