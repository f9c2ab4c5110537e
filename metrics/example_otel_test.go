package metrics_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"

	"github.com/cairn-go/cairn"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// spanRoute is the middleware that an otelhttp handler around a cairn
// Router needs for the http.route attribute of its spans: add it with
// r.Use, where r.Pattern is set. otelhttp names the span, and labels its
// metrics, from r.Pattern by itself (see the example). Like otelhttp, it
// takes the route from the pattern's first "/", without the method and
// the host.
func spanRoute(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if i := strings.IndexByte(r.Pattern, '/'); i >= 0 {
			trace.SpanFromContext(r.Context()).SetAttributes(semconv.HTTPRoute(r.Pattern[i:]))
		}
		next.ServeHTTP(w, r)
	})
}

// Example_openTelemetry shows what OpenTelemetry's otelhttp (v0.72) makes
// of a cairn Router's routes, in three placements. Around the router,
// otelhttp starts the span before routing, so the span has no http.route
// attribute; once the handler returns it reads r.Pattern from the request
// it passed down, which the Router set, to rename the span and to label
// its metrics. spanRoute, added with Use, adds the attribute. otelhttp
// added with Use sees r.Pattern from the start, and needs nothing more,
// but does not time the middleware before routing. In all three the route
// of a mounted Router is the full one.
func Example_openTelemetry() {
	newRouter := func() *cairn.Router {
		org := cairn.New()
		org.HandleFunc("GET /repos/{id}", func(w http.ResponseWriter, r *http.Request) {})
		r := cairn.New()
		r.Mount("/orgs/{org}", org)
		return r
	}
	for _, setup := range []struct {
		name  string
		build func(opts ...otelhttp.Option) http.Handler
	}{
		{"otelhttp.NewHandler(r)", func(opts ...otelhttp.Option) http.Handler {
			return otelhttp.NewHandler(newRouter(), "cairn", opts...)
		}},
		{"otelhttp.NewHandler(r), r.Use(spanRoute)", func(opts ...otelhttp.Option) http.Handler {
			r := newRouter()
			r.Use(spanRoute)
			return otelhttp.NewHandler(r, "cairn", opts...)
		}},
		{"r.Use(otelhttp.NewMiddleware)", func(opts ...otelhttp.Option) http.Handler {
			r := newRouter()
			r.Use(otelhttp.NewMiddleware("cairn", opts...))
			return r
		}},
	} {
		spans := tracetest.NewSpanRecorder()
		reader := sdkmetric.NewManualReader()
		h := setup.build(
			otelhttp.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))),
			otelhttp.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))),
		)
		for _, target := range []string{"/orgs/acme/repos/7", "/nothing"} {
			h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", target, nil))
		}

		fmt.Println(setup.name + ":")
		for _, s := range spans.Ended() {
			fmt.Printf("  span %q http.route=%s\n", s.Name(), route(attribute.NewSet(s.Attributes()...)))
		}
		var rm metricdata.ResourceMetrics
		if err := reader.Collect(context.Background(), &rm); err != nil {
			panic(err)
		}
		var lines []string
		for _, sm := range rm.ScopeMetrics {
			for _, m := range sm.Metrics {
				if m.Name != "http.server.request.duration" {
					continue
				}
				for _, dp := range m.Data.(metricdata.Histogram[float64]).DataPoints {
					status, _ := dp.Attributes.Value(semconv.HTTPResponseStatusCodeKey)
					lines = append(lines, fmt.Sprintf("  %s http.route=%s status=%d count=%d",
						m.Name, route(dp.Attributes), status.AsInt64(), dp.Count))
				}
			}
		}
		slices.Sort(lines)
		fmt.Println(strings.Join(lines, "\n"))
	}
	// Output:
	// otelhttp.NewHandler(r):
	//   span "GET /orgs/{org}/repos/{id}" http.route=(none)
	//   span "GET" http.route=(none)
	//   http.server.request.duration http.route="/orgs/{org}/repos/{id}" status=200 count=1
	//   http.server.request.duration http.route=(none) status=404 count=1
	// otelhttp.NewHandler(r), r.Use(spanRoute):
	//   span "GET /orgs/{org}/repos/{id}" http.route="/orgs/{org}/repos/{id}"
	//   span "GET" http.route=(none)
	//   http.server.request.duration http.route="/orgs/{org}/repos/{id}" status=200 count=1
	//   http.server.request.duration http.route=(none) status=404 count=1
	// r.Use(otelhttp.NewMiddleware):
	//   span "GET /orgs/{org}/repos/{id}" http.route="/orgs/{org}/repos/{id}"
	//   span "GET" http.route=(none)
	//   http.server.request.duration http.route="/orgs/{org}/repos/{id}" status=200 count=1
	//   http.server.request.duration http.route=(none) status=404 count=1
}

// route returns the quoted http.route attribute of set, or "(none)".
func route(set attribute.Set) string {
	if v, ok := set.Value(semconv.HTTPRouteKey); ok {
		return fmt.Sprintf("%q", v.AsString())
	}
	return "(none)"
}
