package cairn_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-go/cairn"
)

// requireToken is a middleware that answers 401 to requests without the
// token, before anything else can answer.
func requireAuth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("X-Trace", "auth")
		if r.Header.Get("Authorization") != "Bearer ok" {
			http.Error(w, "401 unauthorized", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// TestGroupsCoverTheirSubtree checks that the router's own answers for the
// paths below a group's prefix run the group's middleware, and that the
// Allow and Location headers are set only after it.
func TestGroupsCoverTheirSubtree(t *testing.T) {
	r := cairn.New()
	r.Versioning(cairn.Versioning{Vendor: "acme"})
	r.Use(trace("r"))
	api := r.Group("/api", cors(r))
	api.HandleFunc("GET /items/{id}", answer("item"))
	api.HandleFunc("PUT /items/{id}", answer("put"))
	admin := r.Group("/admin", requireAuth)
	admin.HandleFunc("GET /users/{id}", answer("user"))
	admin.HandleFunc("GET /reports/", answer("reports"))
	admin.Version("v2").HandleFunc("GET /stats", answer("stats v2"))
	// A route outside the group, below its prefix: its 405 is the group's.
	r.HandleFunc("GET /admin/health", answer("health"))
	r.HandleFunc("GET /public", answer("public"))

	const token = "Bearer ok"
	for _, tt := range []struct {
		name, method, target string
		header               []string
		code                 int
		trace                string
		allow, location      string
		cors                 string // Access-Control-Allow-Methods
	}{
		{"preflight", "OPTIONS", "/api/items/1", []string{"Origin", "https://app.example", "Access-Control-Request-Method", "PUT"}, 204, "r", "", "", "GET, HEAD, OPTIONS, PUT"},
		{"automatic OPTIONS", "OPTIONS", "/api/items/1", nil, 204, "r", "GET, HEAD, OPTIONS, PUT", "", ""},
		{"405 in the CORS group", "DELETE", "/api/items/1", nil, 405, "r", "GET, HEAD, OPTIONS, PUT", "", ""},
		{"stranger's 405", "DELETE", "/admin/users/1", nil, 401, "r auth", "", "", ""},
		{"stranger's OPTIONS", "OPTIONS", "/admin/users/1", nil, 401, "r auth", "", "", ""},
		{"stranger's 404", "GET", "/admin/nothing", nil, 401, "r auth", "", "", ""},
		{"stranger's redirect", "GET", "/admin/reports", nil, 401, "r auth", "", "", ""},
		{"stranger's unclean path", "GET", "/admin//users/1", nil, 401, "r auth", "", "", ""},
		{"stranger's 406", "GET", "/admin/stats", nil, 401, "r auth", "", "", ""},
		{"stranger's prefix", "GET", "/admin", nil, 401, "r auth", "", "", ""},
		{"stranger on a route outside the group", "GET", "/admin/health", nil, 200, "r health", "", "", ""},
		{"stranger's 405 on a route outside the group", "POST", "/admin/health", nil, 401, "r auth", "", "", ""},
		{"405", "DELETE", "/admin/users/1", []string{"Authorization", token}, 405, "r auth", "GET, HEAD, OPTIONS", "", ""},
		{"404", "GET", "/admin/nothing", []string{"Authorization", token}, 404, "r auth", "", "", ""},
		{"redirect", "GET", "/admin/reports", []string{"Authorization", token}, 307, "r auth", "", "/admin/reports/", ""},
		{"406", "GET", "/admin/stats", []string{"Authorization", token}, 406, "r auth", "", "", ""},
		{"v2", "GET", "/admin/stats", []string{"Authorization", token, "Accept", "application/vnd.acme.v2+json"}, 200, "r auth stats v2", "", "", ""},
		{"404 outside groups", "GET", "/nothing", nil, 404, "r", "", "", ""},
		{"405 outside groups", "POST", "/public", nil, 405, "r", "GET, HEAD, OPTIONS", "", ""},
	} {
		got, w := do(t, r, tt.method, tt.target, tt.header...)
		h := w.Header()
		if got.code != tt.code || got.trace != tt.trace || h.Get("Allow") != tt.allow || h.Get("Location") != tt.location ||
			h.Get("Access-Control-Allow-Methods") != tt.cors {
			t.Errorf("%s: %s %s: got %d %q Allow %q Location %q CORS %q; want %d %q Allow %q Location %q CORS %q",
				tt.name, tt.method, tt.target, got.code, got.trace, h.Get("Allow"), h.Get("Location"), h.Get("Access-Control-Allow-Methods"),
				tt.code, tt.trace, tt.allow, tt.location, tt.cors)
		}
	}
}

// TestClaimPrecedence checks which group covers a path when several
// prefixes do: the most specific, literal segments first.
func TestClaimPrecedence(t *testing.T) {
	r := cairn.New()
	api := r.Group("/api", trace("api"))
	api.HandleFunc("GET /x", answer("x"))
	api.Group("/admin", trace("admin")).HandleFunc("GET /x", answer("x"))
	r.Group("/orgs/{org}", trace("org")).HandleFunc("GET /x", answer("x"))
	r.Group("/orgs/{id:int}", trace("orgid")).HandleFunc("GET /x", answer("x"))
	r.Group("/orgs/acme", trace("acme")).HandleFunc("GET /x", answer("x"))
	r.Group("api.example.com", trace("host")).HandleFunc("GET /x", answer("x"))
	r.Group("/nomw").HandleFunc("GET /x", answer("x"))
	for _, tt := range []struct {
		target, trace string
	}{
		{"/api/y", "api"},
		{"/api", "api"},
		{"/api/admin/y/z", "api admin"},
		{"/api/admins", "api"},
		{"/orgs/go/y", "org"},
		{"/orgs/42/y", "orgid"},
		{"/orgs/acme/y", "acme"},
		{"/orgs", ""},
		{"http://api.example.com/y", "host"},
		{"http://other.example.com/api/y", "api"},
		{"/nomw/y", ""},
	} {
		if got, _ := do(t, r, "GET", tt.target); got.code != 404 || got.trace != tt.trace {
			t.Errorf("GET %s: got %d %q, want 404 %q", tt.target, got.code, got.trace, tt.trace)
		}
	}
}

// TestGroupWithoutRoutesClaimsNothing checks that a group covers its
// prefix only once a route is registered through it.
func TestGroupWithoutRoutesClaimsNothing(t *testing.T) {
	r := cairn.New()
	r.Group("/quiet", trace("quiet"))
	if got, _ := do(t, r, "GET", "/quiet/x"); got.trace != "" {
		t.Errorf("GET /quiet/x: middleware %q ran for a group without routes", got.trace)
	}
}

// seeValues is a middleware that records, in the header X-Values (named
// after who), r.Pattern and the values Param and Params read, as they are
// before the request goes on.
func seeValues(who string, names ...string) cairn.Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Add("X-Values", who+" "+describeValues(r, names...))
			next.ServeHTTP(w, r)
		})
	}
}

// describeValues returns r.Pattern, Param's value of each of names, and
// what Params yields, as one string.
func describeValues(r *http.Request, names ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%q", r.Pattern)
	for _, n := range names {
		fmt.Fprintf(&b, " %s=%q", n, cairn.Param(r, n))
	}
	b.WriteString(" [")
	for n, v := range cairn.Params(r) {
		fmt.Fprintf(&b, " %s=%q", n, v)
	}
	b.WriteString(" ]")
	return b.String()
}

// TestOwnAnswersReadPrefixValues checks that the router's own answers for
// the paths a group covers let the middleware around them, and the handler
// that gives them, read the values of the group's prefix, while
// r.Pattern stays "" and r.PathValue empty, as for ServeMux's answers.
func TestOwnAnswersReadPrefixValues(t *testing.T) {
	for _, pv := range []bool{true, false} {
		r := cairn.New()
		r.PopulatePathValues(pv)
		r.Use(seeValues("r", "org", "team"))
		orgs := r.Group("/orgs/{org}", seeValues("orgs", "org", "team"))
		orgs.HandleFunc("GET /repos/{repo}", answer("repo"))
		orgs.HandleFunc("GET /docs/", answer("docs"))
		orgs.Group("/teams/{team:int}", seeValues("teams", "org", "team")).HandleFunc("GET /members", answer("members"))
		r.Group("api.example.com/{v}", seeValues("host", "v")).HandleFunc("GET /x", answer("x"))
		r.Group("/static", trace("static")).HandleFunc("GET /x", answer("x"))
		r.NotFound(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			w.Header().Add("X-Values", "404 "+describeValues(req, "org", "team")+" pv="+req.PathValue("org"))
			w.WriteHeader(http.StatusNotFound)
		}))
		r.MethodNotAllowed(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			w.Header().Add("X-Values", "405 "+describeValues(req, "org", "team"))
			w.WriteHeader(http.StatusMethodNotAllowed)
		}))
		org := `"" org="acme" team="" [ org="acme" ]`
		team := `"" org="acme" team="42" [ org="acme" team="42" ]`
		none := `"" org="" team="" [ ]`
		for _, tt := range []struct {
			method, target string
			code           int
			values         []string
		}{
			{"GET", "/orgs/acme/nothing", 404, []string{"r " + org, "orgs " + org, "404 " + org + " pv="}},
			{"GET", "/orgs/acme", 404, []string{"r " + org, "orgs " + org, "404 " + org + " pv="}},
			{"DELETE", "/orgs/acme/repos/cairn", 405, []string{"r " + org, "orgs " + org, "405 " + org}},
			{"OPTIONS", "/orgs/acme/repos/cairn", 204, []string{"r " + org, "orgs " + org}},
			{"GET", "/orgs/a%2Fb/nothing", 404, []string{
				`r "" org="a/b" team="" [ org="a/b" ]`, `orgs "" org="a/b" team="" [ org="a/b" ]`, `404 "" org="a/b" team="" [ org="a/b" ] pv=`}},
			{"GET", "/orgs/acme/teams/42/nothing", 404, []string{"r " + team, "orgs " + team, "teams " + team, "404 " + team + " pv="}},
			{"POST", "/orgs/acme/teams/42/members", 405, []string{"r " + team, "orgs " + team, "teams " + team, "405 " + team}},
			// The constraint rejects "x": the outer group covers the path.
			{"GET", "/orgs/acme/teams/x/nothing", 404, []string{"r " + org, "orgs " + org, "404 " + org + " pv="}},
			{"GET", "http://api.example.com/v7/nothing", 404, []string{`r "" org="" team="" [ v="v7" ]`, `host "" v="v7" [ v="v7" ]`, `404 "" org="" team="" [ v="v7" ] pv=`}},
			{"GET", "/static/nothing", 404, []string{"r " + none, "404 " + none + " pv="}},
			{"GET", "/nothing", 404, []string{"r " + none, "404 " + none + " pv="}},
			// A redirect that adds a trailing slash has its target's
			// pattern and values; one that cleans the path, no values.
			{"GET", "/orgs/acme/docs", 307, []string{`r "GET /orgs/{org}/docs/" org="acme" team="" [ org="acme" ]`, `orgs "GET /orgs/{org}/docs/" org="acme" team="" [ org="acme" ]`}},
			{"GET", "/orgs/acme/./repos/cairn", 307, []string{`r "GET /orgs/{org}/repos/{repo}" org="" team="" [ org="" repo="" ]`, `orgs "GET /orgs/{org}/repos/{repo}" org="" team="" [ org="" repo="" ]`}},
			{"GET", "/orgs/acme/repos/cairn", 200, []string{`r "GET /orgs/{org}/repos/{repo}" org="acme" team="" [ org="acme" repo="cairn" ]`, `orgs "GET /orgs/{org}/repos/{repo}" org="acme" team="" [ org="acme" repo="cairn" ]`}},
		} {
			_, w := do(t, r, tt.method, tt.target)
			if got := w.Header().Values("X-Values"); w.Code != tt.code || !slices.Equal(got, tt.values) {
				t.Errorf("path values %v: %s %s: got %d\n\t%s\nwant %d\n\t%s", pv, tt.method, tt.target,
					w.Code, strings.Join(got, "\n\t"), tt.code, strings.Join(tt.values, "\n\t"))
			}
		}
	}
}

// TestClaimPatternIsEmpty checks that the r.Pattern of an own answer below
// a group's prefix is "" to every reader, and that a string equal to it
// but made elsewhere reads no values.
func TestClaimPatternIsEmpty(t *testing.T) {
	r := cairn.New()
	var pattern string
	var copied, cleared string
	r.Group("/orgs/{org}", func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			pattern = req.Pattern
			c := req.Clone(req.Context())
			copied = cairn.Param(c, "org")
			c.Pattern = ""
			cleared = cairn.Param(c, "org")
			next.ServeHTTP(w, req)
		})
	}).HandleFunc("GET /x", answer("x"))
	do(t, r, "GET", "/orgs/acme/y")
	if pattern != "" || len(pattern) != 0 || copied != "acme" || cleared != "" {
		t.Errorf("r.Pattern %q (len %d), Param of a clone %q, of a clone with r.Pattern = \"\" %q; want \"\", 0, \"acme\", \"\"",
			pattern, len(pattern), copied, cleared)
	}
}
