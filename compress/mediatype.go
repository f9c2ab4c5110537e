package compress

// This file holds the allow-list of media types: the parsing of
// Options.ContentTypes and the test of a response's Content-Type against
// it.
//
// An entry is a media range without parameters: "application/json" (that
// type exactly), "text/*" (any subtype of text), "application/*+json" (any
// subtype of application that ends in +json, such as problem+json, but not
// json itself) or "*/*" (anything). Given the Content-Type
// "Application/Problem+JSON; charset=utf-8", the parameters are dropped,
// and "application" and "problem+json" are compared with each entry, case
// ignored, until one matches: "application/*+json" does.

import (
	"fmt"
	"strings"
)

// defaultTypes is the allow-list when Options.ContentTypes is nil: text
// and structured text, and the binary formats that compress well. Images
// other than SVG, audio, video, archives and application/octet-stream are
// already compressed, or may be.
var defaultTypes = []string{
	"text/*", // html, css, plain, csv, javascript, markdown, event-stream, ...
	"application/json",
	"application/*+json", // problem+json, ld+json, manifest+json, graphql-response+json, ...
	"application/x-ndjson",
	"application/javascript",
	"application/xml",
	"application/*+xml", // atom+xml, rss+xml, xhtml+xml, soap+xml, ...
	"application/wasm",
	"image/svg+xml",
	"font/ttf",
	"font/otf",
}

// A mediaRange is a parsed entry of the allow-list.
type mediaRange struct {
	typ    string // lower case, or "*" for any type
	sub    string // lower case: the subtype, or with wild the suffix ("+json" or "")
	wild   bool   // sub is "*" followed by the suffix in sub
	source string // the entry as written, for messages
}

// String returns the entry as it was written.
func (m mediaRange) String() string { return m.source }

// parseMediaRange parses an entry of Options.ContentTypes.
func parseMediaRange(s string) (mediaRange, error) {
	typ, sub, ok := strings.Cut(s, "/")
	if !ok || !isToken(typ) || sub == "" {
		return mediaRange{}, fmt.Errorf("%q is not a media type (as in \"text/html\" or \"text/*\")", s)
	}
	m := mediaRange{typ: strings.ToLower(typ), source: s}
	if rest, wild := strings.CutPrefix(sub, "*"); wild {
		if rest != "" && (rest[0] != '+' || !isToken(rest[1:])) {
			return mediaRange{}, fmt.Errorf("%q: a wildcard subtype is \"*\" or \"*+suffix\"", s)
		}
		m.sub, m.wild = strings.ToLower(rest), true
	} else {
		if !isToken(sub) {
			return mediaRange{}, fmt.Errorf("%q is not a media type (as in \"text/html\" or \"text/*\")", s)
		}
		m.sub = strings.ToLower(sub)
	}
	switch {
	case m.typ == "*" && (!m.wild || m.sub != ""):
		return mediaRange{}, fmt.Errorf("%q: a wildcard type goes only with a wildcard subtype, as in \"*/*\"", s)
	case m.typ != "*" && strings.Contains(m.typ, "*"), strings.Contains(m.sub, "*"):
		return mediaRange{}, fmt.Errorf("%q: a wildcard stands for a whole type, or begins a subtype (\"*\" or \"*+suffix\")", s)
	}
	return m, nil
}

// match reports whether the media type typ/sub is in m. A wildcard never
// matches the types of gRPC and Connect streams (see rpcStream).
func (m mediaRange) match(typ, sub string) bool {
	if m.typ != "*" && !equalFold(typ, m.typ) {
		return false
	}
	if !m.wild {
		return equalFold(sub, m.sub)
	}
	return len(sub) > len(m.sub) && equalFold(sub[len(sub)-len(m.sub):], m.sub) && !rpcStream(typ, sub)
}

// rpcStream reports whether typ/sub is the type of a gRPC, gRPC-Web or
// Connect stream: application/grpc, application/grpc+json,
// application/grpc-web+json, application/connect+json, and the like. Their
// messages carry their own compression, and gRPC has no content coding
// over HTTP at all, so "application/*+json" (or "*/*") does not take them
// in; an entry that names one exactly does.
func rpcStream(typ, sub string) bool {
	if !equalFold(typ, "application") {
		return false
	}
	prefixFold := func(p string) bool { return len(sub) >= len(p) && equalFold(sub[:len(p)], p) }
	return equalFold(sub, "grpc") || prefixFold("grpc+") || prefixFold("grpc-web") || prefixFold("connect+")
}

// allowType reports whether a response with the Content-Type ct may be
// compressed under c.
//
// Allocation: none.
func (c *config) allowType(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	typ, sub, ok := strings.Cut(trimOWS(mt), "/")
	if !ok || typ == "" || sub == "" {
		return false
	}
	for _, m := range c.types {
		if m.match(typ, sub) {
			return true
		}
	}
	return false
}

// isToken reports whether s is a token of HTTP's grammar: one or more of
// the characters allowed in names.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}
