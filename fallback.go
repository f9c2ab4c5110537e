package cairn

// This file holds what a Router answers when no route serves a request as
// it is: 404 Not Found, 405 Method Not Allowed, automatic OPTIONS and
// redirects. Each answer has a default, can be replaced (except redirects),
// and runs behind the router-level middleware. The chains are built when
// the table is compiled and kept in it, so answering allocates nothing
// beyond what the handlers themselves do.

import (
	"net/http"
	"slices"
)

// NotFound sets the handler that answers requests that no pattern matches,
// whatever their method. nil restores the default, which answers as
// [http.NotFound] does.
func (r *Router) NotFound(h http.Handler) {
	r.configure(func(s *settings) error { s.notFound = h; return nil })
}

// MethodNotAllowed sets the handler that answers requests whose path some
// pattern matches, but not with their method. The router sets the Allow
// header, listing the methods that would match, before h (and the
// router-level middleware) runs; h should answer 405 Method Not Allowed.
// nil restores the default, which answers as net/http.ServeMux does.
func (r *Router) MethodNotAllowed(h http.Handler) {
	r.configure(func(s *settings) error { s.notAllowed = h; return nil })
}

// AutomaticOptions turns automatic OPTIONS on, with h as the handler that
// answers OPTIONS requests whose path some pattern matches, but not with
// method OPTIONS. The router sets the Allow header before h runs, listing
// the methods that would match, with HEAD if GET is there, and OPTIONS.
// nil restores the default handler, which answers 204 No Content. A route
// registered for OPTIONS (or for every method) answers such requests
// instead.
//
// Automatic OPTIONS is on by default. A CORS middleware installed with
// [Router.Use] sees these requests, with the Allow header set, and can
// answer preflight requests from it.
func (r *Router) AutomaticOptions(h http.Handler) {
	r.configure(func(s *settings) error { s.options, s.optionsOff = h, false; return nil })
}

// DisableAutomaticOptions turns automatic OPTIONS off: such requests then
// get 405, as with net/http.ServeMux, and Allow headers do not list
// OPTIONS. [Router.AutomaticOptions] turns it on again.
func (r *Router) DisableAutomaticOptions() {
	r.configure(func(s *settings) error { s.options, s.optionsOff = nil, true; return nil })
}

// settings are what a router answers when no route serves a request, and
// the router-level middleware.
type settings struct {
	mw         []Middleware // router-level, outermost first
	notFound   http.Handler // nil for the default
	notAllowed http.Handler // nil for the default
	options    http.Handler // nil for the default
	optionsOff bool         // no automatic OPTIONS
	versioning Versioning
}

// configure changes the settings of r with set and rebuilds the fallback
// answers. It builds them without holding the lock, so that middleware
// constructors may call the router, from a copy of the settings, which it
// commits only if nothing changed meanwhile; otherwise it starts again. So
// when configure returns, the change is in force, and if a constructor
// panics, nothing has changed. configure panics with the error of set, if
// any.
func (r *Router) configure(set func(*settings) error) {
	for {
		r.mu.Lock()
		s := r.settings
		// A full slice, so that set's appends never write into the array
		// of the settings in force.
		s.mw = slices.Clip(s.mw)
		err := set(&s)
		gen := r.generation
		r.mu.Unlock()
		if err != nil {
			panic(err)
		}
		f := r.newFallback(s)
		r.mu.Lock()
		if r.generation == gen {
			r.settings, r.fallback = s, f
			r.generation++
			r.changed()
			r.mu.Unlock()
			return
		}
		r.mu.Unlock()
	}
}

// fallback holds the compiled answers of a table, each wrapped in the
// router-level middleware.
type fallback struct {
	notFound      http.Handler
	notAllowed    http.Handler
	options       http.Handler // nil when automatic OPTIONS is off
	notAcceptable http.Handler
	redirect      http.Handler // nil when there is no router-level middleware
	bareNotFound  http.Handler // notFound without the middleware
	versioning    *versioning
}

// newFallback builds the fallback answers for s. It calls the middleware
// constructors, once for each answer.
func (r *Router) newFallback(s settings) *fallback {
	f := &fallback{
		bareNotFound:  orDefault(s.notFound, http.HandlerFunc(serveNotFound)),
		notAllowed:    chain(s.mw, orDefault(s.notAllowed, http.HandlerFunc(serveNotAllowed))),
		notAcceptable: chain(s.mw, orDefault(s.versioning.NotAcceptable, http.HandlerFunc(serveNotAcceptable))),
		versioning:    newVersioning(s.versioning),
	}
	f.notFound = chain(s.mw, f.bareNotFound)
	if !s.optionsOff {
		f.options = chain(s.mw, orDefault(s.options, http.HandlerFunc(serveOptions)))
	}
	if len(s.mw) > 0 {
		// The redirect's target is worked out again by the inner handler,
		// from the request it gets: there is nowhere to keep it that would
		// not allocate a per-request chain.
		f.redirect = chain(s.mw, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			t := r.current()
			var q query
			if v := t.route(req, &q); v.loc != "" {
				http.Redirect(w, req, v.loc, http.StatusTemporaryRedirect)
				return
			}
			// A middleware changed the request so that it no longer
			// needs a redirect; answer as for no route rather than run
			// the router-level middleware a second time.
			t.fallback.bareNotFound.ServeHTTP(w, req)
		}))
	}
	return f
}

// orDefault returns h, or def if h is nil.
func orDefault(h, def http.Handler) http.Handler {
	if h == nil {
		return def
	}
	return h
}

// serveRedirect redirects req to loc, with 307 Temporary Redirect so that
// the method and body are kept, as net/http.ServeMux does. loc is always a
// path, made from the request's cleaned path: an absolute-path reference to
// the same host, never a scheme-relative "//host" one.
func (f *fallback) serveRedirect(w http.ResponseWriter, req *http.Request, loc string) {
	if f.redirect == nil {
		http.Redirect(w, req, loc, http.StatusTemporaryRedirect)
		return
	}
	f.redirect.ServeHTTP(w, req)
}

// serveNoRoute answers a request that no route matched: 404, or, if some
// pattern matches path p with another method, automatic OPTIONS or 405 with
// an Allow header.
func (t *table) serveNoRoute(w http.ResponseWriter, req *http.Request, host, p string, escaped bool) {
	f := t.fallback
	allowed := t.allowed(host, p, escaped)
	if allowed.set == 0 {
		f.notFound.ServeHTTP(w, req)
		return
	}
	w.Header()["Allow"] = t.allowHeader(allowed, f.options != nil)
	if req.Method == http.MethodOptions && f.options != nil {
		f.options.ServeHTTP(w, req)
		return
	}
	f.notAllowed.ServeHTTP(w, req)
}

// Optimization: the default answers use shared header values, so that they
// do not allocate. They are full slices (len == cap), so an Add by a later
// writer copies them rather than writing into them; like the cached Allow
// values, they must be treated as read-only.
var (
	plainTextHeader   = []string{"text/plain; charset=utf-8"}
	nosniffHeader     = []string{"nosniff"}
	notFoundBody      = []byte("404 page not found\n")
	notAllowedBody    = []byte("Method Not Allowed\n")
	notAcceptableBody = []byte("406 not acceptable: no version of this resource matches the request\n")
)

// serveNotFound is the default NotFound handler.
func serveNotFound(w http.ResponseWriter, _ *http.Request) {
	writeError(w, http.StatusNotFound, notFoundBody)
}

// serveNotAllowed is the default MethodNotAllowed handler.
func serveNotAllowed(w http.ResponseWriter, _ *http.Request) {
	writeError(w, http.StatusMethodNotAllowed, notAllowedBody)
}

// serveNotAcceptable is the default handler for requests that ask for a
// version that the matched path does not have.
func serveNotAcceptable(w http.ResponseWriter, _ *http.Request) {
	writeError(w, http.StatusNotAcceptable, notAcceptableBody)
}

// serveOptions is the default handler for automatic OPTIONS.
func serveOptions(w http.ResponseWriter, _ *http.Request) {
	w.WriteHeader(http.StatusNoContent)
}

// writeError writes a plain-text error response, as [http.Error] does,
// without allocating.
func writeError(w http.ResponseWriter, code int, body []byte) {
	h := w.Header()
	delete(h, "Content-Length")
	h["Content-Type"] = plainTextHeader
	h["X-Content-Type-Options"] = nosniffHeader
	w.WriteHeader(code)
	w.Write(body)
}
