// Package profiler serves the runtime profiles of [net/http/pprof] under a
// prefix of a cairn Router or Group, or of an [http.ServeMux], in one call.
//
// Register under a group whose middleware authenticates, so the profiles
// sit behind it:
//
//	admin := r.Group("/admin", requireToken)
//	profiler.Register(admin, "/debug/pprof")
//
// Profiles expose the program's internals (its command line, symbols,
// memory, goroutine stacks) and a CPU profile or trace costs the server
// while it runs. Better still, serve them on a separate listener bound to
// the loopback interface, reached through an SSH tunnel or the pod's port
// forwarding, with a router of their own:
//
//	debug := cairn.New()
//	profiler.Register(debug, "/debug/pprof")
//	go http.ListenAndServe("127.0.0.1:6060", debug)
//
// Importing this package imports net/http/pprof, which also registers its
// handlers on [http.DefaultServeMux]; never serve DefaultServeMux to the
// public.
package profiler

import (
	"fmt"
	"net/http"
	"net/http/pprof"
	"strings"

	"github.com/cairn-go/cairn"
)

// A Registrar is what Register adds routes to: a [cairn.Router], a
// [cairn.Group] or an [http.ServeMux].
type Registrar interface {
	Handle(pattern string, h http.Handler)
}

// Register adds routes for every handler of net/http/pprof below prefix
// (such as "/debug/pprof"): the index at prefix+"/", the command line,
// CPU profile, symbol lookup and execution trace at prefix+"/cmdline",
// "/profile", "/symbol" and "/trace", and every named profile (allocs,
// block, goroutine, heap, mutex, threadcreate and any the program
// defines) at prefix+"/"+name. The index's links are relative, so they
// work under any prefix. A request for prefix itself is redirected to
// prefix+"/" by the router.
//
// Register panics if prefix does not start with a slash, ends with one,
// or holds a wildcard or a method, and as the registrar panics if a route
// conflicts.
func Register(m Registrar, prefix string) {
	if !strings.HasPrefix(prefix, "/") || strings.HasSuffix(prefix, "/") || strings.ContainsAny(prefix, "{} \t") {
		panic(fmt.Sprintf("profiler: prefix %q must start with a slash, not end with one, and hold no wildcard or method", prefix))
	}
	m.Handle("GET "+prefix+"/{$}", http.HandlerFunc(index))
	m.Handle("GET "+prefix+"/{profile}", http.HandlerFunc(named))
	m.Handle("GET "+prefix+"/cmdline", http.HandlerFunc(pprof.Cmdline))
	m.Handle("GET "+prefix+"/profile", http.HandlerFunc(pprof.Profile))
	m.Handle("GET "+prefix+"/symbol", http.HandlerFunc(pprof.Symbol))
	m.Handle("POST "+prefix+"/symbol", http.HandlerFunc(pprof.Symbol))
	m.Handle("GET "+prefix+"/trace", http.HandlerFunc(pprof.Trace))
}

// index serves pprof's index page. pprof.Index takes what follows
// "/debug/pprof/" in the path for a profile's name, so under a prefix such
// as "/debug/pprof/app" it gets a copy of the request with a path that
// does not start so.
func index(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/debug/pprof/") && r.URL.Path != "/debug/pprof/" {
		u := *r.URL
		u.Path, u.RawPath = "/", ""
		r = r.WithContext(r.Context())
		r.URL = &u
	}
	pprof.Index(w, r)
}

// named serves the named profile in the request's {profile} wildcard.
// pprof.Handler answers 404 for a name that no profile has.
func named(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("profile")
	if name == "" {
		name = cairn.Param(r, "profile") // a Router that does not fill path values
	}
	pprof.Handler(name).ServeHTTP(w, r)
}
