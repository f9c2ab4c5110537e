package benchmarks

import (
	"errors"
	"fmt"
	"io"
	"net/http"
)

// ErrUnsupported reports that a router cannot express a set of routes, for
// example two patterns that it considers to conflict, or a constraint.
var ErrUnsupported = errors.New("benchmarks: the router cannot express these routes")

// A Probe records what the last handler that ran saw: the index of its
// route and the values of its parameters. Tests use it to check dispatch;
// benchmarks pass one too, so that handlers do the same work in both.
type Probe struct {
	Route  int // index of the route whose handler ran
	N      int // number of values
	Values [32]string
}

// Options say what the handlers do besides reading their parameters.
type Options struct {
	Probe *Probe // if not nil, handlers record what they saw
	Write bool   // handlers write each parameter value to the response
}

// begin is called by the handler of route i before it reads its values.
func (o *Options) begin(i int) {
	if o.Probe != nil {
		o.Probe.Route, o.Probe.N = i, 0
	}
}

// value is called by a handler with each parameter value it read.
func (o *Options) value(w http.ResponseWriter, v string) {
	if o.Probe != nil && o.Probe.N < len(o.Probe.Values) {
		o.Probe.Values[o.Probe.N] = v
		o.Probe.N++
	}
	if o.Write {
		io.WriteString(w, v)
	}
}

// A Router is one router under test.
type Router struct {
	Name string
	// New returns a handler that serves routes. The handler of routes[i]
	// reads every parameter of the route, by name and in order, through the
	// router's own API, and reports them to the options. New returns an
	// error wrapping ErrUnsupported if the router cannot express routes.
	New func(routes []Route, opt Options) (http.Handler, error)
}

// Routers returns every router under test, cairn first.
func Routers() []Router {
	return []Router{
		Cairn,
		CairnPathValues,
		ServeMux,
		HTTPRouter,
		Chi,
		Gorilla,
		Echo,
		Gin,
		BunRouter,
		HTTPTreeMux,
	}
}

// register calls add for every route and turns a panic from the router
// into an error wrapping ErrUnsupported.
func register(routes []Route, add func(i int, rt Route)) (err error) {
	i := 0
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("%w: %s: %v", ErrUnsupported, routes[i], v)
		}
	}()
	for ; i < len(routes); i++ {
		add(i, routes[i])
	}
	return nil
}
