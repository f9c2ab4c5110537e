package benchmarks

import (
	"fmt"
	"net/http"
	"strings"
)

// A Suite is a set of routes that every router registers, and the requests
// that one benchmark operation serves.
//
// The single-route suites ("static", "param1", "param5", "param20") serve
// one request per operation; the whole-API suites ("static-all", "github",
// "gplus", "parse") serve the request of every route once per operation,
// as go-http-routing-benchmark's GithubAll does; the constraints suite (see
// ConstraintSuite) serves each of its requests once.
type Suite struct {
	Name string
	// Routes are the routes, registered in order. For the constraints
	// suite, they are written without their constraints.
	Routes []Route
	// Requests are the requests that one benchmark operation serves, in
	// order. Each must reach its route.
	Requests []Request
	// Misses are requests that no route may serve: each must get 404.
	// Benchmarks do not serve them.
	Misses []Request

	// constraints, if not nil, holds the constraints of Routes and says how
	// each router expresses them; Routes alone then do not describe the
	// suite.
	constraints []constrainedRoute
}

// A Request is a request of a suite and what must serve it.
type Request struct {
	Method, Path string
	Route        int      // index in Suite.Routes of the route that serves it
	Values       []string // values its handler reads, in order
}

// String returns "METHOD /path".
func (rq Request) String() string { return rq.Method + " " + rq.Path }

// routeRequest returns the request Route.Request makes for routes[i].
func routeRequest(routes []Route, i int) Request {
	path, values := routes[i].Request()
	return Request{Method: routes[i].Method, Path: path, Route: i, Values: values}
}

// RouteRequests returns the request of every route of s, as Route.Request
// makes them, in route order. The constraints suite has none, since its
// parameters accept only some values; its Requests and Misses are written
// by hand.
func (s Suite) RouteRequests() []Request {
	if s.constraints != nil {
		return nil
	}
	reqs := make([]Request, len(s.Routes))
	for i := range s.Routes {
		reqs[i] = routeRequest(s.Routes, i)
	}
	return reqs
}

// New returns r serving s, with opt. For the constraints suite, it uses
// r's way of expressing constraints (see Suite.Mode). It returns an error
// wrapping ErrUnsupported if r cannot express s.
func (s Suite) New(r Router, opt Options) (http.Handler, error) {
	if s.constraints == nil {
		return r.New(s.Routes, opt)
	}
	c, ok := constraintRouters[r.Name]
	if !ok {
		return nil, fmt.Errorf("%w: no constraints for router %s", ErrUnsupported, r.Name)
	}
	return c.New(opt)
}

// Mode says how r expresses s: Native unless s is the constraints suite
// and r has no constraints, in which case r's handlers check them.
func (s Suite) Mode(r Router) Mode {
	if s.constraints == nil {
		return Native
	}
	return constraintRouters[r.Name].Mode
}

// A Mode says how a router expresses a suite.
type Mode int

const (
	Native   Mode = iota // with the router's own patterns
	Emulated             // with plain parameters, checked by the handlers
)

// String returns "native" or "emulated".
func (m Mode) String() string {
	switch m {
	case Native:
		return "native"
	case Emulated:
		return "emulated"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// staticRoutes are the routes of the "static" suite: GET /user/repos, the
// route requested, among static and parameterized neighbours.
var staticRoutes = withForms([]Route{
	{Method: "GET", Path: "/user"},
	{Method: "GET", Path: "/user/repos"},
	{Method: "POST", Path: "/user/repos"},
	{Method: "GET", Path: "/user/keys"},
	{Method: "GET", Path: "/user/emails"},
	{Method: "GET", Path: "/users/:user"},
	{Method: "GET", Path: "/users/:user/repos"},
	{Method: "GET", Path: "/repos/:owner/:repo"},
})

// SingleSuites returns the single-route suites: "static" (GET /user/repos
// among a few routes), and "param1", "param5" and "param20", one route
// each, with 1, 5 and 20 parameters, as go-http-routing-benchmark's Param1,
// Param5 and Param20.
func SingleSuites() []Suite {
	suites := []Suite{{
		Name:     "static",
		Routes:   staticRoutes,
		Requests: []Request{routeRequest(staticRoutes, 1)},
	}}
	for _, n := range []int{1, 5, 20} {
		route := Route{Method: "GET", Path: "/user/:name"}
		if n > 1 {
			var b strings.Builder
			for i := range n {
				b.WriteString("/:" + string(rune('a'+i)))
			}
			route.Path = b.String()
		}
		routes := []Route{newRoute(route.Method, route.Path)}
		suites = append(suites, Suite{
			Name:     fmt.Sprintf("param%d", n),
			Routes:   routes,
			Requests: []Request{routeRequest(routes, 0)},
		})
	}
	return suites
}

// APISuites loads the whole-API suites from the route lists in the
// repository's testdata directory: "static-all" (the 157 static routes of
// the Go web site, static.txt), "github" (203 routes), "gplus" (13) and
// "parse" (26). One operation serves every route's request once.
func APISuites() ([]Suite, error) {
	var suites []Suite
	for _, l := range []struct{ suite, file string }{
		{"static-all", "static"},
		{"github", "github"},
		{"gplus", "gplus"},
		{"parse", "parse"},
	} {
		routes, err := LoadRoutes(l.file)
		if err != nil {
			return nil, err
		}
		s := Suite{Name: l.suite, Routes: routes}
		s.Requests = s.RouteRequests()
		suites = append(suites, s)
	}
	return suites, nil
}

// Suites returns every suite: SingleSuites, APISuites and ConstraintSuite,
// in that order.
func Suites() ([]Suite, error) {
	api, err := APISuites()
	if err != nil {
		return nil, err
	}
	suites := append(SingleSuites(), api...)
	return append(suites, ConstraintSuite()), nil
}
