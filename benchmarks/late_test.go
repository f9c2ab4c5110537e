package benchmarks

import (
	"fmt"
	"net/http"
	"runtime"
	"testing"

	"github.com/cairn-go/cairn"
)

// BenchmarkRegisterLate measures what registering costs cairn before and
// after the router has served its first request. "before" registers n
// routes into a new Router and then serves one request, which a router
// that defers work to its first request pays for; "after" serves a
// request for a route of another router first, so that every one of the n
// registrations changes a router that serves, as registering while
// serving does. Both report the time per route (ns/route) and the heap
// allocated per route (B/route, all of it, garbage included, since a
// router that copies its tables on each registration makes garbage in
// proportion to their size).
//
// A second router, with 50 000 routes and alive throughout, checks that a
// registration does not cost in proportion to the routes of other
// routers.
func BenchmarkRegisterLate(b *testing.B) {
	other := newLateRouter(GrowthRoutes(GrowthParam, 50000))
	other.ServeHTTP(newGrowthWriter(), lateRequest(GrowthRoutes(GrowthParam, 1)[0]))
	for _, kind := range growthKinds {
		for _, when := range []string{"before", "after"} {
			for _, n := range growthSizes {
				routes := GrowthRoutes(kind, n)
				first := lateRequest(routes[n/2])
				b.Run(fmt.Sprintf("%s/%s/routes=%d/router=cairn", kind, when, n), func(b *testing.B) {
					var before, after runtime.MemStats
					runtime.ReadMemStats(&before)
					for b.Loop() {
						r := cairn.New()
						r.PopulatePathValues(false)
						if when == "after" {
							r.ServeHTTP(newGrowthWriter(), lateRequest(Route{Method: "GET", Path: "/warm"}))
						}
						for _, rt := range routes {
							r.HandleFunc(rt.Pattern(), lateHandler)
						}
						w := newGrowthWriter()
						r.ServeHTTP(w, first)
					}
					runtime.ReadMemStats(&after)
					per := float64(b.N) * float64(n)
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/route")
					b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/per, "B/route")
				})
			}
		}
	}
	runtime.KeepAlive(other)
}

// lateHandler is the handler of every route of BenchmarkRegisterLate.
func lateHandler(w http.ResponseWriter, r *http.Request) {}

// newLateRouter returns a cairn Router serving routes with lateHandler.
func newLateRouter(routes []Route) *cairn.Router {
	r := cairn.New()
	for _, rt := range routes {
		r.HandleFunc(rt.Pattern(), lateHandler)
	}
	return r
}

// lateRequest returns a request for rt.
func lateRequest(rt Route) *http.Request {
	path, _ := rt.Request()
	req, err := http.NewRequest(rt.Method, path, nil)
	if err != nil {
		panic(err)
	}
	return req
}
