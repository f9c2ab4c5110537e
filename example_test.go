package cairn_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/cairn-go/cairn"
)

// show serves a request for method and target and prints the response.
func show(h http.Handler, method, target string) {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(method, target, nil))
	body := strings.TrimSuffix(w.Body.String(), "\n")
	if w.Code/100 == 3 {
		body = "" // the redirect's HTML
	}
	fmt.Printf("%s %s -> %d %s", method, target, w.Code, body)
	if loc := w.Header().Get("Location"); loc != "" {
		fmt.Printf(" Location: %s", loc)
	}
	if allow := w.Header().Get("Allow"); allow != "" {
		fmt.Printf(" Allow: %s", allow)
	}
	fmt.Println()
}

func Example() {
	r := cairn.New()
	r.HandleFunc("GET /repos/{owner}/{repo}", func(w http.ResponseWriter, req *http.Request) {
		fmt.Fprintf(w, "repo %s of %s", cairn.Param(req, "repo"), cairn.Param(req, "owner"))
	})
	r.HandleFunc("GET /repos/{owner}/{repo}/issues/{n:int}", func(w http.ResponseWriter, req *http.Request) {
		fmt.Fprintf(w, "issue %s (pattern %q)", req.PathValue("n"), req.Pattern)
	})
	r.HandleFunc("GET /files/{path...}", func(w http.ResponseWriter, req *http.Request) {
		fmt.Fprintf(w, "file %s", cairn.Param(req, "path"))
	})

	show(r, "GET", "/repos/golang/go")
	show(r, "GET", "/repos/golang/go/issues/42")
	show(r, "GET", "/repos/golang/go/issues/latest")
	show(r, "GET", "/files/a/b%2Fc.txt")
	show(r, "DELETE", "/repos/golang/go")
	show(r, "GET", "/repos/golang/../golang/go")
	// Output:
	// GET /repos/golang/go -> 200 repo go of golang
	// GET /repos/golang/go/issues/42 -> 200 issue 42 (pattern "GET /repos/{owner}/{repo}/issues/{n:int}")
	// GET /repos/golang/go/issues/latest -> 404 404 page not found
	// GET /files/a/b%2Fc.txt -> 200 file a/b/c.txt
	// DELETE /repos/golang/go -> 405 Method Not Allowed Allow: GET, HEAD, OPTIONS
	// GET /repos/golang/../golang/go -> 307  Location: /repos/golang/go
}

// Constraints sit between literals and plain wildcards in precedence;
// differently constrained wildcards are tried in registration order.
func Example_constraints() {
	r := cairn.New()
	reply := func(s string) http.HandlerFunc {
		return func(w http.ResponseWriter, req *http.Request) { fmt.Fprint(w, s) }
	}
	r.Handle("/items/new", reply("the form"))
	r.Handle("/items/{id:uuid}", reply("an item by uuid"))
	r.Handle("/items/{n:int}", reply("an item by number"))
	r.Handle("/items/{slug}", reply("an item by slug"))
	r.Handle("/hosts/{ip:ipv4}", reply("a host"))
	r.Handle("/codes/{code:[A-Z]{3}}", reply("a currency"))

	for _, p := range []string{
		"/items/new",
		"/items/123e4567-e89b-12d3-a456-426614174000",
		"/items/42",
		"/items/blue-chair",
		"/hosts/10.0.0.1",
		"/hosts/10.0.0.256",
		"/codes/EUR",
	} {
		show(r, "GET", p)
	}
	// Output:
	// GET /items/new -> 200 the form
	// GET /items/123e4567-e89b-12d3-a456-426614174000 -> 200 an item by uuid
	// GET /items/42 -> 200 an item by number
	// GET /items/blue-chair -> 200 an item by slug
	// GET /hosts/10.0.0.1 -> 200 a host
	// GET /hosts/10.0.0.256 -> 404 404 page not found
	// GET /codes/EUR -> 200 a currency
}

// Named constraints are defined once on a router and used by name.
func ExampleRouter_DefineConstraint() {
	r := cairn.New()
	r.DefineConstraint("lower", func(s string) bool { return s != "" && strings.ToLower(s) == s })
	r.DefineRegexp("sha", `[0-9a-f]{7,40}`)
	r.HandleFunc("GET /users/{name:lower}", func(w http.ResponseWriter, req *http.Request) {
		fmt.Fprint(w, "user ", cairn.Param(req, "name"))
	})
	r.HandleFunc("GET /commits/{id:sha}", func(w http.ResponseWriter, req *http.Request) {
		fmt.Fprint(w, "commit ", cairn.Param(req, "id"))
	})
	show(r, "GET", "/users/gopher")
	show(r, "GET", "/users/Gopher")
	show(r, "GET", "/commits/1a2b3c4")
	// Output:
	// GET /users/gopher -> 200 user gopher
	// GET /users/Gopher -> 404 404 page not found
	// GET /commits/1a2b3c4 -> 200 commit 1a2b3c4
}

// Registering a pattern that conflicts with another panics with an error
// that names both patterns and a path that both match.
func ExampleConflictError() {
	r := cairn.New()
	r.HandleFunc("/a/{x}", func(http.ResponseWriter, *http.Request) {})
	defer func() {
		err := recover().(*cairn.ConflictError)
		fmt.Println(err.Pattern, "conflicts with", err.Existing, "on", err.Path)
	}()
	r.HandleFunc("/{y}/b", func(http.ResponseWriter, *http.Request) {})
	// Output:
	// /{y}/b conflicts with /a/{x} on /a/b
}

// With path values off, routing allocates nothing; Param still works.
func ExampleRouter_PopulatePathValues() {
	r := cairn.New()
	r.PopulatePathValues(false)
	r.HandleFunc("GET /users/{id}", func(w http.ResponseWriter, req *http.Request) {
		fmt.Fprintf(w, "Param=%q PathValue=%q", cairn.Param(req, "id"), req.PathValue("id"))
	})
	show(r, "GET", "/users/7")
	// Output:
	// GET /users/7 -> 200 Param="7" PathValue=""
}
