package cairn

// This file lets a program look at its routes: as a list, for generating
// documentation or metrics labels, and as the tree that lookups walk, for
// debugging precedence.

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
)

// A RouteInfo describes a registered route.
type RouteInfo struct {
	Pattern string // the full pattern, as r.Pattern holds it when the route serves
	Method  string // "" if the route matches every method; GET also matches HEAD
	Host    string // "" if the route matches every host
	Path    string // the path of the pattern
	Version string // "" for an unversioned route

	// Middleware is the number of group and per-route middleware wrapping
	// the handler; router-level middleware, which wraps every route, is not
	// counted.
	Middleware int

	Mount    bool   // the route was registered by Mount
	Location string // the file:line of the registration
}

// Routes returns the registered routes in the order they were registered.
func (r *Router) Routes() []RouteInfo {
	r.mu.Lock()
	defer r.mu.Unlock()
	infos := make([]RouteInfo, 0, len(r.routes))
	for _, rt := range r.routes {
		p := rt.pat
		infos = append(infos, RouteInfo{
			Pattern:    p.str,
			Method:     p.method,
			Host:       p.host,
			Path:       p.path(),
			Version:    rt.version,
			Middleware: rt.mw,
			Mount:      rt.mount != nil,
			Location:   p.loc,
		})
	}
	return infos
}

// path returns the path of p as written in its pattern: what follows its
// first '/', since neither a method nor a host may contain one.
func (p *pattern) path() string { return p.str[strings.IndexByte(p.str, '/'):] }

// WriteTree writes the routing tree of r to w, one node a line, indented
// under its parent in the order lookups try them: literals, constrained
// wildcards, the wildcard, the multi wildcard. After each node come the
// routes that end there, as METHOD (or * for every method), with their
// version, "mount" for a Mount, and the number of group and route
// middleware. Patterns that share a node may name its wildcard
// differently; the first registered name is shown. For example:
//
//	(any host)
//	└── /users
//	    ├── /me  GET
//	    └── /{id:int}  GET  GET v2 (1 middleware)
func (r *Router) WriteTree(w io.Writer) error {
	r.mu.Lock()
	var b strings.Builder
	for _, host := range sortedKeys(r.roots) {
		if host == "" {
			b.WriteString("(any host)")
		} else {
			b.WriteString(host)
		}
		writeRoutes(&b, r.roots[host].routes)
		b.WriteByte('\n')
		writeChildren(&b, r.roots[host], "")
	}
	r.mu.Unlock()
	_, err := io.WriteString(w, b.String())
	return err
}

// writeChildren writes the children of n to b, each line starting with
// indent.
func writeChildren(b *strings.Builder, n *node, indent string) {
	var children []*node
	for _, k := range sortedKeys(n.lits) {
		children = append(children, n.lits[k])
	}
	children = append(children, n.cons...)
	for _, c := range []*node{n.wild, n.multi} {
		if c != nil {
			children = append(children, c)
		}
	}
	for i, c := range children {
		branch, next := "├── ", "│   "
		if i == len(children)-1 {
			branch, next = "└── ", "    "
		}
		b.WriteString(indent + branch + "/" + c.label)
		writeRoutes(b, c.routes)
		b.WriteByte('\n')
		writeChildren(b, c, indent+next)
	}
}

// writeRoutes writes a description of routes to b.
func writeRoutes(b *strings.Builder, routes []*route) {
	routes = slices.Clone(routes)
	slices.SortStableFunc(routes, func(x, y *route) int {
		return cmp.Or(strings.Compare(x.pat.method, y.pat.method), strings.Compare(x.version, y.version))
	})
	for _, rt := range routes {
		b.WriteString("  ")
		if rt.pat.method == "" {
			b.WriteByte('*')
		} else {
			b.WriteString(rt.pat.method)
		}
		if rt.version != "" {
			b.WriteString(" " + rt.version)
		}
		if rt.mount != nil {
			b.WriteString(" mount")
		}
		switch rt.mw {
		case 0:
		case 1:
			b.WriteString(" (1 middleware)")
		default:
			fmt.Fprintf(b, " (%d middleware)", rt.mw)
		}
	}
}
