package transcode

// This file decodes the values of path variables, which the matcher binds
// as they appear in the escaped request path. How much is decoded depends
// on the variable, as in google/api/http.proto and the reference
// implementation:
//
//   - A variable of one segment, {name} or {name=*}, is fully decoded:
//     /v1/books/a%2Fb%20c gives the name "a/b c" (decodeSingle).
//   - A variable of several segments or of a "**", {name=shelves/*} or
//     {path=**}, keeps the RFC 6570 reserved characters
//     ! # $ & ' ( ) * + , / : ; = ? @ [ ] escaped, so that the value still
//     shows where its segments were: /v1/shelves/a%2Fb%20c gives
//     "shelves/a%2Fb c" (decodeMultiReserved).
//   - With the option to decode reserved characters, everything is decoded
//     there too: "shelves/a/b c" (decodeMultiAll).
//
// One deliberate difference from the reference: in decodeMultiReserved
// "%" itself (%25) stays escaped as well. The reference decodes it, so
// that a%252Fb and a%2Fb both give a%2Fb; keeping it, the two stay
// different and every kept escape can be decoded later without doubt.
//
// A "+" is a plus sign in a path, never a space (unlike in a query). A
// "%" not followed by two hexadecimal digits is an error here, where the
// reference passes it through.
//
// Decoding scans raw once to count what it will decode; when that is
// nothing, raw is returned as it is, without a copy.

import "fmt"

// decodeMode says which percent-escapes of a path variable are decoded.
type decodeMode int

const (
	decodeSingle        decodeMode = iota // a variable of one segment: all
	decodeMultiReserved                   // several segments: all but reserved characters and "%"
	decodeMultiAll                        // several segments, decoding reserved characters too: all
)

// String names the mode.
func (d decodeMode) String() string {
	switch d {
	case decodeSingle:
		return "single"
	case decodeMultiReserved:
		return "multi, reserved kept"
	case decodeMultiAll:
		return "multi, all decoded"
	}
	return fmt.Sprintf("decodeMode(%d)", int(d))
}

// modeOf returns the decoding of a variable: multi reports whether it
// covers several segments or a "**" (binding.multi), decodeReserved
// whether reserved characters are decoded in such variables.
func modeOf(multi, decodeReserved bool) decodeMode {
	switch {
	case !multi:
		return decodeSingle
	case decodeReserved:
		return decodeMultiAll
	}
	return decodeMultiReserved
}

// unescapeValue decodes raw, the value of a path variable as it appears in
// the escaped path, as modeOf(multi, decodeReserved) says. A malformed
// escape ("%G1", or "%2" at the end) is an error.
//
// Allocation: none when raw holds nothing to decode (it is returned as
// is); otherwise one string.
func unescapeValue(raw string, multi, decodeReserved bool) (string, error) {
	return unescape(raw, modeOf(multi, decodeReserved))
}

// unescape decodes the percent-escapes of raw that mode decodes.
func unescape(raw string, mode decodeMode) (string, error) {
	n := 0 // escapes to decode
	for i := 0; i < len(raw); i++ {
		if raw[i] != '%' {
			continue
		}
		c, ok := escaped(raw, i)
		if !ok {
			return "", fmt.Errorf("transcode: malformed escape %q at offset %d", raw[i:min(i+3, len(raw))], i)
		}
		if decodes(mode, c) {
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
			if c, _ := escaped(raw, i); decodes(mode, c) {
				b = append(b, c)
				i += 2
				continue
			}
		}
		b = append(b, raw[i])
	}
	return string(b), nil
}

// escaped returns the byte that the escape at s[i], a "%", stands for, and
// false if it is malformed.
func escaped(s string, i int) (byte, bool) {
	if i+2 >= len(s) {
		return 0, false
	}
	hi, lo := unhex(s[i+1]), unhex(s[i+2])
	if hi < 0 || lo < 0 {
		return 0, false
	}
	return byte(hi<<4 | lo), true
}

// decodes reports whether mode decodes the escape of c.
func decodes(mode decodeMode, c byte) bool {
	return mode != decodeMultiReserved || (c != '%' && !isReserved(c))
}

// isReserved reports whether c is a reserved character of RFC 6570
// (section 1.5): the gen-delims and sub-delims of RFC 3986.
func isReserved(c byte) bool {
	switch c {
	case '!', '#', '$', '&', '\'', '(', ')', '*', '+', ',', '/', ':', ';', '=', '?', '@', '[', ']':
		return true
	}
	return false
}

// unhex returns the value of the hexadecimal digit c, or -1 if c is not
// one.
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
