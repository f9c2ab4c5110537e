package cairn

// This file reads path parameters.
//
// A Router keeps no per-request state. A wildcard's value is derived when
// asked for, from two things the request already carries: req.Pattern, which
// the router sets to the matched pattern, and the request's path. The
// wildcard {repo} is the third segment of "GET /repos/{owner}/{repo}/issues",
// so its value is the third segment of the path. Both fields survive
// [http.Request.WithContext], so the values stay readable in every
// middleware and handler that runs after matching, with nothing allocated
// and nothing to release.

import (
	"net/http"
	"strings"
)

// Param returns the value of the wildcard name in the pattern that matched
// r, or "" if there is no such wildcard. The value is unescaped; for a
// {name...} wildcard it is the rest of the path, without its leading slash.
//
// Param reads r.Pattern and r.URL, so it works for requests routed by a
// [Router] (with or without path-value population) or by [http.ServeMux],
// and it reflects the URL at the time of the call: a middleware that
// rewrites r.URL.Path after routing changes what Param returns.
//
// Allocation: none, unless the value holds a percent-escape that differs
// from the default encoding (then r.URL.RawPath is set and the value is
// unescaped into a new string).
func Param(r *http.Request, name string) string {
	idx, multi := wildcardIndex(r.Pattern, name)
	if idx < 0 {
		return ""
	}
	p, escaped := requestPath(r.URL)
	v, ok := segmentAt(p, idx, multi)
	if !ok {
		return ""
	}
	return segmentValue(v, escaped)
}

// wildcardIndex returns the index of the path segment of pattern that is the
// wildcard name, and whether it is a {name...} wildcard; the index is -1 if
// there is none. The pattern is assumed valid.
//
// Optimization: it jumps from '{' to '{' with IndexByte and counts the
// slashes before the one it wants only once. Neither a method nor a host
// nor a constraint may contain a '/', so the path starts at the first one
// and every later one separates segments; a wildcard's '{' always follows a
// '/', while a '{' inside a constraint never does.
func wildcardIndex(pattern, name string) (int, bool) {
	start := strings.IndexByte(pattern, '/')
	if start < 0 || !plausibleName(name) {
		return -1, false
	}
	path := pattern[start:]
	for off := 0; ; {
		i := strings.IndexByte(path[off:], '{')
		if i < 0 {
			return -1, false
		}
		i += off
		off = i + 1
		if path[i-1] != '/' {
			continue
		}
		rest := path[i+1:]
		if len(rest) <= len(name) || rest[:len(name)] != name {
			continue
		}
		switch rest = rest[len(name):]; rest[0] {
		case '}', ':':
			return strings.Count(path[:i], "/") - 1, false
		case '.':
			if strings.HasPrefix(rest, "...}") {
				return strings.Count(path[:i], "/") - 1, true
			}
		}
	}
}

// plausibleName reports whether name could be a wildcard name: it is not
// empty and has none of the bytes that delimit names in a pattern. (A full
// identifier check is left out of this hot path: a name that passes this
// test but is not an identifier cannot be found in a valid pattern.)
func plausibleName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch name[i] {
		case '{', '}', ':', '.', '/':
			return false
		}
	}
	return true
}

// segmentAt returns the raw segment at index idx of path p, or with multi
// the rest of the path from that segment on.
func segmentAt(p string, idx int, multi bool) (string, bool) {
	if p == "" || p[0] != '/' {
		return "", false
	}
	p = p[1:]
	for ; idx > 0; idx-- {
		j := strings.IndexByte(p, '/')
		if j < 0 {
			return "", false
		}
		p = p[j+1:]
	}
	if multi {
		return p, true
	}
	if j := strings.IndexByte(p, '/'); j >= 0 {
		return p[:j], true
	}
	return p, true
}

// setPathValues stores the wildcards of pat, which matched path p, in r for
// [http.Request.PathValue]. It walks the path once.
//
// Allocation: what [http.Request.SetPathValue] costs, a map for the first
// value and its growth; nothing for a pattern without named wildcards.
func setPathValues(r *http.Request, pat *pattern, p string, escaped bool) {
	if p == "" {
		return
	}
	rest := p[1:]
	for _, s := range pat.segments {
		j := strings.IndexByte(rest, '/')
		if j < 0 {
			j = len(rest)
		}
		switch {
		case s.kind == segWild:
			r.SetPathValue(s.s, segmentValue(rest[:j], escaped))
		case s.kind == segMulti && s.s != "":
			r.SetPathValue(s.s, segmentValue(rest, escaped))
			return
		}
		if j == len(rest) {
			return
		}
		rest = rest[j+1:]
	}
}
