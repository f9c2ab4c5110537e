package cairn

// This file holds composition: router-level middleware, groups and
// per-route middleware.
//
// Every route's handler chain is built once, when the route is registered:
// a route registered through a group "/v1" with middleware g1, g2, under a
// router with middleware m1, m2, gets the handler m1(m2(g1(g2(h)))). The
// router-level chain also wraps the handlers that answer when no route
// does (404, 405, automatic OPTIONS, redirects, 406); those chains are
// built when the routing table is compiled. Serving a request therefore
// calls one prebuilt http.Handler and allocates nothing for composition.

import (
	"fmt"
	"net/http"
	"strings"
)

// A Middleware wraps a handler in another, in the form net/http code has
// always used, so that existing middleware works unchanged.
type Middleware = func(http.Handler) http.Handler

// Use appends router-level middleware. It runs, in the order given and
// outermost first, for every request the router answers: matched routes,
// 404, 405, automatic OPTIONS, 406 and redirects (but not the 400 answer
// to a request for "*", which ServeMux gives too). It runs after the route
// is found, so it sees r.Pattern and [Param] (r.Pattern is "" when no route
// matched).
//
// Chains are built when routes are registered, so a middleware function is
// called once for each route and for each of the answers above (again only
// if a concurrent registration or change intervened), not per request; it
// should not do one-time setup, and it may call the router. For the same
// reason, Use panics if a route has already been registered.
func (r *Router) Use(mw ...Middleware) {
	for _, m := range mw {
		if m == nil {
			panic("cairn: nil middleware")
		}
	}
	r.configure(func(s *settings) error {
		if r.seq > 0 {
			return fmt.Errorf("cairn: Use after %d route(s) were registered: router-level middleware must come before the routes", r.seq)
		}
		s.mw = append(s.mw, mw...)
		return nil
	})
}

// chain returns h wrapped by mw, mw[0] outermost.
func chain(mw []Middleware, h http.Handler) http.Handler {
	for i := len(mw) - 1; i >= 0; i-- {
		h = mw[i](h)
	}
	return h
}

// A Group registers routes into its Router under a common prefix, with
// common middleware and, optionally, a version. Groups are values derived
// from a Router or from another group; deriving never changes the parent.
// The routes a group registers live in the router's one tree, with the same
// precedence and conflict rules as any other route.
type Group struct {
	r       *Router
	host    string       // "" for any host
	path    string       // path prefix, "" or starting with '/' and not ending in one
	mw      []Middleware // outermost first
	version string
}

// Group returns a group whose patterns are prefixed with prefix and whose
// routes are wrapped in mw, innermost to the router's own middleware.
//
// The prefix is [HOST][/PATH], with no method: "/v1", "api.example.com",
// "api.example.com/v1" or "/orgs/{org}". A pattern registered in the
// group keeps its method, and the prefix goes between the method and the
// path, so "GET /users/{id}" in the group "/v1" is "GET /v1/users/{id}",
// and that is what r.Pattern holds. A trailing slash of the prefix is
// dropped. Group panics if the prefix has a method or blanks.
func (r *Router) Group(prefix string, mw ...Middleware) *Group {
	return (&Group{r: r}).Group(prefix, mw...)
}

// With returns a group with no prefix whose routes are wrapped in mw:
// per-route middleware, as in r.With(auth).HandleFunc("POST /admin", h).
func (r *Router) With(mw ...Middleware) *Group { return (&Group{r: r}).With(mw...) }

// Version returns a group whose routes are registered for version v; see
// the package documentation on versions.
func (r *Router) Version(v string) *Group { return (&Group{r: r}).Version(v) }

// Group returns a group nested in g: its prefix follows g's and its
// middleware runs inside g's.
func (g *Group) Group(prefix string, mw ...Middleware) *Group {
	host, path := splitPrefix(prefix)
	if host != "" && g.host != "" {
		panic(fmt.Errorf("cairn: group prefix %q has a host, and so has its parent group (%q)", prefix, g.host))
	}
	ng := g.With(mw...)
	if host != "" {
		ng.host = host
	}
	ng.path = g.path + path
	return ng
}

// With returns a group with g's prefix and version whose routes are wrapped
// in g's middleware and then mw.
func (g *Group) With(mw ...Middleware) *Group {
	for _, m := range mw {
		if m == nil {
			panic("cairn: nil middleware")
		}
	}
	ng := *g
	// A full slice, so that appending to it in two derived groups never
	// shares an array.
	ng.mw = append(g.mw[:len(g.mw):len(g.mw)], mw...)
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

// Handle registers h for pattern, prefixed and wrapped as the group says.
// It panics as [Router.Handle] does.
func (g *Group) Handle(pattern string, h http.Handler) {
	g.register(pattern, h, callerLocation())
}

// HandleFunc registers f for pattern, as [Group.Handle] does.
func (g *Group) HandleFunc(pattern string, f func(http.ResponseWriter, *http.Request)) {
	var h http.Handler
	if f != nil {
		h = http.HandlerFunc(f)
	}
	g.register(pattern, h, callerLocation())
}

// register registers h for pattern in the group.
func (g *Group) register(pattern string, h http.Handler, loc string) {
	full, err := g.pattern(pattern)
	if err != nil {
		panic(err)
	}
	g.r.register(full, h, routeOptions{mw: g.mw, version: g.version, loc: loc})
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
// without a trailing slash. It panics if the prefix is malformed.
func splitPrefix(prefix string) (host, path string) {
	if strings.ContainsAny(prefix, " \t") {
		panic(fmt.Errorf("cairn: prefix %q: a prefix has no method or blanks", prefix))
	}
	host, path = prefix, ""
	if i := strings.IndexByte(prefix, '/'); i >= 0 {
		host, path = prefix[:i], prefix[i:]
	}
	if strings.ContainsAny(host, "{}") {
		panic(fmt.Errorf("cairn: prefix %q: host contains a brace (missing initial '/'?)", prefix))
	}
	return host, strings.TrimSuffix(path, "/")
}
