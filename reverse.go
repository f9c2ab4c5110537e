package cairn

// This file holds reverse routing: building the path of a request that a
// pattern matches, from the values of its wildcards.

import (
	"fmt"
	"net/url"
	"strings"
)

// Path returns the path that the registered pattern matches with the given
// wildcard values, as name, value pairs:
//
//	r.Path("GET /repos/{owner}/{repo}/issues/{n:int}", "owner", "golang", "repo", "go", "n", "42")
//
// returns "/repos/golang/go/issues/42". The path matches the pattern,
// but, as for any path, a more specific pattern may serve it:
// r.Path("GET /users/{id}", "id", "me") is "/users/me" even if
// "GET /users/me" is registered too. pattern must be a registered
// pattern, exactly as it was registered (with a group's prefix, as
// [RouteInfo.Pattern] has it). Values are escaped: a '/' in the value of
// {name} becomes %2F, while in the value of {name...} it separates
// segments. The host of a host pattern is not part of the path.
//
// Path returns an error if the pattern is not registered, if a wildcard has
// no value or a name is not a wildcard of the pattern, if a value is empty
// (except for {name...}), or if a value violates its constraint or would be
// cleaned away (".", "..", or an empty segment in a {name...} value).
func (r *Router) Path(pattern string, params ...string) (string, error) {
	r.mu.Lock()
	p := r.patterns[pattern]
	r.mu.Unlock()
	if p == nil {
		return "", fmt.Errorf("cairn: Path: no route has the pattern %q", pattern)
	}
	if len(params)%2 != 0 {
		return "", fmt.Errorf("cairn: Path(%q): odd number of name, value arguments", pattern)
	}
	for i := 0; i < len(params); i += 2 {
		if !p.hasWildcard(params[i]) {
			return "", fmt.Errorf("cairn: Path(%q): the pattern has no wildcard %q", pattern, params[i])
		}
		for j := 0; j < i; j += 2 {
			if params[j] == params[i] {
				return "", fmt.Errorf("cairn: Path(%q): two values for wildcard %q", pattern, params[i])
			}
		}
	}
	var b strings.Builder
	for _, s := range p.segments {
		b.WriteByte('/')
		switch {
		case s.kind == segLiteral && s.s == "/": // {$}
		case s.kind == segLiteral:
			b.WriteString(url.PathEscape(s.s))
		case s.kind == segMulti && s.s == "":
		default:
			v, ok := lookupParam(params, s.s)
			if !ok {
				return "", fmt.Errorf("cairn: Path(%q): no value for wildcard %q", pattern, s.s)
			}
			if err := writeValue(&b, s, v); err != nil {
				return "", fmt.Errorf("cairn: Path(%q): %w", pattern, err)
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
	for _, s := range p.segments {
		if s.kind != segLiteral && s.s == name && name != "" {
			return true
		}
	}
	return false
}

// writeValue writes the escaped value v of the wildcard segment s to b, or
// returns why a path with v would not match s.
func writeValue(b *strings.Builder, s segment, v string) error {
	if s.kind == segMulti {
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
	switch {
	case v == "":
		return fmt.Errorf("empty value for wildcard %q", s.s)
	case v == "." || v == "..":
		return fmt.Errorf("value %q of wildcard %q would be cleaned from the path", v, s.s)
	case s.con != nil && !s.con.match(v):
		return fmt.Errorf("value %q does not satisfy the constraint of %s", v, s.label())
	}
	b.WriteString(url.PathEscape(v))
	return nil
}
