package cairn_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/cairn-go/cairn"
)

// TestTrailingSlash checks the three trailing-slash policies in both
// directions, with the route's pattern and values as the handler sees
// them.
func TestTrailingSlash(t *testing.T) {
	show := func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(r.URL.EscapedPath() + " " + r.Pattern + " id=" + cairn.Param(r, "id")))
	}
	newRouter := func(p cairn.SlashPolicy) *cairn.Router {
		r := cairn.New()
		r.TrailingSlash(p)
		r.HandleFunc("GET /users", show)
		r.HandleFunc("GET /users/{id}", show)
		r.HandleFunc("GET /teams/{$}", show)
		r.HandleFunc("GET /files/", show)
		r.HandleFunc("POST /both/", show)
		r.HandleFunc("GET /both", show)
		return r
	}
	type want struct {
		code     int
		location string
		body     string
	}
	for _, tt := range []struct {
		target                  string
		strict, redirect, serve want
	}{
		{"/users/",
			want{404, "", "404 page not found\n"},
			want{307, "/users", ""},
			want{200, "", "/users GET /users id="}},
		{"/users/7/?q=1",
			want{404, "", "404 page not found\n"},
			want{307, "/users/7?q=1", ""},
			want{200, "", "/users/7 GET /users/{id} id=7"}},
		// The path served keeps its escapes.
		{"/users/a%2Fb/",
			want{404, "", "404 page not found\n"},
			want{307, "/users/a%2Fb", ""},
			want{200, "", "/users/a%2Fb GET /users/{id} id=a/b"}},
		{"/teams",
			want{307, "/teams/", ""},
			want{307, "/teams/", ""},
			want{200, "", "/teams/ GET /teams/{$} id="}},
		{"/files",
			want{307, "/files/", ""},
			want{307, "/files/", ""},
			want{200, "", "/files/ GET /files/ id="}},
		// A route for the path as it is always serves it.
		{"/users", want{200, "", "/users GET /users id="}, want{200, "", "/users GET /users id="}, want{200, "", "/users GET /users id="}},
		// A route matches the path as it is, for another method only: the
		// policy applies, since no route serves the request as it is, as
		// for a slash added.
		{"/both/",
			want{405, "", "Method Not Allowed\n"},
			want{307, "/both", ""},
			want{200, "", "/both GET /both id="}},
		{"/nothing/", want{404, "", "404 page not found\n"}, want{404, "", "404 page not found\n"}, want{404, "", "404 page not found\n"}},
	} {
		for _, c := range []struct {
			p    cairn.SlashPolicy
			want want
		}{{cairn.SlashStrict, tt.strict}, {cairn.SlashRedirect, tt.redirect}, {cairn.SlashServe, tt.serve}} {
			got, w := do(t, newRouter(c.p), "GET", tt.target)
			body := got.body
			if got.code == 307 {
				body = ""
			}
			if g := (want{got.code, w.Header().Get("Location"), body}); g != c.want {
				t.Errorf("%v: GET %s: got %+v, want %+v", c.p, tt.target, g, c.want)
			}
		}
	}
}

// TestTrailingSlashOtherMethods checks that a path that stands for its
// other form under a policy gets the other form's answers for every method.
func TestTrailingSlashOtherMethods(t *testing.T) {
	for _, tt := range []struct {
		policy         cairn.SlashPolicy
		method, target string
		code           int
		allow, loc     string
	}{
		{cairn.SlashServe, "POST", "/users/", 405, "GET, HEAD, OPTIONS", ""},
		{cairn.SlashServe, "OPTIONS", "/users/", 204, "GET, HEAD, OPTIONS", ""},
		{cairn.SlashServe, "GET", "/users/", 200, "", ""},
		{cairn.SlashRedirect, "POST", "/users/", 307, "", "/users"},
		{cairn.SlashRedirect, "OPTIONS", "/users/", 307, "", "/users"},
		{cairn.SlashStrict, "POST", "/users/", 404, "", ""},
		// The path with its slash has a route of another method only: the
		// path stands for the other form if that has the method, as a
		// slash is added.
		{cairn.SlashServe, "GET", "/items/", 200, "", ""},
		{cairn.SlashRedirect, "GET", "/items/", 307, "", "/items"},
		{cairn.SlashRedirect, "POST", "/items", 307, "", "/items/"},
		// Its 405 and OPTIONS answers list the methods of both forms.
		{cairn.SlashServe, "PUT", "/items/", 405, "GET, HEAD, OPTIONS, POST", ""},
		{cairn.SlashRedirect, "PUT", "/items/", 405, "GET, HEAD, OPTIONS, POST", ""},
		{cairn.SlashServe, "OPTIONS", "/items/", 204, "GET, HEAD, OPTIONS, POST", ""},
		{cairn.SlashStrict, "GET", "/items/", 405, "OPTIONS, POST", ""},
	} {
		r := cairn.New()
		r.Use(trace("mw"))
		r.TrailingSlash(tt.policy)
		r.HandleFunc("GET /users", answer("users"))
		r.HandleFunc("GET /items", answer("items"))
		r.HandleFunc("POST /items/{$}", answer("new item"))
		req := httptest.NewRequest(tt.method, tt.target, nil)
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req)
		if w.Code != tt.code || w.Header().Get("Allow") != tt.allow || w.Header().Get("Location") != tt.loc {
			t.Errorf("%v: %s %s: got %d Allow %q Location %q, want %d %q %q", tt.policy, tt.method, tt.target,
				w.Code, w.Header().Get("Allow"), w.Header().Get("Location"), tt.code, tt.allow, tt.loc)
		}
		// The caller's request is not changed.
		if req.URL.Path != tt.target {
			t.Errorf("%v: %s %s: the request's path became %q", tt.policy, tt.method, tt.target, req.URL.Path)
		}
		// Allowed gives the methods of the answers, whatever the method.
		want := tt.allow
		if tt.target == "/items/" && tt.policy != cairn.SlashStrict {
			want = "GET, HEAD, OPTIONS, POST"
		}
		if got := r.Allowed(httptest.NewRequest(tt.method, tt.target, nil)); want != "" && got != want {
			t.Errorf("%v: %s %s: Allowed %q, want %q", tt.policy, tt.method, tt.target, got, want)
		}
		h, _ := r.Handler(httptest.NewRequest(tt.method, tt.target, nil))
		w2 := httptest.NewRecorder()
		h.ServeHTTP(w2, httptest.NewRequest(tt.method, tt.target, nil))
		if w2.Code != w.Code || w2.Header().Get("Allow") != w.Header().Get("Allow") {
			t.Errorf("%v: %s %s: Handler's handler answers %d Allow %q, ServeHTTP %d %q", tt.policy, tt.method, tt.target,
				w2.Code, w2.Header().Get("Allow"), w.Code, w.Header().Get("Allow"))
		}
	}
}

// TestRedirectsHandler checks that the redirect answer can be replaced,
// with the Location set before the handler runs.
func TestRedirectsHandler(t *testing.T) {
	r := cairn.New()
	r.Use(trace("mw"))
	r.HandleFunc("GET /tree/", answer("tree"))
	r.Redirects(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusPermanentRedirect)
		json.NewEncoder(w).Encode(map[string]string{"location": w.Header().Get("Location")})
	}))
	got, w := do(t, r, "GET", "/tree")
	if got.code != http.StatusPermanentRedirect || got.trace != "mw" || got.body != `{"location":"/tree/"}`+"\n" || w.Header().Get("Location") != "/tree/" {
		t.Errorf("replaced redirect: got %+v, Location %q", got, w.Header().Get("Location"))
	}
	r.Redirects(nil)
	if got, w := do(t, r, "GET", "/a/../tree/"); got.code != 307 || w.Header().Get("Location") != "/tree/" || got.body != "<a href=\"/tree/\">Temporary Redirect</a>.\n\n" {
		t.Errorf("default redirect: got %+v, Location %q", got, w.Header().Get("Location"))
	}
}

// TestRedirectLocationEscapesNonASCII checks that redirect locations hold
// only ASCII, as ServeMux's do: a query may carry other bytes.
func TestRedirectLocationEscapesNonASCII(t *testing.T) {
	r := cairn.New()
	mux := http.NewServeMux()
	r.HandleFunc("GET /b", answer("b"))
	mux.HandleFunc("GET /b", answer("b"))
	for _, target := range []string{"/a/../b?q=\xdb", "/a/../b?q=caf\xc3\xa9"} {
		req := &http.Request{Method: "GET", URL: mustParseURL(t, target), Host: "a.com", Header: http.Header{}, RequestURI: target}
		got, want := httptest.NewRecorder(), httptest.NewRecorder()
		r.ServeHTTP(got, req)
		mux.ServeHTTP(want, req)
		if got.Header().Get("Location") != want.Header().Get("Location") {
			t.Errorf("%q: Location %q, ServeMux's %q", target, got.Header().Get("Location"), want.Header().Get("Location"))
		}
	}
}

// mustParseURL parses a request target.
func mustParseURL(tb testing.TB, target string) *url.URL {
	tb.Helper()
	u, err := url.ParseRequestURI(target)
	if err != nil {
		tb.Fatal(err)
	}
	return u
}

// TestSlashServePattern checks that a wrapper around the router reads the
// pattern from the request it passed in when the route serves the other
// form of the path, as it does for every other answer.
func TestSlashServePattern(t *testing.T) {
	r := cairn.New()
	r.TrailingSlash(cairn.SlashServe)
	r.HandleFunc("GET /users", func(w http.ResponseWriter, req *http.Request) {})
	req := httptest.NewRequest("GET", "/users/", nil)
	r.ServeHTTP(httptest.NewRecorder(), req)
	if req.Pattern != "GET /users" {
		t.Errorf("req.Pattern after serving /users/ = %q, want %q", req.Pattern, "GET /users")
	}
	if req.URL.Path != "/users/" {
		t.Errorf("the caller's request was changed: path %q", req.URL.Path)
	}
}

// TestAllowedSlashCatchAll checks that a path with a trailing slash that a
// pattern without a method matches does not stand for the path without
// it, in Allowed as in the answers: that pattern takes every method.
func TestAllowedSlashCatchAll(t *testing.T) {
	inner := cairn.New()
	inner.HandleFunc("PUT /x/", answer("put"))
	r := cairn.New()
	r.TrailingSlash(cairn.SlashServe)
	r.HandleFunc("GET /m/{y}", answer("m"))
	r.Mount("/m", inner)
	r.HandleFunc("GET /x", answer("x"))
	r.HandleFunc("/x/", answer("catch-all"))
	for _, c := range []struct{ method, target, allowed string }{
		{"OPTIONS", "/m/x/", "OPTIONS, PUT"},
		{"DELETE", "/m/x/", "OPTIONS, PUT"},
		{"DELETE", "/x/", ""},
		{"GET", "/x/", ""},
	} {
		if got := r.Allowed(httptest.NewRequest(c.method, c.target, nil)); got != c.allowed {
			t.Errorf("%s %s: Allowed %q, want %q", c.method, c.target, got, c.allowed)
		}
	}
	if got, _ := do(t, r, "GET", "/x/"); got.body != "catch-all" {
		t.Errorf("GET /x/: %q, want the catch-all", got.body)
	}
}
