package cairn_test

import (
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/cairn-go/cairn"
)

// logPattern is a middleware that prints the pattern of each request.
func logPattern(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r)
		fmt.Printf("  (log: %s %s matched %q)\n", r.Method, r.URL.Path, r.Pattern)
	})
}

// requireToken is a middleware that rejects requests without a token.
func requireToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// The middleware of Use runs for every answer, 404 included; a group's
// middleware runs for the group's routes and for the router's own answers
// below the group's prefix, so a stranger learns nothing about /admin.
func ExampleRouter_Group() {
	r := cairn.New()
	r.Use(logPattern)
	r.HandleFunc("GET /health", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "ok") })

	admin := r.Group("/admin", requireToken)
	admin.HandleFunc("GET /users/{id:int}", func(w http.ResponseWriter, req *http.Request) {
		fmt.Fprintf(w, "user %s", cairn.Param(req, "id"))
	})

	show(r, "GET", "/health")
	show(r, "GET", "/admin/users/7")
	show(r, "DELETE", "/admin/users/7")
	show(r, "GET", "/admin/nothing")
	show(r, "GET", "/nowhere")
	// Output:
	//   (log: GET /health matched "GET /health")
	// GET /health -> 200 ok
	//   (log: GET /admin/users/7 matched "GET /admin/users/{id:int}")
	// GET /admin/users/7 -> 401 no token
	//   (log: DELETE /admin/users/7 matched "")
	// DELETE /admin/users/7 -> 401 no token
	//   (log: GET /admin/nothing matched "")
	// GET /admin/nothing -> 401 no token
	//   (log: GET /nowhere matched "")
	// GET /nowhere -> 404 404 page not found
}

// Middleware before routing changes what routing sees; middleware after
// routing sees the pattern that matched.
func ExampleRouter_UseBeforeRouting() {
	r := cairn.New()
	r.UseBeforeRouting(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			// A method override for HTML forms, which can only POST.
			if m := req.FormValue("_method"); req.Method == http.MethodPost && m != "" {
				req.Method = m
			}
			next.ServeHTTP(w, req)
		})
	})
	r.Use(logPattern)
	r.HandleFunc("DELETE /posts/{id}", func(w http.ResponseWriter, req *http.Request) {
		fmt.Fprintf(w, "deleted %s", cairn.Param(req, "id"))
	})

	show(r, "POST", "/posts/7?_method=DELETE")
	// Output:
	//   (log: DELETE /posts/7 matched "DELETE /posts/{id}")
	// POST /posts/7?_method=DELETE -> 200 deleted 7
}

// A mounted handler sees the path without the prefix, and can still read
// the prefix's wildcards. A mounted Router stays part of the outer one:
// the outer middleware sees the full pattern, and Routes and Path see its
// routes.
func ExampleRouter_Mount() {
	repos := cairn.New()
	repos.HandleFunc("GET /repos/{repo}", func(w http.ResponseWriter, req *http.Request) {
		fmt.Fprintf(w, "%s/%s (path %s, pattern %q)", cairn.Param(req, "org"), cairn.Param(req, "repo"), req.URL.Path, req.Pattern)
	})
	repos.HandleFunc("GET /issues/", func(http.ResponseWriter, *http.Request) {})

	r := cairn.New()
	r.Use(logPattern)
	r.Mount("/orgs/{org}", repos)

	show(r, "GET", "/orgs/golang/repos/go")
	show(r, "GET", "/orgs/golang/issues")
	for _, ri := range r.Routes() {
		fmt.Println(ri.Pattern)
	}
	p, _ := r.Path("GET /orgs/{org}/repos/{repo}", "org", "golang", "repo", "go")
	fmt.Println(p)
	// Output:
	//   (log: GET /orgs/golang/repos/go matched "GET /orgs/{org}/repos/{repo}")
	// GET /orgs/golang/repos/go -> 200 golang/go (path /repos/go, pattern "GET /repos/{repo}")
	//   (log: GET /orgs/golang/issues matched "/orgs/{org}/")
	// GET /orgs/golang/issues -> 307  Location: issues/
	// /orgs/{org}/
	// GET /orgs/{org}/repos/{repo}
	// GET /orgs/{org}/issues/
	// /orgs/golang/repos/go
}

// Handler finds the route for a request without serving it, as
// ServeMux.Handler does.
func ExampleRouter_Handler() {
	r := cairn.New()
	r.HandleFunc("GET /users/{id:int}", func(w http.ResponseWriter, req *http.Request) {
		fmt.Fprintf(w, "user %s", cairn.Param(req, "id"))
	})
	r.HandleFunc("GET /docs/", func(http.ResponseWriter, *http.Request) {})
	for _, target := range []string{"/users/42", "/users/x", "/docs", "/a/../users/7"} {
		_, pattern := r.Handler(httptest.NewRequest("GET", target, nil))
		fmt.Printf("%s: %q\n", target, pattern)
	}
	req := httptest.NewRequest("GET", "/users/42", nil)
	h, _ := r.Handler(req)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	fmt.Println(w.Body.String())
	// Output:
	// /users/42: "GET /users/{id:int}"
	// /users/x: ""
	// /docs: "GET /docs/"
	// /a/../users/7: "GET /users/{id:int}"
	// user 42
}

// Routes can be named, and their paths built by name.
func ExampleRouter_Named() {
	r := cairn.New()
	api := r.Group("/api/v1")
	api.Named("user").HandleFunc("GET /users/{id:int}", func(http.ResponseWriter, *http.Request) {})
	api.Named("user-files").HandleFunc("GET /users/{id:int}/files/{path...}", func(http.ResponseWriter, *http.Request) {})

	p, err := r.Path("user", "id", "42")
	fmt.Println(p, err)
	p, err = r.Path("user-files", "id", "42", "path", "photos/2024/cat.jpg")
	fmt.Println(p, err)
	// Output:
	// /api/v1/users/42 <nil>
	// /api/v1/users/42/files/photos/2024/cat.jpg <nil>
}

// Params reads every value of the route in one pass.
func ExampleParams() {
	r := cairn.New()
	r.HandleFunc("GET /repos/{owner}/{repo}/issues/{n:int}", func(w http.ResponseWriter, req *http.Request) {
		for name, value := range cairn.Params(req) {
			fmt.Fprintf(w, "%s=%s ", name, value)
		}
	})
	show(r, "GET", "/repos/golang/go/issues/42")
	// Output:
	// GET /repos/golang/go/issues/42 -> 200 owner=golang repo=go n=42
}

// A router can turn path values on for the group where a library that
// reads r.PathValue is mounted, and keep them off elsewhere.
func ExampleGroup_PopulatePathValues() {
	r := cairn.New()
	r.PopulatePathValues(false) // no allocation for path values
	r.HandleFunc("GET /fast/{id}", func(w http.ResponseWriter, req *http.Request) {
		fmt.Fprintf(w, "PathValue %q, Param %q", req.PathValue("id"), cairn.Param(req, "id"))
	})
	lib := r.Group("/lib").PopulatePathValues(true)
	lib.HandleFunc("GET /items/{id}", func(w http.ResponseWriter, req *http.Request) {
		fmt.Fprintf(w, "PathValue %q", req.PathValue("id"))
	})
	show(r, "GET", "/fast/1")
	show(r, "GET", "/lib/items/2")
	// Output:
	// GET /fast/1 -> 200 PathValue "", Param "1"
	// GET /lib/items/2 -> 200 PathValue "2"
}

// The trailing-slash policy redirects (or serves) a path whose other form,
// with its slash added or removed, has a route.
func ExampleRouter_TrailingSlash() {
	r := cairn.New()
	r.TrailingSlash(cairn.SlashRedirect)
	r.HandleFunc("GET /users", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "users") })
	r.HandleFunc("GET /teams/{$}", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "teams") })
	show(r, "GET", "/users/")
	show(r, "GET", "/teams")
	// Output:
	// GET /users/ -> 307  Location: /users
	// GET /teams -> 307  Location: /teams/
}

// A JSON API can answer redirects, like 404 and 405, with its own body.
func ExampleRouter_Redirects() {
	r := cairn.New()
	r.HandleFunc("GET /docs/", func(http.ResponseWriter, *http.Request) {})
	r.Redirects(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusPermanentRedirect)
		fmt.Fprintf(w, `{"location": %q}`, w.Header().Get("Location"))
	}))
	w := httptest.NewRecorder()
	r.ServeHTTP(w, httptest.NewRequest("GET", "/docs", nil))
	fmt.Println(w.Code, w.Body.String())
	// Output:
	// 308 {"location": "/docs/"}
}

// Versions of a route are chosen by the Accept header: the most preferred
// version that the route has, else (with no version asked for) the
// unversioned route, else 406 Not Acceptable.
func ExampleRouter_Version() {
	r := cairn.New()
	r.Versioning(cairn.Versioning{Vendor: "acme"})
	r.HandleFunc("GET /users/{id:int}", func(w http.ResponseWriter, req *http.Request) {
		fmt.Fprintf(w, `{"id": %s}`, cairn.Param(req, "id"))
	})
	r.Version("v2").HandleFunc("GET /users/{id:int}", func(w http.ResponseWriter, req *http.Request) {
		fmt.Fprintf(w, `{"user": {"id": %s}, "version": %q}`, cairn.Param(req, "id"), cairn.RouteVersion(req))
	})

	for _, accept := range []string{
		"application/json",
		"application/vnd.acme.v2+json",
		"application/vnd.acme.v1+json;q=0.9, application/vnd.acme.v2+json;q=0.5",
		"application/vnd.acme.v3+json",
	} {
		req := httptest.NewRequest("GET", "/users/42", nil)
		req.Header.Set("Accept", accept)
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req)
		fmt.Printf("%s\n  -> %d %s (Vary: %s)\n", accept, w.Code, strings.TrimSpace(w.Body.String()), w.Header().Get("Vary"))
	}
	// Output:
	// application/json
	//   -> 200 {"id": 42} (Vary: Accept)
	// application/vnd.acme.v2+json
	//   -> 200 {"user": {"id": 42}, "version": "v2"} (Vary: Accept)
	// application/vnd.acme.v1+json;q=0.9, application/vnd.acme.v2+json;q=0.5
	//   -> 200 {"user": {"id": 42}, "version": "v2"} (Vary: Accept)
	// application/vnd.acme.v3+json
	//   -> 406 406 not acceptable: no version of this resource matches the request (Vary: Accept)
}

// Path builds the path of a registered pattern, escaping and checking
// each value.
func ExampleRouter_Path() {
	r := cairn.New()
	r.HandleFunc("GET /repos/{owner}/{repo}/issues/{n:int}", func(http.ResponseWriter, *http.Request) {})
	r.HandleFunc("GET /files/{path...}", func(http.ResponseWriter, *http.Request) {})

	p, err := r.Path("GET /repos/{owner}/{repo}/issues/{n:int}", "owner", "golang", "repo", "go", "n", "42")
	fmt.Println(p, err)
	p, err = r.Path("GET /files/{path...}", "path", "docs/read me.md")
	fmt.Println(p, err)
	_, err = r.Path("GET /repos/{owner}/{repo}/issues/{n:int}", "owner", "golang", "repo", "go", "n", "latest")
	fmt.Println(err)
	_, err = r.Path("GET /repos/{owner}/{repo}/issues/{n:int}", "owner", "golang")
	fmt.Println(err)
	// Output:
	// /repos/golang/go/issues/42 <nil>
	// /files/docs/read%20me.md <nil>
	// cairn: Path("GET /repos/{owner}/{repo}/issues/{n:int}"): value "latest" does not satisfy the constraint of {n:int}
	// cairn: Path("GET /repos/{owner}/{repo}/issues/{n:int}"): no value for wildcard "repo"
}

// WriteTree shows the tree that lookups walk, in precedence order.
func ExampleRouter_WriteTree() {
	r := cairn.New()
	h := http.NotFoundHandler()
	r.Handle("GET /users/me", h)
	r.Handle("GET /users/{id:int}", h)
	r.Handle("GET /users/{name}", h)
	r.Version("v2").Handle("GET /users/{id:int}", h)
	r.Group("/admin", logPattern).Handle("DELETE /users/{id:int}", h)
	if err := r.WriteTree(os.Stdout); err != nil {
		log.Fatal(err)
	}
	// Output:
	// (any host)
	// ├── /admin (group)
	// │   └── /users
	// │       └── /{id:int}  DELETE (1 middleware)
	// └── /users
	//     ├── /me  GET
	//     ├── /{id:int}  GET  GET v2
	//     └── /{name}  GET
}
