package compress

// This file holds the header fields a filter reads and edits: Vary,
// Content-Encoding, Content-Length, ETag, Accept-Ranges and Content-Type.
// Keys are read and written in their canonical form, as http.Header
// stores them, so nothing is canonicalized per request.
//
// Invariant: the static slices below are never changed. A filter puts
// them in header maps as they are, without a copy: each has len == cap, so
// Header.Add, or an append, copies one before it adds to it. Code that
// assigned to an element of a header's value slice in place would break
// this; nothing in net/http does.

import (
	"net/http"
	"strings"
)

// Header values a filter sets; see the invariant above.
var (
	gzipValue      = []string{"gzip"}
	zstdValue      = []string{"zstd"}
	varyValue      = []string{"Accept-Encoding"}
	plainTextValue = []string{"text/plain; charset=utf-8"}
	htmlValue      = []string{"text/html; charset=utf-8"}
)

// setEncoded edits h for a body compressed with cd: it sets
// Content-Encoding, drops Content-Length and Accept-Ranges, which would
// count compressed bytes, and makes a strong ETag weak, since the body is
// no longer byte for byte the one it names. That last step allocates.
func setEncoded(h http.Header, cd coding) {
	delete(h, "Content-Length")
	delete(h, "Accept-Ranges")
	weakenETag(h)
	if cd == zstdCoding {
		h["Content-Encoding"] = zstdValue
	} else {
		h["Content-Encoding"] = gzipValue
	}
}

// weakenETag makes the ETag of h weak if it is strong ("x" becomes W/"x"),
// and reports whether it did. That allocates.
func weakenETag(h http.Header) bool {
	et := h["Etag"]
	if len(et) == 0 || !strings.HasPrefix(et[0], `"`) {
		return false
	}
	h["Etag"] = []string{"W/" + et[0]}
	return true
}

// addVary adds Accept-Encoding to the Vary header of h, unless it is
// there already, or Vary is "*".
func addVary(h http.Header) {
	vs := h["Vary"]
	for _, v := range vs {
		if hasToken(v, "Accept-Encoding") || hasToken(v, "*") {
			return
		}
	}
	if len(vs) == 0 {
		h["Vary"] = varyValue
		return
	}
	h["Vary"] = append(vs, varyValue[0])
}

// hasToken reports whether the comma-separated list v holds token, case
// ignored.
func hasToken(v, token string) bool {
	for v != "" {
		var t string
		t, v, _ = strings.Cut(v, ",")
		if equalFold(trimOWS(t), token) {
			return true
		}
	}
	return false
}

// hasWeakTag reports whether the If-None-Match value inm lists the weak
// form of the strong entity tag tag: W/"x" for "x".
func hasWeakTag(inm, tag string) bool {
	for inm != "" {
		var t string
		t, inm, _ = strings.Cut(inm, ",")
		if t = trimOWS(t); len(t) == len(tag)+2 && t[:2] == "W/" && t[2:] == tag {
			return true
		}
	}
	return false
}

// hasValue reports whether h has a non-empty value for the canonical key.
func hasValue(h http.Header, key string) bool {
	v := h[key]
	return len(v) > 0 && v[0] != ""
}

// contentLength returns the Content-Length of h, and false if it has
// none, or one that is not a plain decimal number.
//
// Allocation: none (strconv.ParseInt allocates its errors).
func contentLength(h http.Header) (int64, bool) {
	v := h["Content-Length"]
	if len(v) == 0 || v[0] == "" || len(v[0]) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(v[0]); i++ {
		c := v[0][i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// sniff returns the Content-Type value for a body that begins with p, as
// net/http would set it. It allocates for types other than plain text and
// HTML.
func sniff(p []byte) []string {
	switch ct := http.DetectContentType(p); ct {
	case plainTextValue[0]:
		return plainTextValue
	case htmlValue[0]:
		return htmlValue
	default:
		return []string{ct}
	}
}
