package cairn

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestParam checks Param on requests built by hand, including escaped
// values, multi wildcards and names that are not in the pattern.
func TestParam(t *testing.T) {
	for _, tt := range []struct {
		pattern, path, rawPath, name, want string
	}{
		{"GET /repos/{owner}/{repo}", "/repos/golang/go", "", "owner", "golang"},
		{"GET /repos/{owner}/{repo}", "/repos/golang/go", "", "repo", "go"},
		{"GET /repos/{owner}/{repo}", "/repos/golang/go", "", "nope", ""},
		{"GET h.com/a/{x:int}/b", "/a/42/b", "", "x", "42"},
		{"/files/{rest...}", "/files/a/b/c", "", "rest", "a/b/c"},
		{"/files/{rest...}", "/files/", "", "rest", ""},
		{"/files/{rest...}", "/files/a/b/c", "/files/a/b%2Fc", "rest", "a/b/c"},
		{"/files/{rest...}", "/files/a/b%2Fc", "/files/a/b%2Fc", "rest", "a/b%2Fc"}, // RawPath does not match Path
		{"/a/{x}", "/a/b/c", "/a/b%2Fc", "x", "b/c"},
		{"/a/{x}", "/a/%zz", "", "x", "%zz"},
		{"/a/{x}/{y}", "/a/b", "", "y", ""},
		{"", "/a/b", "", "x", ""},
		{"/i/{x:int}", "/i/5", "", "x:int", ""},
		{"/m/{x...}", "/m/a/b", "", "x...", ""},
		{"/{a}/{b}", "/1/2", "", "a}/{b", ""},
	} {
		r := &http.Request{Pattern: tt.pattern, URL: &url.URL{Path: tt.path, RawPath: tt.rawPath}}
		if got := Param(r, tt.name); got != tt.want {
			t.Errorf("Param(%q on %q, %q) = %q, want %q", tt.pattern, tt.path, tt.name, got, tt.want)
		}
	}
}

// BenchmarkParamFunc measures Param alone, for the first and last wildcard
// of a short pattern and the last of a pattern with 20 wildcards.
func BenchmarkParamFunc(b *testing.B) {
	var p20, u20 strings.Builder
	for i := 0; i < 20; i++ {
		p20.WriteString("/{p" + string(rune('a'+i)) + "}")
		u20.WriteString("/v" + string(rune('a'+i)))
	}
	for _, bc := range []struct {
		name, pattern, path, param string
	}{
		{"github/first", "GET /repos/{owner}/{repo}/stargazers", "/repos/julienschmidt/httprouter/stargazers", "owner"},
		{"github/second", "GET /repos/{owner}/{repo}/stargazers", "/repos/julienschmidt/httprouter/stargazers", "repo"},
		{"params=20/last", "GET " + p20.String(), u20.String(), "pt"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			r := &http.Request{Pattern: bc.pattern, URL: &url.URL{Path: bc.path}}
			if Param(r, bc.param) == "" {
				b.Fatal("no value")
			}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				Param(r, bc.param)
			}
		})
	}
}
