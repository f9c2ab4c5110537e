package cairn

// This file holds reverse routing: building the path of a request that a
// pattern matches, from the values of its wildcards.

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// Path returns the path that a route matches with the given wildcard
// values, as name, value pairs. The route is given by its name (see
// [Router.Named]) or by its pattern:
//
//	r.Path("GET /repos/{owner}/{repo}/issues/{n:int}", "owner", "golang", "repo", "go", "n", "42")
//	r.Path("issue", "owner", "golang", "repo", "go", "n", "42")
//
// both return "/repos/golang/go/issues/42" if the route was registered
// with r.Named("issue"). The path matches the pattern, but, as for any
// path, a more specific pattern may serve it: r.Path("GET /users/{id}",
// "id", "me") is "/users/me" even if "GET /users/me" is registered too. A
// pattern must be registered exactly as given (with a group's prefix, as
// [RouteInfo.Pattern] has it). The routes of a Router mounted with
// [Router.Mount] are found too, by their full pattern or by their name;
// the values of the mount prefix's wildcards are given with the others. A
// name that routes of two routers have, the router and a mounted router or
// two mounted routers, gives an error: Path cannot tell which route is
// meant. (A pattern cannot be ambiguous: the router's own route with a
// pattern is the one that serves it, not a mounted router's.)
//
// Values are escaped: a '/' in the value of {name} becomes %2F, while in
// the value of {name...} it separates segments. The host of a host pattern
// is not part of the path.
//
// Path returns an error if no route has the name or pattern, if a wildcard
// has no value or a name is not a wildcard of the pattern, if a value is
// empty (except for {name...}), if a value violates its constraint or
// would be cleaned away (".", "..", or an empty segment in a {name...}
// value), or if the value of {name} is "/", which, as for ServeMux, no
// wildcard matches.
func (r *Router) Path(route string, params ...string) (string, error) {
	if len(params)%2 != 0 {
		return "", fmt.Errorf("cairn: Path(%q): odd number of name, value arguments", route)
	}
	byName := !strings.Contains(route, "/")
	p, found, err := r.reverse(route, byName, params)
	switch {
	case !found && byName:
		return "", fmt.Errorf("cairn: Path: no route has the name %q", route)
	case !found:
		return "", fmt.Errorf("cairn: Path: no route has the pattern %q", route)
	case err != nil:
		return "", fmt.Errorf("cairn: Path(%q): %w", route, err)
	}
	return p, nil
}

// reverse returns the path of the route of r or of a mounted router with
// the given name or pattern (key) and wildcard values, and whether there is
// such a route.
func (r *Router) reverse(key string, byName bool, params []string) (string, bool, error) {
	r.mu.Lock()
	var rt *route
	if byName {
		rt = r.names[key]
	} else {
		if r.patterns == nil {
			r.patterns = make(map[string]*route, len(r.routes))
			for _, x := range r.routes {
				if r.patterns[x.id.pat.str] == nil {
					r.patterns[x.id.pat.str] = x
				}
			}
		}
		rt = r.patterns[key]
	}
	mounts := slices.Clone(r.mounts)
	r.mu.Unlock()
	if rt != nil {
		if byName {
			// A name is unique in a router (Named panics on a second
			// route), but a mounted router's names are its own: one
			// that both have names two routes.
			for _, m := range mounts {
				if _, ok, _ := m.inner.reverse(key, true, nil); ok {
					return "", true, fmt.Errorf("the name %q belongs to the route %q and to a route of the mount %q", key, rt.id.pat.str, m.route.id.pat.str)
				}
			}
		}
		p, err := buildPath(&rt.id.pat, params)
		return p, true, err
	}
	var path string
	var err error
	var first *mounted
	for _, m := range mounts {
		innerKey := key
		if !byName {
			k, ok := m.innerPattern(key)
			if !ok {
				continue
			}
			innerKey = k
		}
		var prefixParams, innerParams []string
		for i := 0; i < len(params); i += 2 {
			if m.prefix.position(params[i]) >= 0 {
				prefixParams = append(prefixParams, params[i], params[i+1])
			} else {
				innerParams = append(innerParams, params[i], params[i+1])
			}
		}
		sub, ok, subErr := m.inner.reverse(innerKey, byName, innerParams)
		if !ok {
			continue
		}
		if first != nil {
			return "", true, fmt.Errorf("the name %q belongs to routes of two mounts, %q and %q", key, first.route.id.pat.str, m.route.id.pat.str)
		}
		first = m
		prefix, prefixErr := buildPath(&m.route.id.pat, prefixParams)
		path, err = strings.TrimSuffix(prefix, "/")+sub, cmp.Or(subErr, prefixErr)
		if !byName {
			break
		}
	}
	return path, first != nil, err
}

// innerPattern returns the pattern of the mounted router's route whose full
// pattern is full, or false if full is not below m's prefix.
func (m *mounted) innerPattern(full string) (string, bool) {
	i := strings.IndexByte(full, '/')
	if i < 0 {
		return "", false
	}
	j := strings.LastIndexAny(full[:i], " \t") + 1
	method, host, path := full[:j], full[j:i], full[i:]
	mp := &m.route.id.pat
	if mp.host() != "" {
		if host != mp.host() {
			return "", false
		}
		host = ""
	}
	prefix := strings.TrimSuffix(mp.path(), "/")
	if !strings.HasPrefix(path, prefix+"/") {
		return "", false
	}
	return method + host + path[len(prefix):], true
}

// buildPath returns the path that p matches with the wildcard values
// params, given as name, value pairs.
func buildPath(p *pattern, params []string) (string, error) {
	for i := 0; i < len(params); i += 2 {
		if !p.hasWildcard(params[i]) {
			return "", fmt.Errorf("the pattern %q has no wildcard %q", p.str, params[i])
		}
		for j := 0; j < i; j += 2 {
			if params[j] == params[i] {
				return "", fmt.Errorf("two values for wildcard %q", params[i])
			}
		}
	}
	var b strings.Builder
	var buf [8]segment
	segs := p.segmentsIn(buf[:0])
	for i, s := range segs {
		b.WriteByte('/')
		switch {
		case s.kind() == segLiteral:
			b.WriteString(s.pathText(i == len(segs)-1))
		case s.kind() == segMulti && s.s == "":
		default:
			v, ok := lookupParam(params, s.s)
			if !ok {
				return "", fmt.Errorf("no value for wildcard %q", s.s)
			}
			if err := writeValue(&b, s, v); err != nil {
				return "", err
			}
		}
	}
	return b.String(), nil
}

// lookupParam returns the value of name in the name, value pairs params.
func lookupParam(params []string, name string) (string, bool) {
	for i := 0; i < len(params); i += 2 {
		if params[i] == name {
			return params[i+1], true
		}
	}
	return "", false
}

// hasWildcard reports whether p has a wildcard named name.
func (p *pattern) hasWildcard(name string) bool {
	var buf [8]segment
	for _, s := range p.segmentsIn(buf[:0]) {
		if s.kind() != segLiteral && s.s == name && name != "" {
			return true
		}
	}
	return false
}

// writeValue writes the escaped value v of the wildcard segment s to b, or
// returns why a path with v would not match s.
func writeValue(b *strings.Builder, s segment, v string) error {
	if s.kind() == segMulti {
		if v == "" {
			return nil
		}
		segs := strings.Split(v, "/")
		for i, seg := range segs {
			// A final empty segment is a trailing slash.
			if seg == "" && i < len(segs)-1 || seg == "." || seg == ".." {
				return fmt.Errorf("value %q of {%s...} is not a clean path", v, s.s)
			}
			if i > 0 {
				b.WriteByte('/')
			}
			b.WriteString(url.PathEscape(seg))
		}
		return nil
	}
	c := s.constrainedBy()
	switch {
	case v == "":
		return fmt.Errorf("empty value for wildcard %q", s.s)
	case v == "." || v == "..":
		return fmt.Errorf("value %q of wildcard %q would be cleaned from the path", v, s.s)
	case v == "/":
		// The segment %2F is what {$} matches, as in ServeMux.
		return fmt.Errorf("value %q of wildcard %q matches no path: a wildcard never matches the segment %%2F alone", v, s.s)
	case c != nil && !c.match(v):
		return fmt.Errorf("value %q does not satisfy the constraint of %s", v, s.label())
	}
	b.WriteString(url.PathEscape(v))
	return nil
}
