package transcode

// This file decodes the values of path variables. A variable of one
// segment is fully decoded: /v1/books/a%2Fb gives the name "a/b". A
// variable of several segments, or one holding "**", keeps the reserved
// characters of RFC 6570 (! # $ & ' ( ) * + , / : ; = ? @ [ ]) escaped, so
// that /v1/shelves/a%2Fb/books/c gives "shelves/a%2Fb/books/c" and the
// value still shows where its segments are; Options.DecodeReserved decodes
// them too. There "%" itself stays escaped as well (unlike in the reference
// implementation), or a%252Fb and a%2Fb would give the same value: kept
// escapes and decoded text cannot be told apart otherwise. "+" is a plus
// sign in a path, never a space.

import "fmt"

// isReserved reports whether c is a reserved character of RFC 6570.
func isReserved(c byte) bool {
	switch c {
	case '!', '#', '$', '&', '\'', '(', ')', '*', '+', ',', '/', ':', ';', '=', '?', '@', '[', ']':
		return true
	}
	return false
}

// kept reports whether the escape of c stays escaped in a variable of
// several segments: c is reserved, or "%".
func kept(c byte) bool { return c == '%' || isReserved(c) }

// unhex returns the value of the hexadecimal digit c, or -1.
func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// unescapeValue decodes raw, the escaped text of a variable; multi says
// the variable covers several segments, and decodeReserved that reserved
// characters are decoded there too. A malformed escape is an error.
//
// Allocation: none when raw holds no escape that is decoded.
func unescapeValue(raw string, multi, decodeReserved bool) (string, error) {
	keep := multi && !decodeReserved
	n := 0 // escapes to decode
	for i := 0; i < len(raw); i++ {
		if raw[i] != '%' {
			continue
		}
		if i+2 >= len(raw) || unhex(raw[i+1]) < 0 || unhex(raw[i+2]) < 0 {
			end := min(i+3, len(raw))
			return "", fmt.Errorf("malformed escape %q", raw[i:end])
		}
		if c := byte(unhex(raw[i+1])<<4 | unhex(raw[i+2])); !keep || !kept(c) {
			n++
		}
		i += 2
	}
	if n == 0 {
		return raw, nil
	}
	b := make([]byte, 0, len(raw)-2*n)
	for i := 0; i < len(raw); i++ {
		if raw[i] == '%' {
			c := byte(unhex(raw[i+1])<<4 | unhex(raw[i+2]))
			if !keep || !kept(c) {
				b = append(b, c)
				i += 2
				continue
			}
		}
		b = append(b, raw[i])
	}
	return string(b), nil
}
