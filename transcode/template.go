package transcode

// This file parses the path templates of google.api.http rules:
//
//	Template = "/" | "/" Segments [ Verb ] ;
//	Segments = Segment { "/" Segment } ;
//	Segment  = "*" | "**" | LITERAL | Variable ;
//	Variable = "{" FieldPath [ "=" Segments ] "}" ;
//	FieldPath = IDENT { "." IDENT } ;
//	Verb     = ":" LITERAL ;
//
// The parser is a recursive descent over the bytes of the template, one
// function a production, that records a flat list of segments and, for
// each variable, the range of segments it covers. Given
//
//	/v1/{name=shelves/*/books/*}:move
//
// it reads "/", the literal v1 (segment 0), then a variable: the field
// path name, "=", and the segments shelves, *, books, * (1 to 4); the
// variable covers segments [1, 5). The verb is "move". {id} is short for
// {id=*}. Given /v1/{path=**}/meta, path covers [1, 2) and the literal
// meta is segment 2: a "**" takes as many request segments as the
// request has, less the literals after it, so the segments after a "**"
// are counted from the end of the request path (see pathTemplate.segIndex).
//
// The rules, as in grpc-httpjson-transcoding (the library behind Envoy's
// and ESP's transcoders):
//   - A template is "/" or starts with "/" and has no empty segment: "//",
//     "/a/" and "/a//b" are errors.
//   - Only literals may follow a "**", inside or outside a variable: not
//     "*", "**" or {x} (which is {x=*}). A variable of literals may:
//     /{path=**}/{kind=meta} binds kind to the last segment. (The
//     reference accepts it too but counts its segments from the start of
//     the path, binding the wrong one.)
//   - Variables do not nest.
//
// Stricter than the reference, which takes nearly any byte in a literal
// or an IDENT and lets a field path appear twice:
//   - A field path appears at most once in a template.
//   - An IDENT is a protobuf field name: [A-Za-z_][A-Za-z0-9_]*.
//   - A LITERAL (and a verb) is made of the bytes a path segment may hold
//     unescaped (RFC 3986 pchar) but ":" and "*", with "%" only in a
//     well-formed escape such as %2F. So "/a b", "/caf\xc3\xa9" and "/a{b",
//     literals that no escaped request path could match, are errors, and
//     so is "/a*", more likely a mistyped wildcard than a literal.
//
// Literals are kept as written, escapes included: the matcher compares
// them with the segments of the escaped request path.

import (
	"fmt"
	"strings"
)

// segKind is the kind of a template segment.
type segKind uint8

const (
	segLiteral    segKind = iota // matches a segment equal to its text
	segStar                      // "*": matches one segment
	segDoubleStar                // "**": matches the segments up to the literals after it
)

// String returns the kind as it is written in a template ("literal" for a
// literal).
func (k segKind) String() string {
	switch k {
	case segLiteral:
		return "literal"
	case segStar:
		return "*"
	case segDoubleStar:
		return "**"
	}
	return fmt.Sprintf("segKind(%d)", k)
}

// tmplSegment is one segment of a template.
type tmplSegment struct {
	kind segKind
	lit  string // the text of a segLiteral, escapes as written
}

// tmplVar is a variable of a template.
type tmplVar struct {
	field      string // dotted field path: "book.name"
	start, end int    // the template segments it covers: [start, end)
	// multi reports whether the variable covers more than one segment or a
	// "**": its value may hold several request segments and is decoded
	// keeping reserved characters escaped (see unescapeValue).
	multi bool
}

// pathTemplate is a parsed template.
//
// Invariant: segments after a "**" are literals, so a "**" in a request
// path takes all request segments but the last len(segs)-dstar-1.
type pathTemplate struct {
	text   string
	segs   []tmplSegment
	vars   []tmplVar
	custom string // the verb, without its ":"
	dstar  int    // index of the "**" segment, -1 if there is none
}

// String returns the template as it was written, as in
// "/v1/{name=shelves/*/books/*}".
func (t *pathTemplate) String() string { return t.text }

// verb returns the template's verb without its colon, "" if it has none.
func (t *pathTemplate) verb() string { return t.custom }

// variables returns the dotted field paths of the template's variables in
// the order they appear, as ["book.name", "id"].
func (t *pathTemplate) variables() []string {
	fs := make([]string, len(t.vars))
	for i, v := range t.vars {
		fs[i] = v.field
	}
	return fs
}

// segIndex returns the index of the request segment that template segment
// k matches (or, for k == len(t.segs), the number of request segments), in
// a request path of n segments that the template matches. Segments after
// a "**" are counted from the end.
func (t *pathTemplate) segIndex(k, n int) int {
	if t.dstar >= 0 && k > t.dstar {
		return n - (len(t.segs) - k)
	}
	return k
}

// templateParser holds the state of parsing one template.
type templateParser struct {
	s     string
	pos   int // offset of the next byte to read
	t     *pathTemplate
	inVar bool // parsing the segments of a variable
}

// parseTemplate parses s, a google.api.http path template. Its error
// names s and the offset where parsing failed:
//
//	transcode: template "/v1/{a": at offset 4: unclosed variable
func parseTemplate(s string) (*pathTemplate, error) {
	p := &templateParser{s: s, t: &pathTemplate{text: s, dstar: -1}}
	if err := p.parse(); err != nil {
		return nil, fmt.Errorf("transcode: template %q: at offset %d: %s", s, p.pos, err)
	}
	return p.t, nil
}

// parseError is a message about the byte at the parser's offset.
type parseError string

// Error returns the message.
func (e parseError) Error() string { return string(e) }

// parse parses Template.
func (p *templateParser) parse() error {
	if !p.eat('/') {
		return parseError(`a template starts with "/"`)
	}
	if p.s == "/" {
		return nil
	}
	if err := p.segments(); err != nil {
		return err
	}
	if p.eat(':') {
		start := p.pos
		if err := p.literal(); err != nil {
			return err
		}
		if p.pos == start {
			return parseError("empty verb")
		}
		p.t.custom = p.s[start:p.pos]
	}
	if p.pos < len(p.s) {
		return p.unexpected()
	}
	return nil
}

// segments parses Segments.
func (p *templateParser) segments() error {
	for {
		if err := p.segment(); err != nil {
			return err
		}
		if !p.eat('/') {
			return nil
		}
	}
}

// segment parses Segment.
func (p *templateParser) segment() error {
	if p.pos < len(p.s) && p.s[p.pos] == '*' && p.t.dstar >= 0 {
		return parseError(`only literals may follow "**"`)
	}
	switch {
	case strings.HasPrefix(p.s[p.pos:], "**"):
		p.t.dstar = len(p.t.segs)
		p.t.segs = append(p.t.segs, tmplSegment{kind: segDoubleStar})
		p.pos += 2
	case p.eat('*'):
		p.t.segs = append(p.t.segs, tmplSegment{kind: segStar})
	case p.pos < len(p.s) && p.s[p.pos] == '{':
		return p.variable()
	default:
		start := p.pos
		if err := p.literal(); err != nil {
			return err
		}
		if p.pos == start {
			if p.pos == len(p.s) || p.s[p.pos] == '/' || p.s[p.pos] == ':' || p.s[p.pos] == '}' {
				return parseError("empty segment")
			}
			return p.unexpected()
		}
		p.t.segs = append(p.t.segs, tmplSegment{kind: segLiteral, lit: p.s[start:p.pos]})
	}
	return nil
}

// variable parses Variable, at its "{".
func (p *templateParser) variable() error {
	if p.inVar {
		return parseError("a variable inside a variable")
	}
	open := p.pos
	p.pos++ // '{'
	start := p.pos
	if err := p.fieldPath(); err != nil {
		if p.pos == len(p.s) {
			p.pos = open
		}
		return err
	}
	field := p.s[start:p.pos]
	for _, v := range p.t.vars {
		if v.field == field {
			p.pos = start
			return parseError("variable " + field + " appears twice")
		}
	}
	v := tmplVar{field: field, start: len(p.t.segs)}
	if p.eat('=') {
		p.inVar = true
		err := p.segments()
		p.inVar = false
		if err != nil {
			return err
		}
	} else {
		if p.t.dstar >= 0 {
			p.pos = open
			return parseError(`only literals may follow "**"`)
		}
		p.t.segs = append(p.t.segs, tmplSegment{kind: segStar})
	}
	if !p.eat('}') {
		if p.pos == len(p.s) {
			p.pos = open
			return parseError("unclosed variable")
		}
		return p.unexpected()
	}
	v.end = len(p.t.segs)
	v.multi = v.end-v.start > 1 || (v.start <= p.t.dstar && p.t.dstar < v.end)
	p.t.vars = append(p.t.vars, v)
	return nil
}

// fieldPath parses FieldPath.
func (p *templateParser) fieldPath() error {
	for {
		if p.pos == len(p.s) || !isIdentStart(p.s[p.pos]) {
			if p.pos == len(p.s) {
				return parseError("unclosed variable")
			}
			return parseError(fmt.Sprintf("expected a field name, found %q", p.s[p.pos]))
		}
		for p.pos < len(p.s) && isIdentByte(p.s[p.pos]) {
			p.pos++
		}
		if !p.eat('.') {
			return nil
		}
	}
}

// literal consumes the bytes of a LITERAL, possibly none; a "%" must start
// an escape of two hexadecimal digits.
func (p *templateParser) literal() error {
	for p.pos < len(p.s) && isLiteralByte(p.s[p.pos]) {
		if p.s[p.pos] == '%' {
			if p.pos+2 >= len(p.s) || unhex(p.s[p.pos+1]) < 0 || unhex(p.s[p.pos+2]) < 0 {
				return parseError("malformed escape")
			}
			p.pos += 2
		}
		p.pos++
	}
	return nil
}

// unexpected returns the error for the byte at the parser's offset.
func (p *templateParser) unexpected() error {
	c := p.s[p.pos]
	if c >= 0x80 || c <= ' ' || c == 0x7f {
		return parseError(fmt.Sprintf("byte %#02x must be percent-encoded", c))
	}
	return parseError(fmt.Sprintf("unexpected %q", c))
}

// eat consumes c if it is the next byte.
func (p *templateParser) eat(c byte) bool {
	if p.pos < len(p.s) && p.s[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

// isIdentStart reports whether c may start an IDENT.
func isIdentStart(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}

// isIdentByte reports whether c may appear in an IDENT.
func isIdentByte(c byte) bool { return isIdentStart(c) || '0' <= c && c <= '9' }

// isLiteralByte reports whether c may appear in a LITERAL: a pchar of
// RFC 3986 (unreserved, sub-delims, "@" or the "%" of an escape) but ":"
// and "*".
func isLiteralByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	switch c {
	case '-', '.', '_', '~', '!', '$', '&', '\'', '(', ')', '+', ',', ';', '=', '@', '%':
		return true
	}
	return false
}
