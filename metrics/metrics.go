package metrics

// This file holds the middleware: its options, the registration of its
// collectors, and what it does with each request. The label values and the
// cache of the series they name are in series.go.

import (
	"fmt"
	"net/http"
	"time"

	"github.com/cairn-go/cairn/middleware"
	"github.com/prometheus/client_golang/prometheus"
)

// Options configures [New]. The zero value is ready to use: it registers
// the collectors with [prometheus.DefaultRegisterer], with no namespace,
// subsystem or constant labels, and with [prometheus.DefBuckets].
type Options struct {
	// Registerer receives the collectors; nil means
	// [prometheus.DefaultRegisterer]. Tests use a fresh
	// [prometheus.NewRegistry].
	Registerer prometheus.Registerer

	// Namespace and Subsystem prefix the metrics' names, as in
	// [prometheus.BuildFQName]: with Namespace "shop", the counter is
	// shop_http_server_requests_total.
	Namespace, Subsystem string

	// Buckets are the upper bounds, in seconds, of the duration
	// histogram's buckets, in increasing order; nil or empty means
	// [prometheus.DefBuckets].
	Buckets []float64

	// ConstLabels are added to every series of the three metrics, for a
	// value that is the same for all of them, such as the name of one of
	// several servers in a process registering with one registry. They
	// may not be named method, route, status or le.
	ConstLabels prometheus.Labels
}

// The names of the metrics, before Namespace and Subsystem.
const (
	requestsName = "http_server_requests_total"
	durationName = "http_server_request_duration_seconds"
	inFlightName = "http_server_requests_in_flight"
)

// New returns middleware that measures the requests it serves, once the
// handler has returned, in three metrics:
//
//	http_server_requests_total             counter    method, route, status
//	http_server_request_duration_seconds   histogram  method, route, status
//	http_server_requests_in_flight         gauge      (none)
//
// The labels take few values (see the package documentation): the method
// one of the standard methods or "OTHER", the route r.Pattern as it is when
// the handler returns or "unmatched" for "", and the status the class of
// the response's code, "1xx" to "5xx". A handler that panics is counted as
// "5xx", and the panic goes on up.
//
// New registers the collectors with opts.Registerer when it is called,
// not when the middleware is applied: to measure several handlers in the
// same series, call New once and apply its middleware to each. It panics,
// with an error that starts with "metrics:" and wraps the registry's error
// (a [prometheus.AlreadyRegisteredError] when the metrics are already
// registered there), if registration fails, and if opts.Buckets are not
// in increasing order or opts.ConstLabels use a name the metrics need. When
// it panics, it leaves the registry as it found it.
//
// Under a cairn Router, wrap the whole router, or add the middleware with
// Use; both see the full pattern, also through mounts. See the package
// documentation for the difference.
//
// Allocation: none per request once a series (a method, route and status
// class) has been seen; the first request of a series allocates the series
// and a copy of the cache.
func New(opts *Options) func(http.Handler) http.Handler {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Registerer == nil {
		o.Registerer = prometheus.DefaultRegisterer
	}
	if len(o.Buckets) == 0 {
		o.Buckets = prometheus.DefBuckets
	}
	if err := checkOptions(&o); err != nil {
		panic(err)
	}
	labels := []string{"method", "route", "status"}
	c := &collectors{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace:   o.Namespace,
			Subsystem:   o.Subsystem,
			Name:        requestsName,
			Help:        "Requests served, by method, route and status class.",
			ConstLabels: o.ConstLabels,
		}, labels),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace:   o.Namespace,
			Subsystem:   o.Subsystem,
			Name:        durationName,
			Help:        "Time from the start of a request to the return of its handler, by method, route and status class.",
			ConstLabels: o.ConstLabels,
			Buckets:     o.Buckets,
		}, labels),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace:   o.Namespace,
			Subsystem:   o.Subsystem,
			Name:        inFlightName,
			Help:        "Requests being served.",
			ConstLabels: o.ConstLabels,
		}),
	}
	c.series.init()
	if err := c.register(o.Registerer); err != nil {
		panic(err)
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			c.serve(next, w, r)
		})
	}
}

// checkOptions reports what would make the collectors of o panic when
// their first series is made, rather than when they are registered.
func checkOptions(o *Options) error {
	for i := 1; i < len(o.Buckets); i++ {
		if !(o.Buckets[i-1] < o.Buckets[i]) {
			return fmt.Errorf("metrics: Buckets must be in increasing order, but bucket %d is %v and bucket %d is %v", i-1, o.Buckets[i-1], i, o.Buckets[i])
		}
	}
	for _, name := range []string{"method", "route", "status", "le"} {
		if _, ok := o.ConstLabels[name]; ok {
			return fmt.Errorf("metrics: ConstLabels may not hold %q, a label of the metrics", name)
		}
	}
	return nil
}

// collectors are the metrics of one call of New, and the cache of their
// series.
type collectors struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	inFlight prometheus.Gauge
	series   seriesCache
}

// register registers c's collectors with reg. If one fails, it unregisters
// those it registered, and returns the error.
func (c *collectors) register(reg prometheus.Registerer) error {
	cs := []struct {
		name string
		c    prometheus.Collector
	}{
		{requestsName, c.requests},
		{durationName, c.duration},
		{inFlightName, c.inFlight},
	}
	for i, x := range cs {
		if err := reg.Register(x.c); err != nil {
			for _, y := range cs[:i] {
				reg.Unregister(y.c)
			}
			return fmt.Errorf("metrics: registering %s: %w", x.name, err)
		}
	}
	return nil
}

// routeOf returns what the route label is made from for r, once served:
// r.Pattern, or "" (unmatched) for the router's redirect of a CONNECT
// request.
//
// A router redirects a CONNECT request for /x to /x/ when a route takes
// /x/, and, as net/http.ServeMux does, sets r.Pattern to the path it
// redirects to, not to the route's pattern (a cairn Router does so for
// ServeMux's sake). Any path the client sends under a route without a
// method, such as a mount's, does it, and taken as the label it would
// make a series per path. So a CONNECT request whose r.Pattern is its own
// path with a slash added counts as unmatched. (A route whose pattern is
// that path, with no wildcard, is counted so for such a redirect too.)
func routeOf(r *http.Request) string {
	p := r.Pattern
	if r.Method != http.MethodConnect || len(p) == 0 || p[len(p)-1] != '/' {
		return p
	}
	if q := p[:len(p)-1]; q == r.URL.Path || q == r.URL.EscapedPath() {
		return ""
	}
	return p
}

// serve serves r with next and measures it.
//
// Invariant: r.Pattern is read after next returns, so that the middleware
// sees the pattern whether it runs after routing (where the router set
// r.Pattern before calling it) or around the router (which sets r.Pattern
// on the request it is given, this r).
func (c *collectors) serve(next http.Handler, w http.ResponseWriter, r *http.Request) {
	wr, owned := middleware.Acquire(w)
	c.inFlight.Inc()
	start := time.Now()
	returned := false
	// Optimization: a deferred closure that does not escape is open-coded
	// by the compiler and allocates nothing.
	defer func() {
		code := http.StatusInternalServerError // next panicked
		if returned || wr.Hijacked() {
			// A handler that took the connection over answers on it
			// itself, panic or not.
			code = wr.Status()
		}
		s := c.lookup(seriesKey{method: methodLabel(r.Method), route: routeOf(r), class: classOf(code)})
		s.requests.Inc()
		s.duration.Observe(time.Since(start).Seconds())
		c.inFlight.Dec()
		if owned {
			wr.Release()
		}
	}()
	next.ServeHTTP(wr.ResponseWriter(), r)
	returned = true
}
