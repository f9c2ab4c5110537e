package cairn

// This file holds the router's settings, and what a Router answers when no
// route serves a request as it is: 404 Not Found, 405 Method Not Allowed,
// automatic OPTIONS, redirects, and 406 (see version.go). Each answer has a
// default, can be replaced, and runs behind the middleware of Use and of
// the groups that claim the request's path (see dispatch.go).

import (
	"fmt"
	"html"
	"net/http"
)

// NotFound sets the handler that answers requests that no pattern matches,
// whatever their method. nil restores the default, which answers as
// [http.NotFound] does.
func (r *Router) NotFound(h http.Handler) {
	r.configure(func(cfg *config) { cfg.notFound = orDefault(h, http.HandlerFunc(serveNotFound)) })
}

// MethodNotAllowed sets the handler that answers requests whose path some
// pattern matches, but not with their method. The router sets the Allow
// header, listing the methods that would match, just before h runs (after
// the middleware); h should answer 405 Method Not Allowed. nil restores
// the default, which answers as net/http.ServeMux does.
func (r *Router) MethodNotAllowed(h http.Handler) {
	r.configure(func(cfg *config) { cfg.notAllowed = orDefault(h, http.HandlerFunc(serveNotAllowed)) })
}

// AutomaticOptions turns automatic OPTIONS on, with h as the handler that
// answers OPTIONS requests whose path some pattern matches, but not with
// method OPTIONS. The router sets the Allow header just before h runs,
// listing the methods that would match, with HEAD if GET is there, and
// OPTIONS. nil restores the default handler, which answers 204 No Content.
// A route registered for OPTIONS (or for every method) answers such
// requests instead.
//
// Automatic OPTIONS is on by default. A CORS middleware installed with
// [Router.Use], or on a group that covers the path, sees these requests
// and can answer preflight requests; [Router.Allowed] gives it the
// methods.
func (r *Router) AutomaticOptions(h http.Handler) {
	r.configure(func(cfg *config) { cfg.options = orDefault(h, http.HandlerFunc(serveOptions)) })
}

// DisableAutomaticOptions turns automatic OPTIONS off: such requests then
// get 405, as with net/http.ServeMux, and Allow headers do not list
// OPTIONS. [Router.AutomaticOptions] turns it on again.
func (r *Router) DisableAutomaticOptions() {
	r.configure(func(cfg *config) { cfg.options = nil })
}

// Redirects sets the handler that answers the requests the router
// redirects: unclean paths, a subtree's root without its slash, and the
// redirects of the trailing-slash policy (see [Router.TrailingSlash]). The
// router sets the Location header just before h runs (after the
// middleware); h should answer with a redirect status, as the default does
// with 307 Temporary Redirect (keeping the method and body) and, for GET
// requests, the short HTML body of [http.Redirect]. A JSON API may want
// another body. nil restores the default.
func (r *Router) Redirects(h http.Handler) {
	r.configure(func(cfg *config) { cfg.redirect = orDefault(h, http.HandlerFunc(serveRedirect)) })
}

// A SlashPolicy says what a router does with a request whose path no route
// serves, but would with its trailing slash added or removed.
type SlashPolicy uint8

const (
	// SlashStrict is net/http.ServeMux's policy, the default: a request
	// for a subtree's root without its slash ("/files" when "/files/" is
	// registered) is redirected to it, and other paths must match as
	// they are, so "/users/" gets 404 when only "/users" is registered.
	SlashStrict SlashPolicy = iota
	// SlashRedirect redirects to the other form, in both directions:
	// "/users/" to "/users" when only "/users" is registered, and "/users"
	// to "/users/" when only "/users/{$}" (or "/users/") is.
	SlashRedirect
	// SlashServe serves the other form's route, in both directions,
	// without a redirect; the request's URL.Path is changed to the form
	// served before any middleware after routing runs, so that handlers
	// and [Param] see it.
	SlashServe
)

// String returns the policy's name.
func (p SlashPolicy) String() string {
	switch p {
	case SlashStrict:
		return "SlashStrict"
	case SlashRedirect:
		return "SlashRedirect"
	case SlashServe:
		return "SlashServe"
	}
	return fmt.Sprintf("SlashPolicy(%d)", uint8(p))
}

// TrailingSlash sets what the router does with a request whose path no
// route serves, but would with its trailing slash added or removed. The
// default, [SlashStrict], is net/http.ServeMux's behaviour. The policy
// applies only when no route serves the request as it is: a route for
// "/users/" always serves "/users/". It is decided for the request's
// method: with "GET /items" and "POST /items/{$}", GET /items/ stands
// for /items and POST /items for /items/. A request that no route of
// either form takes is answered 405 for its own path if routes of other
// methods match it, and otherwise as the other form.
func (r *Router) TrailingSlash(p SlashPolicy) {
	if p > SlashServe {
		panic(fmt.Errorf("cairn: unknown trailing-slash policy %v", p))
	}
	r.configure(func(cfg *config) { cfg.slash = p })
}

// A config holds the settings of a router. A table holds one, never
// changed: a change of settings makes a new one.
type config struct {
	pre, post     []level      // the middleware before and after routing, in order
	notFound      http.Handler // never nil
	notAllowed    http.Handler // never nil
	options       http.Handler // nil when automatic OPTIONS is off
	notAcceptable http.Handler // never nil
	redirect      http.Handler // never nil
	versioning    *versioning
	slash         SlashPolicy
	relative      bool // the router is mounted: trailing-slash redirects are relative
}

// defaultConfig returns the settings of a new router.
func defaultConfig() *config {
	return &config{
		notFound:      http.HandlerFunc(serveNotFound),
		notAllowed:    http.HandlerFunc(serveNotAllowed),
		options:       http.HandlerFunc(serveOptions),
		notAcceptable: http.HandlerFunc(serveNotAcceptable),
		redirect:      http.HandlerFunc(serveRedirect),
		versioning:    newVersioning(Versioning{}),
	}
}

// configure changes the settings of r with set, which works on a copy: the
// change is in force when configure returns.
func (r *Router) configure(set func(*config)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.init()
	c := r.change()
	cfg := *c.t.cfg
	set(&cfg)
	c.t.cfg = &cfg
	r.commit(c)
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
	htmlHeader        = []string{"text/html; charset=utf-8"}
)

// orDefault returns h, or def if h is nil.
func orDefault(h, def http.Handler) http.Handler {
	if h == nil {
		return def
	}
	return h
}

// serveRedirect is the default handler of redirects. It answers as
// [http.Redirect] does, with the Location the router has set, which may be
// a relative reference (see verdict.location), as it is.
func serveRedirect(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	_, hadCT := h["Content-Type"]
	if !hadCT && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		h["Content-Type"] = htmlHeader
	}
	w.WriteHeader(http.StatusTemporaryRedirect)
	if !hadCT && r.Method == http.MethodGet {
		fmt.Fprintf(w, "<a href=\"%s\">%s</a>.\n\n", html.EscapeString(h.Get("Location")), http.StatusText(http.StatusTemporaryRedirect))
	}
}

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
