// Command demo serves a small site routed by cairn, to try the router with
// curl: static pages, wildcards, constraints, a catch-all, 404, 405 and the
// redirects that net/http.ServeMux makes.
//
//	go run ./examples/demo [-addr 127.0.0.1:8080]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/cairn-go/cairn"
)

// A route is one of the demo's patterns, with what it shows.
type route struct {
	pattern, note string
	handler       http.HandlerFunc
}

// routes lists the demo's routes in the order they are registered and
// printed. The home page, which lists them, is added by init.
var routes = []route{
	{"GET /about", "a static page", text("cairn: ServeMux patterns, constraints, zero allocations\n")},
	{"GET /hello", "a static route next to a wildcard subtree", text("hello, world\n")},
	{"GET /hello/{word}/", "a wildcard, then a subtree", hello},
	{"PUT /static/{uuid:uuid}/{ip:ipv4}", "built-in constraints", echoParams("uuid", "ip")},
	{"GET /static/{ip:ipv4}/{uuid:uuid}", "the same constraints the other way round", echoParams("ip", "uuid")},
	{"GET /users/{id:int}", "an integer id", echoParams("id")},
	{"GET /users/{name:[a-z]+}", "a regexp constraint, tried after int", echoParams("name")},
	{"GET /currencies/{code:[A-Z]{3}}", "a regexp with braces", echoParams("code")},
	{"GET api.localhost/status", "a host pattern", text("api ok\n")},
	{"/files/{path...}", "a catch-all, any method", echoParams("path")},
}

func init() {
	routes = append([]route{{"GET /{$}", "the home page, and only it", home}}, routes...)
}

// newRouter returns the demo's router.
func newRouter() *cairn.Router {
	r := cairn.New()
	for _, rt := range routes {
		r.Handle(rt.pattern, rt.handler)
	}
	return r
}

// home lists the routes.
func home(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintln(w, "cairn demo; routes:")
	for _, rt := range routes {
		fmt.Fprintf(w, "  %-40s %s\n", rt.pattern, rt.note)
	}
}

// text returns a handler that writes s.
func text(s string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, s)
	}
}

// hello greets the word in the path and says what follows it.
func hello(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintf(w, "hello, %s (pattern %q, path %q)\n", cairn.Param(r, "word"), r.Pattern, r.URL.Path)
}

// echoParams returns a handler that writes the matched pattern and the
// values of names.
func echoParams(names ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintf(w, "%s %s matched %q\n", r.Method, r.URL.Path, r.Pattern)
		for _, n := range names {
			fmt.Fprintf(w, "  %s = %q\n", n, cairn.Param(r, n))
		}
	}
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	flag.Parse()

	srv := &http.Server{Addr: *addr, Handler: newRouter(), ReadHeaderTimeout: 10 * time.Second}
	base := "http://" + *addr
	fmt.Printf("cairn demo on %s\n\nroutes:\n", base)
	for _, rt := range routes {
		fmt.Printf("  %-40s %s\n", rt.pattern, rt.note)
	}
	fmt.Printf(`
try:
  curl %[1]s/
  curl %[1]s/hello/gopher/
  curl -X PUT %[1]s/static/123e4567-e89b-12d3-a456-426614174000/10.0.0.1
  curl %[1]s/static/10.0.0.1/123e4567-e89b-12d3-a456-426614174000
  curl %[1]s/users/42 %[1]s/users/gopher %[1]s/users/Gopher
  curl -i -X DELETE %[1]s/users/42
  curl -i %[1]s/hello/gopher
  curl -H 'Host: api.localhost' %[1]s/status

`, base)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	select {
	case err := <-errc:
		log.Fatal(err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
	fmt.Println("bye")
}
