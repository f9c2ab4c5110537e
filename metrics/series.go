package metrics

// This file holds the label values of a request and the cache that maps
// them to the series (the counter and histogram children) they name.
//
// Prometheus finds a child of a vector by hashing its label values, and
// WithLabelValues allocates the variadic slice it takes them in, so asking
// it per request would cost an allocation and a hash of the strings. The
// cache asks once per series instead. Given a GET for "GET /users/{id}"
// that got 200, the key is {"GET", "GET /users/{id}", 2xx}: the first such
// request misses, takes the mutex, asks the vectors for the children of
// ("GET", "GET /users/{id}", "2xx") and publishes a copy of the map with
// them added; every later one finds them with one lock-free map lookup.
//
// Invariant: the keys are bounded as the labels are, so the map stays
// small (routes × methods × 5) and copying it on a miss is cheap; a miss
// happens once per series for the life of the process.

import (
	"maps"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
)

// unmatched is the route label of requests that no route matched: r.Pattern
// is "" for them (404, 405 from a cairn Router or a ServeMux), and they all
// share one series, however many paths they come for.
const unmatched = "unmatched"

// methodLabel returns the method label for the request method m: m itself
// for the methods of RFC 9110 and PATCH, "OTHER" for any other, so that
// clients cannot make new series by inventing methods. Methods are case
// sensitive: "get" is OTHER.
//
// Optimization: it returns the constants, so a cached key does not keep
// the request's string alive.
func methodLabel(m string) string {
	switch m {
	case http.MethodGet:
		return http.MethodGet
	case http.MethodHead:
		return http.MethodHead
	case http.MethodPost:
		return http.MethodPost
	case http.MethodPut:
		return http.MethodPut
	case http.MethodPatch:
		return http.MethodPatch
	case http.MethodDelete:
		return http.MethodDelete
	case http.MethodConnect:
		return http.MethodConnect
	case http.MethodOptions:
		return http.MethodOptions
	case http.MethodTrace:
		return http.MethodTrace
	}
	return "OTHER"
}

// routeLabel returns the route label for the pattern p: p, or "unmatched"
// for "".
func routeLabel(p string) string {
	if p == "" {
		return unmatched
	}
	return p
}

// A statusClass is the class of a status code, the status label.
type statusClass uint8

const (
	class1xx statusClass = iota + 1 // informational; also a hijacked connection
	class2xx                        // success
	class3xx                        // redirection
	class4xx                        // client error
	class5xx                        // server error, and codes of 600 and above
)

// classOf returns the class of the status code code. A code of 0, which
// [middleware.Writer.Status] reports for a connection hijacked before any
// status was sent (a WebSocket, say), is 1xx, a protocol switch; codes of
// 600 and above, which net/http lets a handler send, are 5xx.
func classOf(code int) statusClass {
	switch {
	case code < 200:
		return class1xx
	case code < 300:
		return class2xx
	case code < 400:
		return class3xx
	case code < 500:
		return class4xx
	}
	return class5xx
}

// String returns the label value of c, "1xx" to "5xx".
func (c statusClass) String() string {
	switch c {
	case class1xx:
		return "1xx"
	case class2xx:
		return "2xx"
	case class3xx:
		return "3xx"
	case class4xx:
		return "4xx"
	case class5xx:
		return "5xx"
	}
	return "statusClass(" + strconv.Itoa(int(c)) + ")"
}

// A seriesKey identifies a series by what a request gives its labels: the
// method label, the raw pattern (not yet mapped to "unmatched") and the
// status class.
type seriesKey struct {
	method string
	route  string
	class  statusClass
}

// A series is the counter and the histogram of one seriesKey.
type series struct {
	requests prometheus.Counter
	duration prometheus.Observer
}

// A seriesCache maps keys to series. Readers load the map without a lock;
// a writer holds mu and replaces it with a copy.
//
// Invariant: a published map is never changed.
type seriesCache struct {
	m  atomic.Pointer[map[seriesKey]series]
	mu sync.Mutex // held by writers
}

// init publishes an empty map, so that lookup need not check for nil.
func (sc *seriesCache) init() {
	m := make(map[seriesKey]series)
	sc.m.Store(&m)
}

// lookup returns the series of k among c's metrics, making it on the first
// call for k.
//
// Allocation: none when k has been seen.
func (c *collectors) lookup(k seriesKey) series {
	if s, ok := (*c.series.m.Load())[k]; ok {
		return s
	}
	return c.add(k)
}

// add makes the series of k, publishes a map that holds it, and returns it.
// Another request may have added k since lookup missed, so it looks again
// under the lock.
func (c *collectors) add(k seriesKey) series {
	sc := &c.series
	sc.mu.Lock()
	defer sc.mu.Unlock()
	old := *sc.m.Load()
	if s, ok := old[k]; ok {
		return s
	}
	// A copy, so that the key does not keep alive whatever larger string
	// a pattern not made by a router may be part of.
	k.route = strings.Clone(k.route)
	route, class := routeLabel(k.route), k.class.String()
	s := series{
		requests: c.requests.WithLabelValues(k.method, route, class),
		duration: c.duration.WithLabelValues(k.method, route, class),
	}
	m := make(map[seriesKey]series, len(old)+1)
	maps.Copy(m, old)
	m[k] = s
	sc.m.Store(&m)
	return s
}
