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
	Name    string // the route's name (see [Router.Named]); "" if it has none
	Method  string // "" if the route matches every method; GET also matches HEAD
	Host    string // "" if the route matches every host
	Path    string // the path of the pattern
	Version string // "" for an unversioned route

	// Middleware is the number of group and per-route middleware wrapping
	// the handler; the middleware of Use, which wraps every route, is not
	// counted.
	Middleware int

	Mount bool // the route was registered by Mount

	// MountedAt is, for a route of a Router mounted with Mount, the full
	// pattern of the mount, such as "/orgs/{org}/"; "" for the router's
	// own routes. Such routes follow their mount in the list, with their
	// full patterns.
	MountedAt string

	Location string // the file:line of the registration
}

// Routes returns the registered routes in the order they were registered,
// each mount of a Router followed by the routes of that router, with their
// full patterns.
func (r *Router) Routes() []RouteInfo {
	r.mu.Lock()
	routes := slices.Clone(r.routes)
	r.mu.Unlock()
	infos := make([]RouteInfo, 0, len(routes))
	for _, rt := range routes {
		p := &rt.id.pat
		mw := 0
		for _, g := range rt.hops() {
			mw += g.count
		}
		infos = append(infos, RouteInfo{
			Pattern:    p.str,
			Name:       rt.name(),
			Method:     p.method(),
			Host:       p.host(),
			Path:       p.path(),
			Version:    rt.version(),
			Middleware: mw,
			Mount:      rt.hasMount,
			Location:   p.loc().String(),
		})
		if m := rt.mount(); m != nil && m.inner != nil {
			for _, ri := range m.inner.Routes() {
				// The middleware around the mount wraps the mounted
				// router's routes too.
				ri.Middleware += mw
				ri.Pattern = joinMounted(p, ri.Pattern)
				ri.Path = strings.TrimSuffix(p.path(), "/") + ri.Path
				if p.host() != "" {
					ri.Host = p.host()
				}
				if ri.MountedAt == "" {
					ri.MountedAt = p.str
				} else {
					ri.MountedAt = joinMounted(p, ri.MountedAt)
				}
				infos = append(infos, ri)
			}
		}
	}
	return infos
}

// WriteTree writes the routing tree of r to w, one node a line, indented
// under its parent in the order lookups try them: literals, constrained
// wildcards, the wildcard, the multi wildcard. After each node come the
// routes that end there, as METHOD (or * for every method), with their
// version, "mount" for a Mount, and the number of group and route
// middleware, and "(group)" if a group's middleware covers the paths from
// there down. The tree of a mounted Router follows its mount, indented.
// Patterns that share a node may name its wildcard differently; the first
// registered name is shown. A static route is shown where its path leads,
// though lookups find most of them by the whole path, in an index. For
// example:
//
//	(any host)
//	└── /users
//	    ├── /me  GET
//	    └── /{id:int}  GET  GET v2 (1 middleware)
func (r *Router) WriteTree(w io.Writer) error {
	// The trees of mounted routers are written first, without r's lock.
	r.mu.Lock()
	mounts := slices.Clone(r.mounts)
	r.mu.Unlock()
	inner := map[*mounted]string{}
	for _, m := range mounts {
		var b strings.Builder
		m.inner.WriteTree(&b)
		inner[m] = b.String()
	}

	r.mu.Lock()
	var b strings.Builder
	tw := treeWriter{b: &b, inner: inner}
	if t := r.tab; t != nil {
		hosts := []string{""}
		for h := range t.hosts.all {
			hosts = append(hosts, h)
		}
		slices.Sort(hosts)
		for _, host := range hosts {
			root := t.fullRoot(t.hostTree(host))
			if host == "" && root.first() == nil && !root.claims() {
				continue
			}
			if host == "" {
				b.WriteString("(any host)")
			} else {
				b.WriteString(host)
			}
			tw.writeNode(root, 0, "")
		}
	}
	r.mu.Unlock()
	_, err := io.WriteString(w, b.String())
	return err
}

// A treeWriter writes a lookup tree.
type treeWriter struct {
	b     *strings.Builder
	inner map[*mounted]string // the trees of mounted routers
}

// writeNode writes the routes of n, ending its line, then the trees of the
// routers mounted there and n's children, each line starting with indent.
// n stands for segments of patterns up to depth.
func (tw *treeWriter) writeNode(n *lookupNode, depth int, indent string) {
	b := tw.b
	routes := n.leaf.all()
	writeRoutes(b, routes)
	if n.claim() != nil {
		b.WriteString(" (group)")
	}
	b.WriteByte('\n')
	for _, rt := range routes {
		if tree := tw.inner[rt.mount()]; tree != "" {
			for _, line := range strings.SplitAfter(strings.TrimSuffix(tree, "\n"), "\n") {
				b.WriteString(indent + "  ┆ " + line)
			}
			b.WriteByte('\n')
		}
	}
	var children []*lookupNode
	n.eachLiteral(func(_ string, c *lookupNode) { children = append(children, c) })
	for _, c := range n.constrained() {
		children = append(children, c.node)
	}
	for _, c := range []*lookupNode{n.wild, n.multi()} {
		if c != nil {
			children = append(children, c)
		}
	}
	for i, c := range children {
		branch, next := "├── ", "│   "
		if i == len(children)-1 {
			branch, next = "└── ", "    "
		}
		b.WriteString(indent + branch + "/" + c.label(depth))
		tw.writeNode(c, depth+1, indent+next)
	}
}

// writeRoutes writes a description of routes to b.
func writeRoutes(b *strings.Builder, routes []*route) {
	routes = slices.Clone(routes)
	slices.SortStableFunc(routes, func(x, y *route) int {
		return cmp.Or(strings.Compare(x.id.pat.method(), y.id.pat.method()), strings.Compare(x.version(), y.version()))
	})
	for _, rt := range routes {
		b.WriteString("  ")
		if rt.id.pat.method() == "" {
			b.WriteByte('*')
		} else {
			b.WriteString(rt.id.pat.method())
		}
		if v := rt.version(); v != "" {
			b.WriteString(" " + v)
		}
		if rt.hasMount {
			b.WriteString(" mount")
		}
		mw := 0
		for _, g := range rt.hops() {
			mw += g.count
		}
		switch mw {
		case 0:
		case 1:
			b.WriteString(" (1 middleware)")
		default:
			fmt.Fprintf(b, " (%d middleware)", mw)
		}
	}
}
