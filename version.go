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
// has it, else v1, else the unversioned route if Fallback is set or if the
// header also accepts a media range that names no version (such as */*).
// A request that asks for no version gets the unversioned route. If the
// leaf has no acceptable route for the method, the lookup goes on to less
// specific patterns, as for a route of another method; if none serves, the
// answer is 406 Not Acceptable. So a path whose routes all have versions
// answers 406 to requests that ask for none: register an unversioned route
// too (it may share a version's handler) to serve them. A version the
// route has is preferred to the unversioned route whatever their q-values:
// asking for a version is taken as meaning it. A route for every method
// with versions (a versioned Mount, say) treats OPTIONS like any other
// method; a CORS middleware installed with Use sees preflight requests
// before that. The Accept values are scanned in place, so choosing
// allocates nothing.

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
	// dot-separated part of the subtype that starts with a 'v' and a
	// digit, if only parts of digits follow it: "application/vnd.x.y.v2"
	// asks for v2, "application/vnd.x.v2.1" for v2.1, and the spreadsheet
	// type "application/vnd.ms-excel.sheet.macroEnabled.12" for none.
	// Names compare without regard to case. The "+json" (or any other)
	// structured-syntax suffix is optional.
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
	// route is acceptable. It runs behind the middleware of Use and of the
	// groups that cover the path, with r.Pattern set to the pattern the
	// path matched, though no route serves: [RouteVersion] reports one of
	// the route's versions, or "" if the route also has an unversioned
	// variant, which the request did not accept. nil means a plain-text
	// 406 Not Acceptable.
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
	r.configure(func(cfg *config) {
		cfg.versioning = newVersioning(v)
		cfg.notAcceptable = orDefault(v.NotAcceptable, http.HandlerFunc(serveNotAcceptable))
	})
}

// RouteVersion returns the version of the route that served r, or "" if it
// is unversioned or r was not routed by a [Router]. Like [Param], it works
// from r.Pattern and does not allocate.
func RouteVersion(r *http.Request) string {
	if id := findIdent(r.Pattern); id != nil {
		return id.l.version
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
	return version != rt.version() && p.host() == rt.id.pat.host() &&
		combine(compareMethods(p.method(), rt.id.pat.method()), p.comparePaths(&rt.id.pat)) == equivalent
}

// A versionSet holds the routes of one method at one leaf.
type versionSet struct {
	def      *route   // the unversioned route, or nil
	versions []*route // the versioned routes, sorted by version
	orig     []*route // the routes as registered, of which def and versions are copies
}

// find returns the route for version v, or nil.
func (vs *versionSet) find(v string) *route {
	for _, rt := range vs.versions {
		if strings.EqualFold(rt.version(), v) {
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
// acceptable.
//
// Allocation: none.
func (v *versioning) choose(req *http.Request, vs *versionSet) *route {
	if v.header != "" {
		if vals := req.Header[v.header]; len(vals) > 0 {
			if want := strings.TrimSpace(vals[0]); want != "" {
				if rt := vs.find(want); rt != nil || !v.fallback {
					return rt
				}
			}
		}
		return vs.def
	}
	var best *route
	bestQ := 0
	requested, other := false, false // ranges that ask for a version, and others
	for _, line := range req.Header["Accept"] {
		for line != "" {
			var mediaRange string
			mediaRange, line = cutUnquoted(line, ',')
			want, q, ok := v.parseRange(mediaRange)
			switch {
			case !ok || q == 0:
			case want == "":
				other = true
			default:
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
	// The unversioned route is acceptable unless every acceptable media
	// range asks for a version.
	if !requested || other || v.fallback {
		return vs.def
	}
	return nil
}

// addVary adds the header that chooses versions to the Vary header h,
// unless it is there.
//
// Allocation: none, unless h has a Vary header without it.
func (v *versioning) addVary(h http.Header) {
	vals, ok := h["Vary"]
	if !ok {
		h["Vary"] = v.vary
		return
	}
	for _, val := range vals {
		for val != "" {
			var tok string
			tok, val, _ = strings.Cut(val, ",")
			if tok = strings.TrimSpace(tok); tok == "*" || strings.EqualFold(tok, v.vary[0]) {
				return
			}
		}
	}
	h["Vary"] = append(vals, v.vary[0])
}

// parseRange parses one media range of an Accept header, such as
// "application/vnd.acme.v2+json; q=0.8", and returns the version it asks
// for ("" if it asks for none) and its quality in thousandths, or ok false
// if it is empty or its quality is malformed.
func (v *versioning) parseRange(s string) (version string, q int, ok bool) {
	mediaType, params := cutUnquoted(s, ';')
	mediaType = strings.TrimSpace(mediaType)
	if mediaType == "" {
		return "", 0, false
	}
	q = 1000
	for params != "" {
		var param string
		param, params = cutUnquoted(params, ';')
		name, value, _ := strings.Cut(strings.TrimSpace(param), "=")
		if name == "q" || name == "Q" {
			if q, ok = parseQuality(strings.TrimSpace(value)); !ok {
				return "", 0, false
			}
		}
	}
	return v.mediaVersion(mediaType), q, true
}

// cutUnquoted slices s around the first sep that is not inside a quoted
// string (RFC 9110, section 5.6.4: a parameter's value may be one, and hold
// commas and semicolons, and a backslash quotes the byte after it), and
// returns the text before and after it; after is "" if there is none.
func cutUnquoted(s string, sep byte) (before, after string) {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case c == sep && !quoted:
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}

// mediaVersion returns the version that the media type t names, or "".
func (v *versioning) mediaVersion(t string) string {
	const prefix = "application/vnd."
	if len(t) <= len(prefix) || !strings.EqualFold(t[:len(prefix)], prefix) {
		return ""
	}
	sub := t[len(prefix):]
	if i := strings.IndexByte(sub, '+'); i >= 0 {
		sub = sub[:i]
	}
	var version string
	if v.vendor != "" {
		n := len(v.vendor)
		if len(sub) <= n+1 || sub[n] != '.' || !strings.EqualFold(sub[:n], v.vendor) {
			return ""
		}
		version = sub[n+1:]
	} else {
		// Any vendor: the last part that looks like a version, with the
		// parts of digits after it ("v2.1"), so that types such as
		// application/vnd.ms-excel.sheet.macroEnabled.12 are not taken
		// for version requests.
		end := len(sub)
		for {
			i := strings.LastIndexByte(sub[:end], '.')
			if i < 0 {
				return ""
			}
			part := sub[i+1 : end]
			if len(part) >= 2 && (part[0] == 'v' || part[0] == 'V') && '0' <= part[1] && part[1] <= '9' {
				version = sub[i+1:]
				break
			}
			if !isUint(part) {
				return ""
			}
			end = i
		}
	}
	if !isVersion(version) {
		return ""
	}
	return version
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
