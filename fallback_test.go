package cairn_test

import (
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/cairn-go/cairn"
)

// TestFallbackHandlers checks custom 404 and 405 handlers, automatic
// OPTIONS, and that explicit routes win over automatic OPTIONS.
func TestFallbackHandlers(t *testing.T) {
	r := cairn.New()
	r.Use(trace("mw"))
	r.NotFound(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.WriteHeader(http.StatusTeapot)
		w.Write([]byte("custom 404 for " + req.URL.Path))
	}))
	r.MethodNotAllowed(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.WriteHeader(http.StatusMethodNotAllowed)
		w.Write([]byte("custom 405, allow " + w.Header().Get("Allow")))
	}))
	r.HandleFunc("GET /items/{id}", answer("get"))
	r.HandleFunc("DELETE /items/{id}", answer("delete"))
	r.HandleFunc("OPTIONS /explicit", answer("explicit options"))
	r.HandleFunc("PUT /explicit", answer("put"))
	r.HandleFunc("/any", answer("any"))
	for _, tt := range []struct {
		method, target string
		want           exchange
		allow          string
	}{
		{"GET", "/missing", exchange{code: 418, trace: "mw", body: "custom 404 for /missing"}, ""},
		{"POST", "/items/1", exchange{code: 405, trace: "mw", body: "custom 405, allow DELETE, GET, HEAD, OPTIONS"}, "DELETE, GET, HEAD, OPTIONS"},
		{"OPTIONS", "/items/1", exchange{code: 204, trace: "mw"}, "DELETE, GET, HEAD, OPTIONS"},
		{"OPTIONS", "/explicit", exchange{code: 200, trace: "mw explicit options", body: "explicit options"}, ""},
		{"OPTIONS", "/any", exchange{code: 200, trace: "mw any", body: "any"}, ""},
		{"OPTIONS", "/missing", exchange{code: 418, trace: "mw", body: "custom 404 for /missing"}, ""},
	} {
		got, w := do(t, r, tt.method, tt.target)
		if got != tt.want || w.Header().Get("Allow") != tt.allow {
			t.Errorf("%s %s: got %+v Allow %q, want %+v Allow %q", tt.method, tt.target, got, w.Header().Get("Allow"), tt.want, tt.allow)
		}
	}

	// Custom automatic OPTIONS, then none; nil restores the defaults.
	r.AutomaticOptions(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("X-Options", "custom")
		w.WriteHeader(http.StatusOK)
	}))
	if got, w := do(t, r, "OPTIONS", "/items/1"); got.code != 200 || w.Header().Get("X-Options") != "custom" || w.Header().Get("Allow") != "DELETE, GET, HEAD, OPTIONS" {
		t.Errorf("custom OPTIONS: got %+v, header %v", got, w.Header())
	}
	r.DisableAutomaticOptions()
	r.NotFound(nil)
	r.MethodNotAllowed(nil)
	for _, tt := range []struct {
		method, target string
		code           int
		allow          string
	}{
		{"OPTIONS", "/items/1", 405, "DELETE, GET, HEAD"},
		{"POST", "/items/1", 405, "DELETE, GET, HEAD"},
		{"GET", "/missing", 404, ""},
	} {
		if got, w := do(t, r, tt.method, tt.target); got.code != tt.code || w.Header().Get("Allow") != tt.allow {
			t.Errorf("automatic OPTIONS off: %s %s: got %d Allow %q, want %d Allow %q", tt.method, tt.target, got.code, w.Header().Get("Allow"), tt.code, tt.allow)
		}
	}
}

// cors returns a minimal CORS middleware that answers preflight requests
// with the methods that router allows.
func cors(router *cairn.Router) cairn.Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			if r.Header.Get("Origin") != "" {
				h.Set("Access-Control-Allow-Origin", "*")
			}
			if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
				h.Set("Access-Control-Allow-Methods", router.Allowed(r))
				w.WriteHeader(http.StatusNoContent)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// TestCORSPreflight checks that router-level middleware can answer CORS
// preflight requests with the methods Allowed gives.
func TestCORSPreflight(t *testing.T) {
	r := cairn.New()
	r.Use(cors(r))
	r.HandleFunc("PUT /items/{id}", answer("put"))
	got, w := do(t, r, "OPTIONS", "/items/1", "Origin", "https://app.example", "Access-Control-Request-Method", "PUT")
	if got.code != 204 || w.Header().Get("Access-Control-Allow-Methods") != "OPTIONS, PUT" || w.Header().Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("preflight: got %+v, header %v", got, w.Header())
	}
	got, w = do(t, r, "PUT", "/items/1", "Origin", "https://app.example")
	if got.code != 200 || got.body != "put" || w.Header().Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("actual request: got %+v, header %v", got, w.Header())
	}
}

// TestRedirectRewrittenByMiddleware checks the redirect answer when a
// router-level middleware changes the request so that it no longer needs
// one: the router answers with its NotFound handler rather than run its
// middleware twice.
func TestRedirectRewrittenByMiddleware(t *testing.T) {
	r := cairn.New()
	r.Use(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			if req.URL.Path == "/rewrite" {
				req.URL.Path = "/tree/"
			}
			next.ServeHTTP(w, req)
		})
	})
	r.NotFound(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) }))
	r.HandleFunc("/tree/", answer("tree"))
	r.HandleFunc("/rewrite/", answer("rewrite"))
	if got, _ := do(t, r, "GET", "/rewrite"); got.code != http.StatusTeapot {
		t.Errorf("rewritten redirect: got %+v, want the NotFound handler's 418", got)
	}
	if got, w := do(t, r, "GET", "/tree"); got.code != 307 || w.Header().Get("Location") != "/tree/" {
		t.Errorf("redirect: got %+v, Location %q", got, w.Header().Get("Location"))
	}
}

// TestNoOpenRedirect sends requests whose paths try to make the router
// redirect to another host, and checks that every Location is a path on
// the same host: never scheme-relative ("//evil.com"), never with a
// backslash that browsers read as a slash, never with a scheme.
func TestNoOpenRedirect(t *testing.T) {
	r := cairn.New()
	r.Use(trace("mw")) // the redirect also goes through middleware
	for _, p := range []string{"/", "/tree/", "/evil.com/", "/{x}/", "/a/{rest...}", "/b/{x}/{y}/{$}"} {
		r.HandleFunc(p, answer(p))
	}
	r.Mount("/m", http.RedirectHandler("/inner", http.StatusFound))
	known := []string{
		"//evil.com", "//evil.com/", "///evil.com", "/\\evil.com", "/\\/evil.com", "/%2F%2Fevil.com",
		"/%5Cevil.com", "/%5C%5Cevil.com/..", "/.//evil.com", "/..//evil.com", "/./%2Fevil.com",
		"//evil.com/..", "/tree/..//evil.com", "/evil.com", "//evil.com/tree", "/%2e%2e//evil.com",
		"/tree//..//evil.com", "/http:/evil.com", "/http://evil.com/", "/a/..%2F..%2Fevil.com",
		"/@evil.com", "//@evil.com/", "/%09/evil.com", "/\t/evil.com",
	}
	pieces := []string{"/", "//", "\\", "%5C", "%2F", "%2f", ".", "..", "evil.com", "@", "tree", "a", "http:", "%2e", "%09", "?x=//evil.com"}
	rng := rand.New(rand.NewPCG(1, 2))
	targets := known
	for range 20000 {
		var b strings.Builder
		b.WriteString("/")
		for n := 1 + rng.IntN(6); n > 0; n-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		targets = append(targets, b.String())
	}
	redirects := 0
	for _, target := range targets {
		for _, method := range []string{"GET", "POST", "CONNECT"} {
			u, err := url.ParseRequestURI(target)
			if err != nil {
				continue
			}
			req := &http.Request{Method: method, URL: u, RequestURI: target, Host: "good.example", Header: http.Header{}, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
			w := httptest.NewRecorder()
			r.ServeHTTP(w, req)
			if w.Code/100 != 3 {
				continue
			}
			redirects++
			loc := w.Header().Get("Location")
			lu, err := url.Parse(loc)
			if err != nil || lu.Scheme != "" || lu.Host != "" || lu.Opaque != "" || lu.User != nil ||
				!strings.HasPrefix(loc, "/") || strings.HasPrefix(strings.ReplaceAll(loc, "\\", "/"), "//") ||
				strings.ContainsAny(loc, "\t\r\n") {
				t.Errorf("%s %q: redirected to %q", method, target, loc)
				continue
			}
			if base, _ := url.Parse("http://good.example" + u.EscapedPath()); base.ResolveReference(lu).Host != "good.example" {
				t.Errorf("%s %q: Location %q resolves to another host", method, target, loc)
			}
		}
	}
	if redirects < 1000 {
		t.Errorf("only %d of the requests were redirected; the test exercises too little", redirects)
	}
}

// TestConfigureAtomic checks that a change whose middleware constructor
// panics leaves the router as it was.
func TestConfigureAtomic(t *testing.T) {
	r := cairn.New()
	if msg := panicMessage(func() {
		r.Use(trace("first"), func(http.Handler) http.Handler { panic("cairn_test: constructor fails") })
	}); msg != "cairn_test: constructor fails" {
		t.Fatalf("Use: panic %q", msg)
	}
	if msg := panicMessage(func() {
		r.Group("/g", func(http.Handler) http.Handler { panic("cairn_test: constructor fails") })
	}); msg != "cairn_test: constructor fails" {
		t.Fatalf("Group: panic %q", msg)
	}
	r.HandleFunc("GET /g/x", answer("x"))
	for _, target := range []string{"/g/x", "/g/y"} {
		if got, _ := do(t, r, "GET", target); got.trace != "x" && got.trace != "" {
			t.Errorf("GET %s after the failed Use and Group: got %+v, want no middleware", target, got)
		}
	}
}

// TestCORSPreflightMounted checks that Allowed gives the methods of a
// Router mounted below the router, so that a CORS middleware of the outer
// router answers preflight requests for the mounted routes too.
func TestCORSPreflightMounted(t *testing.T) {
	r := cairn.New()
	r.Use(cors(r))
	api := cairn.New()
	api.HandleFunc("PUT /items/{id}", answer("put"))
	api.HandleFunc("GET /items/{id}", func(w http.ResponseWriter, req *http.Request) {
		io.WriteString(w, cairn.Param(req, "version")+" "+cairn.Param(req, "id")+" "+req.URL.EscapedPath())
	})
	r.Mount("/v/{version}", api)
	r.HandleFunc("DELETE /own/{id}", answer("delete"))
	for _, tt := range []struct{ target, want string }{
		{"/v/1/items/7", "GET, HEAD, OPTIONS, PUT"},
		{"/v/1/items/a%2Fb", "GET, HEAD, OPTIONS, PUT"},
		{"/v/1/other", ""},
		{"/own/3", "DELETE, OPTIONS"},
		{"/nowhere", ""},
	} {
		got, w := do(t, r, "OPTIONS", tt.target, "Origin", "https://app.example", "Access-Control-Request-Method", "PUT")
		if got.code != 204 || w.Header().Get("Access-Control-Allow-Methods") != tt.want {
			t.Errorf("preflight %s: got %+v, Access-Control-Allow-Methods %q, want 204, %q", tt.target, got, w.Header().Get("Access-Control-Allow-Methods"), tt.want)
		}
	}
	got, _ := do(t, r, "PUT", "/v/1/items/7", "Origin", "https://app.example")
	if got.code != 200 || got.body != "put" {
		t.Errorf("actual request: got %+v", got)
	}
	// The mounted router sees the rest of the path, escapes kept.
	got, _ = do(t, r, "GET", "/v/1/items/a%2Fb", "Origin", "https://app.example")
	if want := "1 a/b /items/a%2Fb"; got.code != 200 || got.body != want {
		t.Errorf("GET /v/1/items/a%%2Fb: got %+v, want 200 %q", got, want)
	}
}

// TestAllowedMatchesAnswers checks, on random pattern sets and requests,
// under each trailing-slash policy, that Allowed gives the Allow header of
// the router's 405 and OPTIONS answers, as its documentation says, so that
// a CORS middleware reading it tells the same methods as the router.
func TestAllowedMatchesAnswers(t *testing.T) {
	answered := 0
	for seed := range uint64(3000) {
		g := &caseGenerator{c: rand.New(rand.NewPCG(seed, 0x616c6c6f77))}
		patterns := g.patterns()
		r := cairn.New()
		r.TrailingSlash([]cairn.SlashPolicy{cairn.SlashRedirect, cairn.SlashStrict, cairn.SlashServe}[seed%3])
		for _, p := range patterns {
			tryRegister(r, p, func(http.ResponseWriter, *http.Request) {})
		}
		for _, spec := range g.requests(patterns, 30) {
			if spec.Method != http.MethodConnect && g.percent(30) {
				spec.Method = http.MethodOptions
			}
			req, err := spec.newRequest()
			if err != nil {
				t.Fatal(err)
			}
			allowed := r.Allowed(req)
			req, _ = spec.newRequest()
			w := httptest.NewRecorder()
			r.ServeHTTP(w, req)
			if w.Code != http.StatusMethodNotAllowed && !(spec.Method == http.MethodOptions && w.Header().Get("Allow") != "") {
				continue
			}
			answered++
			if got := w.Header().Get("Allow"); got != allowed {
				t.Fatalf("seed %d, patterns %q, %v: answered %d with Allow %q, but Allowed gives %q", seed, patterns, spec, w.Code, got, allowed)
			}
		}
	}
	if answered < 500 {
		t.Fatalf("only %d answers with an Allow header", answered)
	}
	t.Logf("%d answers with an Allow header", answered)
}
