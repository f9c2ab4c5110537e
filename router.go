package cairn

import "net/http"

// Router is an HTTP request multiplexer. (skeleton; being written)
type Router struct{}

// New returns an empty Router.
func New() *Router { return &Router{} }

// Handle registers h for pattern.
func (r *Router) Handle(pattern string, h http.Handler) {}

// HandleFunc registers f for pattern.
func (r *Router) HandleFunc(pattern string, f func(http.ResponseWriter, *http.Request)) {}

// PopulatePathValues sets whether matched requests get r.PathValue populated (default true).
func (r *Router) PopulatePathValues(enabled bool) {}

// DefineConstraint registers a named constraint from a function.
func (r *Router) DefineConstraint(name string, match func(segment string) bool) {}

// DefineRegexp registers a named constraint from a regular expression.
func (r *Router) DefineRegexp(name, expr string) {}

// ServeHTTP dispatches the request.
func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {}

// Param returns the value of the path parameter name.
func Param(r *http.Request, name string) string { return "" }
