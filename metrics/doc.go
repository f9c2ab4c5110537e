// Package metrics measures the requests an HTTP handler serves, by route,
// for Prometheus. [New] returns net/http middleware that works with any
// handler, and reads the route from r.Pattern, which a cairn Router (and
// [http.ServeMux]) sets to the matched pattern.
//
// It is a module of its own, github.com/cairn-go/cairn/metrics, so that
// importing the router does not pull in the Prometheus client.
//
// # Metrics
//
// Once the handler has returned, the middleware records:
//
//	http_server_requests_total             counter    method, route, status
//	http_server_request_duration_seconds   histogram  method, route, status
//	http_server_requests_in_flight         gauge      (no labels)
//
// The duration runs from the middleware's start to the handler's return,
// in seconds, in [prometheus.DefBuckets] unless [Options.Buckets] says
// otherwise. [Options] also sets a namespace, a subsystem, constant labels
// and the registry.
//
// # Labels
//
// Every label takes few values, whatever clients send, so that the number
// of series stays (routes × methods × 5):
//
//   - method is one of GET, HEAD, POST, PUT, PATCH, DELETE, CONNECT,
//     OPTIONS and TRACE, or OTHER for anything else (methods are case
//     sensitive: "get" is OTHER);
//   - route is r.Pattern as it is when the handler returns, such as
//     "GET /users/{id}", or "unmatched" when it is "", as it is for the
//     404 and 405 answers of a cairn Router or a ServeMux: a flood of
//     requests for random paths adds to one series. The path itself is
//     never a label. A redirect of the router is labelled with the pattern
//     of the path it leads to, as r.Pattern is, except that of a CONNECT
//     request, for which a router sets r.Pattern to the path redirected
//     to, as ServeMux does: it is "unmatched" too;
//   - status is the class of the response's status code: "1xx", "2xx",
//     "3xx", "4xx" or "5xx". A connection hijacked before any status was
//     sent (a WebSocket) is "1xx", a handler that panics "5xx" unless it
//     had hijacked the connection.
//
// A pattern holds a "/", so no route is called "unmatched". With a handler
// that sets r.Pattern to something of its own, the route label takes that
// value: keep it to a fixed set.
//
// # Placement
//
// Under a cairn Router, either place works, and both label the routes of a
// group, and of a Router mounted in another, with the full pattern
// ("GET /orgs/{org}/repos/{id}"):
//
//	r.Use(metrics.New(nil))               // after routing: sees r.Pattern, always
//	handler := metrics.New(nil)(r)        // around the router: reads r.Pattern once it returns
//
// With Use, the middleware runs for every answer of the router (routes,
// 404, 405, OPTIONS, redirects), and sees r.Pattern before and after the
// handler. Around the router, it also times the router's lookup and the
// middleware of [github.com/cairn-go/cairn.Router.UseBeforeRouting], and
// it reads the pattern the Router set on the request it was given. So when
// routing gets a copy of that request, the pattern goes on the copy and
// the route is "unmatched": behind a middleware before routing that passes
// a copy on (one that calls r.WithContext, say). Prefer Use then.
//
// The middleware takes its response writer from
// [github.com/cairn-go/cairn/middleware.Acquire], and so shares one pooled
// Writer with cairn's logger, recoverer and compressor. A Recover inside
// it turns a panic into the 500 it counts; without one, the panic is
// counted as "5xx" and goes on up to net/http.
//
// # Allocations
//
// None per request, once a request has made its series (the first request
// for a method, route and status class allocates the series, and now and
// then a table twice as large for the cache of series, which costs O(1)
// amortized per series). Asserted with [testing.AllocsPerRun] for
// a matched route, a 404, a 405 and a group's route, and, for a route of a
// mounted Router, as none beyond what the mount allocates.
//
// The middleware adds about 150 to 200 ns to a request on one core of the
// machine of the numbers below (medians of three runs), most of it two
// reads of the clock (about a third), the histogram's observation, and
// hashing the route to find the series: a matched route costs 37 ns alone
// and about 190 ns measured, in either place:
//
//	go test -run '^$' -bench . -benchmem -count 3 .
//	BenchmarkServeHTTP/matched/metrics=none-2    37.1 ns/op    0 B/op    0 allocs/op
//	BenchmarkServeHTTP/matched/metrics=wrap-2     190 ns/op    0 B/op    0 allocs/op
//	BenchmarkServeHTTP/matched/metrics=use-2      184 ns/op    0 B/op    0 allocs/op
//	BenchmarkServeHTTP/404/metrics=none-2         121 ns/op    0 B/op    0 allocs/op
//	BenchmarkServeHTTP/404/metrics=wrap-2         285 ns/op    0 B/op    0 allocs/op
//	BenchmarkServeHTTP/405/metrics=none-2         251 ns/op    0 B/op    0 allocs/op
//	BenchmarkServeHTTP/405/metrics=wrap-2         414 ns/op    0 B/op    0 allocs/op
//
// # OpenTelemetry
//
// OpenTelemetry's otelhttp (v0.72) takes the route from r.Pattern too, and
// works with a cairn Router in either place, with one gap. Around the
// router (otelhttp.NewHandler(r, ...)), it passes a copy of the request
// down, on which the Router sets r.Pattern, and once the handler returns
// it reads that copy: the span is renamed "GET /orgs/{org}/repos/{id}" and
// the metrics get http.route. But the span's http.route attribute is set
// only when the span starts, before routing, so it is missing; a
// middleware added with Use that sets it from r.Pattern closes the gap.
// Added with Use itself, otelhttp sees r.Pattern from the start and needs
// nothing more. Around the router, it has the limits described under
// Placement. The example for OpenTelemetry shows all three.
package metrics
