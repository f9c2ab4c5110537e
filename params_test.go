package cairn

import (
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"
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

// BenchmarkParamFunc measures Param alone, for the first and second
// wildcard of a GitHub pattern and the last of a pattern with 20 wildcards,
// on requests routed by a Router.
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
			// Route the request once, so that r.Pattern is the route's.
			router := New()
			router.HandleFunc(bc.pattern, func(http.ResponseWriter, *http.Request) {})
			r := &http.Request{Method: "GET", URL: &url.URL{Path: bc.path}}
			router.ServeHTTP(&recorder{h: http.Header{}}, r)
			if layouts.find(r.Pattern) == nil || Param(r, bc.param) == "" {
				b.Fatal("no layout or no value")
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				Param(r, bc.param)
			}
		})
	}
}

// TestLayoutRegistry checks that a router's layouts are published when it
// serves, found from r.Pattern, and removed once the router is collected.
func TestLayoutRegistry(t *testing.T) {
	pattern := func() string {
		router := New()
		router.HandleFunc("GET /layout/{a}/{b...}", func(http.ResponseWriter, *http.Request) {})
		r := &http.Request{Method: "GET", URL: &url.URL{Path: "/layout/1/2/3"}}
		router.ServeHTTP(&recorder{h: http.Header{}}, r)
		if l := layouts.find(r.Pattern); l == nil {
			t.Fatal("layout not published")
		}
		if got := Param(r, "b"); got != "2/3" {
			t.Errorf("Param(b) = %q, want %q", got, "2/3")
		}
		// A prefix of the pattern shares its address but is another string.
		if layouts.find(r.Pattern[:5]) != nil {
			t.Error("found a layout for a prefix of the pattern")
		}
		return r.Pattern
	}()
	for i := 0; i < 50 && layouts.find(pattern) != nil; i++ {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if layouts.find(pattern) != nil {
		t.Error("layout still registered after its router was collected")
	}
}
