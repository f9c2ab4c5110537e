package cairn

// This file holds Mount, which hands a subtree of paths to another handler
// with the subtree's prefix stripped.
//
// Mount("/orgs/{org}", h) registers the subtree pattern "/orgs/{org}/".
// For a request for /orgs/acme/repos/x it calls h with a copy of the
// request whose path is /repos/x: the prefix has two segments, so the
// first two segments of the path are cut, whatever they hold. The value
// of {org} stays readable with [Param] and [http.Request.PathValue] in h.

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Mount hands every request whose path is in the subtree prefix to h, with
// the prefix stripped from the path, as [http.StripPrefix] does: with
// Mount("/api", h), h sees /api/users as /users and /api/ as /. h may be
// another [Router], whose own middleware and fallbacks then apply.
//
// The prefix is [HOST]/PATH with no method and no trailing slash needed;
// it may hold wildcards, whose values h reads with [Param] or
// [http.Request.PathValue]. Mount registers the pattern PATH + "/", with
// the usual precedence: the router's more specific routes win, and a
// request for the prefix itself is redirected to PATH + "/". Mount panics
// as [Router.Handle] does.
//
// The copy is shallow, as http.StripPrefix's is: it shares the request's
// header, body and context, and the storage of its path values, so values
// that h stores with SetPathValue (as a Router with path values on does)
// are also seen by middleware that reads r.PathValue after h returns.
// [Param] is not affected.
//
// Allocation: one copy of the request; and if the prefix has wildcards and
// the router does not populate path values, the map that holds them (two
// more).
func (r *Router) Mount(prefix string, h http.Handler) {
	(&Group{r: r}).mount(prefix, h, callerLocation())
}

// Mount mounts h under the group's prefix followed by prefix, behind the
// group's middleware; see [Router.Mount].
func (g *Group) Mount(prefix string, h http.Handler) {
	g.mount(prefix, h, callerLocation())
}

// mount registers h under prefix in g.
func (g *Group) mount(prefix string, h http.Handler, loc string) {
	if h == nil {
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
	g.r.register(host+g.path+path+"/", m, routeOptions{mw: g.mw, version: g.version, loc: loc, mount: m})
}

// mounted is the handler of a mount's route.
type mounted struct {
	h http.Handler
	// Set when the route is added, from its parsed pattern.
	nsegs   int      // segments in the prefix
	names   []string // wildcards in the prefix
	pattern string   // r.Pattern for the handler: the route's pattern, in another copy
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
	for _, name := range m.names {
		if v := Param(req, name); req.PathValue(name) != v {
			s.req.SetPathValue(name, v)
		}
	}
	stripSegments(&s.url, m.nsegs)
	// Param on the stripped request reads path values.
	s.req.Pattern = m.pattern
	m.h.ServeHTTP(w, &s.req)
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
