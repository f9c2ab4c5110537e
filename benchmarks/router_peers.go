package benchmarks

import (
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/dimfeld/httptreemux/v5"
	"github.com/gin-gonic/gin"
	"github.com/go-chi/chi/v5"
	"github.com/gorilla/mux"
	"github.com/julienschmidt/httprouter"
	"github.com/labstack/echo/v4"
	"github.com/uptrace/bunrouter"
)

// The peers below are each driven through their own idiomatic API. A Route
// is written in the classic notation (":name", "*name"), which httprouter,
// gin, bunrouter and httptreemux take as is; chi, gorilla and echo get it
// converted to their syntax.
//
// The value of a "*name" parameter is compared across routers without its
// leading slash, as Route.Request gives it: httprouter and gin return it
// with the slash, and their handlers strip it, which costs nothing (a
// reslice) and happens only on routes that end with a "*name".

// HTTPRouter is github.com/julienschmidt/httprouter: routes are added with
// Router.Handle, and handlers of type httprouter.Handle read their
// parameters with Params.ByName.
var HTTPRouter = Router{
	Name: "httprouter",
	New: func(routes []Route, opt Options) (http.Handler, error) {
		r := httprouter.New()
		err := register(routes, func(i int, rt Route) {
			names, rest := rt.Params(), hasRest(rt)
			r.Handle(rt.Method, rt.Path, func(w http.ResponseWriter, req *http.Request, ps httprouter.Params) {
				opt.begin(i)
				for j, n := range names {
					v := ps.ByName(n)
					if rest && j == len(names)-1 {
						v = strings.TrimPrefix(v, "/")
					}
					opt.value(w, v)
				}
			})
		})
		return r, err
	},
}

// Chi is github.com/go-chi/chi/v5: routes are added with Mux.MethodFunc and
// the pattern "{name}", or "*" for the rest of the path, and handlers read
// their parameters with chi.URLParam (the rest of the path as "*").
var Chi = Router{
	Name: "chi",
	New: func(routes []Route, opt Options) (http.Handler, error) {
		r := chi.NewRouter()
		err := register(routes, func(i int, rt Route) {
			names := restNames(rt, "*")
			r.MethodFunc(rt.Method, rt.Braces(func(string) string { return "*" }), func(w http.ResponseWriter, req *http.Request) {
				opt.begin(i)
				for _, n := range names {
					opt.value(w, chi.URLParam(req, n))
				}
			})
		})
		return r, err
	},
}

// Gorilla is github.com/gorilla/mux: routes are added with
// Router.HandleFunc(path).Methods(method) and the pattern "{name}", or
// "{name:.*}" for the rest of the path, and handlers read their parameters
// from the map that mux.Vars returns. A pattern that gorilla rejects is
// reported as unsupported.
var Gorilla = Router{
	Name: "gorilla",
	New: func(routes []Route, opt Options) (http.Handler, error) {
		r := mux.NewRouter()
		err := register(routes, func(i int, rt Route) {
			names := rt.Params()
			path := rt.Braces(func(n string) string { return "{" + n + ":.*}" })
			route := r.HandleFunc(path, gorillaHandler(i, names, &opt)).Methods(rt.Method)
			if err := route.GetError(); err != nil {
				panic(err)
			}
		})
		return r, err
	},
}

// Echo is github.com/labstack/echo/v4 without middleware: routes are added
// with Echo.Add and the pattern ":name", or "*" for the rest of the path,
// and handlers of type echo.HandlerFunc read their parameters with
// Context.Param (the rest of the path as "*") and write to
// Context.Response. The handlers return no error, so echo writes nothing of
// its own, and its logger is silenced.
var Echo = Router{
	Name: "echo",
	New: func(routes []Route, opt Options) (http.Handler, error) {
		e := newEcho()
		err := register(routes, func(i int, rt Route) {
			names := restNames(rt, "*")
			e.Add(rt.Method, restPath(rt, "*"), func(c echo.Context) error {
				w := c.Response()
				opt.begin(i)
				for _, n := range names {
					opt.value(w, c.Param(n))
				}
				return nil
			})
		})
		return e, err
	},
}

// Gin is github.com/gin-gonic/gin in release mode, from gin.New, so without
// the logger and recovery middleware of gin.Default: routes are added with
// Engine.Handle, and handlers of type gin.HandlerFunc read their parameters
// with Context.Param and write to Context.Writer.
var Gin = Router{
	Name: "gin",
	New: func(routes []Route, opt Options) (http.Handler, error) {
		r := newGin()
		err := register(routes, func(i int, rt Route) {
			names, rest := rt.Params(), hasRest(rt)
			r.Handle(rt.Method, rt.Path, func(c *gin.Context) {
				opt.begin(i)
				for j, n := range names {
					v := c.Param(n)
					if rest && j == len(names)-1 {
						v = strings.TrimPrefix(v, "/")
					}
					opt.value(c.Writer, v)
				}
			})
		})
		return r, err
	},
}

// BunRouter is github.com/uptrace/bunrouter with its native handlers,
// func(http.ResponseWriter, bunrouter.Request) error, added with
// Router.Handle; they read their parameters with Request.Param.
var BunRouter = Router{
	Name: "bunrouter",
	New: func(routes []Route, opt Options) (http.Handler, error) {
		r := bunrouter.New()
		err := register(routes, func(i int, rt Route) {
			names := rt.Params()
			r.Handle(rt.Method, rt.Path, func(w http.ResponseWriter, req bunrouter.Request) error {
				opt.begin(i)
				for _, n := range names {
					opt.value(w, req.Param(n))
				}
				return nil
			})
		})
		return r, err
	},
}

// HTTPTreeMux is github.com/dimfeld/httptreemux/v5 with its original
// handlers, httptreemux.HandlerFunc, which receive the parameters as a map,
// added with TreeMux.Handle. Its README presents this API first; the
// context API (NewContextMux) does the same lookup and then also stores the
// map in the request's context, which costs an r.WithContext per request.
var HTTPTreeMux = Router{
	Name: "httptreemux",
	New: func(routes []Route, opt Options) (http.Handler, error) {
		r := httptreemux.New()
		err := register(routes, func(i int, rt Route) {
			names := rt.Params()
			r.Handle(rt.Method, rt.Path, func(w http.ResponseWriter, req *http.Request, params map[string]string) {
				opt.begin(i)
				for _, n := range names {
					opt.value(w, params[n])
				}
			})
		})
		return r, err
	},
}

// hasRest reports whether rt ends with a "*name" parameter.
func hasRest(rt Route) bool {
	i := strings.LastIndexByte(rt.Path, '/')
	return strings.HasPrefix(rt.Path[i+1:], "*")
}

// restNames returns the names of rt's parameters, with the name of a
// "*name" parameter replaced by star, the name under which routers with
// anonymous catch-alls (chi, echo) report its value.
func restNames(rt Route, star string) []string {
	names := rt.Params()
	if hasRest(rt) {
		names = slices.Clone(names)
		names[len(names)-1] = star
	}
	return names
}

// restPath returns rt's path in the classic notation, with a "*name"
// parameter written as star.
func restPath(rt Route, star string) string {
	if !hasRest(rt) {
		return rt.Path
	}
	i := strings.LastIndexByte(rt.Path, '/')
	return rt.Path[:i+1] + star
}

// newEcho returns an Echo without middleware, which logs nothing.
func newEcho() *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.Logger.SetOutput(io.Discard)
	return e
}

// newGin returns a gin Engine in release mode, without middleware.
func newGin() *gin.Engine {
	gin.SetMode(gin.ReleaseMode)
	return gin.New()
}

// gorillaHandler returns the handler of route i for gorilla/mux, which
// reads the parameters names with mux.Vars.
func gorillaHandler(i int, names []string, opt *Options) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		vars := mux.Vars(req)
		opt.begin(i)
		for _, n := range names {
			opt.value(w, vars[n])
		}
	}
}
