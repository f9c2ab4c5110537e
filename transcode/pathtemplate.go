package transcode

// This file parses the path templates of google.api.http rules:
//
//	Template = "/" [ Segments ] [ Verb ] ;
//	Segments = Segment { "/" Segment } ;
//	Segment  = "*" | "**" | LITERAL | Variable ;
//	Variable = "{" FieldPath [ "=" Segments ] "}" ;
//	FieldPath = IDENT { "." IDENT } ;
//	Verb     = ":" LITERAL ;
//
// "/v1/{name=shelves/*/books/*}:move" parses to the segments
// [v1 shelves * books *], the verb "move" and one variable, name, that
// covers segments 1 to 4.
// {x} is {x=*}. After a "**" only literal segments may follow, so that
// where a match ends decides where "**" stops: in "/v1/{path=**}/meta",
// path covers every segment of the request but the first and the last.

import (
	"errors"
	"fmt"
	"strings"
)

// segKind is the kind of a template segment.
type segKind uint8

const (
	segLiteral    segKind = iota // matches a segment equal to its text
	segStar                      // "*": matches one segment
	segDoubleStar                // "**": matches any number of segments
)

// String names the kind.
func (k segKind) String() string {
	switch k {
	case segLiteral:
		return "literal"
	case segStar:
		return "*"
	}
	return "**"
}

// tmplSegment is one segment of a template.
type tmplSegment struct {
	kind segKind
	lit  string // for segLiteral, as written (escapes are compared as they are)
}

// tmplVar is a variable of a template and the segments it covers.
type tmplVar struct {
	field string // dotted field path: "book.name"
	start int    // index of its first segment
	// end is the index after its last segment. When the variable holds a
	// "**", toEnd is set and end counts segments from the end of the
	// request's path instead: the variable stops end segments before it.
	end   int
	toEnd bool
}

// pathTemplate is a parsed template.
type pathTemplate struct {
	raw  string
	segs []tmplSegment
	vars []tmplVar
	vrb  string
}

// String returns the template as it was written.
func (t *pathTemplate) String() string { return t.raw }

// verb returns the template's verb, "" if it has none.
func (t *pathTemplate) verb() string { return t.vrb }

// variables returns the field paths of the template's variables, in order.
func (t *pathTemplate) variables() []string {
	vs := make([]string, len(t.vars))
	for i, v := range t.vars {
		vs[i] = v.field
	}
	return vs
}

// templateParser holds the state of parsing one template.
type templateParser struct {
	s     string
	pos   int
	t     *pathTemplate
	inVar bool
}

// parseTemplate parses the template s.
func parseTemplate(s string) (*pathTemplate, error) {
	p := &templateParser{s: s, t: &pathTemplate{raw: s}}
	if err := p.parse(); err != nil {
		return nil, fmt.Errorf("transcode: template %q: at offset %d: %w", s, p.pos, err)
	}
	return p.t, nil
}

// parse parses the whole template.
func (p *templateParser) parse() error {
	if !p.eat('/') {
		return errors.New("a template starts with /")
	}
	if p.pos < len(p.s) && p.s[p.pos] != ':' {
		if err := p.segments(); err != nil {
			return err
		}
	}
	if p.eat(':') {
		start := p.pos
		p.literal()
		if p.pos == start {
			return errors.New("empty verb")
		}
		p.t.vrb = p.s[start:p.pos]
	}
	if p.pos < len(p.s) {
		return fmt.Errorf("unexpected %q", p.s[p.pos])
	}
	seenDouble := false
	for i, sg := range p.t.segs {
		if seenDouble && sg.kind != segLiteral {
			return fmt.Errorf("segment %d: only literal segments may follow **", i+1)
		}
		seenDouble = seenDouble || sg.kind == segDoubleStar
	}
	// A variable that holds "**" ends relative to the end of the path.
	for i := range p.t.vars {
		v := &p.t.vars[i]
		for _, sg := range p.t.segs[v.start:v.end] {
			if sg.kind == segDoubleStar {
				v.toEnd = true
				v.end = len(p.t.segs) - v.end
				break
			}
		}
	}
	return nil
}

// eat consumes c if it is next.
func (p *templateParser) eat(c byte) bool {
	if p.pos < len(p.s) && p.s[p.pos] == c {
		p.pos++
		return true
	}
	return false
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

// segment parses one Segment.
func (p *templateParser) segment() error {
	switch {
	case strings.HasPrefix(p.s[p.pos:], "**"):
		p.pos += 2
		p.t.segs = append(p.t.segs, tmplSegment{kind: segDoubleStar})
	case p.eat('*'):
		p.t.segs = append(p.t.segs, tmplSegment{kind: segStar})
	case p.pos < len(p.s) && p.s[p.pos] == '{':
		return p.variable()
	default:
		start := p.pos
		p.literal()
		if p.pos == start {
			if p.pos == len(p.s) || p.s[p.pos] == '/' {
				return errors.New("empty segment")
			}
			return fmt.Errorf("unexpected %q", p.s[p.pos])
		}
		p.t.segs = append(p.t.segs, tmplSegment{kind: segLiteral, lit: p.s[start:p.pos]})
	}
	return nil
}

// literal consumes the characters of a literal.
func (p *templateParser) literal() {
	for p.pos < len(p.s) && strings.IndexByte("/{}*=:?#", p.s[p.pos]) < 0 {
		p.pos++
	}
}

// variable parses a Variable.
func (p *templateParser) variable() error {
	if p.inVar {
		return errors.New("a variable inside a variable")
	}
	p.pos++ // '{'
	start := p.pos
	for p.pos < len(p.s) && (isIdentChar(p.s[p.pos]) || p.s[p.pos] == '.') {
		p.pos++
	}
	field := p.s[start:p.pos]
	if err := checkFieldPath(field); err != nil {
		p.pos = start
		return err
	}
	for _, v := range p.t.vars {
		if v.field == field {
			p.pos = start
			return fmt.Errorf("variable %s appears twice", field)
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
		p.t.segs = append(p.t.segs, tmplSegment{kind: segStar})
	}
	if !p.eat('}') {
		if p.pos == len(p.s) {
			return errors.New("unclosed variable")
		}
		return fmt.Errorf("unexpected %q in variable", p.s[p.pos])
	}
	v.end = len(p.t.segs)
	p.t.vars = append(p.t.vars, v)
	return nil
}

// checkFieldPath checks a dotted field path: identifiers joined by dots.
func checkFieldPath(path string) error {
	if path == "" {
		return errors.New("a variable without a field path")
	}
	for id := range strings.SplitSeq(path, ".") {
		if id == "" || ('0' <= id[0] && id[0] <= '9') {
			return fmt.Errorf("invalid field path %q", path)
		}
	}
	return nil
}

// isIdentChar reports whether c may appear in an identifier.
func isIdentChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}
