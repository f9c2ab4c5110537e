package compress

// This file holds content negotiation: the choice of a coding from a
// request's Accept-Encoding header (RFC 9110, section 12.5.3).
//
// Each element of the header names a coding, "identity" or "*", with an
// optional weight, its q-value. Each coding the server offers takes the
// q-value of the elements that name it ("x-gzip" names gzip), or else that
// of "*", or else 0: it is not acceptable. Given
//
//	Accept-Encoding: gzip;q=0.8, zstd, identity;q=0.5
//
// and the server's preference for zstd over gzip, zstd has q=1, gzip 0.8
// and identity 0.5, so zstd wins. The offered coding with the highest
// q-value above 0 wins, the server's order breaking ties. Identity wins
// instead if the client weighs it higher, by name or through "*"
// ("gzip;q=0.5, identity" or "gzip;q=0.5, *" when only gzip is offered);
// a client that does not mention it accepts it but does not prefer it, so
// "gzip;q=0.5" alone gets gzip. Identity also wins when no offered coding
// is acceptable, even if the client refused it ("identity;q=0"): the
// answer goes out uncompressed rather than as a 406, which would help no
// one. A request with no Accept-Encoding header gets identity.
//
// The parser walks the header's values in place, with no strings.Split,
// so it allocates nothing. Tokens and the "q" name are case-insensitive (in ASCII).
// An element whose q-value is malformed ("q=2", "q=.5", "q=high") is
// ignored, as if it were not there; so is an empty one (",,gzip").
// Elements that repeat a coding count with the highest of their q-values.

import (
	"fmt"
	"strings"
)

// A coding is a content coding that a filter produces, or identity, the
// body as the handler wrote it.
type coding uint8

const (
	identity coding = iota
	gzipCoding
	zstdCoding
	numCodings
)

// String returns the coding's token, as in Content-Encoding.
func (c coding) String() string {
	switch c {
	case identity:
		return "identity"
	case gzipCoding:
		return "gzip"
	case zstdCoding:
		return "zstd"
	}
	return fmt.Sprintf("coding(%d)", uint8(c))
}

// parseCoding returns the coding that s, an entry of Options.Encodings,
// names: "gzip" or "zstd", in any case.
func parseCoding(s string) (coding, bool) {
	switch {
	case equalFold(s, "gzip"):
		return gzipCoding, true
	case equalFold(s, "zstd"):
		return zstdCoding, true
	}
	return identity, false
}

// Q-values are kept in thousandths, as they are written with at most
// three decimals: q=1 is 1000, q=0.5 is 500. qUnset marks a coding that no
// element named.
const (
	qMax   = 1000
	qUnset = -1
)

// negotiate returns the coding to answer with, given the values of a
// request's Accept-Encoding header (nil if it has none) and the codings
// the server offers, best first. See the top of this file.
//
// Allocation: none.
func negotiate(values []string, offered []coding) coding {
	if len(values) == 0 {
		return identity
	}
	q := [numCodings]int{qUnset, qUnset, qUnset}
	star := qUnset
	for _, v := range values {
		for v != "" {
			var elem string
			elem, v, _ = strings.Cut(v, ",")
			name, qv, ok := parseElement(elem)
			if !ok {
				continue
			}
			var c coding
			switch {
			case name == "*":
				star = max(star, qv)
				continue
			case equalFold(name, "gzip"), equalFold(name, "x-gzip"):
				c = gzipCoding
			case equalFold(name, "zstd"):
				c = zstdCoding
			case equalFold(name, "identity"):
				c = identity
			default:
				continue
			}
			q[c] = max(q[c], qv)
		}
	}

	best, bestQ := identity, 0
	for _, c := range offered {
		qc := q[c]
		if qc == qUnset {
			qc = star // qUnset too if there is no "*": not acceptable
		}
		if qc > bestQ {
			best, bestQ = c, qc
		}
	}
	if best == identity {
		return identity
	}
	qi := q[identity]
	if qi == qUnset {
		qi = star // qUnset too if there is no "*": identity does not compete
	}
	if qi > bestQ {
		return identity
	}
	return best
}

// parseElement parses one element of an Accept-Encoding header, such as
// " gzip;q=0.8", into the coding's name and its q-value in thousandths.
// It reports false for an element to ignore: an empty one, or one with a
// malformed q-value. Parameters other than q are ignored.
func parseElement(elem string) (name string, q int, ok bool) {
	name, params, _ := strings.Cut(elem, ";")
	name = trimOWS(name)
	if name == "" {
		return "", 0, false
	}
	q = qMax
	for params != "" {
		var p string
		p, params, _ = strings.Cut(params, ";")
		key, val, _ := strings.Cut(p, "=")
		if !equalFold(trimOWS(key), "q") {
			continue
		}
		if q, ok = parseQ(trimOWS(val)); !ok {
			return "", 0, false
		}
	}
	return name, q, true
}

// parseQ parses a q-value, which RFC 9110 writes as "0" or "1" followed by
// up to three decimals ("0.25", "1.0"), into thousandths.
func parseQ(s string) (int, bool) {
	if len(s) == 0 || len(s) > len("0.000") || (s[0] != '0' && s[0] != '1') {
		return 0, false
	}
	q := int(s[0]-'0') * qMax
	if len(s) == 1 {
		return q, true
	}
	if s[1] != '.' {
		return 0, false
	}
	scale := qMax / 10
	for i := 2; i < len(s); i++ {
		d := s[i]
		if d < '0' || d > '9' {
			return 0, false
		}
		q += int(d-'0') * scale
		scale /= 10
	}
	if q > qMax {
		return 0, false
	}
	return q, true
}

// equalFold reports whether s and t are equal, ignoring the case of ASCII
// letters, as HTTP compares tokens. Unlike strings.EqualFold it folds
// nothing else: "zſtd", with a long s, is not "zstd".
func equalFold(s, t string) bool {
	if len(s) != len(t) {
		return false
	}
	for i := 0; i < len(s); i++ {
		a, b := s[i], t[i]
		if 'A' <= a && a <= 'Z' {
			a += 'a' - 'A'
		}
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if a != b {
			return false
		}
	}
	return true
}

// trimOWS returns s without the spaces and tabs around it, the optional
// white space of HTTP's grammar.
func trimOWS(s string) string {
	for s != "" && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for s != "" && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}
