package cairn

// This file holds what a Router answers when no route serves a request as
// it is: 404 Not Found, 405 Method Not Allowed, automatic OPTIONS and
// redirects. Each answer has a default, can be replaced (except redirects),
// and runs behind the router-level middleware. The chains are built when
// the table is compiled and kept in it, so answering allocates nothing
// beyond what the handlers themselves do.

import (
	"net/http"
)

// NotFound sets the handler that answers requests that no pattern matches,
// whatever their method. nil restores the default, which answers as
// [http.NotFound] does.
func (r *Router) NotFound(h http.Handler) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.notFound = h
	r.changed()
}

// MethodNotAllowed sets the handler that answers requests whose path some
// pattern matches, but not with their method. The router sets the Allow
// header, listing the methods that would match, before h (and the
// router-level middleware) runs; h should answer 405 Method Not Allowed.
// nil restores the default, which answers as net/http.ServeMux does.
func (r *Router) MethodNotAllowed(h http.Handler) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.notAllowed = h
	r.changed()
}

// AutomaticOptions sets the handler that answers OPTIONS requests whose
// path some pattern matches, but not with method OPTIONS. The router sets
// the Allow header before h runs, listing the methods that would match,
// with HEAD if GET is there, and OPTIONS. By default such requests get 204
// No Content with that header. A route registered for OPTIONS (or for every
// method) answers them instead.
//
// A CORS middleware installed with [Router.Use] sees these requests, with
// the Allow header set, and can answer preflight requests from it.
//
// AutomaticOptions(nil) turns automatic OPTIONS off: such requests then get
// 405, as with net/http.ServeMux, and Allow headers do not list OPTIONS.
func (r *Router) AutomaticOptions(h http.Handler) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.options, r.optionsOff = h, h == nil
	r.changed()
}

// fallback holds the compiled answers of a table, each wrapped in the
// router-level middleware.
type fallback struct {
	notFound      http.Handler
	notAllowed    http.Handler
	options       http.Handler // nil when automatic OPTIONS is off
	notAcceptable http.Handler
	redirect      http.Handler // nil when there is no router-level middleware
	versioning    *versioning
}

// fallbackHandlers builds the fallback of r, whose lock is held.
func (r *Router) fallbackHandlers() fallback {
	f := fallback{
		notFound:      chain(r.mw, orDefault(r.notFound, http.HandlerFunc(serveNotFound))),
		notAllowed:    chain(r.mw, orDefault(r.notAllowed, http.HandlerFunc(serveNotAllowed))),
		notAcceptable: chain(r.mw, orDefault(r.versioning.NotAcceptable, http.HandlerFunc(serveNotAcceptable))),
		versioning:    newVersioning(r.versioning),
	}
	if !r.optionsOff {
		f.options = chain(r.mw, orDefault(r.options, http.HandlerFunc(serveOptions)))
	}
	if len(r.mw) > 0 {
		// The redirect's target is worked out again by the inner handler,
		// from the request it gets: there is nowhere to keep it that would
		// not allocate a per-request chain.
		f.redirect = chain(r.mw, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			if v := r.current().route(req); v.loc != "" {
				http.Redirect(w, req, v.loc, http.StatusTemporaryRedirect)
				return
			}
			// A middleware changed the request so that it no longer
			// needs a redirect; answer as for no route rather than run
			// the router-level middleware a second time.
			serveNotFound(w, req)
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
	f := &t.fallback
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
