package benchmarks

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/cairn-go/cairn"
	"github.com/dimfeld/httptreemux/v5"
	"github.com/gin-gonic/gin"
	"github.com/go-chi/chi/v5"
	"github.com/gorilla/mux"
	"github.com/julienschmidt/httprouter"
	"github.com/labstack/echo/v4"
	"github.com/uptrace/bunrouter"
)

// The constraints suite has three routes whose parameters accept only some
// values:
//
//	PUT /static/{uuid}/{ip}   uuid a UUID, ip an IPv4 address
//	GET /static/{ip}/{uuid}   the same, the other way round
//	GET /code/{code}          code three upper-case ASCII letters
//
// A request whose values break a constraint must get 404. Routers express
// the constraints in one of two ways (see Mode):
//
//   - natively: cairn with its built-in constraints, {uuid:uuid},
//     {ip:ipv4} and the regular expression {code:[A-Z]{3}}; chi and gorilla
//     with regular expressions, {name:regexp}, equivalent to cairn's
//     built-ins (see constraint.regexp);
//   - emulated: the other routers register the routes with plain
//     parameters, and the handlers check the values with the byte loops
//     isUUID, isIPv4 and isUpperCode3 (the same checks as cairn's
//     built-ins, at the same cost) and answer 404, in the router's own way,
//     when one fails. An emulating router thus runs a handler for a request
//     that a native one rejects while matching; since the two /static routes
//     differ in method, no emulated request can reach the wrong route.
//
// httptreemux keeps one tree for all methods and rejects parameters with
// different names at the same position ("Wildcards [uuid ip] are ambiguous
// with wildcards [ip uuid]"), so it cannot register /static/:uuid/:ip and
// /static/:ip/:uuid side by side: it registers /static/:p1/:p2 for both
// methods, and each method's handler reads p1 and p2 as the values of its
// own route's parameters, in order (see constrainedRoute.neutral).
// httprouter and gin have the same rule, but keep a tree per method, so the
// two routes, which differ in method, do not meet; echo and bunrouter keep
// names per route.

// A constraint is a constraint on a parameter of the constraints suite.
type constraint int

const (
	uuidConstraint constraint = iota // a UUID, 8-4-4-4-12 hexadecimal digits, either case
	ipv4Constraint                   // a dotted quad of numbers 0-255 without leading zeros
	codeConstraint                   // three upper-case ASCII letters
)

// String returns the constraint's name: "uuid", "ipv4" or "code".
func (c constraint) String() string {
	switch c {
	case uuidConstraint:
		return "uuid"
	case ipv4Constraint:
		return "ipv4"
	case codeConstraint:
		return "code"
	}
	return fmt.Sprintf("constraint(%d)", int(c))
}

// cairn returns the constraint in cairn's syntax: a built-in's name, or a
// regular expression.
func (c constraint) cairn() string {
	if c == codeConstraint {
		return "[A-Z]{3}"
	}
	return c.String()
}

// ipv4Byte is a regular expression for a number 0-255 without leading
// zeros.
const ipv4Byte = `(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])`

// regexp returns a regular expression that matches, whole, what the
// constraint accepts; chi and gorilla anchor it themselves. It has no
// capturing groups, which gorilla rejects.
func (c constraint) regexp() string {
	switch c {
	case uuidConstraint:
		return `[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`
	case ipv4Constraint:
		return ipv4Byte + `(?:\.` + ipv4Byte + `){3}`
	case codeConstraint:
		return `[A-Z]{3}`
	}
	panic("benchmarks: unknown " + c.String())
}

// check reports whether the constraint accepts s.
func (c constraint) check(s string) bool {
	switch c {
	case uuidConstraint:
		return isUUID(s)
	case ipv4Constraint:
		return isIPv4(s)
	case codeConstraint:
		return isUpperCode3(s)
	}
	return false
}

// isUUID reports whether s is a UUID: 32 hexadecimal digits, either case,
// in groups of 8, 4, 4, 4 and 12 separated by '-', of any version.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// isIPv4 reports whether s is an IPv4 address in dotted-quad notation: four
// decimal numbers 0-255 separated by '.', without leading zeros.
func isIPv4(s string) bool {
	parts := 0
	for i := 0; i < len(s); {
		if parts > 0 {
			if s[i] != '.' {
				return false
			}
			i++
		}
		// Read one number of one to three digits.
		n, start := 0, i
		for i < len(s) && i-start < 3 && '0' <= s[i] && s[i] <= '9' {
			n = n*10 + int(s[i]-'0')
			i++
		}
		digits := i - start
		if digits == 0 || n > 255 || digits > 1 && s[start] == '0' {
			return false
		}
		parts++
		if parts == 4 {
			return i == len(s)
		}
	}
	return false
}

// isUpperCode3 reports whether s is three upper-case ASCII letters, as the
// regular expression [A-Z]{3} matching the whole of s.
func isUpperCode3(s string) bool {
	if len(s) != 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// A constrainedRoute is a route of the constraints suite: a route in the
// classic notation, without constraints, and the constraint of each of its
// parameters, in order.
type constrainedRoute struct {
	Route
	constraints []constraint
}

// maxConstrainedParams is the largest number of parameters of a
// constrainedRoute; emulating handlers read values into an array this big.
const maxConstrainedParams = 2

// constrainedRoutes are the routes of the constraints suite.
var constrainedRoutes = []constrainedRoute{
	{newRoute("PUT", "/static/:uuid/:ip"), []constraint{uuidConstraint, ipv4Constraint}},
	{newRoute("GET", "/static/:ip/:uuid"), []constraint{ipv4Constraint, uuidConstraint}},
	{newRoute("GET", "/code/:code"), []constraint{codeConstraint}},
}

// plainRoutes returns the routes of crs without their constraints.
func plainRoutes(crs []constrainedRoute) []Route {
	routes := make([]Route, len(crs))
	for i, cr := range crs {
		routes[i] = cr.Route
	}
	return routes
}

// pattern returns the route's path with each parameter written
// "{name:" + spell(constraint) + "}".
func (cr constrainedRoute) pattern(spell func(constraint) string) string {
	segs := strings.Split(cr.Path, "/")
	j := 0
	for i, seg := range segs {
		if strings.HasPrefix(seg, ":") {
			segs[i] = "{" + seg[1:] + ":" + spell(cr.constraints[j]) + "}"
			j++
		}
	}
	return strings.Join(segs, "/")
}

// neutral returns the route with its parameters renamed p1, p2, ..., for
// routers that require the same names at the same position: the handler
// of each route then reads pj as its route's j-th parameter.
func (cr constrainedRoute) neutral() Route {
	segs := strings.Split(cr.Path, "/")
	j := 0
	for i, seg := range segs {
		if strings.HasPrefix(seg, ":") {
			j++
			segs[i] = fmt.Sprintf(":p%d", j)
		}
	}
	return newRoute(cr.Method, strings.Join(segs, "/"))
}

// valid reports whether values, those of the route's parameters in order,
// satisfy the route's constraints.
func (cr constrainedRoute) valid(values []string) bool {
	for j, c := range cr.constraints {
		if !c.check(values[j]) {
			return false
		}
	}
	return true
}

// ConstraintSuite returns the constraints suite, "constraints": the three
// routes above, one request for each, which one benchmark operation serves,
// and misses whose values break a constraint and must get 404. Its Routes
// are written without constraints; Suite.New registers them with each
// router's constraints or emulation.
func ConstraintSuite() Suite {
	const (
		uuid1 = "6ba7b810-9dad-11d1-80b4-00c04fd430c8"
		uuid2 = "F47AC10B-58CC-4372-A567-0E02B2C3D479"
	)
	miss := func(method, path string) Request {
		return Request{Method: method, Path: path, Route: -1}
	}
	return Suite{
		Name:   "constraints",
		Routes: plainRoutes(constrainedRoutes),
		Requests: []Request{
			{"PUT", "/static/" + uuid1 + "/192.168.100.201", 0, []string{uuid1, "192.168.100.201"}},
			{"GET", "/static/10.0.0.1/" + uuid2, 1, []string{"10.0.0.1", uuid2}},
			{"GET", "/code/USD", 2, []string{"USD"}},
		},
		Misses: []Request{
			miss("PUT", "/static/6ba7b810-9dad-11d1-80b4-00c04fd430cg/192.168.100.201"), // 'g' in the uuid
			miss("PUT", "/static/6ba7b810-9dad-11d1-80b4-00c04fd430c/192.168.100.201"),  // uuid one digit short
			miss("PUT", "/static/"+uuid1+"/256.168.100.201"),                            // 256
			miss("PUT", "/static/"+uuid1+"/192.168.100"),                                // three numbers
			miss("GET", "/static/010.0.0.1/"+uuid2),                                     // leading zero
			miss("GET", "/static/10.0.0.256/"+uuid2),                                    // 256
			miss("GET", "/static/10.0.0.1/"+uuid2[:35]+"x"),                             // 'x' in the uuid
			miss("GET", "/code/usd"),                                                    // lower case
			miss("GET", "/code/USDX"),                                                   // four letters
			miss("GET", "/code/US"),                                                     // two letters
		},
		constraints: constrainedRoutes,
	}
}

// A constraintRouter is the way one router serves the constraints suite.
type constraintRouter struct {
	Mode Mode
	New  func(opt Options) (http.Handler, error)
}

// constraintRouters are, by router name, the ways routers serve the
// constraints suite.
var constraintRouters = map[string]constraintRouter{
	Cairn.Name:           {Native, newCairnConstraints},
	CairnPathValues.Name: {Native, newCairnPathValueConstraints},
	ServeMux.Name:        {Emulated, newServeMuxConstraints},
	HTTPRouter.Name:      {Emulated, newHTTPRouterConstraints},
	Chi.Name:             {Native, newChiConstraints},
	Gorilla.Name:         {Native, newGorillaConstraints},
	Echo.Name:            {Emulated, newEchoConstraints},
	Gin.Name:             {Emulated, newGinConstraints},
	BunRouter.Name:       {Emulated, newBunRouterConstraints},
	HTTPTreeMux.Name:     {Emulated, newHTTPTreeMuxConstraints},
}

// registerConstrained calls add for every constrained route, through
// register.
func registerConstrained(add func(i int, cr constrainedRoute)) error {
	return register(plainRoutes(constrainedRoutes), func(i int, _ Route) { add(i, constrainedRoutes[i]) })
}

// reportValues reports the values of route i, already read and checked by
// an emulating handler, as a native handler does.
func reportValues(w http.ResponseWriter, opt *Options, i int, values []string) {
	opt.begin(i)
	for _, v := range values {
		opt.value(w, v)
	}
}

// newCairnConstraints serves the suite natively with cairn in its
// zero-allocation mode: {uuid:uuid}, {ip:ipv4}, {code:[A-Z]{3}}, read with
// cairn.Param.
func newCairnConstraints(opt Options) (http.Handler, error) {
	r := cairn.New()
	r.PopulatePathValues(false)
	err := registerConstrained(func(i int, cr constrainedRoute) {
		names := cr.Params()
		r.HandleFunc(cr.Method+" "+cr.pattern(constraint.cairn), func(w http.ResponseWriter, req *http.Request) {
			opt.begin(i)
			for _, n := range names {
				opt.value(w, cairn.Param(req, n))
			}
		})
	})
	return r, err
}

// newCairnPathValueConstraints serves the suite natively with cairn in its
// default mode, the values read with r.PathValue.
func newCairnPathValueConstraints(opt Options) (http.Handler, error) {
	r := cairn.New()
	err := registerConstrained(func(i int, cr constrainedRoute) {
		r.HandleFunc(cr.Method+" "+cr.pattern(constraint.cairn), pathValueHandler(i, cr.Params(), &opt))
	})
	return r, err
}

// newChiConstraints serves the suite natively with chi's regular
// expression parameters, {name:regexp}.
func newChiConstraints(opt Options) (http.Handler, error) {
	r := chi.NewRouter()
	err := registerConstrained(func(i int, cr constrainedRoute) {
		names := cr.Params()
		r.MethodFunc(cr.Method, cr.pattern(constraint.regexp), func(w http.ResponseWriter, req *http.Request) {
			opt.begin(i)
			for _, n := range names {
				opt.value(w, chi.URLParam(req, n))
			}
		})
	})
	return r, err
}

// newGorillaConstraints serves the suite natively with gorilla's regular
// expression variables, {name:regexp}.
func newGorillaConstraints(opt Options) (http.Handler, error) {
	r := mux.NewRouter()
	err := registerConstrained(func(i int, cr constrainedRoute) {
		names := cr.Params()
		route := r.HandleFunc(cr.pattern(constraint.regexp), gorillaHandler(i, names, &opt)).Methods(cr.Method)
		if err := route.GetError(); err != nil {
			panic(err)
		}
	})
	return r, err
}

// newServeMuxConstraints emulates the constraints on net/http.ServeMux:
// plain {name} wildcards read with r.PathValue and checked in the handler,
// which answers with http.NotFound.
func newServeMuxConstraints(opt Options) (http.Handler, error) {
	m := http.NewServeMux()
	err := registerConstrained(func(i int, cr constrainedRoute) {
		names := cr.Params()
		m.HandleFunc(cr.Method+" "+cr.Braces(nil), func(w http.ResponseWriter, req *http.Request) {
			var values [maxConstrainedParams]string
			for j, n := range names {
				values[j] = req.PathValue(n)
			}
			if !cr.valid(values[:len(names)]) {
				http.NotFound(w, req)
				return
			}
			reportValues(w, &opt, i, values[:len(names)])
		})
	})
	return m, err
}

// newHTTPRouterConstraints emulates the constraints on httprouter: values
// read with Params.ByName and checked in the handler, which answers with
// http.NotFound.
func newHTTPRouterConstraints(opt Options) (http.Handler, error) {
	r := httprouter.New()
	err := registerConstrained(func(i int, cr constrainedRoute) {
		names := cr.Params()
		r.Handle(cr.Method, cr.Path, func(w http.ResponseWriter, req *http.Request, ps httprouter.Params) {
			var values [maxConstrainedParams]string
			for j, n := range names {
				values[j] = ps.ByName(n)
			}
			if !cr.valid(values[:len(names)]) {
				http.NotFound(w, req)
				return
			}
			reportValues(w, &opt, i, values[:len(names)])
		})
	})
	return r, err
}

// newEchoConstraints emulates the constraints on echo, which keeps
// parameter names per route and so takes both /static routes with their
// own names: values read with Context.Param and checked in the handler,
// which returns echo.ErrNotFound for echo's error handler to answer.
func newEchoConstraints(opt Options) (http.Handler, error) {
	e := newEcho()
	err := registerConstrained(func(i int, cr constrainedRoute) {
		names := cr.Params()
		e.Add(cr.Method, cr.Path, func(c echo.Context) error {
			var values [maxConstrainedParams]string
			for j, n := range names {
				values[j] = c.Param(n)
			}
			if !cr.valid(values[:len(names)]) {
				return echo.ErrNotFound
			}
			reportValues(c.Response(), &opt, i, values[:len(names)])
			return nil
		})
	})
	return e, err
}

// newGinConstraints emulates the constraints on gin: values read with
// Context.Param and checked in the handler, which answers with
// Context.AbortWithStatus(404).
func newGinConstraints(opt Options) (http.Handler, error) {
	r := newGin()
	err := registerConstrained(func(i int, cr constrainedRoute) {
		names := cr.Params()
		r.Handle(cr.Method, cr.Path, func(c *gin.Context) {
			var values [maxConstrainedParams]string
			for j, n := range names {
				values[j] = c.Param(n)
			}
			if !cr.valid(values[:len(names)]) {
				c.AbortWithStatus(http.StatusNotFound)
				return
			}
			reportValues(c.Writer, &opt, i, values[:len(names)])
		})
	})
	return r, err
}

// newBunRouterConstraints emulates the constraints on bunrouter: values
// read with Request.Param and checked in the handler, which answers with
// http.NotFound.
func newBunRouterConstraints(opt Options) (http.Handler, error) {
	r := bunrouter.New()
	err := registerConstrained(func(i int, cr constrainedRoute) {
		names := cr.Params()
		r.Handle(cr.Method, cr.Path, func(w http.ResponseWriter, req bunrouter.Request) error {
			var values [maxConstrainedParams]string
			for j, n := range names {
				values[j] = req.Param(n)
			}
			if !cr.valid(values[:len(names)]) {
				http.NotFound(w, req.Request)
				return nil
			}
			reportValues(w, &opt, i, values[:len(names)])
			return nil
		})
	})
	return r, err
}

// newHTTPTreeMuxConstraints emulates the constraints on httptreemux,
// whose single tree cannot hold :uuid and :ip at the same position: both
// /static routes are registered as /static/:p1/:p2, the values read from
// the parameter map and checked in the handler, which answers with
// http.NotFound.
func newHTTPTreeMuxConstraints(opt Options) (http.Handler, error) {
	r := httptreemux.New()
	err := registerConstrained(func(i int, cr constrainedRoute) {
		rt := cr.neutral()
		names := rt.Params()
		r.Handle(rt.Method, rt.Path, func(w http.ResponseWriter, req *http.Request, params map[string]string) {
			var values [maxConstrainedParams]string
			for j, n := range names {
				values[j] = params[n]
			}
			if !cr.valid(values[:len(names)]) {
				http.NotFound(w, req)
				return
			}
			reportValues(w, &opt, i, values[:len(names)])
		})
	})
	return r, err
}
