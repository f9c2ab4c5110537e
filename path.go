package cairn

// This file holds the path helpers: cleaning, splitting into segments and
// unescaping, all without allocating when the path is already in its usual
// form.

import (
	"net/url"
	"path"
	"strings"
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
	i := strings.LastIndexByte(h, ':')
	if i < 0 {
		return h
	}
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

// requestPath returns the path to route u by and whether its segments are
// still escaped.
//
// The router matches on the escaped path split at '/', so that "%2F" stays
// inside a segment, and unescapes each segment, as net/http.ServeMux does.
// Optimization: when u.RawPath is empty, u.Path is exactly the unescaped form
// of the escaped path, with the same slashes, so its segments need no
// unescaping and nothing is allocated.
func requestPath(u *url.URL) (p string, escaped bool) {
	if u.RawPath == "" {
		return u.Path, false
	}
	return u.EscapedPath(), true
}

// nextSegment splits p, which starts with '/', into its first segment and the
// rest. A lone "/" is the segment "/" (a trailing slash, matched by {$}).
func nextSegment(p string) (seg, rest string) {
	if p == "/" {
		return "/", ""
	}
	p = p[1:]
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i], p[i:]
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
