package cairn_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/cairn-go/cairn"
)

// TestTrailingSlash checks the three trailing-slash policies in both
// directions, with the route's pattern and values as the handler sees
// them.
func TestTrailingSlash(t *testing.T) {
	show := func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(r.URL.Path + " " + r.Pattern + " id=" + cairn.Param(r, "id")))
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
		// The other form serves the method: the policy applies.
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
