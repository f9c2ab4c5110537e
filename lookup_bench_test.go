package cairn

import (
	"net/http"
	"os"
	"strings"
	"testing"
)

// benchRoutes reads testdata/<name>.txt and returns each active route as a
// cairn pattern and a path that it matches (":x" and "*x" become {x} and
// {x...}; the sample value of a wildcard is its name).
func benchRoutes(tb testing.TB, name string) (patterns, paths, methods []string) {
	tb.Helper()
	data, err := os.ReadFile("testdata/" + name + ".txt")
	if err != nil {
		tb.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		method, path, ok := strings.Cut(line, " ")
		if !ok || line[0] == '#' {
			continue
		}
		segs := strings.Split(path, "/")
		vals := strings.Split(path, "/")
		for i, s := range segs {
			switch {
			case strings.HasPrefix(s, ":"):
				segs[i], vals[i] = "{"+s[1:]+"}", s[1:]
			case strings.HasPrefix(s, "*"):
				segs[i], vals[i] = "{"+s[1:]+"...}", "a/b"
			}
		}
		patterns = append(patterns, method+" "+strings.Join(segs, "/"))
		paths = append(paths, strings.Join(vals, "/"))
		methods = append(methods, method)
	}
	return patterns, paths, methods
}

// BenchmarkLookup measures the compiled tree alone, without ServeHTTP: one
// op is one lookup, or for the "all" cases one lookup of every route.
func BenchmarkLookup(b *testing.B) {
	h := http.NotFoundHandler()
	for _, bc := range []struct {
		name     string
		patterns []string
		paths    []string
		methods  []string
	}{
		{"static", []string{"GET /", "GET /user/repos", "GET /user/keys"}, []string{"/user/repos"}, []string{"GET"}},
		{"params=1", []string{"GET /user/{name}"}, []string{"/user/gordon"}, []string{"GET"}},
		{"params=5", []string{"GET /{a}/{b}/{c}/{d}/{e}"}, []string{"/test/test/test/test/test"}, []string{"GET"}},
		{"params=20", []string{"GET /{a}/{b}/{c}/{d}/{e}/{f}/{g}/{h}/{i}/{j}/{k}/{l}/{m}/{n}/{o}/{p}/{q}/{r}/{s}/{t}"},
			[]string{strings.Repeat("/x", 20)}, []string{"GET"}},
		{"constraints", []string{"PUT /static/{uuid:uuid}/{ip:ipv4}", "GET /static/{ip:ipv4}/{uuid:uuid}", "GET /code/{c:[A-Z]{3}}"},
			[]string{"/static/123e4567-e89b-12d3-a456-426614174000/10.0.0.1", "/static/10.0.0.1/123e4567-e89b-12d3-a456-426614174000", "/code/EUR"},
			[]string{"PUT", "GET", "GET"}},
	} {
		b.Run(bc.name, func(b *testing.B) { benchLookup(b, h, bc.patterns, bc.paths, bc.methods) })
	}
	for _, name := range []string{"github", "static", "gplus", "parse"} {
		patterns, paths, methods := benchRoutes(b, name)
		b.Run(name+"/all", func(b *testing.B) { benchLookup(b, h, patterns, paths, methods) })
	}
}

// benchLookup registers patterns and times the lookup of every path with
// its method.
func benchLookup(b *testing.B, h http.Handler, patterns, paths, methods []string) {
	r := New()
	for _, p := range patterns {
		r.Handle(p, h)
	}
	t := r.current()
	qs := make([]query, len(paths))
	for i := range paths {
		qs[i] = query{method: methods[i], verb: verbOf(methods[i]), checkClean: true}
		if q := qs[i]; t.match("", paths[i], false, &q) == nil {
			b.Fatalf("%s %s: no match", methods[i], paths[i])
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, p := range paths {
			q := qs[j]
			t.match("", p, false, &q)
		}
	}
}
