package transcode

import (
	"fmt"
	"strings"
	"testing"
)

// TestParseTemplate checks parsed templates by their segments, variables
// and verb.
func TestParseTemplate(t *testing.T) {
	for _, tt := range []struct {
		in, want string
	}{
		{"/", "[] [] "},
		{"/v1/shelves", "[v1 shelves] [] "},
		{"/v1/{name}", "[v1 *] [name 1-2] "},
		{"/v1/{name=*}", "[v1 *] [name 1-2] "},
		{"/v1/{name=shelves/*/books/*}", "[v1 shelves * books *] [name 1-5] "},
		{"/v1/{book.name=shelves/*}:move", "[v1 shelves *] [book.name 1-3] move"},
		{"/v1/**", "[v1 **] [] "},
		{"/v1/{path=**}/meta/x", "[v1 ** meta x] [path 1-end-2] "},
		{"/{a=*}/{b=*}:verb", "[* *] [a 0-1 b 1-2] verb"},
		{"/a/{x=b/*/**/y/z}/foo", "[a b * ** y z foo] [x 1-end-1] "},
		{"/v1/a:b", "[v1 a] [] b"},
		{"/:verb", "[] [] verb"},
		{"/v1/%2F-._~!$&'()+,;@", "[v1 %2F-._~!$&'()+,;@] [] "},
	} {
		p, err := parseTemplate(tt.in)
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if got := dumpTemplate(p); got != tt.want {
			t.Errorf("%q: got %s, want %s", tt.in, got, tt.want)
		}
		if p.String() != tt.in {
			t.Errorf("%q: String() = %q", tt.in, p.String())
		}
	}
}

// dumpTemplate prints a template's segments, variables and verb.
func dumpTemplate(p *pathTemplate) string {
	var segs, vars []string
	for _, s := range p.segs {
		if s.kind == segLiteral {
			segs = append(segs, s.lit)
		} else {
			segs = append(segs, s.kind.String())
		}
	}
	for _, v := range p.vars {
		if v.toEnd {
			vars = append(vars, fmt.Sprintf("%s %d-end-%d", v.field, v.start, v.end))
		} else {
			vars = append(vars, fmt.Sprintf("%s %d-%d", v.field, v.start, v.end))
		}
	}
	return fmt.Sprintf("%v %v %s", segs, vars, p.verb())
}

// TestParseTemplateErrors checks that invalid templates are refused with
// a message that says where.
func TestParseTemplateErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", "at offset 0: a template starts with /"},
		{"v1/x", "at offset 0: a template starts with /"},
		{"/v1//x", "at offset 4: empty segment"},
		{"/v1/", "at offset 4: empty segment"},
		{"/v1/{", "at offset 5: a variable without a field path"},
		{"/v1/{name", "at offset 9: unclosed variable"},
		{"/v1/{name=shelves/*", "at offset 19: unclosed variable"},
		{"/v1/{a={b}}", "at offset 7: a variable inside a variable"},
		{"/v1/{a.}", "at offset 5: invalid field path"},
		{"/v1/{1a}", "at offset 5: invalid field path"},
		{"/v1/{a}/{a}", "at offset 9: variable a appears twice"},
		{"/v1/{a-b}", `unexpected '-' in variable`},
		{"/v1/x:", "empty verb"},
		{"/v1/x:a:b", `unexpected ':'`},
		{"/v1/x}", `unexpected '}'`},
		{"/v1/a=b", `unexpected '='`},
		{"/v1/x?y", `unexpected '?'`},
		{"/a/**/*", "only literal segments may follow **"},
		{"/a/**/foo/*", "only literal segments may follow **"},
		{"/a/**/**", "only literal segments may follow **"},
		{"/a/**/{x}", "only literal segments may follow **"},
		{"/a/{x=b/**}/{y=*}", "only literal segments may follow **"},
		{"/a/{x=b/**}/bb/{y=**}", "only literal segments may follow **"},
	} {
		_, err := parseTemplate(tt.in)
		if err == nil {
			t.Errorf("%q: no error", tt.in)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, tt.want) || !strings.HasPrefix(msg, fmt.Sprintf("transcode: template %q: at offset ", tt.in)) {
			t.Errorf("%q: got %q, want it to contain %q", tt.in, msg, tt.want)
		}
	}
}

// TestUnescapeValue checks the three decodings of variable values.
func TestUnescapeValue(t *testing.T) {
	const reserved = "%21%23%24%26%27%28%29%2A%2B%2C%2F%3A%3B%3D%3F%40%5B%5D"
	for _, tt := range []struct {
		raw                   string
		multi, decodeReserved bool
		want                  string
	}{
		{"plain", false, false, "plain"},
		{"p%20q%2Fr+", false, false, "p q/r+"},
		{reserved, false, false, "!#$&'()*+,/:;=?@[]"},
		{reserved, true, false, reserved},
		{reserved, true, true, "!#$&'()*+,/:;=?@[]"},
		{"shelves/a%20b%2Fc/books/%7E", true, false, "shelves/a b%2Fc/books/~"},
		{"%e2%82%ac", false, false, "€"},
		{"%00", false, false, "\x00"},
		{"a%252Fb", true, false, "a%252Fb"}, // not a%2Fb, which is another value
		{"a%252Fb", true, true, "a%2Fb"},
		{"a%252Fb", false, false, "a%2Fb"},
	} {
		got, err := unescapeValue(tt.raw, tt.multi, tt.decodeReserved)
		if err != nil || got != tt.want {
			t.Errorf("unescapeValue(%q, %v, %v) = %q, %v; want %q", tt.raw, tt.multi, tt.decodeReserved, got, err, tt.want)
		}
	}
	for _, raw := range []string{"%", "%2", "a%G1", "%zz", "ab%"} {
		if _, err := unescapeValue(raw, false, false); err == nil {
			t.Errorf("unescapeValue(%q): no error", raw)
		}
	}
	if n := testing.AllocsPerRun(100, func() { unescapeValue("shelves/1/books/2%2F", true, false) }); n != 0 {
		t.Errorf("unescapeValue with nothing to decode: %v allocations, want 0", n)
	}
}

// FuzzParseTemplate checks that parsing never panics, and that a parsed
// template matches the path it describes once its wildcards are filled.
func FuzzParseTemplate(f *testing.F) {
	for _, s := range []string{"/", "/v1/{name=shelves/*/books/*}:move", "/a/**/b", "/{a}/{b=**}/c", "/v1/{x.y}", "/a/{x=b/*/**/y/z}/foo"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := parseTemplate(s)
		if err != nil {
			return
		}
		// Fill * and ** with a segment each and match it.
		var b strings.Builder
		for _, sg := range p.segs {
			b.WriteByte('/')
			if sg.kind == segLiteral {
				b.WriteString(sg.lit)
			} else {
				b.WriteString("w")
			}
		}
		if b.Len() == 0 {
			b.WriteByte('/')
		}
		if p.verb() != "" {
			b.WriteString(":" + p.verb())
		}
		m := &pathMatcher{}
		if err := m.add("GET", p, 0, "fuzz"); err != nil {
			t.Fatal(err)
		}
		var bs bindings
		if _, st := m.match("GET", b.String(), &bs); st != matched {
			t.Errorf("template %q does not match %q: %v", s, b.String(), st)
		}
	})
}
