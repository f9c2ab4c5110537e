package cairn_test

import (
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-go/cairn"
)

// TestPath checks reverse routing: the paths built, that the router routes
// each back to its pattern with the same values, and the errors.
func TestPath(t *testing.T) {
	patterns := []string{
		"GET /repos/{owner}/{repo}/issues/{n:int}",
		"GET /files/{path...}",
		"/static/",
		"GET /{$}",
		"GET /dir/{d}/{$}",
		"GET /q/{code:[A-Z]{3}}",
		"GET api.example.com/users/{id:uuid}",
		"GET /caf%C3%A9/{x}",
		"GET /v1/items/{id}",
	}
	r := newTestRouter(t, patterns...)
	const uuid = "123e4567-e89b-12d3-a456-426614174000"
	for _, tt := range []struct {
		pattern string
		params  []string
		want    string
		values  string // the values the router reads back
	}{
		{patterns[0], []string{"owner", "golang", "repo", "go", "n", "42"}, "/repos/golang/go/issues/42", "owner=golang repo=go n=42"},
		{patterns[0], []string{"n", "-1", "repo", "a b/c?d#e%f", "owner", "ü"}, "/repos/%C3%BC/a%20b%2Fc%3Fd%23e%25f/issues/-1", "owner=ü repo=a b/c?d#e%f n=-1"},
		{patterns[1], []string{"path", "a/b c/d.txt"}, "/files/a/b%20c/d.txt", "path=a/b c/d.txt"},
		{patterns[1], []string{"path", ""}, "/files/", "path="},
		{patterns[1], []string{"path", "dir/"}, "/files/dir/", "path=dir/"},
		{patterns[2], nil, "/static/", ""},
		{patterns[3], nil, "/", ""},
		{patterns[4], []string{"d", "x"}, "/dir/x/", "d=x"},
		{patterns[5], []string{"code", "EUR"}, "/q/EUR", "code=EUR"},
		{patterns[6], []string{"id", uuid}, "/users/" + uuid, "id=" + uuid},
		{patterns[7], []string{"x", "1"}, "/caf%C3%A9/1", "x=1"},
	} {
		got, err := r.Path(tt.pattern, tt.params...)
		if err != nil || got != tt.want {
			t.Errorf("Path(%q, %q) = %q, %v; want %q", tt.pattern, tt.params, got, err, tt.want)
			continue
		}
		target := got
		if strings.Contains(tt.pattern, "api.example.com") {
			target = "http://api.example.com" + got
		}
		if s := serveOnce(t, r, "GET", target); s.pattern != tt.pattern || s.values != tt.values {
			t.Errorf("GET %s: routed to %q with %q; want %q with %q", target, s.pattern, s.values, tt.pattern, tt.values)
		}
	}

	for _, tt := range []struct {
		pattern string
		params  []string
		want    string
	}{
		{"GET /nope", nil, `cairn: Path: no route has the pattern "GET /nope"`},
		{"/repos/{owner}/{repo}/issues/{n:int}", nil, "no route has the pattern"},
		{patterns[0], []string{"owner", "a", "repo"}, "odd number of name, value arguments"},
		{patterns[0], []string{"owner", "a", "repo", "b"}, `no value for wildcard "n"`},
		{patterns[0], []string{"owner", "a", "repo", "b", "n", "x1"}, `value "x1" does not satisfy the constraint of {n:int}`},
		{patterns[0], []string{"owner", "a", "repo", "b", "n", "1", "extra", "2"}, `has no wildcard "extra"`},
		{patterns[0], []string{"owner", "a", "owner", "b"}, `two values for wildcard "owner"`},
		{patterns[0], []string{"owner", "", "repo", "b", "n", "1"}, `empty value for wildcard "owner"`},
		{patterns[0], []string{"owner", "..", "repo", "b", "n", "1"}, `value ".." of wildcard "owner" would be cleaned from the path`},
		{patterns[1], []string{"path", "a//b"}, `value "a//b" of {path...} is not a clean path`},
		{patterns[1], []string{"path", "/a"}, "is not a clean path"},
		{patterns[1], []string{"path", "a/../b"}, "is not a clean path"},
		{patterns[5], []string{"code", "EURO"}, `value "EURO" does not satisfy the constraint of {code:[A-Z]{3}}`},
		{patterns[6], []string{"id", "42"}, "does not satisfy the constraint of {id:uuid}"},
	} {
		got, err := r.Path(tt.pattern, tt.params...)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "cairn: ") {
			t.Errorf("Path(%q, %q) = %q, %v; want an error containing %q", tt.pattern, tt.params, got, err, tt.want)
		}
	}
}

// TestRoutes checks the route list and the printed tree.
func TestRoutes(t *testing.T) {
	r := cairn.New()
	r.Use(trace("router"))
	h := http.NotFoundHandler()
	r.Handle("GET /users/me", h)
	r.Handle("GET /users/{id:int}", h)
	r.Version("v2").With(trace("a")).Handle("GET /users/{id:int}", h)
	api := r.Group("api.example.com/v1", trace("b"), trace("c"))
	api.Handle("POST /items/{name}", h)
	api.Mount("/files", h)
	r.Handle("/static/", h)
	r.Handle("GET /{$}", h)
	r.Handle("DELETE /code/{c:[A-Z]{3}}", h)

	var b strings.Builder
	for _, ri := range r.Routes() {
		loc := ri.Location[strings.LastIndexByte(ri.Location, '/')+1:]
		loc = loc[:strings.IndexByte(loc, ':')]
		b.WriteString(strings.Join([]string{ri.Pattern, ri.Method, ri.Host, ri.Path, ri.Version, string(rune('0' + ri.Middleware)), map[bool]string{true: "mount", false: "-"}[ri.Mount], loc}, " | ") + "\n")
	}
	const wantRoutes = `GET /users/me | GET |  | /users/me |  | 0 | - | reverse_test.go
GET /users/{id:int} | GET |  | /users/{id:int} |  | 0 | - | reverse_test.go
GET /users/{id:int} | GET |  | /users/{id:int} | v2 | 1 | - | reverse_test.go
POST api.example.com/v1/items/{name} | POST | api.example.com | /v1/items/{name} |  | 2 | - | reverse_test.go
api.example.com/v1/files/ |  | api.example.com | /v1/files/ |  | 2 | mount | reverse_test.go
/static/ |  |  | /static/ |  | 0 | - | reverse_test.go
GET /{$} | GET |  | /{$} |  | 0 | - | reverse_test.go
DELETE /code/{c:[A-Z]{3}} | DELETE |  | /code/{c:[A-Z]{3}} |  | 0 | - | reverse_test.go
`
	if got := b.String(); got != wantRoutes {
		t.Errorf("Routes:\n%s\nwant:\n%s", got, wantRoutes)
	}

	var tree strings.Builder
	if err := r.WriteTree(&tree); err != nil {
		t.Fatal(err)
	}
	const wantTree = `(any host)
├── /{$}  GET
├── /code
│   └── /{c:[A-Z]{3}}  DELETE
├── /static
│   └── /  *
└── /users
    ├── /me  GET
    └── /{id:int}  GET  GET v2 (1 middleware)
api.example.com
└── /v1 (group)
    ├── /files
    │   └── /  * mount (2 middleware)
    └── /items
        └── /{name}  POST (2 middleware)
`
	if got := tree.String(); got != wantTree {
		t.Errorf("WriteTree:\n%s\nwant:\n%s", got, wantTree)
	}
}

// TestPathByName checks reverse routing by route name, through groups.
func TestPathByName(t *testing.T) {
	r := cairn.New()
	h := http.NotFoundHandler()
	api := r.Group("/api/v1")
	api.Named("user").Handle("GET /users/{id:int}", h)
	api.Named("user.files").Handle("GET /users/{id:int}/files/{path...}", h)
	r.Named("home").Handle("GET /{$}", h)
	for _, tt := range []struct {
		name   string
		params []string
		want   string
		err    string
	}{
		{"user", []string{"id", "42"}, "/api/v1/users/42", ""},
		{"user.files", []string{"id", "42", "path", "a/b c"}, "/api/v1/users/42/files/a/b%20c", ""},
		{"home", nil, "/", ""},
		{"user", []string{"id", "x"}, "", `cairn: Path("user"): value "x" does not satisfy the constraint of {id:int}`},
		{"nobody", nil, "", `cairn: Path: no route has the name "nobody"`},
	} {
		got, err := r.Path(tt.name, tt.params...)
		if got != tt.want || (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
			t.Errorf("Path(%q, %q) = %q, %v; want %q, %q", tt.name, tt.params, got, err, tt.want, tt.err)
		}
	}
	names := map[string]string{}
	for _, ri := range r.Routes() {
		names[ri.Name] = ri.Pattern
	}
	if names["user"] != "GET /api/v1/users/{id:int}" || names["home"] != "GET /{$}" {
		t.Errorf("Routes names: %v", names)
	}
}

// TestPathByPatternLater checks Path by pattern for routes registered
// before and after the first such call, and that a pattern registered for
// two versions builds from the first.
func TestPathByPatternLater(t *testing.T) {
	r := cairn.New()
	h := http.NotFoundHandler()
	r.Handle("GET /a/{x}", h)
	r.Version("v2").Handle("GET /a/{x}", h)
	if got, err := r.Path("GET /a/{x}", "x", "1"); got != "/a/1" || err != nil {
		t.Errorf("Path before: %q, %v", got, err)
	}
	if _, err := r.Path("GET /b/{y}", "y", "2"); err == nil {
		t.Errorf("Path of a pattern not yet registered: no error")
	}
	r.Handle("GET /b/{y}", h)
	if got, err := r.Path("GET /b/{y}", "y", "2"); got != "/b/2" || err != nil {
		t.Errorf("Path after: %q, %v", got, err)
	}
}

// TestWriteTreeLabels checks the labels of nodes whose first route does
// not name their segment, or that only a group's claim made.
func TestWriteTreeLabels(t *testing.T) {
	h := func(http.ResponseWriter, *http.Request) {}
	mw := func(next http.Handler) http.Handler { return next }
	for _, tt := range []struct {
		name  string
		setup func(r *cairn.Router)
		want  string
	}{{
		name: "trailing slash first",
		setup: func(r *cairn.Router) {
			r.HandleFunc("PUT /files/", h)
			r.HandleFunc("GET /files/{path...}", h)
		},
		want: "(any host)\n└── /files\n    └── /{path...}  GET  PUT\n",
	}, {
		name: "claim with routes of another host",
		setup: func(r *cairn.Router) {
			r.HandleFunc("GET /x", h)
			r.Group("/api", mw).HandleFunc("GET a.com/y", h)
		},
		want: "(any host)\n├── /api (group)\n└── /x  GET\na.com\n└── /api\n    └── /y  GET (1 middleware)\n",
	}, {
		name: "claim alone in the tree without a host",
		setup: func(r *cairn.Router) {
			r.Group("/api", mw).HandleFunc("GET a.com/y", h)
		},
		want: "(any host)\n└── /api (group)\na.com\n└── /api\n    └── /y  GET (1 middleware)\n",
	}, {
		name: "claim below a constrained wildcard",
		setup: func(r *cairn.Router) {
			r.Group("/b/{x:int}", mw).HandleFunc("GET a.com/y", h)
		},
		want: "(any host)\n└── /b\n    └── /{x:int} (group)\na.com\n└── /b\n    └── /{x:int}\n        └── /y  GET (1 middleware)\n",
	}, {
		// Both are the literal "/" to the matcher, as in ServeMux; only
		// the last may be {$}.
		name: "escaped slash and {$}",
		setup: func(r *cairn.Router) {
			r.HandleFunc("GET /%2F/b", h)
			r.HandleFunc("GET /a/{$}", h)
		},
		want: "(any host)\n├── /%2F\n│   └── /b  GET\n└── /a\n    └── /{$}  GET\n",
	}, {
		// At one node, which the two match alike, in either order.
		name: "{$} and an escaped slash that goes on",
		setup: func(r *cairn.Router) {
			r.HandleFunc("GET /x/{$}", h)
			r.HandleFunc("GET /x/%2F/b", h)
		},
		want: "(any host)\n└── /x\n    └── /%2F  GET\n        └── /b  GET\n",
	}, {
		name: "an escaped slash that goes on and {$}",
		setup: func(r *cairn.Router) {
			r.HandleFunc("GET /x/%2F/b", h)
			r.HandleFunc("GET /x/{$}", h)
		},
		want: "(any host)\n└── /x\n    └── /%2F  GET\n        └── /b  GET\n",
	}, {
		// Literal dot segments, which a path must escape, lest cleaning
		// remove them; "..." is no dot segment.
		name: "escaped dots",
		setup: func(r *cairn.Router) {
			r.HandleFunc("GET /a/%2E/b", h)
			r.HandleFunc("GET /a/%2E%2E", h)
			r.HandleFunc("GET /a/...", h)
		},
		want: "(any host)\n└── /a\n    ├── /%2E\n    │   └── /b  GET\n    ├── /%2E%2E  GET\n    └── /...  GET\n",
	}} {
		r := cairn.New()
		tt.setup(r)
		var b strings.Builder
		if err := r.WriteTree(&b); err != nil {
			t.Fatal(err)
		}
		if got := b.String(); got != tt.want {
			t.Errorf("%s: WriteTree:\n%s\nwant:\n%s", tt.name, got, tt.want)
		}
	}
}

// TestPathRoundTrip builds paths with Path from random values, hostile
// bytes included, and checks that the router routes each path back to its
// route with the same values; and that Path refuses values only for the
// reasons it documents.
func TestPathRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	pieces := []string{"a", "Z", "0", "7", "-", ".", "..", "/", "//", "%", "%2F", "%25", "?", "#", " ", "+", ";", "é", "\x00", "\x7f", "\xff", "~", "{", "}", ":", "@", "&", "=", "\\", "*"}
	kinds := []struct {
		suffix string         // after the name in the wildcard
		accept *regexp.Regexp // the values the constraint accepts
	}{
		{"", regexp.MustCompile(`^(?s:.+)$`)},
		{":int", regexp.MustCompile(`^-?[0-9]+$`)},
		{":alpha", regexp.MustCompile(`^[A-Za-z]+$`)},
		{":[a-z.%]+", regexp.MustCompile(`^[a-z.%]+$`)},
	}
	literals := []string{"a", "caf%C3%A9", "x.y", "%2F", "%2E", "%2E%2E", "..."}
	for n := range 3000 {
		var pat strings.Builder
		type wildcard struct {
			name   string
			accept *regexp.Regexp
		}
		var ws []wildcard
		for i := range 1 + rng.IntN(4) {
			if rng.IntN(3) == 0 {
				pat.WriteString("/" + literals[rng.IntN(len(literals))])
				continue
			}
			k := kinds[rng.IntN(len(kinds))]
			name := "w" + strconv.Itoa(i)
			ws = append(ws, wildcard{name, k.accept})
			pat.WriteString("/{" + name + k.suffix + "}")
		}
		multi := false
		switch rng.IntN(4) {
		case 0:
			multi = true
			pat.WriteString("/{rest...}")
		case 1:
			pat.WriteString("/{$}")
		}
		pattern := "GET " + pat.String()
		var values []string
		var params []string
		valid := true // every value is one Path must accept
		for _, w := range ws {
			var v strings.Builder
			for range rng.IntN(4) {
				v.WriteString(pieces[rng.IntN(len(pieces))])
			}
			values = append(values, v.String())
			params = append(params, w.name, v.String())
			valid = valid && w.accept.MatchString(v.String()) && v.String() != "." && v.String() != ".." && v.String() != "/"
		}
		if multi {
			// A clean relative path, or empty.
			segs := make([]string, rng.IntN(3))
			for i := range segs {
				segs[i] = pieces[rng.IntN(len(pieces))]
				for segs[i] == "." || segs[i] == ".." || strings.Contains(segs[i], "/") {
					segs[i] = pieces[rng.IntN(len(pieces))]
				}
			}
			values = append(values, strings.Join(segs, "/"))
			params = append(params, "rest", strings.Join(segs, "/"))
		}

		r := cairn.New()
		var got []string
		r.HandleFunc(pattern, func(w http.ResponseWriter, req *http.Request) {
			got = got[:0]
			for name, v := range cairn.Params(req) {
				if pv := req.PathValue(name); pv != v {
					t.Errorf("%s: PathValue(%q) = %q, Params yields %q", pattern, name, pv, v)
				}
				got = append(got, v)
			}
		})
		path, err := r.Path(pattern, params...)
		if err != nil {
			if valid {
				t.Fatalf("case %d: Path(%q, %q): %v", n, pattern, params, err)
			}
			continue
		}
		u, perr := url.ParseRequestURI(path)
		if perr != nil {
			t.Fatalf("case %d: Path(%q, %q) = %q, which is not a request path: %v", n, pattern, params, path, perr)
		}
		got = nil
		w := httptest.NewRecorder()
		r.ServeHTTP(w, &http.Request{Method: "GET", URL: u, Host: "example.com", Header: http.Header{}})
		if w.Code != http.StatusOK || !slices.Equal(got, values) {
			t.Fatalf("case %d: Path(%q, %q) = %q, served with %d and values %q", n, pattern, params, path, w.Code, got)
		}
	}
}

// TestPathForEveryListedRoute builds random routers, with groups, hosts,
// versions, names and mounted routers, and checks that Path knows every
// route that Routes lists, by its pattern and, for a named route, by its
// name, and that the path it builds reaches a handler registered for that
// pattern (a more specific route may take it: then one of the patterns
// Routes lists).
func TestPathForEveryListedRoute(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 29))
	segs := []string{"a", "b", "caf%C3%A9", "%2F", "{x}", "{n:int}", "{s:alpha}"}
	randPath := func(tag string) string {
		var b strings.Builder
		for k := range 1 + rng.IntN(3) {
			s := segs[rng.IntN(len(segs))]
			s = strings.Replace(s, "{", "{"+tag+strconv.Itoa(k), 1)
			b.WriteString("/" + s)
		}
		return b.String()
	}
	values := map[string]string{"": "v1", "int": "7", "alpha": "abc"}
	h := func(http.ResponseWriter, *http.Request) {}
	checked := 0
	for c := range 300 {
		r := cairn.New()
		r.Versioning(cairn.Versioning{Vendor: "acme", Fallback: true})
		served := map[string]bool{} // patterns that have a handler
		register := func(f func()) {
			defer func() { recover() }() // conflicts and duplicate names: skip
			f()
		}
		for i := range 2 + rng.IntN(5) {
			p := "GET " + randPath("w")
			name := "r" + strconv.Itoa(i)
			switch rng.IntN(5) {
			case 0:
				register(func() { r.Named(name).HandleFunc(p, h) })
			case 1:
				prefix := randPath("g")
				register(func() { r.Group(prefix).Named(name).HandleFunc(p, h) })
			case 2:
				register(func() { r.Version("v2").HandleFunc(p, h) })
			case 3:
				in := cairn.New()
				register(func() { in.Named(name).HandleFunc(p, h) })
				register(func() { r.Mount(randPath("m"), in) })
			default:
				register(func() { r.HandleFunc("GET example.com"+p[len("GET "):], h) })
			}
		}
		for _, ri := range r.Routes() {
			served[ri.Pattern] = true
		}
		for _, ri := range r.Routes() {
			if ri.Mount {
				continue
			}
			var params []string
			for _, m := range regexp.MustCompile(`\{([a-z0-9]+)(?::([a-z]+))?\}`).FindAllStringSubmatch(ri.Pattern, -1) {
				params = append(params, m[1], values[m[2]])
			}
			keys := []string{ri.Pattern}
			if ri.Name != "" {
				keys = append(keys, ri.Name)
			}
			for _, key := range keys {
				path, err := r.Path(key, params...)
				if err != nil {
					t.Fatalf("router %d: Path(%q, %q): %v\nroutes: %v", c, key, params, err, r.Routes())
				}
				target := path
				if ri.Host != "" {
					target = "http://" + ri.Host + path
				}
				req := httptest.NewRequest("GET", target, nil)
				if ri.Version != "" {
					req.Header.Set("Accept", "application/vnd.acme."+ri.Version+"+json")
				}
				_, pattern := r.Handler(req)
				if !served[pattern] {
					t.Fatalf("router %d: Path(%q) = %q, which goes to %q, not a listed route\nroutes: %v", c, key, path, pattern, r.Routes())
				}
				checked++
			}
		}
	}
	if checked < 500 {
		t.Fatalf("only %d paths checked", checked)
	}
	t.Logf("%d paths checked", checked)
}
