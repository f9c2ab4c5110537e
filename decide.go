package cairn

// This file decides what to do with a request: serve a route, redirect,
// answer 406, or answer that no route serves it (404, 405 or OPTIONS). The
// rules are net/http.ServeMux's: unclean paths are redirected to their
// clean form, a request for a subtree's root without its slash ("/tree"
// when "/tree/" is registered) is redirected to it, and the path is
// matched segment by segment on its escaped form. Versions and the
// trailing-slash policy (see SlashPolicy) come on top.

import (
	"net/http"
	"net/url"
	"path"
	"strings"
)

// A verdictKind says what to do with a request.
type verdictKind uint8

const (
	verdictServe    verdictKind = iota // serve the route
	verdictRedirect                    // redirect to the target path
	verdictReject                      // 406: the route's versions all reject the request
	verdictNone                        // no route: 404, or 405 or OPTIONS if other methods match
	verdictNotFound                    // 404, whatever the path: see table.resolve
	verdictAsterisk                    // a request for "*": 400, as ServeMux answers
)

// String returns the kind's name.
func (k verdictKind) String() string {
	switch k {
	case verdictServe:
		return "serve"
	case verdictRedirect:
		return "redirect"
	case verdictReject:
		return "reject"
	case verdictNone:
		return "none"
	case verdictNotFound:
		return "not found"
	case verdictAsterisk:
		return "asterisk"
	}
	return "verdictKind(?)"
}

// A verdict is what the router decided for a request; the query used says
// more (the host and path looked up, whether a version was considered).
type verdict struct {
	kind verdictKind
	// rt is the route to serve, the route that rejected the request, or
	// for a redirect the route that the target matches, if any.
	rt *route
	// target is the escaped path to redirect to.
	target string
	// pattern is r.Pattern for a redirect of a CONNECT request, which
	// ServeMux sets to the unescaped target.
	pattern string
	// serveAs is, for a request served under SlashServe, the escaped path
	// of the other form, which a copy of the request is served with.
	serveAs string
	// recheck is set on a verdictNone that resolve took from r.Pattern
	// without a lookup: the answer checks that no route serves the request.
	recheck bool
	// slashOnly is set on a redirect whose target is the request's own
	// path, escaped, with a trailing slash added or removed: its segments
	// are the request's from the start, so Param reads there the values of
	// the path it leads to (see identSlashRedirect).
	slashOnly bool
}

// decide decides what to do with req, using q, which it fills in.
func (t *table) decide(req *http.Request, q *query) verdict {
	if req.Method == http.MethodConnect {
		return t.decideConnect(req, q)
	}
	rt := t.lookup(req, t.requestHost(req), q)
	if rt != nil && !rt.multi && !q.unclean {
		return verdict{kind: verdictServe, rt: rt}
	}
	return t.decideSlow(req, rt, q)
}

// requestHost returns the host of req that patterns are matched with, or
// "" if t has no host patterns.
func (t *table) requestHost(req *http.Request) string {
	if t.anyHost() {
		// Optimization: only routers with host patterns look at the host.
		return stripHostPort(req.Host)
	}
	return ""
}

// lookup fills in q for req, which is not a CONNECT request and whose
// host is host, as requestHost gives it, and returns the route it finds,
// if any.
func (t *table) lookup(req *http.Request, host string, q *query) *route {
	p, escaped := requestPath(req.URL)
	q.method, q.verb, q.host, q.path, q.escaped, q.checkClean = req.Method, verbOf(req.Method), host, p, escaped, true
	q.req, q.versioning = req, t.cfg.versioning
	if p == "" || p[0] != '/' {
		// A path without its leading slash (which http.StripPrefix can
		// leave) is not clean; it is redirected.
		return nil
	}
	return t.match(host, p, false, q)
}

// decideSlow decides what to do with req, for which lookup found rt, when
// that is not simply to serve rt: a match of a pattern without a multi
// wildcard visited every segment of the path and found each clean, so the
// path is clean and the match exact, but everything else needs the whole
// path checked first.
func (t *table) decideSlow(req *http.Request, rt *route, q *query) verdict {
	p := q.path
	if !isClean(p) {
		return t.decideUnclean(req, q)
	}
	if rt == nil || !rt.exact(p, false) {
		// A route passed over for its versions counts only if it matched
		// the path itself, not the path with a slash added. But one that
		// the path with a slash added matches exactly still makes the
		// redirect, which does not depend on the version asked for: the
		// new path then answers 406 (or, under SlashServe, the request is
		// answered 406 as that path).
		srt, versionless := slashTargetAnyVersion(t, q.host, p, q)
		if srt != nil {
			target := escapedPath(req.URL, p, q.escaped) + "/"
			switch {
			case t.cfg.slash == SlashServe && versionless:
				return verdict{kind: verdictReject, rt: srt, serveAs: target}
			case t.cfg.slash == SlashServe:
				return verdict{kind: verdictServe, rt: srt, serveAs: target}
			}
			// As net/http.ServeMux does, report the pattern that the
			// new path matches.
			return verdict{kind: verdictRedirect, rt: srt, target: target, slashOnly: true}
		}
	}
	switch {
	case rt != nil:
		return verdict{kind: verdictServe, rt: rt}
	case q.rejected != nil:
		return verdict{kind: verdictReject, rt: q.rejected}
	case t.cfg.slash != SlashStrict && len(p) > 1 && p[len(p)-1] == '/':
		// The policy's other direction: no route takes the request, so
		// the path stands for the path without its slash if a route takes
		// the request there (as a slash is added for a route of the
		// request's method), or if routes of other methods match that
		// path and none matches this one (the request is then answered
		// 405 there).
		short := p[:len(p)-1]
		sq := t.newQuery(req, q.host, short, q.escaped)
		// The answers of constraints for the long segments of the path
		// hold for the shorter one, and the other way round.
		sq.memo = q.memo
		srt := t.match(q.host, short, false, &sq)
		q.memo = sq.memo
		if srt != nil && !srt.exact(short, false) {
			srt = nil
		}
		if srt == nil && sq.rejected == nil && (t.ownAllowed(q.host, p, q.escaped, &q.memo).set != 0 || t.allowed(q.host, short, q.escaped, &q.memo).set == 0) {
			break
		}
		target := escapedPath(req.URL, p, q.escaped)
		target = target[:len(target)-1]
		if t.cfg.slash == SlashRedirect {
			// As for the other direction, report the pattern the new path
			// matches, whatever the version asked for.
			if srt == nil && sq.rejected != nil && sq.rejected.exact(short, false) {
				srt = sq.rejected
			}
			return verdict{kind: verdictRedirect, rt: srt, target: target, slashOnly: true}
		}
		// SlashServe: the request is served as the other form, by its
		// route or by the router's answer for it.
		q.path, q.varies, q.staticMiss = short, q.varies || sq.varies, false
		switch {
		case srt != nil:
			return verdict{kind: verdictServe, rt: srt, serveAs: target}
		case sq.rejected != nil:
			return verdict{kind: verdictReject, rt: sq.rejected, serveAs: target}
		}
		return verdict{kind: verdictNone, serveAs: target}
	}
	return verdict{kind: verdictNone}
}

// escapedPath returns the escaped form of the path p of u: p itself if
// escaped is set, since the router then looked up the escaped path.
func escapedPath(u *url.URL, p string, escaped bool) string {
	if escaped {
		return p
	}
	return u.EscapedPath()
}

// newQuery returns a query for req, for path p on host.
func (t *table) newQuery(req *http.Request, host, p string, escaped bool) query {
	return query{method: req.Method, verb: verbOf(req.Method), host: host, path: p, escaped: escaped, req: req, versioning: t.cfg.versioning}
}

// decideUnclean decides what to do with a request whose path is not clean:
// redirect it to the clean path (or, first, to that path's subtree root).
func (t *table) decideUnclean(req *http.Request, q *query) verdict {
	escapedPath := req.URL.EscapedPath()
	p := cleanPath(escapedPath)
	// The answers of constraints for the long segments of the unclean
	// path hold for the same segments of the clean one.
	memo := q.memo
	*q = t.newQuery(req, q.host, p, true)
	q.memo = memo
	rt := t.match(q.host, p, false, q)
	if rt == nil || !rt.exact(p, false) {
		if srt, _ := slashTargetAnyVersion(t, q.host, p, q); srt != nil {
			target := p + "/"
			return verdict{kind: verdictRedirect, rt: srt, target: target, slashOnly: slashApart(target, escapedPath)}
		}
	}
	if rt == nil && q.rejected != nil && q.rejected.exact(p, false) {
		// As for the trailing-slash redirects, report the pattern the
		// clean path matches, whatever the version asked for.
		rt = q.rejected
	}
	// Invariant: p != escapedPath, since the caller found the path unclean
	// and escaping changes neither slashes nor dots. A path unclean only by
	// a trailing slash too many (/a/b//) is a slash away from its target.
	return verdict{kind: verdictRedirect, rt: rt, target: p, slashOnly: slashApart(p, escapedPath)}
}

// slashApart reports whether a and b differ only by a trailing slash that
// one of them has, without building either form.
func slashApart(a, b string) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	return len(a) == len(b)+1 && a[len(b)] == '/' && a[:len(b)] == b
}

// decideConnect decides what to do with a CONNECT request. As with
// net/http.ServeMux, its path is not cleaned, the trailing-slash redirect
// is decided with the host of its URL, and the route is then found with
// req.Host, port included.
func (t *table) decideConnect(req *http.Request, q *query) verdict {
	p := req.URL.EscapedPath()
	*q = t.newQuery(req, req.URL.Host, p, true)
	rt := t.match(req.URL.Host, p, false, q)
	if rt == nil || !rt.exact(p, false) {
		// The redirect does not depend on the version asked for, as for
		// the other methods (see decideSlow).
		if srt, _ := slashTargetAnyVersion(t, req.URL.Host, p, q); srt != nil {
			// As net/http.ServeMux does, report the unescaped path
			// redirected to.
			return verdict{kind: verdictRedirect, target: p + "/", pattern: pathUnescape(p + "/")}
		}
	}
	q.rejected = nil // the route is found again, with another host
	if rt = t.match(req.Host, p, false, q); rt != nil {
		return verdict{kind: verdictServe, rt: rt}
	}
	if q.rejected != nil {
		return verdict{kind: verdictReject, rt: q.rejected}
	}
	// As with ServeMux, 405 and OPTIONS are decided with the URL's host,
	// left in q.
	return verdict{kind: verdictNone}
}

// slashTarget returns the route that p followed by a slash matches exactly
// with q's method, or nil if p already ends in a slash or no route matches
// so.
func slashTarget(t *table, host, p string, q *query) *route {
	if p == "" || strings.HasSuffix(p, "/") {
		return nil
	}
	rt := t.match(host, p, true, q)
	if rt == nil || !rt.exact(p, true) {
		return nil
	}
	return rt
}

// slashTargetAnyVersion is slashTarget for a redirect, which does not
// depend on the version asked for: if no route takes p followed by a
// slash for q's version, it returns the one that would for another, and
// true (versionless). A route passed over for its versions that q held
// counts only if it matched p itself, so it is set aside for the search,
// and put back if there is no target.
func slashTargetAnyVersion(t *table, host, p string, q *query) (srt *route, versionless bool) {
	rejected := q.rejected
	q.rejected = nil
	srt = slashTarget(t, host, p, q)
	if srt == nil && q.rejected != nil && q.rejected.exact(p, true) {
		return q.rejected, true
	}
	if srt == nil {
		q.rejected = rejected
	}
	return srt, false
}

// exact reports whether rt's match of path p is exact, as net/http.ServeMux
// defines it: a multi wildcard that matches a non-empty string makes a
// match inexact. If slash is set, the path is p followed by "/".
func (rt *route) exact(p string, slash bool) bool {
	if !rt.multi {
		return true
	}
	if slash {
		return int(rt.id.l.nsegs) == strings.Count(p, "/")+1
	}
	return strings.HasSuffix(p, "/") && int(rt.id.l.nsegs) == strings.Count(p, "/")
}

// location returns the Location of a redirect of req to v.target. It is
// the target path with the request's query, as net/http.ServeMux makes it
// (keeping the path's escapes, as ServeMux does since Go 1.27). If relative
// is set, the router is mounted and does not know where the client's path
// puts it, so the location is relative to the request's path ("repos/"
// for a request for .../repos), which a client resolves against the URL it
// asked for.
func (v *verdict) location(req *http.Request, relative bool) string {
	if relative {
		if ref, ok := relativeRef(req.URL.EscapedPath(), v.target); ok {
			if req.URL.RawQuery != "" {
				ref += "?" + req.URL.RawQuery
			}
			return escapeNonASCII(ref)
		}
	}
	return escapeNonASCII(cleanLocation(redirectURL(v.target, req.URL.RawQuery)))
}

// escapeNonASCII returns s with every byte beyond ASCII percent-escaped, as
// [http.Redirect] writes a Location: a raw query may hold such bytes.
func escapeNonASCII(s string) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			n++
		}
	}
	if n == 0 {
		return s
	}
	const hex = "0123456789abcdef"
	b := make([]byte, 0, len(s)+2*n)
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 {
			b = append(b, '%', hex[c>>4], hex[c&0xf])
		} else {
			b = append(b, c)
		}
	}
	return string(b)
}

// cleanLocation returns the location loc, a path and a query, with the
// path cleaned as [http.Redirect] cleans it, keeping a trailing slash: a
// CONNECT request's target, which the router does not clean, may hold dot
// segments.
func cleanLocation(loc string) string {
	p, query, hasQuery := strings.Cut(loc, "?")
	clean := path.Clean(p)
	if strings.HasSuffix(p, "/") && !strings.HasSuffix(clean, "/") {
		clean += "/"
	}
	if clean == p {
		return loc
	}
	if hasQuery {
		return clean + "?" + query
	}
	return clean
}

// relativeRef returns a relative reference from the clean path p to
// target, which differs from p by a trailing slash, or false if target is
// another path.
func relativeRef(p, target string) (string, bool) {
	switch {
	case target == p+"/":
		// "/a/b" to "/a/b/": "b/".
		last := p[strings.LastIndexByte(p, '/')+1:]
		if last == "" {
			return "", false
		}
		return dotSlash(last) + "/", true
	case len(p) > 1 && target == p[:len(p)-1]:
		// "/a/b/" to "/a/b": "../b".
		last := target[strings.LastIndexByte(target, '/')+1:]
		if last == "" {
			return "", false
		}
		return "../" + last, true
	}
	return "", false
}

// dotSlash returns seg, a path segment, prefixed with "./" if it could
// otherwise be read as a scheme ("a:b").
func dotSlash(seg string) string {
	if strings.IndexByte(seg, ':') >= 0 {
		return "./" + seg
	}
	return seg
}

// redirectURL returns the location of a redirect to the escaped path p with
// the query rawQuery. The path keeps its escapes as they are, as
// net/http.ServeMux keeps them since Go 1.27: "%2F" stays an escaped slash
// and "%61" stays "%61".
func redirectURL(p, rawQuery string) string {
	u := url.URL{Path: pathUnescape(p), RawPath: p, RawQuery: rawQuery}
	return u.String()
}
