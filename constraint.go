package cairn

// This file defines wildcard constraints: the built-in ones, which are byte
// loops, named ones defined on a Router, and inline regular expressions.

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"weak"
)

// A constraint restricts the segments a wildcard matches. It is consulted
// with the unescaped segment.
type constraint struct {
	key   string // identity: the name, or "regexp:" and the expression
	match func(string) bool
	// strong is set on the constraint of a DefineConstraint function
	// that patterns' segments hold, whose match reaches the function
	// weakly: it is the constraint that calls the function directly,
	// which lookup nodes hold instead (see lookupCon).
	strong weak.Pointer[constraint]
}

// lookupCon returns the constraint that lookup nodes hold for c, a
// segment's: c itself, or the one that calls its function directly.
func (c *constraint) lookupCon() *constraint {
	if s := c.strong.Value(); s != nil {
		return s
	}
	return c
}

// builtinConstraints are the constraints every Router knows.
var builtinConstraints = map[string]func(string) bool{
	"int":   isInt,
	"uint":  isUint,
	"hex":   isHex,
	"alpha": isAlpha,
	"alnum": isAlnum,
	"uuid":  isUUID,
	"ipv4":  isIPv4,
}

// constraintSet holds the named constraints of a Router.
type constraintSet struct {
	named map[string]*constraint
}

// define adds a named constraint. It fails if the name is not an
// identifier or is taken.
func (cs *constraintSet) define(name string, c *constraint) error {
	if !isValidWildcardName(name) {
		return fmt.Errorf("cairn: constraint name %q is not an identifier", name)
	}
	if _, ok := builtinConstraints[name]; ok {
		return fmt.Errorf("cairn: constraint %q is built in and cannot be redefined", name)
	}
	if _, ok := cs.named[name]; ok {
		return fmt.Errorf("cairn: constraint %q is already defined", name)
	}
	if cs.named == nil {
		cs.named = map[string]*constraint{}
	}
	cs.named[name] = c
	return nil
}

// lookup resolves expr, the text after the ':' of a constrained wildcard.
// A name of a built-in or defined constraint denotes that constraint; any
// other identifier is an error (a misspelt name should not silently become a
// regular expression); anything else is compiled as a regular expression
// that must match the whole segment.
func (cs *constraintSet) lookup(expr string) (*constraint, error) {
	if f, ok := builtinConstraints[expr]; ok {
		return &constraint{key: expr, match: f}, nil
	}
	if c, ok := cs.named[expr]; ok {
		return c, nil
	}
	if isValidWildcardName(expr) {
		return nil, fmt.Errorf("unknown constraint %q (to match it literally, write the regexp (?:%s))", expr, expr)
	}
	if strings.HasSuffix(expr, "...") {
		return nil, fmt.Errorf("constraint %q ends in \"...\": a {name...} wildcard cannot have a constraint", expr)
	}
	return compileConstraint(expr)
}

// compileConstraint compiles expr into a constraint that matches a whole segment.
func compileConstraint(expr string) (*constraint, error) {
	if _, err := syntax.Parse(expr, syntax.Perl); err != nil {
		return nil, fmt.Errorf("invalid regexp %q: %w", expr, err)
	}
	re, err := regexp.Compile(`^(?:` + expr + `)$`)
	if err != nil {
		return nil, fmt.Errorf("invalid regexp %q: %w", expr, err)
	}
	match := re.MatchString
	if a, ok := asciiRepeatOf(expr); ok {
		match = a.match
	}
	return &constraint{key: "regexp:" + expr, match: match}, nil
}

// An asciiRepeat matches what a regular expression made of one character
// class of ASCII characters, repeated, matches: a segment of min to max
// bytes (max < 0: any number from min), each of them in set. Since every
// character of the class is one byte, and no byte of a longer UTF-8
// sequence, nor an invalid byte, is in the class, counting bytes is
// counting characters.
//
// Optimization: [a-z0-9-]+, [A-Z]{3} and \d{4}, the usual shapes of an
// inline constraint, run as a table lookup per byte instead of a regexp.
type asciiRepeat struct {
	set      [256]bool
	min, max int
}

// match reports whether s matches a.
func (a *asciiRepeat) match(s string) bool {
	if len(s) < a.min || a.max >= 0 && len(s) > a.max {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !a.set[s[i]] {
			return false
		}
	}
	return true
}

// asciiRepeatOf returns the asciiRepeat that matches what expr matches as
// a whole, if expr is one character class of ASCII characters (or one
// ASCII character, case-sensitive), alone or under *, +, ? or {m,n}.
func asciiRepeatOf(expr string) (*asciiRepeat, bool) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, false
	}
	a := &asciiRepeat{min: 1, max: 1}
	switch re.Op {
	case syntax.OpStar:
		a.min, a.max, re = 0, -1, re.Sub[0]
	case syntax.OpPlus:
		a.min, a.max, re = 1, -1, re.Sub[0]
	case syntax.OpQuest:
		a.min, a.max, re = 0, 1, re.Sub[0]
	case syntax.OpRepeat:
		a.min, a.max, re = re.Min, re.Max, re.Sub[0]
	}
	var ranges []rune
	switch {
	case re.Op == syntax.OpCharClass:
		ranges = re.Rune
	case re.Op == syntax.OpLiteral && len(re.Rune) == 1 && re.Flags&syntax.FoldCase == 0:
		// (A letter that folds case is left to the regexp: "(?i)k" also
		// matches the Kelvin sign.)
		ranges = []rune{re.Rune[0], re.Rune[0]}
	default:
		return nil, false
	}
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i] < 0 || ranges[i+1] >= 0x80 {
			return nil, false
		}
		for c := ranges[i]; c <= ranges[i+1]; c++ {
			a.set[c] = true
		}
	}
	return a, true
}

// isUint reports whether s is one or more ASCII digits.
func isUint(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isInt reports whether s is an optional '-' followed by one or more ASCII digits.
func isInt(s string) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	return isUint(s)
}

// isHex reports whether s is one or more hexadecimal digits, in either case.
func isHex(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isHexDigit(s[i]) {
			return false
		}
	}
	return true
}

// isHexDigit reports whether c is 0-9, a-f or A-F.
func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// isAlpha reports whether s is one or more ASCII letters.
func isAlpha(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// isAlnum reports whether s is one or more ASCII letters and digits.
func isAlnum(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if '0' <= c && c <= '9' {
			continue
		}
		if c |= 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// isUUID reports whether s is 32 hexadecimal digits in groups of 8-4-4-4-12
// separated by '-', in either case. Versions and variants are not checked.
//
// Optimization: the digits are checked eight bytes at a time (see
// hexBits), in five words that cover s; the two words that hold dashes
// are checked only at their digits.
func isUUID(s string) bool {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return false
	}
	const (
		all  = 0x8080808080808080
		mid1 = all &^ (0x80 | 0x80<<40)     // s[8:16]: dashes at 8 and 13
		mid2 = all &^ (0x80<<16 | 0x80<<56) // s[16:24]: dashes at 18 and 23
	)
	return hexBits(word(s, 0)) == all &&
		hexBits(word(s, 8))&mid1 == mid1 &&
		hexBits(word(s, 16))&mid2 == mid2 &&
		hexBits(word(s, 24)) == all &&
		hexBits(word(s, 28)) == all
}

// hexBits returns the high bit of each byte of x that is a hexadecimal
// digit, in either case, and no other bit.
//
// Each range test adds a constant to every byte at once: with the high
// bits cleared first, no sum carries into the next byte, and a byte's sum
// reaches 0x80 exactly when the byte is at least the range's bound.
func hexBits(x uint64) uint64 {
	const (
		ones = 0x0101010101010101
		high = 0x80 * ones
	)
	ascii := ^x & high
	x &^= high
	digit := (x + (0x80-'0')*ones) &^ (x + (0x7f-'9')*ones)
	y := x | 0x20*ones // 'A'-'F' become 'a'-'f'; no other byte does
	letter := (y + (0x80-'a')*ones) &^ (y + (0x7f-'f')*ones)
	return (digit | letter) & ascii
}

// isIPv4 reports whether s is a dotted quad of decimal numbers 0-255, without
// leading zeros (so "01.2.3.4" is rejected, as net/netip rejects it).
func isIPv4(s string) bool {
	// Optimization: the length is checked first, and each number is read
	// with its one to three digits unrolled.
	if len(s) < len("0.0.0.0") || len(s) > len("255.255.255.255") {
		return false
	}
	i := 0
	for part := 0; ; part++ {
		d := s[i] - '0'
		if d > 9 {
			return false
		}
		n := uint(d)
		i++
		if i < len(s) && s[i]-'0' <= 9 {
			if n == 0 {
				return false // a leading zero
			}
			n = n*10 + uint(s[i]-'0')
			i++
			if i < len(s) && s[i]-'0' <= 9 {
				n = n*10 + uint(s[i]-'0')
				i++
				if n > 255 {
					return false
				}
			}
		}
		if part == 3 {
			return i == len(s)
		}
		if i >= len(s)-1 || s[i] != '.' {
			return false
		}
		i++
	}
}
