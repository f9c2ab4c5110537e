package cairn

// This file holds composition: middleware before and after routing,
// groups and per-route middleware.
//
// Every middleware is constructed once: a Use or UseBeforeRouting call
// builds its middleware around a small "hop" handler, and so does a group
// (or With) that has middleware. Requests pass from chain to chain through
// the hops, which find the next chain from what routing left in the
// request, r.Pattern (see ident.go), so composition allocates nothing per
// request. Given
//
//	r.UseBeforeRouting(p)
//	r.Use(m)
//	api := r.Group("/api", g)
//	api.With(w).HandleFunc("GET /users/{id}", h)
//
// a request for /api/users/7 runs p, then routing, which sets r.Pattern to
// "GET /api/users/{id}", then m, then g, then w, then h:
//
//	p -> hop -> routing -> m -> hop -> g -> hop -> w -> hop -> h
//
// The router's own answers (404, 405, automatic OPTIONS, 406, redirects)
// run m too, and g as well for the paths below /api: a group that has
// middleware claims the paths below its prefix (see dispatch.go).

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// A Middleware wraps a handler in another, in the form net/http code has
// always used, so that existing middleware works unchanged.
type Middleware = func(http.Handler) http.Handler

// Use adds middleware that runs after routing, for every request the router
// answers: matched routes, 404, 405, automatic OPTIONS, 406, redirects,
// and the 400 for a request for "*" (OPTIONS * and the like).
// It sees r.Pattern (the matched pattern, or "" when no route matched), and
// [Param] and [RouteVersion] work in it. The middleware of successive calls
// runs in the order of the calls, each call's in the order given, outermost
// first, and all of it outside the middleware of groups.
//
// Each middleware function is called once, by Use, so a middleware that
// keeps state (a rate limiter, a counter) has one instance for the whole
// router. Use may be called at any time, before or after routes are
// registered; it applies to every route. It panics if a middleware is nil,
// and changes nothing if a middleware's constructor panics.
//
// Middleware that must change what routing sees, such as one that rewrites
// the path or the method, belongs in [Router.UseBeforeRouting].
func (r *Router) Use(mw ...Middleware) {
	r.addLevel(false, mw)
}

// UseBeforeRouting adds middleware that runs before routing, for every
// request the router gets; the router routes the request this middleware
// passes on, so rewrites of its path, method or host take effect (a
// method override, a trailing-slash strip, a prefix rewrite). r.Pattern
// and [Param] do not yet describe the request in it. It runs outside the
// middleware of [Router.Use], in the order of the calls; each middleware
// function is called once, by UseBeforeRouting.
func (r *Router) UseBeforeRouting(mw ...Middleware) {
	r.addLevel(true, mw)
}

// A level is the chain of one Use or UseBeforeRouting call.
type level struct {
	entry http.Handler // the call's middleware around hop
	hop   *levelHop
}

// A levelHop ends the chain of a level: it passes the request on to the
// next level, or to routing after the last level before routing, or to the
// groups and the answer after the last level after routing.
type levelHop struct {
	r   *Router
	pre bool // a level of UseBeforeRouting
}

// addLevel adds a level of middleware mw, before routing if pre is set.
func (r *Router) addLevel(pre bool, mw []Middleware) {
	if len(mw) == 0 {
		return
	}
	if hasNil(mw) {
		panic(errNilMiddleware)
	}
	// The constructors run without the lock: they may call the router.
	hop := &levelHop{r: r, pre: pre}
	l := level{entry: chain(mw, hop), hop: hop}
	r.configure(func(cfg *config) {
		if pre {
			cfg.pre = append(slices.Clip(cfg.pre), l)
		} else {
			cfg.post = append(slices.Clip(cfg.post), l)
		}
	})
}

// ServeHTTP passes req on to what follows h's level.
func (h *levelHop) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	t := h.r.current()
	levels := t.cfg.post
	if h.pre {
		levels = t.cfg.pre
	}
	for i := range levels {
		if levels[i].hop == h {
			if i+1 < len(levels) {
				levels[i+1].entry.ServeHTTP(w, req)
				return
			}
			break
		}
	}
	if h.pre {
		h.r.routeAfterMiddleware(t, w, req)
		return
	}
	if rt := t.servedRoute(req); rt != nil {
		rt.entry().ServeHTTP(w, req)
		return
	}
	var q query
	v := t.resolve(req, &q)
	t.dispatch(w, req, &v, &q)
}

// hasNil reports whether some middleware of mw is nil.
func hasNil(mw []Middleware) bool {
	for _, m := range mw {
		if m == nil {
			return true
		}
	}
	return false
}

// chain returns h wrapped by mw, mw[0] outermost. It panics if a
// middleware returns a nil handler.
func chain(mw []Middleware, h http.Handler) http.Handler {
	for i := len(mw) - 1; i >= 0; i-- {
		if h = mw[i](h); isNil(h) {
			panic(fmt.Errorf("cairn: middleware %d of %d returned a nil handler", i+1, len(mw)))
		}
	}
	return h
}

// A Group registers routes into its Router under a common prefix, with
// common middleware, and optionally a version, a name or a path-value
// setting. Groups are values derived from a Router or from another group;
// deriving never changes the parent. The routes a group registers live in
// the router's one tree, with the same precedence and conflict rules as any
// other route.
type Group struct {
	r          *Router
	node       *groupNode // the innermost node with middleware or a claim; nil if none
	host       string     // "" for any host
	path       string     // path prefix, "" or starting with '/' and not ending in one
	version    string
	name       string
	pathValues setting
}

// A groupNode is the middleware of a group, constructed once. A node made
// by Group with a prefix claims the paths below it, so that the router's
// own answers for them run the node's middleware too.
type groupNode struct {
	r      *Router
	parent *groupNode
	// hops are the nodes whose middleware wraps the routes registered
	// through this one, outermost first: the hops of the parent, and this
	// node if it has middleware of its own.
	hops  []*groupNode
	entry http.Handler // the node's middleware around its hop; nil if it has none
	count int          // the number of middleware in the node's own chain

	// prefix is, for a node that claims, the prefix as a pattern
	// ("HOST/PATH/"); nil otherwise. claimed is set, under r.mu, once the
	// claim is in the router's trees, which happens when the first route
	// is registered through the node.
	prefix  *pattern
	claimed bool
	// claimID is, for a node that claims and whose prefix has wildcards,
	// the identity that the router's own answers below the prefix point
	// r.Pattern at (see identTable.findClaim), so that Param reads the
	// prefix's values; nil otherwise. Set with claimed.
	claimID *ident
	loc     location // where the group was made
}

// Group returns a group whose patterns are prefixed with prefix and whose
// routes are wrapped in mw, inside the router's own middleware.
//
// The prefix is [HOST][/PATH], with no method: "/v1", "api.example.com",
// "api.example.com/v1" or "/orgs/{org}". A pattern registered in the
// group keeps its method, and the prefix goes between the method and the
// path, so "GET /users/{id}" in the group "/v1" is "GET /v1/users/{id}",
// and that is what r.Pattern holds. A trailing slash of the prefix is
// dropped.
//
// Each middleware function is called once, by Group. Once a route is
// registered through a group that has middleware (its own or inherited),
// the group covers the paths below its prefix: the router's own answers for
// them (404, 405, automatic OPTIONS, 406 and redirects) run the group's
// middleware too, so an authentication middleware answers a stranger's
// request for /admin/anything before the router tells which routes exist.
// In those answers r.Pattern is "", and [Param] reads the values of the
// prefix's wildcards.
// Two groups with different middleware may not cover the same prefix;
// registering through the second panics.
//
// Group panics with an error if the prefix is malformed (a method or
// blanks, braces in the host, a {$} or {name...} wildcard, or what
// [Router.Handle] rejects in a pattern) or a middleware is nil.
func (r *Router) Group(prefix string, mw ...Middleware) *Group {
	return (&Group{r: r}).group(prefix, mw, callerLocation())
}

// With returns a group with no prefix whose routes are wrapped in mw:
// per-route middleware, as in r.With(auth).HandleFunc("POST /admin", h).
// Each middleware function is called once, by With; reuse the group for
// several routes to share one instance.
func (r *Router) With(mw ...Middleware) *Group { return (&Group{r: r}).With(mw...) }

// Version returns a group whose routes are registered for version v; see
// the package documentation on versions.
func (r *Router) Version(v string) *Group { return (&Group{r: r}).Version(v) }

// Named returns a group whose routes are registered with the given name,
// for reverse routing with [Router.Path]; see [Group.Named].
func (r *Router) Named(name string) *Group { return (&Group{r: r}).Named(name) }

// Group returns a group nested in g: its prefix follows g's and its
// middleware runs inside g's. See [Router.Group].
func (g *Group) Group(prefix string, mw ...Middleware) *Group {
	return g.group(prefix, mw, callerLocation())
}

// group is Group, made at loc.
func (g *Group) group(prefix string, mw []Middleware, loc location) *Group {
	if hasNil(mw) {
		panic(errNilMiddleware)
	}
	host, path := splitPrefix(prefix)
	if host != "" && g.host != "" {
		panic(fmt.Errorf("cairn: group prefix %q has a host, and so has its parent group (%q)", prefix, g.host))
	}
	ng := *g
	if host != "" {
		ng.host = host
	}
	ng.path = g.path + path
	pat := g.r.parsePrefix(ng.host, ng.path, prefix)
	inherited := g.node != nil && len(g.node.hops) > 0
	if len(mw) > 0 || inherited && (host != "" || path != "") {
		n := g.node.derive(g.r, mw, loc)
		if host != "" || path != "" {
			n.prefix = pat
		}
		ng.node = n
	}
	return &ng
}

// parsePrefix parses the prefix made of host and path as the pattern
// "HOST/PATH/", with r's constraints, and panics with an error that names
// prefix, as the caller wrote it, if it is malformed.
func (r *Router) parsePrefix(host, path, prefix string) *pattern {
	r.mu.Lock()
	defer r.mu.Unlock()
	p, err := parsePattern(host+path+"/", r.constraints.lookup)
	if err != nil {
		// The error is about the prefix as written, not with the slash
		// added, if parsing it alone fails too. A {$} or {name...} at its
		// end fails only for the slash after it: say so. (A literal "/" is
		// not {$}: the prefix wrote %2F.)
		alone, aloneErr := parsePattern(host+path, r.constraints.lookup)
		if aloneErr != nil {
			err = aloneErr
		} else if last := alone.lastSegment(); path != "" && (last.kind() == segMulti && last.named() || last.kind() == segLiteral && last.s == "/") {
			panic(fmt.Errorf("cairn: prefix %q ends in %s: a prefix is followed by the paths of its routes, so it may not end in {$} or {name...}",
				prefix, path[strings.LastIndexByte(path, '/')+1:]))
		}
		panic(fmt.Errorf("cairn: prefix %q: %w", prefix, err))
	}
	return p
}

// derive returns a node whose parent is n (which may be nil), with middleware
// mw constructed now, made at loc.
func (n *groupNode) derive(r *Router, mw []Middleware, loc location) *groupNode {
	nn := &groupNode{r: r, parent: n, loc: loc}
	if n != nil {
		nn.hops = slices.Clip(n.hops)
	}
	if len(mw) > 0 {
		nn.hops = append(nn.hops, nn)
		nn.entry = chain(mw, groupHop{nn})
		nn.count = len(mw)
	}
	return nn
}

// With returns a group with g's prefix, version and name whose routes are
// wrapped in g's middleware and then mw. Each middleware function is called
// once, by With.
func (g *Group) With(mw ...Middleware) *Group {
	if hasNil(mw) {
		panic(errNilMiddleware)
	}
	ng := *g
	if len(mw) > 0 {
		ng.node = g.node.derive(g.r, mw, callerLocation())
	}
	return &ng
}

// Version returns a group like g whose routes are registered for version v
// (e.g. "v2"), which must be a non-empty sequence of letters, digits, '.',
// '-' and '_'.
func (g *Group) Version(v string) *Group {
	if !isVersion(v) {
		panic(fmt.Errorf("cairn: invalid version %q: want letters, digits, '.', '-' or '_'", v))
	}
	ng := *g
	ng.version = v
	return &ng
}

// Named returns a group like g whose routes are registered with the given
// name, so that [Router.Path] can build their paths by name. A name belongs
// to one pattern: registering another pattern with a name already given
// panics (the versions of one pattern may share it). A name is not empty
// and holds no '/' or blanks, so that it is never taken for a pattern.
func (g *Group) Named(name string) *Group {
	if name == "" || strings.ContainsAny(name, "/ \t") {
		panic(fmt.Errorf("cairn: invalid route name %q: want a non-empty name without '/' or blanks", name))
	}
	ng := *g
	ng.name = name
	return &ng
}

// PopulatePathValues returns a group like g whose routes populate
// [http.Request.PathValue] if enabled is set, and do not otherwise, whatever
// the router's [Router.PopulatePathValues] says. It lets a router that has
// path values off (so that its lookups allocate nothing) turn them on only
// where a handler needs them, such as a library that reads r.PathValue.
func (g *Group) PopulatePathValues(enabled bool) *Group {
	ng := *g
	ng.pathValues = settingOff
	if enabled {
		ng.pathValues = settingOn
	}
	return &ng
}

// Handle registers h for pattern, prefixed and wrapped as the group says.
// It panics as [Router.Handle] does.
//
//go:noinline
func (g *Group) Handle(pattern string, h http.Handler) {
	g.register(pattern, h, locationOf(callerPC())) // see callerPC
}

// HandleFunc registers f for pattern, as [Group.Handle] does.
//
//go:noinline
func (g *Group) HandleFunc(pattern string, f func(http.ResponseWriter, *http.Request)) {
	g.register(pattern, http.HandlerFunc(f), locationOf(callerPC())) // see callerPC
}

// register registers h for pattern in the group.
func (g *Group) register(pattern string, h http.Handler, loc location) {
	full, err := g.pattern(pattern)
	if err != nil {
		panic(err)
	}
	g.r.register(full, h, g, loc)
}

// pattern returns the full pattern for pattern registered in g.
func (g *Group) pattern(pattern string) (string, error) {
	if g.host == "" && g.path == "" {
		return pattern, nil
	}
	// The path starts at the first '/', and the host, if any, follows the
	// last blank before it.
	i := strings.IndexByte(pattern, '/')
	if i < 0 {
		// Let the parser report it, with the full pattern.
		return pattern, nil
	}
	j := strings.LastIndexAny(pattern[:i], " \t") + 1
	method, host, path := pattern[:j], pattern[j:i], pattern[i:]
	if host != "" && g.host != "" {
		return "", fmt.Errorf("cairn: pattern %q has a host, and so has its group (%q)", pattern, g.host)
	}
	if host == "" {
		host = g.host
	}
	return method + host + g.path + path, nil
}

// splitPrefix splits a group or mount prefix into its host and its path,
// without a trailing slash. It panics if the prefix is malformed, and if a
// prefix without '/' does not look like a host name: "v1" is more likely a
// path missing its '/' than the host v1 (which "v1/" names).
func splitPrefix(prefix string) (host, path string) {
	if strings.ContainsAny(prefix, " \t") {
		panic(fmt.Errorf("cairn: prefix %q: a prefix has no method or blanks", prefix))
	}
	host, path = prefix, ""
	if i := strings.IndexByte(prefix, '/'); i >= 0 {
		host, path = prefix[:i], prefix[i:]
	} else if prefix != "" && prefix != "localhost" && !strings.ContainsAny(prefix, ".:[") {
		panic(fmt.Errorf("cairn: prefix %q has no '/': write %q for a path, or %q for the host %s", prefix, "/"+prefix, prefix+"/", prefix))
	}
	if strings.ContainsAny(host, "{}") {
		panic(fmt.Errorf("cairn: prefix %q: host contains a brace (missing initial '/'?)", prefix))
	}
	return host, strings.TrimSuffix(path, "/")
}

// checkClaims returns the nodes from n up whose claims are not yet in r's
// trees, or an error if another group claims the same prefix; r.mu is
// held.
func (r *Router) checkClaims(n *groupNode) ([]*groupNode, error) {
	var claims []*groupNode
	for ; n != nil; n = n.parent {
		if n.prefix == nil || n.claimed {
			continue
		}
		segs := n.prefix.segments()
		segs = segs[:len(segs)-1]
		if other := r.tab.root(n.prefix.host()).find(segs); other != nil && other.claim() != nil && other.claim() != n {
			if slices.Equal(other.claim().hops, n.hops) {
				// The same middleware, as for two groups "/v1" made from
				// one group with middleware: the claim stands for both.
				continue
			}
			return nil, fmt.Errorf("cairn: group %q (made at %s) and group %q (made at %s) both have middleware for the paths below their prefix: "+
				"register their routes through one group", claimLabel(n), n.loc, claimLabel(other.claim()), other.claim().loc)
		}
		claims = append(claims, n)
	}
	return claims, nil
}

// claimLabel returns the prefix that n claims, as written.
func claimLabel(n *groupNode) string {
	return strings.TrimSuffix(n.prefix.str, "/")
}

// addClaim puts the claim of n into r's trees and c's table; r.mu is held.
func (r *Router) addClaim(c *change, n *groupNode) {
	n.claimed = true
	if n.prefix.wildcards() > 0 {
		// No route: the index is none that a router can have (see
		// table.routeOf), and a claim identity is never a route's.
		n.claimID = newIdent(n.prefix.str, r.layoutOf(n.prefix, ""), -1, identClaim)
		r.addIdents(nil, false, n.claimID)
	}
	segs := n.prefix.segments()
	c.addClaim(n.prefix.host(), segs[:len(segs)-1], n)
}
