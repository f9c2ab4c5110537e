// Command demo serves a small site routed by cairn, to try the router with
// curl: static pages, wildcards and constraints, a catch-all, versions
// chosen by media type, named routes, a group behind middleware that also
// guards the router's own answers below it, middleware before routing, a
// router mounted below a wildcard, a trailing-slash policy, and the 404,
// 405, OPTIONS and redirect answers; served through the middleware of the
// serving path: request IDs, a JSON access log, recovery, Prometheus
// metrics on /metrics, compression, and net/http/pprof behind the admin
// token. A small library service runs over gRPC on loopback and is served
// as JSON under /v1/ by the transcoder, from its google.api.http rules.
//
//	go run ./examples/demo [-addr 127.0.0.1:8080] [-grpc-addr 127.0.0.1:9090]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/cairn-go/cairn"
	"github.com/cairn-go/cairn/compress"
	"github.com/cairn-go/cairn/examples/demo/library"
	"github.com/cairn-go/cairn/examples/demo/library/librarypb"
	"github.com/cairn-go/cairn/metrics"
	"github.com/cairn-go/cairn/middleware"
	"github.com/cairn-go/cairn/profiler"
	"github.com/cairn-go/cairn/transcode"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// token is what the /admin group asks for in the Authorization header.
const token = "Bearer demo"

// notes says what each route shows, by pattern and version.
var notes = map[string]string{
	"GET /{$}":                          "the home page, and only it",
	"GET /about":                        "a static page",
	"GET /hello":                        "a static route next to a wildcard subtree",
	"GET /hello/{word}/":                "a wildcard, then a subtree",
	"PUT /static/{uuid:uuid}/{ip:ipv4}": "built-in constraints",
	"GET /static/{ip:ipv4}/{uuid:uuid}": "the same constraints the other way round (GET and HEAD)",
	"GET /users/{id:int}":               "an integer id; the route is named \"user\"",
	"GET /users/{name:[a-z]+}":          "a regexp constraint, tried after int",
	"GET api.localhost/status":          "a host pattern",
	"/files/{path...}":                  "a catch-all, any method",
	"GET /api/users/{id:int}":           "unversioned: answers as v1",
	"GET /api/users/{id:int} v1":        "Accept: application/vnd.cairn.v1+json",
	"GET /api/users/{id:int} v2":        "Accept: application/vnd.cairn.v2+json",
	"GET /admin/routes":                 "the route table as JSON, behind a token",
	"GET /admin/tree":                   "the routing tree, behind a token",
	"DELETE /admin/cache":               "POST with X-HTTP-Method-Override: DELETE works too",
	"GET /panic":                        "a handler that panics: 500, logged with its stack",
	"GET /events":                       "server-sent events, compressed and flushed event by event",
	"GET /metrics":                      "Prometheus metrics by method, route pattern and status class",
	"GET /admin/debug/pprof/{$}":        "net/http/pprof behind the token: the index",
	"GET /admin/debug/pprof/{profile}":  "  a named profile",
	"GET /admin/debug/pprof/cmdline":    "  the command line",
	"GET /admin/debug/pprof/profile":    "  a CPU profile",
	"GET /admin/debug/pprof/trace":      "  an execution trace",
	"GET /admin/debug/pprof/symbol":     "  symbol lookup",
	"POST /admin/debug/pprof/symbol":    "  symbol lookup",
	"/v1/":                              "the library's gRPC service as JSON, transcoded from its HTTP rules",
	"/orgs/{org}/":                      "a cairn router mounted below a wildcard",
	"GET /orgs/{org}/repos/":            "  its routes, listed with their full patterns",
	"GET /orgs/{org}/repos/{repo}":      "  reads {org} from the mount and {repo} from its own pattern",
}

// newRouter returns the demo's router. It writes its request log, as JSON
// lines, to logw, and its metrics to reg, and serves lib under /v1/.
func newRouter(logw io.Writer, reg *prometheus.Registry, lib *transcode.Handler) *cairn.Router {
	logger := slog.New(slog.NewJSONHandler(logw, nil))
	r := cairn.New()
	r.UseBeforeRouting(middleware.RequestID(nil), methodOverride)
	r.Use(
		middleware.Logger(logger, nil),
		metrics.New(&metrics.Options{Registerer: reg}),
		middleware.Recover(&middleware.RecoverOptions{Logger: logger}),
		compress.New(nil),
	)
	r.Versioning(cairn.Versioning{Vendor: "cairn"})
	r.TrailingSlash(cairn.SlashRedirect)
	r.NotFound(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		http.Error(w, "404 page not found; the routes are listed at /", http.StatusNotFound)
	}))

	r.HandleFunc("GET /{$}", func(w http.ResponseWriter, req *http.Request) { home(w, r) })
	r.HandleFunc("GET /about", text("cairn: ServeMux patterns, constraints, versions, zero allocations\n"))
	r.HandleFunc("GET /hello", text("hello, world\n"))
	r.HandleFunc("GET /hello/{word}/", hello)
	r.HandleFunc("PUT /static/{uuid:uuid}/{ip:ipv4}", echoParams("uuid", "ip"))
	r.HandleFunc("GET /static/{ip:ipv4}/{uuid:uuid}", echoParams("ip", "uuid"))
	r.Named("user").HandleFunc("GET /users/{id:int}", echoParams("id"))
	r.HandleFunc("GET /users/{name:[a-z]+}", echoParams("name"))
	r.HandleFunc("GET api.localhost/status", text("api ok\n"))
	r.HandleFunc("/files/{path...}", echoParams("path"))
	r.HandleFunc("GET /panic", func(w http.ResponseWriter, req *http.Request) {
		var m map[string]int
		m["boom"]++ // a nil map: the handler panics
	})
	r.HandleFunc("GET /events", events)
	r.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))

	r.HandleFunc("GET /api/users/{id:int}", userV1)
	r.Version("v1").HandleFunc("GET /api/users/{id:int}", userV1)
	r.Version("v2").HandleFunc("GET /api/users/{id:int}", userV2)

	admin := r.Group("/admin", requireToken)
	admin.HandleFunc("GET /routes", func(w http.ResponseWriter, req *http.Request) { routesJSON(w, r) })
	admin.HandleFunc("GET /tree", func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		r.WriteTree(w)
	})
	admin.HandleFunc("DELETE /cache", text("cache cleared\n"))
	profiler.Register(admin, "/debug/pprof")

	r.Handle("/v1/", lib) // the rules match whole paths: no prefix stripped
	r.Mount("/orgs/{org}", orgRouter())
	return r
}

// startLibrary serves the library over gRPC on addr and returns its
// transcoder, connected to it over loopback, and a function that stops
// both.
func startLibrary(addr string) (*transcode.Handler, func(), error) {
	conn, stop, err := library.Serve(addr)
	if err != nil {
		return nil, nil, err
	}
	lib := transcode.New(conn, nil)
	if err := lib.RegisterService(librarypb.File_library_proto.Services().ByName("LibraryService")); err != nil {
		stop()
		return nil, nil, err
	}
	return lib, stop, nil
}

// orgRouter returns a router for one organization's repositories, to be
// mounted at /orgs/{org}.
func orgRouter() *cairn.Router {
	r := cairn.New()
	r.HandleFunc("GET /repos/", func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintf(w, "the repositories of %s (pattern %q)\n", cairn.Param(req, "org"), req.Pattern)
	})
	r.HandleFunc("GET /repos/{repo}", func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintf(w, "%s/%s (pattern %q)\n", cairn.Param(req, "org"), cairn.Param(req, "repo"), req.Pattern)
	})
	return r
}

// events streams a few server-sent events, flushed one by one through the
// compression middleware.
func events(w http.ResponseWriter, req *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	rc := http.NewResponseController(w)
	for i := 1; i <= 3; i++ {
		fmt.Fprintf(w, "id: %d\ndata: tick %d\n\n", i, i)
		if err := rc.Flush(); err != nil {
			return
		}
		select {
		case <-req.Context().Done():
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// methodOverride is a middleware, used before routing, that lets a POST
// request (from an HTML form, say) ask for another method with the
// X-HTTP-Method-Override header, as gorilla's HTTPMethodOverrideHandler
// does.
func methodOverride(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if m := req.Header.Get("X-HTTP-Method-Override"); req.Method == http.MethodPost && m != "" {
			req.Method = strings.ToUpper(m)
		}
		next.ServeHTTP(w, req)
	})
}

// requireToken is a middleware that answers 401 unless the request carries
// the demo's token.
func requireToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Header.Get("Authorization") != token {
			w.Header().Set("WWW-Authenticate", `Bearer realm="cairn demo"`)
			http.Error(w, "401 unauthorized: send Authorization: "+token, http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, req)
	})
}

// routeTable writes the routes of r as a table.
func routeTable(w io.Writer, r *cairn.Router) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, ri := range r.Routes() {
		key := ri.Pattern
		if ri.Version != "" {
			key += " " + ri.Version
		}
		version := ri.Version
		if version == "" {
			version = "-"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", ri.Pattern, version, notes[key])
	}
	tw.Flush()
}

// home lists the routes, with links built by reverse routing.
func home(w http.ResponseWriter, r *cairn.Router) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintln(w, "cairn demo\n\nroutes (pattern, version, note):")
	routeTable(w, r)
	fmt.Fprintln(w, "\nsome paths, built with Router.Path:")
	for _, p := range [][]string{
		{"GET /hello/{word}/", "word", "gopher"},
		{"user", "id", "42"},
		{"GET /orgs/{org}/repos/{repo}", "org", "acme", "repo", "cairn"},
		{"/files/{path...}", "path", "docs/read me.txt"},
		{"GET /static/{ip:ipv4}/{uuid:uuid}", "ip", "10.0.0.1", "uuid", "123e4567-e89b-12d3-a456-426614174000"},
	} {
		path, err := r.Path(p[0], p[1:]...)
		if err != nil {
			path = err.Error()
		}
		fmt.Fprintf(w, "  %s\n", path)
	}
}

// routesJSON writes the route table as JSON.
func routesJSON(w http.ResponseWriter, r *cairn.Router) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintln(w, "[")
	routes := r.Routes()
	for i, ri := range routes {
		comma := ","
		if i == len(routes)-1 {
			comma = ""
		}
		fmt.Fprintf(w, "  {\"pattern\": %q, \"method\": %q, \"version\": %q, \"middleware\": %d, \"mount\": %t}%s\n",
			ri.Pattern, ri.Method, ri.Version, ri.Middleware, ri.Mount, comma)
	}
	fmt.Fprintln(w, "]")
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

// userV1 answers version 1 of the user resource.
func userV1(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/vnd.cairn.v1+json")
	fmt.Fprintf(w, "{\"id\": %s, \"name\": \"user %s\"}\n", cairn.Param(r, "id"), cairn.Param(r, "id"))
}

// userV2 answers version 2 of the user resource, which nests the user and
// says its version.
func userV2(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/vnd.cairn.v2+json")
	fmt.Fprintf(w, "{\"version\": %q, \"user\": {\"id\": %s, \"names\": [\"user\", %q]}}\n",
		cairn.RouteVersion(r), cairn.Param(r, "id"), cairn.Param(r, "id"))
}

// usage prints the route table, the library's rules and commands to try.
func usage(w io.Writer, base string, r *cairn.Router, lib *transcode.Handler) {
	fmt.Fprintf(w, "cairn demo on %s\n\nroutes (pattern, version, note):\n", base)
	routeTable(w, r)
	fmt.Fprintln(w, "\nthe library's rules, under /v1/:")
	for _, p := range lib.Patterns() {
		fmt.Fprintf(w, "  %s\n", p)
	}
	fmt.Fprintf(w, `
try:
  curl %[1]s/
  curl %[1]s/hello/gopher/
  curl -X PUT %[1]s/static/123e4567-e89b-12d3-a456-426614174000/10.0.0.1
  curl -I %[1]s/static/10.0.0.1/123e4567-e89b-12d3-a456-426614174000
  curl %[1]s/users/42 %[1]s/users/gopher
  curl %[1]s/api/users/42
  curl -H 'Accept: application/vnd.cairn.v2+json' %[1]s/api/users/42
  curl -i -H 'Accept: application/vnd.cairn.v3+json' %[1]s/api/users/42
  curl -i -X OPTIONS %[1]s/api/users/42
  curl -i -X DELETE %[1]s/users/42
  curl -i %[1]s/hello/gopher
  curl -i %[1]s/about/
  curl -H 'Authorization: %[2]s' %[1]s/admin/tree
  curl -i -X DELETE %[1]s/admin/tree
  curl -X POST -H 'X-HTTP-Method-Override: DELETE' -H 'Authorization: %[2]s' %[1]s/admin/cache
  curl -H 'Host: api.localhost' %[1]s/status
  curl -H 'Authorization: %[2]s' '%[1]s/admin/debug/pprof/goroutine?debug=1'
  curl %[1]s/orgs/acme/repos/cairn
  curl -i %[1]s/orgs/acme/repos
  curl -i %[1]s/panic
  curl -N --compressed %[1]s/events
  curl -s --compressed -i %[1]s/ | head
  curl -s %[1]s/metrics | grep http_server_requests_total
  curl %[1]s/v1/shelves/1/books
  curl -X POST -d '{"title": "Kindred", "author": "Octavia E. Butler"}' %[1]s/v1/shelves/2/books
  curl -X PATCH -d '{"read": true}' '%[1]s/v1/shelves/1/books/1?updateMask=read'
  curl -X POST -d '{"otherShelfName": "shelves/2"}' %[1]s/v1/shelves/1/books/2:move
  curl -N %[1]s/v1/shelves/2/books:watch
  curl -i %[1]s/v1/shelves/9

`, base, token)
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	grpcAddr := flag.String("grpc-addr", "127.0.0.1:9090", "address of the library's gRPC server")
	flag.Parse()

	lib, stopLibrary, err := startLibrary(*grpcAddr)
	if err != nil {
		log.Fatal(err)
	}
	defer stopLibrary()
	r := newRouter(os.Stderr, prometheus.NewRegistry(), lib)
	srv := &http.Server{Addr: *addr, Handler: r, ReadHeaderTimeout: 10 * time.Second}
	usage(os.Stdout, "http://"+*addr, r, lib)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	select {
	case err := <-errc:
		log.Fatal(err)
	case <-ctx.Done():
	}
	fmt.Println("shutting down")
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
	fmt.Println("bye")
}
