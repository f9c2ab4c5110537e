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

// Router-level middleware runs for every answer, 404 included; a group's
// middleware runs only for the group's routes.
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
	show(r, "GET", "/nowhere")
	// Output:
	//   (log: GET /health matched "GET /health")
	// GET /health -> 200 ok
	//   (log: GET /admin/users/7 matched "GET /admin/users/{id:int}")
	// GET /admin/users/7 -> 401 no token
	//   (log: GET /nowhere matched "")
	// GET /nowhere -> 404 404 page not found
}

// A mounted handler sees the path without the prefix, and can still read
// the prefix's wildcards.
func ExampleRouter_Mount() {
	repos := cairn.New()
	repos.HandleFunc("GET /repos/{repo}", func(w http.ResponseWriter, req *http.Request) {
		fmt.Fprintf(w, "%s/%s (path %s)", cairn.Param(req, "org"), cairn.Param(req, "repo"), req.URL.Path)
	})

	r := cairn.New()
	r.Mount("/orgs/{org}", repos)

	show(r, "GET", "/orgs/golang/repos/go")
	show(r, "GET", "/orgs/golang")
	// Output:
	// GET /orgs/golang/repos/go -> 200 golang/go (path /repos/go)
	// GET /orgs/golang -> 307  Location: /orgs/golang/
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
