package cairn

// This file holds the path helpers: cleaning, splitting into segments and
// unescaping, all without allocating when the path is already in its usual
// form.

import (
	"math/bits"
	"net/url"
	"path"
	"strings"
	"unsafe"
)

// cleanPath returns the canonical form of p: rooted, with no empty, "." or
// ".." segments, keeping a trailing slash. It agrees with net/http.ServeMux.
func cleanPath(p string) string {
	if p == "" {
		return "/"
	}
	if p[0] != '/' {
		p = "/" + p
	}
	np := path.Clean(p)
	if p[len(p)-1] == '/' && np != "/" {
		if len(p) == len(np)+1 && strings.HasPrefix(p, np) {
			np = p
		} else {
			np += "/"
		}
	}
	return np
}

// isClean reports whether cleanPath(p) == p, without allocating.
//
// Optimization: it jumps from slash to slash with IndexByte and looks only
// at what follows each: a path is unclean if a slash is followed by another
// slash or by a "." or ".." segment.
func isClean(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	for {
		// Invariant: p[0] == '/'.
		p = p[1:]
		if p == "" {
			return true
		}
		switch p[0] {
		case '/':
			return false
		case '.':
			if p == "." || p == ".." || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") {
				return false
			}
		}
		i := strings.IndexByte(p, '/')
		if i < 0 {
			return true
		}
		p = p[i:]
	}
}

// stripHostPort returns h without any trailing ":port", or h itself if it
// is not of the form host:port, as net/http.ServeMux does.
//
// Optimization: it checks the form as net.SplitHostPort does but without
// building an error, so a malformed Host header costs no allocation.
func stripHostPort(h string) string {
	// Optimization: most hosts have no port, which IndexByte, unlike
	// LastIndexByte, finds out a word at a time.
	if strings.IndexByte(h, ':') < 0 {
		return h
	}
	i := strings.LastIndexByte(h, ':')
	// j and k are where a stray '[' or ']' is looked for.
	host, j, k := h[:i], 0, 0
	if h[0] == '[' {
		end := strings.IndexByte(h, ']')
		if end < 0 || end+1 != i {
			return h // no ']', or something between ']' and the port
		}
		host, j, k = h[1:end], 1, end+1
	} else if strings.IndexByte(host, ':') >= 0 {
		return h // too many colons
	}
	if strings.IndexByte(h[j:], '[') >= 0 || strings.IndexByte(h[k:], ']') >= 0 {
		return h
	}
	return host
}

// pathUnescape returns the unescaped s, or s itself if it is not a valid
// escaping. It allocates only if s contains a '%'.
func pathUnescape(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	u, err := url.PathUnescape(s)
	if err != nil {
		return s
	}
	return u
}

// maxUnescapedOnStack is the length up to which unescapeTo unescapes a
// segment into its caller's buffer.
const maxUnescapedOnStack = 64

// unescapeTo returns pathUnescape(s), in buf if it is short enough.
//
// Optimization: a request whose path holds an escape is routed without
// allocating for its literal segments. The string returned may share
// buf's memory: the caller must not keep it, nor use it after writing to
// buf again. This is sound whatever the caller does with it: the string
// points into buf, so if it outlived the call, escape analysis would have
// put buf on the heap; a test checks that routing does not allocate.
func unescapeTo(buf *[maxUnescapedOnStack]byte, s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	if len(s) > len(buf) {
		return pathUnescape(s)
	}
	n := 0
	for i := 0; i < len(s); n++ {
		c, next := unescapeByte(s, i)
		if next < 0 {
			// As pathUnescape does with a malformed escape.
			return s
		}
		buf[n], i = c, next
	}
	return unsafe.String(&buf[0], n)
}

// requestPath returns the path to route u by and whether its segments are
// still escaped.
//
// The router matches on the escaped path split at '/', so that "%2F" stays
// inside a segment, and unescapes each segment, as net/http.ServeMux does.
//
// Optimization: the escaped path has the same segments as u.Path, each
// one escaped, and the same empty, "." and ".." segments, unless it holds
// an escape of '/' or '.'. Then the router matches u.Path instead, needing
// no unescaping and allocating nothing. That is the case when u.RawPath is
// empty; when it holds no such escape (which a scan for '%' tells); and
// when it is not an encoding of u.Path that url.URL.EscapedPath accepts,
// since the escaped path is then u.Path escaped again, which escapes
// neither '/' nor '.'. Only a RawPath that encodes u.Path with such an
// escape is matched as it is.
func requestPath(u *url.URL) (p string, escaped bool) {
	if u.RawPath == "" {
		return u.Path, false
	}
	return rawRequestPath(u)
}

// rawRequestPath is requestPath for a URL with a RawPath.
func rawRequestPath(u *url.URL) (p string, escaped bool) {
	if !escapesSlashOrDot(u.RawPath) || !rawEncodes(u.RawPath, u.Path) {
		return u.Path, false
	}
	return u.RawPath, true
}

// escapesSlashOrDot reports whether s holds "%2F" or "%2E", in either case.
//
// Optimization: every request with a RawPath asks, and most such paths
// escape something else (a letter, a space) or nothing after a first
// escape. s is read eight bytes at a time for its '%' bytes (see
// percentMask), without a call: with strings.IndexByte from each '%' on,
// a path that escaped its first letter cost two calls, each scanning
// what the other left, and the GitHub API's paths escaped so took 1.32
// times as long to route as the plain ones, against 1.26 now
// (BenchmarkCliff, eight interleaved runs); the simple loop is kept as
// the oracle of TestEscapesSlashOrDot.
func escapesSlashOrDot(s string) bool {
	if len(s) < 8 {
		for i := 0; i < len(s); i++ {
			if s[i] == '%' && slashOrDotEscapeAt(s, i) {
				return true
			}
		}
		return false
	}
	i := 0
	for ; i+8 <= len(s); i += 8 {
		for m := percentMask(word(s, i)); m != 0; m &= m - 1 {
			if slashOrDotEscapeAt(s, i+bits.TrailingZeros64(m)/8) {
				return true
			}
		}
	}
	if r := len(s) - i; r > 0 {
		// The last r bytes, as the top r bytes of the last word, whose
		// other bytes were read above.
		i = len(s) - 8
		for m := percentMask(word(s, i)) &^ (1<<(8*(8-r)) - 1); m != 0; m &= m - 1 {
			if slashOrDotEscapeAt(s, i+bits.TrailingZeros64(m)/8) {
				return true
			}
		}
	}
	return false
}

// slashOrDotEscapeAt reports whether the '%' at s[i] starts "%2F" or
// "%2E", in either case.
func slashOrDotEscapeAt(s string, i int) bool {
	return i+2 < len(s) && s[i+1] == '2' && (s[i+2]|0x20 == 'f' || s[i+2]|0x20 == 'e')
}

// percentMask returns the high bit of every byte of w that is '%', as
// slashMask does for '/'.
func percentMask(w uint64) uint64 {
	const percents = 0x2525252525252525 // '%' in every byte
	x := w ^ percents
	return ^((x&low7 + low7) | x | low7)
}

// escapesSlash reports whether s holds "%2F", in either case.
func escapesSlash(s string) bool {
	for {
		i := strings.IndexByte(s, '%')
		if i < 0 || i+2 >= len(s) {
			return false
		}
		if s[i+1] == '2' && s[i+2]|0x20 == 'f' {
			return true
		}
		s = s[i+1:]
	}
}

// rawEncodes reports whether raw is an encoding of the path p that
// [url.URL.EscapedPath] accepts as the escaped form of p: every escape is
// well formed, every other byte is one a path may hold unescaped, and raw
// unescaped is p.
func rawEncodes(raw, p string) bool {
	j := 0
	for i := 0; i < len(raw); j++ {
		if raw[i] != '%' && !rawPathBytes[raw[i]] {
			return false
		}
		c, next := unescapeByte(raw, i)
		if next < 0 || j >= len(p) || p[j] != c {
			return false
		}
		i = next
	}
	return j == len(p)
}

// rawPathBytes tells the bytes that url.URL.EscapedPath accepts unescaped
// in a RawPath. It is read off net/url itself, so that rawEncodes agrees
// with it.
var rawPathBytes = func() (t [256]bool) {
	for c := range 256 {
		if c == '%' {
			continue
		}
		s := "/" + string([]byte{byte(c)})
		u := url.URL{Path: s, RawPath: s}
		t[c] = u.EscapedPath() == s
	}
	return t
}()

// unescapeByte returns the byte that s holds at i, "%2F" standing for '/',
// and the index of the next one; the index is -1 if an escape at i is
// malformed.
func unescapeByte(s string, i int) (c byte, next int) {
	if s[i] != '%' {
		return s[i], i + 1
	}
	if i+2 >= len(s) || !isHexDigit(s[i+1]) || !isHexDigit(s[i+2]) {
		return 0, -1
	}
	return unHex(s[i+1])<<4 | unHex(s[i+2]), i + 3
}

// unHex returns the value of the hexadecimal digit c.
func unHex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// nextSegment splits p, which starts with '/', into its first segment and the
// rest. A lone "/" is the segment "/" (a trailing slash, matched by {$}).
func nextSegment(p string) (seg, rest string) {
	if p == "/" {
		return "/", ""
	}
	p = p[1:]
	// Optimization: most segments are short. The first eight bytes are
	// searched as one word (see slashMask), a shorter path byte by byte,
	// and only the rest of a long segment with strings.IndexByte, whose
	// call costs more than the search of a few bytes.
	if len(p) < 8 {
		for i := 0; i < len(p); i++ {
			if p[i] == '/' {
				return p[:i], p[i:]
			}
		}
		return p, ""
	}
	if m := slashMask(word(p, 0)); m != 0 {
		i := bits.TrailingZeros64(m) / 8
		return p[:i], p[i:]
	}
	if i := strings.IndexByte(p[8:], '/'); i >= 0 {
		return p[:8+i], p[8+i:]
	}
	return p, ""
}

// segmentValue returns the unescaped value of a raw segment of a path whose
// segments are escaped if escaped is set.
func segmentValue(seg string, escaped bool) string {
	if !escaped {
		return seg
	}
	return pathUnescape(seg)
}
