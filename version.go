package cairn

// This file holds API versioning by media type.
//
// Routes registered through [Router.Version] or [Group.Version] are
// versions of the route with the same method and path: "GET /users/{id}"
// for v1, for v2 and unversioned share one leaf of the tree. Lookup finds
// the leaf as usual; then, only for a method that has versions, the request
// picks one. Given Vendor "acme" and
//
//	Accept: application/vnd.acme.v1+json;q=0.5, application/vnd.acme.v2+json
//
// the request asks for v2 (q=1) before v1 (q=0.5), and gets v2 if the leaf
// has it, else v1, else the unversioned route if Fallback is set, else 406
// Not Acceptable. A request that asks for no version gets the unversioned
// route. The Accept values are scanned in place, so choosing allocates
// nothing.

import (
	"fmt"
	"net/http"
	"net/textproto"
	"strings"
)

// Versioning configures how requests choose among the versions of a route.
type Versioning struct {
	// Vendor is the vendor name of the media types that carry versions:
	// with Vendor "acme", Accept: application/vnd.acme.v2+json asks for v2.
	// With no Vendor, any vendor is accepted and the version is the last
	// dot-separated part of the subtype ("application/vnd.x.y.v2" asks for
	// v2). Names compare without regard to case. The "+json" (or any
	// other) structured-syntax suffix is optional.
	Vendor string

	// Header, if set, names a request header that holds the version
	// itself (as in "X-API-Version: v2"); the Accept header is then not
	// consulted.
	Header string

	// Fallback serves the unversioned route when a request asks only for
	// versions that the path does not have. Without it, such requests get
	// 406 Not Acceptable.
	Fallback bool

	// NotAcceptable answers requests for which no version of the matched
	// route is acceptable. It runs behind the router-level middleware,
	// with r.Pattern set to the pattern the path matched. nil means a
	// plain-text 406 Not Acceptable.
	NotAcceptable http.Handler
}

// Versioning sets how requests choose among the versions of a route. The
// default is the zero Versioning: any vendor, by Accept, no fallback.
func (r *Router) Versioning(v Versioning) {
	if strings.ContainsAny(v.Vendor, " \t;,+/") {
		panic(fmt.Errorf("cairn: invalid vendor name %q", v.Vendor))
	}
	if v.Header != "" && !isToken(v.Header) {
		panic(fmt.Errorf("cairn: invalid header name %q", v.Header))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.versioning = v
	r.changed()
}

// RouteVersion returns the version of the route that served r, or "" if it
// is unversioned or r was not routed by a [Router]. Like [Param], it works
// from r.Pattern and does not allocate.
func RouteVersion(r *http.Request) string {
	if l := layouts.find(r.Pattern); l != nil {
		return l.version
	}
	return ""
}

// isVersion reports whether v is a valid version name.
func isVersion(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// isVariant reports whether p, to be registered for version, is another
// version of rt rather than a conflict: it matches the same requests, for
// another version.
func isVariant(p *pattern, version string, rt *route) bool {
	return version != rt.version && p.host == rt.pat.host &&
		combine(compareMethods(p.method, rt.pat.method), p.comparePaths(rt.pat)) == equivalent
}

// A versionSet holds the routes of one method at one leaf.
type versionSet struct {
	def      *route   // the unversioned route, or nil
	versions []*route // the versioned routes, sorted by version
}

// find returns the route for version v, or nil.
func (vs *versionSet) find(v string) *route {
	for _, rt := range vs.versions {
		if strings.EqualFold(rt.version, v) {
			return rt
		}
	}
	return nil
}

// versioning is the compiled form of a Versioning.
type versioning struct {
	vendor   string
	header   string // canonical
	fallback bool
	vary     []string // the Vary value; shared and read-only
}

// newVersioning compiles v.
func newVersioning(v Versioning) *versioning {
	vv := &versioning{vendor: v.Vendor, fallback: v.Fallback, vary: []string{"Accept"}}
	if v.Header != "" {
		vv.header = textproto.CanonicalMIMEHeaderKey(v.Header)
		vv.vary = []string{vv.header}
	}
	return vv
}

// choose returns the route of vs that req asks for, or nil if none is
// acceptable, and adds the header that decided it to the Vary header of w.
//
// Allocation: none, unless w already has a Vary header.
func (v *versioning) choose(w http.ResponseWriter, req *http.Request, vs *versionSet) *route {
	h := w.Header()
	if _, ok := h["Vary"]; ok {
		h.Add("Vary", v.vary[0])
	} else {
		h["Vary"] = v.vary
	}
	var best *route
	requested := false
	if v.header != "" {
		if vals := req.Header[v.header]; len(vals) > 0 {
			if want := strings.TrimSpace(vals[0]); want != "" {
				requested = true
				best = vs.find(want)
			}
		}
	} else {
		bestQ := 0
		for _, line := range req.Header["Accept"] {
			for line != "" {
				var mediaRange string
				mediaRange, line, _ = strings.Cut(line, ",")
				want, q, ok := v.parseRange(mediaRange)
				if !ok || q == 0 {
					continue
				}
				requested = true
				if q > bestQ {
					if rt := vs.find(want); rt != nil {
						best, bestQ = rt, q
					}
				}
			}
		}
	}
	if best != nil {
		return best
	}
	if !requested || v.fallback {
		return vs.def
	}
	return nil
}

// parseRange parses one media range of an Accept header, such as
// "application/vnd.acme.v2+json; q=0.8", and returns the version it asks
// for and its quality in thousandths, or ok false if it names no version.
func (v *versioning) parseRange(s string) (version string, q int, ok bool) {
	mediaType, params, _ := strings.Cut(s, ";")
	mediaType = strings.TrimSpace(mediaType)
	const prefix = "application/vnd."
	if len(mediaType) <= len(prefix) || !strings.EqualFold(mediaType[:len(prefix)], prefix) {
		return "", 0, false
	}
	sub := mediaType[len(prefix):]
	if i := strings.IndexByte(sub, '+'); i >= 0 {
		sub = sub[:i]
	}
	if v.vendor != "" {
		n := len(v.vendor)
		if len(sub) <= n+1 || sub[n] != '.' || !strings.EqualFold(sub[:n], v.vendor) {
			return "", 0, false
		}
		version = sub[n+1:]
	} else {
		i := strings.LastIndexByte(sub, '.')
		if i < 0 {
			return "", 0, false
		}
		version = sub[i+1:]
	}
	if !isVersion(version) {
		return "", 0, false
	}
	q = 1000
	for params != "" {
		var param string
		param, params, _ = strings.Cut(params, ";")
		name, value, _ := strings.Cut(strings.TrimSpace(param), "=")
		if name == "q" || name == "Q" {
			if q, ok = parseQuality(strings.TrimSpace(value)); !ok {
				return "", 0, false
			}
		}
	}
	return version, q, true
}

// parseQuality parses an HTTP quality value ("0", "0.5", "1.000") into
// thousandths.
func parseQuality(s string) (int, bool) {
	if s == "" || s[0] != '0' && s[0] != '1' {
		return 0, false
	}
	q := int(s[0]-'0') * 1000
	if len(s) == 1 {
		return q, true
	}
	if s[1] != '.' || len(s) > 5 {
		return 0, false
	}
	scale := 100
	for i := 2; i < len(s); i++ {
		d := s[i]
		if d < '0' || d > '9' || q == 1000 && d != '0' {
			return 0, false
		}
		q += int(d-'0') * scale
		scale /= 10
	}
	return q, true
}
