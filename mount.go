package cairn

// This file holds Mount, which hands a subtree of paths to another handler
// with the subtree's prefix stripped.
//
// Mount("/orgs/{org}", h) registers the subtree pattern "/orgs/{org}/".
// For a request for /orgs/acme/repos/x it calls h with a copy of the
// request whose path is /repos/x: the prefix has two segments, so the
// first two segments of the path are cut, whatever they hold. The value
// of {org} stays readable with [Param] and [http.Request.PathValue] in h.
//
// A mounted Router stays part of the router it is mounted in. While routing
// a request for the mount, the outer router looks the rest of the path up
// in the mounted Router too, so that r.Pattern tells the outer middleware
// the full pattern, "GET /orgs/{org}/repos/{repo}" rather than
// "/orgs/{org}/"; each such full pattern is an identity of the mount's
// route (see ident.go), made the first time a request needs it. Routes,
// WriteTree and Path see through the mount too. The mounted Router then
// routes the stripped request itself, as it would alone, and its redirects
// are relative to the client's path (see verdict.location), so that they
// keep the prefix.

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"weak"
)

// Mount hands every request whose path is in the subtree prefix to h, with
// the prefix stripped from the path, as [http.StripPrefix] does: with
// Mount("/api", h), h sees /api/users as /users and /api/ as /. h may be
// another [Router], whose own middleware and answers then apply; its
// routes are listed by [Router.Routes] and [Router.WriteTree] with their
// full patterns, [Router.Path] builds their paths, and the middleware of
// the outer router sees their full pattern in r.Pattern, as in
// "GET /api/users/{id}".
//
// The prefix is [HOST]/PATH with no method and no trailing slash needed;
// it may hold wildcards, whose values h reads with [Param] or
// [http.Request.PathValue]. Mount registers the pattern PATH + "/", with
// the usual precedence: the router's more specific routes win, and a
// request for the prefix itself is redirected to PATH + "/". Mount panics
// as [Router.Handle] does, and if h is a Router that r is mounted in,
// directly or not.
//
// The copy is shallow, as http.StripPrefix's is: it shares the request's
// header, body and context. If the request already holds path values when
// the mount passes it on, as it does when the prefix has wildcards and r
// populates path values, the copy shares their storage too, so values
// that h stores with SetPathValue (as a Router with path values on does)
// are also seen by middleware that reads r.PathValue after h returns;
// otherwise the values h stores are the copy's alone. [Param] is not
// affected.
//
// Allocation: one copy of the request; and if the prefix has wildcards and
// the route does not populate path values, the map that holds them (two
// more).
func (r *Router) Mount(prefix string, h http.Handler) {
	(&Group{r: r}).mount(prefix, h, callerLocation())
}

// Mount mounts h under the group's prefix followed by prefix, behind the
// group's middleware; see [Router.Mount].
func (g *Group) Mount(prefix string, h http.Handler) {
	g.mount(prefix, h, callerLocation())
}

// mountGraph serializes the mounts of Routers, so that two of them cannot
// make a cycle together.
var mountGraph sync.Mutex

// mount registers h under prefix in g.
func (g *Group) mount(prefix string, h http.Handler, loc location) {
	if isNil(h) {
		panic(fmt.Errorf("cairn: nil handler mounted at %q", prefix))
	}
	host, path := splitPrefix(prefix)
	if host != "" && g.host != "" {
		panic(fmt.Errorf("cairn: mount prefix %q has a host, and so has its group (%q)", prefix, g.host))
	}
	if host == "" {
		host = g.host
	}
	m := &mounted{h: h}
	full := host + g.path + path + "/"
	pat := g.r.parsePrefix(host, g.path+path, prefix)
	if inner, ok := h.(*Router); ok {
		m.inner = inner
		mountGraph.Lock()
		defer mountGraph.Unlock()
		if inner == g.r || inner.mountsRouter(g.r) {
			panic(fmt.Errorf("cairn: mounting a router at %q would make a cycle: the router is mounted in it", prefix))
		}
		var names []string
		for _, s := range pat.segments() {
			if s.kind() == segWild {
				names = append(names, s.s)
			}
		}
		undo := inner.markMounted(pat, names)
		registered := false
		defer func() {
			if !registered {
				undo()
			}
		}()
		g.r.registerMount(full, m, g, loc, m)
		registered = true
		return
	}
	g.r.registerMount(full, m, g, loc, m)
}

// mountsRouter reports whether r mounts target, directly or not.
func (r *Router) mountsRouter(target *Router) bool {
	r.mu.Lock()
	mounts := r.mounts
	r.mu.Unlock()
	for _, m := range mounts {
		if m.inner == target || m.inner.mountsRouter(target) {
			return true
		}
	}
	return false
}

// mounted is the handler of a mount's route.
type mounted struct {
	h     http.Handler
	inner *Router // h, if it is a Router

	// Set when the route is added, from its parsed pattern.
	r        *Router
	route    *route
	nsegs    int     // segments in the prefix
	prefix   *layout // where the prefix's wildcards are
	stripped *ident  // r.Pattern of the requests passed on to h

	// throughIDs holds the identities of the full patterns of the inner
	// router's routes, by the identity that the inner router gives them;
	// mu serializes their making. Their layouts name m by self, a weak
	// pointer made once, which routeOf compares without making another.
	mu         sync.Mutex
	throughIDs sync.Map // *ident to *ident
	self       weak.Pointer[mounted]
}

// attach sets up m for its route rt in r, whose identity is id; r's lock
// is held.
func (m *mounted) attach(r *Router, rt *route, id *ident) {
	p := &rt.id.pat
	m.r, m.route, m.self = r, rt, weak.Make(m)
	// The pattern is the prefix followed by a multi wildcard.
	m.nsegs = p.numSegments() - 1
	m.prefix = id.l
	// The values of the stripped pattern are path values: its layout
	// lists the wildcards of the prefix, which the multi does not add to.
	l := &layout{vars: m.prefix.vars, version: rt.version(), asPathValues: true}
	m.stripped = newIdent(p.str, l, rt.index(), identStripped)
}

// strippedRequest is a request and its URL, allocated together.
type strippedRequest struct {
	req http.Request
	url url.URL
}

// ServeHTTP calls m.h with a copy of req whose path lacks the prefix.
func (m *mounted) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	s := &strippedRequest{req: *req, url: *req.URL}
	s.req.URL = &s.url
	for _, pv := range m.prefix.vars {
		if v := Param(req, pv.name); req.PathValue(pv.name) != v {
			s.req.SetPathValue(pv.name, v)
		}
	}
	stripSegments(&s.url, m.nsegs)
	// Param on the stripped request reads path values.
	s.req.Pattern = m.stripped.pat.str
	m.h.ServeHTTP(w, &s.req)
}

// through returns the identity of the full pattern of the inner router's
// route that serves req, which q describes, or nil if the inner router
// would not serve it with a route (it would redirect it, say) or has
// middleware before routing, which may change the route. It is the
// identity the outer router sets as r.Pattern.
//
// Allocation: none, once a request has been served with the route.
func (m *mounted) through(req *http.Request, q *query) *ident {
	if req.Method == http.MethodConnect {
		return nil
	}
	t := m.inner.current()
	if len(t.cfg.pre) > 0 {
		// Its middleware before routing may change the route.
		return nil
	}
	p := afterSegments(q.path, m.nsegs)
	host := ""
	if t.anyHost() {
		host = stripHostPort(req.Host)
	}
	iq := t.newQuery(req, host, p, q.escaped)
	rt := t.match(host, p, false, &iq)
	otherForm := false
	if rt == nil || rt.multi && !rt.exact(p, false) {
		// As decideSlow decides, for the route that serves the path with
		// a slash added or removed: the inner router redirects to it, or
		// under SlashServe serves it.
		rejected := iq.rejected
		srt, versionless := slashTargetAnyVersion(t, host, p, &iq)
		if srt == nil && rt == nil && rejected == nil && t.cfg.slash == SlashServe {
			srt = shortTarget(t, req, host, p, q.escaped)
		}
		switch {
		case srt != nil && (t.cfg.slash != SlashServe || versionless):
			// A redirect, or a 406 for the other form.
			return nil
		case srt != nil:
			rt, otherForm = srt, true
		case rt == nil:
			return nil
		}
	}
	id := rt.id
	if im := rt.mount(); im != nil && im.inner != nil && !otherForm {
		if tid := im.through(req, &iq); tid != nil {
			id = tid
		}
	}
	tid := m.throughFor(id)
	if otherForm {
		// The path has a slash more or less than the pattern.
		return m.r.otherFormID(tid)
	}
	return tid
}

// shortTarget returns the route of t that takes req, a request for the
// path p, which ends in a slash, once the slash is removed, or nil.
func shortTarget(t *table, req *http.Request, host, p string, escaped bool) *route {
	if len(p) < 2 || p[len(p)-1] != '/' {
		return nil
	}
	short := p[:len(p)-1]
	sq := t.newQuery(req, host, short, escaped)
	if rt := t.match(host, short, false, &sq); rt != nil && rt.exact(short, false) {
		return rt
	}
	return nil
}

// throughFor returns the identity of the full pattern of the inner
// router's route whose identity is id, making it if needed.
func (m *mounted) throughFor(id *ident) *ident {
	if tid, ok := m.throughIDs.Load(id); ok {
		return tid.(*ident)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if tid, ok := m.throughIDs.Load(id); ok {
		return tid.(*ident)
	}
	full := joinMounted(&m.route.id.pat, id.pat.str)
	l := mountedLayout(m.prefix, m.nsegs, id.l)
	l.through = m.self
	tid := newIdent(full, l, m.route.index(), identThrough)
	m.r.addIdents(nil, false, tid)
	m.throughIDs.Store(id, tid)
	return tid
}

// joinMounted returns the full pattern of the pattern inner of a router
// mounted by the mount pattern mount: inner's method, the mount's host (or
// inner's), the mount's prefix, and inner's path. For the mount
// "/orgs/{org}/" and "GET /repos/{repo}", it is
// "GET /orgs/{org}/repos/{repo}".
func joinMounted(mount *pattern, inner string) string {
	i := strings.IndexByte(inner, '/')
	j := strings.LastIndexAny(inner[:i], " \t") + 1
	method, host, path := strings.TrimRight(inner[:j], " \t"), inner[j:i], inner[i:]
	if mount.host() != "" {
		host = mount.host()
	}
	full := host + strings.TrimSuffix(mount.path(), "/") + path
	if method != "" {
		full = method + " " + full
	}
	return full
}

// stripSegments removes the first n segments of u's path, leaving "/" if
// nothing is left. Segments are counted in the escaped path, so an escaped
// slash in a value does not count.
func stripSegments(u *url.URL, n int) {
	if u.RawPath == "" {
		u.Path = afterSegments(u.Path, n)
		return
	}
	raw := afterSegments(u.EscapedPath(), n)
	p, err := url.PathUnescape(raw)
	if err != nil {
		// EscapedPath returns a valid encoding; this cannot happen.
		p = afterSegments(u.Path, n)
	}
	u.Path, u.RawPath = p, raw
}

// afterSegments returns what follows the first n segments of the path p,
// or "/" if nothing does: for "/a/b/c" and 2, "/c".
func afterSegments(p string, n int) string {
	i := 0
	for ; n > 0 && i < len(p); n-- {
		j := strings.IndexByte(p[i+1:], '/')
		if j < 0 {
			return "/"
		}
		i += 1 + j
	}
	if i >= len(p) {
		return "/"
	}
	return p[i:]
}
