package benchmarks

import (
	"net/http"

	"github.com/cairn-go/cairn"
)

// Cairn is cairn in its zero-allocation mode: path values are not stored in
// the request, and handlers read them with cairn.Param.
var Cairn = Router{
	Name: "cairn",
	New: func(routes []Route, opt Options) (http.Handler, error) {
		r := cairn.New()
		r.PopulatePathValues(false)
		err := register(routes, func(i int, rt Route) {
			names := rt.Params()
			r.HandleFunc(rt.Pattern(), func(w http.ResponseWriter, req *http.Request) {
				opt.begin(i)
				for _, n := range names {
					opt.value(w, cairn.Param(req, n))
				}
			})
		})
		return r, err
	},
}

// CairnPathValues is cairn in its default mode, a drop-in for
// net/http.ServeMux: handlers read parameters with r.PathValue.
var CairnPathValues = Router{
	Name: "cairn-pathvalue",
	New: func(routes []Route, opt Options) (http.Handler, error) {
		r := cairn.New()
		err := register(routes, func(i int, rt Route) {
			r.HandleFunc(rt.Pattern(), pathValueHandler(i, rt.Params(), &opt))
		})
		return r, err
	},
}

// ServeMux is net/http.ServeMux with Go 1.22 patterns.
var ServeMux = Router{
	Name: "servemux",
	New: func(routes []Route, opt Options) (http.Handler, error) {
		mux := http.NewServeMux()
		err := register(routes, func(i int, rt Route) {
			mux.HandleFunc(rt.Pattern(), pathValueHandler(i, rt.Params(), &opt))
		})
		return mux, err
	},
}

// pathValueHandler returns the handler of route i, which reads the
// parameters names with r.PathValue.
func pathValueHandler(i int, names []string, opt *Options) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		opt.begin(i)
		for _, n := range names {
			opt.value(w, req.PathValue(n))
		}
	}
}
