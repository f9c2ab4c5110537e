package transcode

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// templateDump prints the parsed form of t: its segments, its variables
// with the segments they cover ("m" if multi) and its verb.
func templateDump(t *pathTemplate) string {
	segs := make([]string, len(t.segs))
	for i, s := range t.segs {
		segs[i] = s.lit
		if s.kind != segLiteral {
			segs[i] = s.kind.String()
		}
	}
	vars := make([]string, len(t.vars))
	for i, v := range t.vars {
		vars[i] = fmt.Sprintf("%s[%d,%d)", v.field, v.start, v.end)
		if v.multi {
			vars[i] += "m"
		}
	}
	s := fmt.Sprintf("[%s] [%s]", strings.Join(segs, " "), strings.Join(vars, " "))
	if t.verb() != "" {
		s += " :" + t.verb()
	}
	return s
}

// templateRebuild writes t again from its parsed form, in the shortest
// spelling: {x} for {x=*}.
func templateRebuild(t *pathTemplate) string {
	var sb strings.Builder
	for i, s := range t.segs {
		sb.WriteByte('/')
		for _, v := range t.vars {
			if v.start == i {
				sb.WriteString("{" + v.field)
				if v.end-v.start != 1 || t.segs[i].kind != segStar {
					sb.WriteByte('=')
				}
			}
		}
		if s.kind == segLiteral {
			sb.WriteString(s.lit)
		} else if !slices.ContainsFunc(t.vars, func(v tmplVar) bool { return v.start == i && v.end == i+1 && s.kind == segStar }) {
			sb.WriteString(s.kind.String())
		}
		for _, v := range t.vars {
			if v.end == i+1 {
				sb.WriteByte('}')
			}
		}
	}
	if len(t.segs) == 0 {
		sb.WriteByte('/')
	}
	if t.verb() != "" {
		sb.WriteString(":" + t.verb())
	}
	return sb.String()
}

func TestParseTemplate(t *testing.T) {
	for _, tt := range []struct {
		in, want string
	}{
		{"/", "[] []"},
		{"/v1/shelves", "[v1 shelves] []"},
		{"/v1/shelves/{shelf}", "[v1 shelves *] [shelf[2,3)]"},
		{"/v1/shelves/{shelf=*}", "[v1 shelves *] [shelf[2,3)]"},
		{"/v1/{name=shelves/*/books/*}:move", "[v1 shelves * books *] [name[1,5)m] :move"},
		{"/v1/{book.name=shelves/*}/{id}", "[v1 shelves * *] [book.name[1,3)m id[3,4)]"},
		{"/{a.b_c.D9}", "[*] [a.b_c.D9[0,1)]"},
		{"/{_x}", "[*] [_x[0,1)]"},
		{"/*", "[*] []"},
		{"/**", "[**] []"},
		{"/*/**", "[* **] []"},
		{"/*/a/**", "[* a **] []"},
		{"/**:verb", "[**] [] :verb"},
		{"/a/*:verb", "[a *] [] :verb"},
		{"/{x}:verb", "[*] [x[0,1)] :verb"},
		{"/{x=**}", "[**] [x[0,1)m]"},
		{"/v1/{path=**}/meta:get", "[v1 ** meta] [path[1,2)m] :get"},
		{"/a/{x=b/**/y/z}/c", "[a b ** y z c] [x[1,5)m]"},
		{"/a/{x=b/*/**}", "[a b * **] [x[1,4)m]"},
		{"/a/{x=b}", "[a b] [x[1,2)]"},
		{"/v1/{path=**}/{kind=meta}", "[v1 ** meta] [path[1,2)m kind[2,3)]"},
		{"/v1/**/{kind=meta/data}", "[v1 ** meta data] [kind[2,4)m]"},
		{"/v1/a%2Fb/c%20d", "[v1 a%2Fb c%20d] []"},
		{"/v1/x=y/-/~a.b!$&'()+,;@", "[v1 x=y - ~a.b!$&'()+,;@] []"},
		{"/v1/books:batch%2Dget", "[v1 books] [] :batch%2Dget"},
		{"/./..", "[. ..] []"},
	} {
		p, err := parseTemplate(tt.in)
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if got := templateDump(p); got != tt.want {
			t.Errorf("%q: got %v, want %v", tt.in, got, tt.want)
		}
		if got := p.String(); got != tt.in {
			t.Errorf("%q: String: got %v, want %v", tt.in, got, tt.in)
		}
	}
}

func TestTemplateAccessors(t *testing.T) {
	for _, tt := range []struct {
		in   string
		vars []string
		verb string
	}{
		{"/", []string{}, ""},
		{"/v1/{name=shelves/*}", []string{"name"}, ""},
		{"/v1/{book.name=shelves/*/books/*}/{id}:move", []string{"book.name", "id"}, "move"},
		{"/v1/**:list", []string{}, "list"},
	} {
		p, err := parseTemplate(tt.in)
		if err != nil {
			t.Fatalf("%q: %v", tt.in, err)
		}
		if got := p.variables(); !slices.Equal(got, tt.vars) {
			t.Errorf("%q: variables: got %q, want %q", tt.in, got, tt.vars)
		}
		if got := p.verb(); got != tt.verb {
			t.Errorf("%q: verb: got %v, want %v", tt.in, got, tt.verb)
		}
	}
}

func TestParseTemplateErrors(t *testing.T) {
	for _, tt := range []struct {
		in     string
		offset int
		msg    string
	}{
		{"", 0, `a template starts with "/"`},
		{"v1/a", 0, `a template starts with "/"`},
		{"{x}", 0, `a template starts with "/"`},
		{":verb", 0, `a template starts with "/"`},
		{"//", 1, "empty segment"},
		{"/a/", 3, "empty segment"},
		{"/a//b", 3, "empty segment"},
		{"/:verb", 1, "empty segment"},
		{"/a/:verb", 3, "empty segment"},
		{"/:", 1, "empty segment"},
		{"/a:", 3, "empty verb"},
		{"/a/*:", 5, "empty verb"},
		{"/a/**:", 6, "empty verb"},
		{"/{x}:", 5, "empty verb"},
		{"/a:b/c", 4, `unexpected '/'`},
		{"/a:b:c", 4, `unexpected ':'`},
		{"/a:b}", 4, `unexpected '}'`},
		{"/v1/{a", 4, "unclosed variable"},
		{"/v1/{a=b", 4, "unclosed variable"},
		{"/v1/{a=b/*", 4, "unclosed variable"},
		{"/v1/{", 4, "unclosed variable"},
		{"/v1/{a.", 4, "unclosed variable"},
		{"/{}", 2, `expected a field name, found '}'`},
		{"/{1a}", 2, `expected a field name, found '1'`},
		{"/{a.}", 4, `expected a field name, found '}'`},
		{"/{a..b}", 4, `expected a field name, found '.'`},
		{"/{=a}", 2, `expected a field name, found '='`},
		{"/{a-b}", 3, `unexpected '-'`},
		{"/{a b}", 3, `byte 0x20 must be percent-encoded`},
		{"/{a=}", 4, "empty segment"},
		{"/{a=/b}", 4, "empty segment"},
		{"/{a=b/}", 6, "empty segment"},
		{"/{x=a:b}", 5, `unexpected ':'`},
		{"/{a=b/{c}}", 6, "a variable inside a variable"},
		{"/{a=b/{c=d}}", 6, "a variable inside a variable"},
		{"/{a}/{a}", 6, "variable a appears twice"},
		{"/{a.b}/{a.b=c/*}", 8, "variable a.b appears twice"},
		{"/a{x}", 2, `unexpected '{'`},
		{"/{x}a", 4, `unexpected 'a'`},
		{"/a/b{x}c", 4, `unexpected '{'`},
		{"/a*", 2, `unexpected '*'`},
		{"/*a", 2, `unexpected 'a'`},
		{"/***", 3, `unexpected '*'`},
		{"/a}", 2, `unexpected '}'`},
		{"/a=b}", 4, `unexpected '}'`},
		{"/a?b", 2, `unexpected '?'`},
		{"/a#b", 2, `unexpected '#'`},
		{"/a b", 2, `byte 0x20 must be percent-encoded`},
		{"/caf\xc3\xa9", 4, `byte 0xc3 must be percent-encoded`},
		{"/a\x00", 2, `byte 0x00 must be percent-encoded`},
		{"/a%2", 2, "malformed escape"},
		{"/a%zz", 2, "malformed escape"},
		{"/a%", 2, "malformed escape"},
		{"/a:%g0", 3, "malformed escape"},
		{"/a/**/*", 6, `only literals may follow "**"`},
		{"/a/**/**", 6, `only literals may follow "**"`},
		{"/a/**/b/*", 8, `only literals may follow "**"`},
		{"/a/**/b/{c}", 8, `only literals may follow "**"`},
		{"/**/{x=*}", 7, `only literals may follow "**"`},
		{"/{x=**}/{y=*}", 11, `only literals may follow "**"`},
		{"/{x=**}/{y=**}", 11, `only literals may follow "**"`},
		{"/{x=a/**/*}", 9, `only literals may follow "**"`},
	} {
		_, err := parseTemplate(tt.in)
		want := fmt.Sprintf("transcode: template %q: at offset %d: %s", tt.in, tt.offset, tt.msg)
		if err == nil || err.Error() != want {
			t.Errorf("%q: got %v, want %v", tt.in, err, want)
		}
	}
}

// TestTemplateRebuild checks that a template written again from its
// parsed form parses to the same form.
func TestTemplateRebuild(t *testing.T) {
	for _, in := range []string{
		"/", "/v1/{name=shelves/*/books/*}:move", "/{x=*}", "/{x=**}/a", "/a/{x=b/**/c}/d:e",
		"/v1/{path=**}/{kind=meta}", "/{a}/{b=c}/{d=*/e}",
	} {
		checkRebuild(t, in)
	}
}

// checkRebuild parses in, writes it again with templateRebuild, and
// checks that the result parses to the same form and is written the same.
func checkRebuild(tb testing.TB, in string) {
	tb.Helper()
	p, err := parseTemplate(in)
	if err != nil {
		tb.Fatalf("%q: %v", in, err)
	}
	again := templateRebuild(p)
	q, err := parseTemplate(again)
	if err != nil {
		tb.Fatalf("%q: rebuilt as %q: %v", in, again, err)
	}
	if got, want := templateDump(q), templateDump(p); got != want {
		tb.Errorf("%q: rebuilt as %q: got %v, want %v", in, again, got, want)
	}
	if got := templateRebuild(q); got != again {
		tb.Errorf("%q: rebuilt twice: got %v, want %v", in, got, again)
	}
}

// errorOffset matches the offset of a parse error.
var errorOffset = regexp.MustCompile(`^transcode: template ".*": at offset (\d+): `)

func FuzzParseTemplate(f *testing.F) {
	for _, s := range []string{
		"/", "/v1/{name=shelves/*/books/*}:move", "/a/**/b:c", "/{a.b}/{c=**}", "/a/{x=b/**/c}/d",
		"/{x}a", "/a/{b=*}/**:verb", "/v1/a%2Fb", "//", "/{a=b/{c}}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := parseTemplate(s)
		if err != nil {
			m := errorOffset.FindStringSubmatch(err.Error())
			if m == nil {
				t.Fatalf("%q: error %q has no offset", s, err)
			}
			if off, _ := strconv.Atoi(m[1]); off < 0 || off > len(s) {
				t.Fatalf("%q: offset %d outside the template", s, off)
			}
			return
		}
		if p.String() != s {
			t.Fatalf("%q: String: got %v, want %v", s, p.String(), s)
		}
		q, err := parseTemplate(p.String())
		if err != nil || templateDump(q) != templateDump(p) {
			t.Fatalf("%q: parsed again: got %v (%v), want %v", s, q, err, templateDump(p))
		}
		checkRebuild(t, s)
	})
}
