package cairn_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cairn-go/cairn"
)

// versionedRouter returns a router with versioned routes, configured by v,
// whose handlers write their version and the {id} value.
func versionedRouter(v cairn.Versioning) *cairn.Router {
	r := cairn.New()
	r.Versioning(v)
	r.Use(seePattern)
	h := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, req *http.Request) {
			w.Write([]byte(name + " id=" + cairn.Param(req, "id") + " version=" + cairn.RouteVersion(req)))
		}
	}
	r.HandleFunc("GET /users/{id:int}", h("default"))
	r.Version("v1").HandleFunc("GET /users/{id:int}", h("v1"))
	r.Version("v2").With(trace("v2 only")).HandleFunc("GET /users/{uid:int}", h("v2"))
	r.Version("v1").HandleFunc("GET /only/{id}", h("only v1"))
	r.Version("v2").HandleFunc("GET /only/{id}", h("only v2"))
	r.HandleFunc("POST /only/{id}", h("post"))
	r.HandleFunc("GET /plain", h("plain"))
	return r
}

// TestVersions checks version selection by Accept media types, with
// q-values and several media ranges, and the 406 answer.
func TestVersions(t *testing.T) {
	type want struct {
		code int
		body string
		vary string
	}
	const (
		v1 = "application/vnd.acme.v1+json"
		v2 = "application/vnd.acme.v2+json"
		v3 = "application/vnd.acme.v3+json"
	)
	for _, tt := range []struct {
		name     string
		fallback bool
		method   string
		target   string
		accept   []string
		want     want
	}{
		{"no Accept", false, "GET", "/users/1", nil, want{200, "default id=1 version=", "Accept"}},
		{"generic Accept", false, "GET", "/users/1", []string{"application/json, */*;q=0.1"}, want{200, "default id=1 version=", "Accept"}},
		{"v1", false, "GET", "/users/1", []string{v1}, want{200, "v1 id=1 version=v1", "Accept"}},
		{"v2 named differently", false, "GET", "/users/2", []string{v2}, want{200, "v2 id= version=v2", "Accept"}},
		{"HEAD", false, "HEAD", "/users/2", []string{v2}, want{200, "v2 id= version=v2", "Accept"}},
		{"q prefers v2", false, "GET", "/users/3", []string{v1 + ";q=0.5, " + v2 + ";q=0.9"}, want{200, "v2 id= version=v2", "Accept"}},
		{"q prefers v1", false, "GET", "/users/3", []string{v2 + "; q=0.1", v1}, want{200, "v1 id=3 version=v1", "Accept"}},
		{"tie: first listed", false, "GET", "/users/3", []string{v1 + ";q=0.5," + v2 + ";q=0.500"}, want{200, "v1 id=3 version=v1", "Accept"}},
		{"missing version skipped", false, "GET", "/users/4", []string{v3 + ", " + v1 + ";q=0.2"}, want{200, "v1 id=4 version=v1", "Accept"}},
		{"missing version: 406", false, "GET", "/users/4", []string{v3}, want{406, "406 not acceptable: no version of this resource matches the request\n", "Accept"}},
		{"missing version: fallback", true, "GET", "/users/4", []string{v3}, want{200, "default id=4 version=", "Accept"}},
		{"q=0 is not a request", false, "GET", "/users/5", []string{v2 + ";q=0"}, want{200, "default id=5 version=", "Accept"}},
		{"invalid q ignored", false, "GET", "/users/5", []string{v2 + ";q=2", v2 + ";q=0.1234"}, want{200, "default id=5 version=", "Accept"}},
		{"other vendor", false, "GET", "/users/6", []string{"application/vnd.other.v2+json"}, want{200, "default id=6 version=", "Accept"}},
		{"case", false, "GET", "/users/7", []string{"Application/VND.Acme.V2+JSON;Q=1"}, want{200, "v2 id= version=v2", "Accept"}},
		{"no suffix", false, "GET", "/users/7", []string{"application/vnd.acme.v1"}, want{200, "v1 id=7 version=v1", "Accept"}},
		{"params", false, "GET", "/users/7", []string{"application/vnd.acme.v1+json; charset=utf-8; q=0.8"}, want{200, "v1 id=7 version=v1", "Accept"}},
		{"no unversioned route", false, "GET", "/only/8", nil, want{406, "406 not acceptable: no version of this resource matches the request\n", "Accept"}},
		{"no unversioned route, fallback", true, "GET", "/only/8", []string{v3}, want{406, "406 not acceptable: no version of this resource matches the request\n", "Accept"}},
		{"versioned only", false, "GET", "/only/8", []string{v2}, want{200, "only v2 id=8 version=v2", "Accept"}},
		{"other method unversioned", false, "POST", "/only/8", []string{v2}, want{200, "post id=8 version=", ""}},
		{"unversioned path", false, "GET", "/plain", []string{v2}, want{200, "plain id= version=", ""}},
	} {
		r := versionedRouter(cairn.Versioning{Vendor: "acme", Fallback: tt.fallback})
		var header []string
		for _, a := range tt.accept {
			header = append(header, "Accept", a)
		}
		got, w := do(t, r, tt.method, tt.target, header...)
		if g := (want{got.code, got.body, strings.Join(w.Header().Values("Vary"), ", ")}); g != tt.want {
			t.Errorf("%s: %s %s Accept %q: got %+v, want %+v", tt.name, tt.method, tt.target, tt.accept, g, tt.want)
		}
		if tt.want.code == 406 && !strings.HasPrefix(got.seen, "GET /only/{id}") && !strings.HasPrefix(got.seen, "GET /users/{id:int}") {
			t.Errorf("%s: middleware saw pattern %q for 406", tt.name, got.seen)
		}
	}
}

// TestVersionHeader checks selection by a configured header, and the Vary
// header it causes.
func TestVersionHeader(t *testing.T) {
	r := versionedRouter(cairn.Versioning{Header: "x-api-version"})
	for _, tt := range []struct {
		header []string
		want   string
	}{
		{nil, "default id=1 version="},
		{[]string{"X-Api-Version", "v2"}, "v2 id= version=v2"},
		{[]string{"X-Api-Version", " V1 "}, "v1 id=1 version=v1"},
		{[]string{"Accept", "application/vnd.acme.v2+json"}, "default id=1 version="},
		{[]string{"X-Api-Version", "v9"}, "406 not acceptable: no version of this resource matches the request\n"},
	} {
		got, w := do(t, r, "GET", "/users/1", tt.header...)
		if got.body != tt.want || w.Header().Get("Vary") != "X-Api-Version" {
			t.Errorf("%q: got %q, Vary %q; want %q, Vary X-Api-Version", tt.header, got.body, w.Header().Get("Vary"), tt.want)
		}
	}
}

// TestVersionAnyVendor checks that with no vendor configured, the version is
// the last part of any vendor media type.
func TestVersionAnyVendor(t *testing.T) {
	r := versionedRouter(cairn.Versioning{})
	for _, tt := range []struct{ accept, want string }{
		{"application/vnd.github.v2+json", "v2 id= version=v2"},
		{"application/vnd.a.b.c.v1", "v1 id=1 version=v1"},
		{"application/vnd.v1+json", "default id=1 version="},
		{"text/vnd.acme.v1", "default id=1 version="},
	} {
		if got, _ := do(t, r, "GET", "/users/1", "Accept", tt.accept); got.body != tt.want {
			t.Errorf("Accept %q: got %q, want %q", tt.accept, got.body, tt.want)
		}
	}
}

// TestVersionVaryAppends checks that a Vary header set before the router
// runs is kept.
func TestVersionVaryAppends(t *testing.T) {
	r := cairn.New()
	r.Version("v1").HandleFunc("GET /x", answer("v1"))
	outer := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Vary", "Accept-Encoding")
		r.ServeHTTP(w, req)
	})
	_, w := do(t, outer, "GET", "/x", "Accept", "application/vnd.acme.v1+json")
	if got := w.Header().Values("Vary"); strings.Join(got, ", ") != "Accept-Encoding, Accept" {
		t.Errorf("Vary: got %q", got)
	}
}

// TestVersioningPanics checks the validation of Versioning.
func TestVersioningPanics(t *testing.T) {
	for _, tt := range []struct {
		v    cairn.Versioning
		want string
	}{
		{cairn.Versioning{Vendor: "a+b"}, `cairn: invalid vendor name "a+b"`},
		{cairn.Versioning{Header: "X Version"}, `cairn: invalid header name "X Version"`},
	} {
		if msg := panicMessage(func() { cairn.New().Versioning(tt.v) }); msg != tt.want {
			t.Errorf("%+v: panic %q, want %q", tt.v, msg, tt.want)
		}
	}
}

// TestVersionPrecedence checks that a route with versions, none of which
// the request accepts, is passed over for a less specific route, at the
// same leaf or above it, and that Vary is still set.
func TestVersionPrecedence(t *testing.T) {
	r := cairn.New()
	r.Versioning(cairn.Versioning{Vendor: "acme"})
	r.HandleFunc("/users/{id}", answer("any method"))
	r.Version("v2").HandleFunc("GET /users/{id}", answer("GET v2"))
	r.HandleFunc("GET /items/{id}", answer("items"))
	r.Version("v2").HandleFunc("GET /items/{id:int}", answer("items v2"))
	const v2, v3 = "application/vnd.acme.v2+json", "application/vnd.acme.v3+json"
	for _, tt := range []struct {
		target, accept string
		code           int
		body           string
	}{
		{"/users/1", "", 200, "any method"},
		{"/users/1", v2, 200, "GET v2"},
		{"/users/1", v3, 200, "any method"},
		{"/items/1", "", 200, "items"},
		{"/items/1", v2, 200, "items v2"},
		{"/items/x", v2, 200, "items"},
	} {
		var header []string
		if tt.accept != "" {
			header = []string{"Accept", tt.accept}
		}
		got, w := do(t, r, "GET", tt.target, header...)
		if got.code != tt.code || got.body != tt.body {
			t.Errorf("GET %s Accept %q: got %d %q, want %d %q", tt.target, tt.accept, got.code, got.body, tt.code, tt.body)
		}
		// /items/x is not an int: no versioned route was considered.
		want := "Accept"
		if tt.target == "/items/x" {
			want = ""
		}
		if vary := w.Header().Get("Vary"); vary != want {
			t.Errorf("GET %s Accept %q: Vary %q, want %q", tt.target, tt.accept, vary, want)
		}
	}
}

// TestVersionOtherRanges checks that media ranges that ask for no version
// make the unversioned route acceptable, and that without a vendor only
// parts that look like versions ("v2"), with parts of digits after them
// ("v2.1"), are taken for versions.
func TestVersionOtherRanges(t *testing.T) {
	r := versionedRouter(cairn.Versioning{})
	r.Version("v2.1").HandleFunc("GET /users/{id:int}", answer("v2.1"))
	r.Version("v2.1.3").HandleFunc("GET /users/{id:int}", answer("v2.1.3"))
	for _, tt := range []struct{ accept, want string }{
		{"application/vnd.acme.v9+json", "406"},
		{"application/vnd.acme.v9+json, */*;q=0.1", "default"},
		{"application/vnd.acme.v9+json, application/json", "default"},
		{"application/vnd.acme.v9+json, application/json;q=0", "406"},
		{"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "default"},
		{"application/vnd.ms-excel.sheet.macroEnabled.12", "default"},
		{"application/vnd.acme.2", "default"},
		{"application/vnd.acme.2.1", "default"},
		{"application/vnd.v1x.app+json", "default"},
		{"application/vnd.acme.v1.beta", "default"},
		{"application/vnd.acme.v2.1+json", "v2.1"},
		{"application/vnd.acme.V2.1.3", "v2.1.3"},
		{"application/vnd.v9.acme.v1", "v1"},
		{"application/vnd.acme.v1..1", "default"},
	} {
		got, _ := do(t, r, "GET", "/users/1", "Accept", tt.accept)
		if !strings.HasPrefix(got.body, tt.want) {
			t.Errorf("Accept %q: got %d %q, want %s", tt.accept, got.code, got.body, tt.want)
		}
	}
}

// TestVersionVaryOnce checks that Vary does not repeat the header that is
// already there.
func TestVersionVaryOnce(t *testing.T) {
	r := cairn.New()
	r.Version("v1").HandleFunc("GET /x", answer("v1"))
	for _, prior := range []string{"accept", "Origin, Accept", "*"} {
		outer := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			w.Header().Set("Vary", prior)
			r.ServeHTTP(w, req)
		})
		_, w := do(t, outer, "GET", "/x", "Accept", "application/vnd.acme.v1+json")
		if got := w.Header().Values("Vary"); len(got) != 1 || got[0] != prior {
			t.Errorf("Vary %q before: got %q", prior, got)
		}
	}
}

// TestVersionSlashAndOrder checks that a route passed over for its versions
// at the path with a slash added does not make the answer 406, and that
// ordered patterns keep their registration order whatever version is
// chosen.
func TestVersionSlashAndOrder(t *testing.T) {
	r := cairn.New()
	r.Versioning(cairn.Versioning{Vendor: "acme"})
	r.HandleFunc("POST /pa", answer("post a"))
	r.Version("v1").HandleFunc("GET /pa/", answer("a/ v1"))
	r.HandleFunc("GET /{h:hex}", answer("hex"))
	r.HandleFunc("GET /{n:int}", answer("int"))
	r.Version("v2").HandleFunc("GET /{n:int}", answer("int v2"))
	r.Version("v2").HandleFunc("GET /{h:hex}", answer("hex v2"))
	const v1, v2 = "application/vnd.acme.v1+json", "application/vnd.acme.v2+json"
	for _, tt := range []struct {
		target, accept string
		code           int
		body, location string
	}{
		// The redirect does not depend on the version: /pa/ then answers 406.
		{"/pa", "", 307, "", "/pa/"},
		{"/pa", v1, 307, "", "/pa/"},
		{"/pa/", v1, 200, "a/ v1", ""},
		{"/pa/", "", 406, "406 not acceptable: no version of this resource matches the request\n", ""},
		{"/12", "", 200, "hex", ""},
		{"/12", v2, 200, "hex v2", ""},
		{"/-12", v2, 200, "int v2", ""},
	} {
		var header []string
		if tt.accept != "" {
			header = []string{"Accept", tt.accept}
		}
		got, w := do(t, r, "GET", tt.target, header...)
		if tt.code == 307 {
			got.body = ""
		}
		if got.code != tt.code || got.body != tt.body || w.Header().Get("Location") != tt.location {
			t.Errorf("GET %s Accept %q: got %d %q Location %q, want %d %q Location %q",
				tt.target, tt.accept, got.code, got.body, w.Header().Get("Location"), tt.code, tt.body, tt.location)
		}
	}
}

// TestHandlerVary checks that the handler Handler returns sets the Vary
// header of versions as ServeHTTP does.
func TestHandlerVary(t *testing.T) {
	r := cairn.New()
	r.Versioning(cairn.Versioning{Vendor: "acme"})
	r.HandleFunc("GET /u/{id}", answer("v0"))
	r.Version("v2").HandleFunc("GET /u/{id}", answer("v2"))
	for _, accept := range []string{"", "application/vnd.acme.v2+json", "application/vnd.acme.v9+json"} {
		req := httptest.NewRequest("GET", "/u/1", nil)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		direct := httptest.NewRecorder()
		r.ServeHTTP(direct, req)
		req = httptest.NewRequest("GET", "/u/1", nil)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		h, _ := r.Handler(req)
		via := httptest.NewRecorder()
		h.ServeHTTP(via, req)
		if via.Code != direct.Code || via.Header().Get("Vary") != direct.Header().Get("Vary") || via.Body.String() != direct.Body.String() {
			t.Errorf("Accept %q: Handler's handler %d Vary %q %q, ServeHTTP %d Vary %q %q", accept,
				via.Code, via.Header().Get("Vary"), via.Body, direct.Code, direct.Header().Get("Vary"), direct.Body)
		}
	}
}

// TestVersionedSubtreeRoot checks that a subtree's root without its slash,
// whose only route is versioned, is redirected (or under SlashServe served
// as the subtree's root) whatever version the request asks for, as for an
// unversioned route: the root then answers 406 to a request for no version
// it has, rather than the path without the slash answering 405 with an
// Allow header that names the method asked for. An unclean path that
// cleans to the root without its slash is redirected to the root in one
// step, as for an unversioned route, whatever the version.
func TestVersionedSubtreeRoot(t *testing.T) {
	const v2 = "application/vnd.acme.v2+json"
	for _, tt := range []struct {
		method         string
		policy         cairn.SlashPolicy
		path, accept   string
		code           int
		body, location string
	}{
		{"GET", cairn.SlashRedirect, "/sub", "", 307, "", "/sub/"},
		{"GET", cairn.SlashRedirect, "/sub", v2, 307, "", "/sub/"},
		{"GET", cairn.SlashStrict, "/sub", "", 307, "", "/sub/"},
		{"GET", cairn.SlashServe, "/sub", "", 406, "406 not acceptable: no version of this resource matches the request\n", ""},
		{"GET", cairn.SlashServe, "/sub", v2, 200, "sub v2", ""},
		{"GET", cairn.SlashStrict, "/x/../sub", "", 307, "", "/sub/"},
		{"GET", cairn.SlashStrict, "/x/../sub", v2, 307, "", "/sub/"},
		{"GET", cairn.SlashServe, "/./sub", "", 307, "", "/sub/"},
		// A CONNECT request's path is not cleaned, but the subtree's root
		// without its slash is redirected as for the other methods.
		{"CONNECT", cairn.SlashStrict, "/sub", "", 307, "", "/sub/"},
		{"CONNECT", cairn.SlashStrict, "/sub", v2, 307, "", "/sub/"},
	} {
		r := cairn.New()
		r.TrailingSlash(tt.policy)
		r.Versioning(cairn.Versioning{Vendor: "acme"})
		r.Version("v2").HandleFunc("GET /sub/", answer("sub v2"))
		r.Version("v2").HandleFunc("CONNECT /sub/", answer("sub v2"))
		var header []string
		if tt.accept != "" {
			header = []string{"Accept", tt.accept}
		}
		got, w := do(t, r, tt.method, tt.path, header...)
		if tt.code == 307 {
			got.body = ""
		}
		if got.code != tt.code || got.body != tt.body || w.Header().Get("Location") != tt.location || w.Header().Get("Allow") != "" {
			t.Errorf("policy %v, Accept %q: %s %s: %d %q Location %q Allow %q, want %d %q Location %q and no Allow",
				tt.policy, tt.accept, tt.method, tt.path, got.code, got.body, w.Header().Get("Location"), w.Header().Get("Allow"), tt.code, tt.body, tt.location)
		}
	}
}

// TestSlashRedirectVersionedPattern checks that under SlashRedirect both
// directions of the redirect, and the redirect of an unclean path, report,
// as r.Pattern, the pattern of the route the new path leads to, when that
// route has versions only and the request asks for none of them.
func TestSlashRedirectVersionedPattern(t *testing.T) {
	ok := func(http.ResponseWriter, *http.Request) {}
	var seen string
	r := cairn.New()
	r.TrailingSlash(cairn.SlashRedirect)
	r.Use(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			seen = req.Pattern
			next.ServeHTTP(w, req)
		})
	})
	r.Version("v1").HandleFunc("GET /only/{id}", ok)
	r.Version("v1").HandleFunc("GET /teams/{t}/{$}", ok)
	for _, c := range []struct {
		path, want string
		code       int
	}{
		{"/teams/x", "GET /teams/{t}/{$}", http.StatusTemporaryRedirect}, // a slash added
		{"/only/1", "GET /only/{id}", http.StatusNotAcceptable},          // where the next one leads
		{"/only/1/", "GET /only/{id}", http.StatusTemporaryRedirect},     // a slash removed
		{"/x/../only/1", "GET /only/{id}", http.StatusTemporaryRedirect}, // an unclean path
		{"/x/../teams/x", "GET /teams/{t}/{$}", http.StatusTemporaryRedirect},
	} {
		seen = "(none)"
		w := httptest.NewRecorder()
		r.ServeHTTP(w, httptest.NewRequest("GET", c.path, nil))
		_, pattern := r.Handler(httptest.NewRequest("GET", c.path, nil))
		if w.Code != c.code || seen != c.want || pattern != c.want {
			t.Errorf("GET %s: %d, Use saw r.Pattern %q, Handler gave %q; want %d and %q", c.path, w.Code, seen, pattern, c.code, c.want)
		}
	}
}
