package metrics

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// TestMethodLabel checks that the standard methods are their own label and
// every other method is OTHER.
func TestMethodLabel(t *testing.T) {
	for _, tt := range []struct{ method, want string }{
		{"GET", "GET"},
		{"HEAD", "HEAD"},
		{"POST", "POST"},
		{"PUT", "PUT"},
		{"PATCH", "PATCH"},
		{"DELETE", "DELETE"},
		{"CONNECT", "CONNECT"},
		{"OPTIONS", "OPTIONS"},
		{"TRACE", "TRACE"},
		{"get", "OTHER"},
		{"PROPFIND", "OTHER"},
		{"", "OTHER"},
		{"GET /users/1", "OTHER"},
	} {
		if got := methodLabel(tt.method); got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.method, got, tt.want)
		}
	}
}

// TestClassOf checks the status class of codes at and around each
// boundary, and of the codes Writer.Status reports for a hijacked
// connection.
func TestClassOf(t *testing.T) {
	for _, tt := range []struct {
		code int
		want statusClass
	}{
		{0, class1xx}, // hijacked before a status was sent
		{100, class1xx},
		{http.StatusSwitchingProtocols, class1xx},
		{199, class1xx},
		{200, class2xx},
		{204, class2xx},
		{299, class2xx},
		{300, class3xx},
		{308, class3xx},
		{400, class4xx},
		{499, class4xx},
		{500, class5xx},
		{599, class5xx},
		{600, class5xx},
		{999, class5xx},
	} {
		if got := classOf(tt.code); got != tt.want {
			t.Errorf("%d: got %v, want %v", tt.code, got, tt.want)
		}
	}
}

// TestStatusClassString checks the label values, and that an invalid class
// prints as one.
func TestStatusClassString(t *testing.T) {
	for _, tt := range []struct {
		c    statusClass
		want string
	}{
		{class1xx, "1xx"},
		{class2xx, "2xx"},
		{class3xx, "3xx"},
		{class4xx, "4xx"},
		{class5xx, "5xx"},
		{0, "statusClass(0)"},
		{9, "statusClass(9)"},
	} {
		if got := tt.c.String(); got != tt.want {
			t.Errorf("%d: got %q, want %q", uint8(tt.c), got, tt.want)
		}
	}
}

// TestRouteLabel checks that "" is the one unmatched value and that
// patterns pass as they are.
func TestRouteLabel(t *testing.T) {
	for _, tt := range []struct{ pattern, want string }{
		{"", "unmatched"},
		{"GET /users/{id}", "GET /users/{id}"},
		{"/static/", "/static/"},
		{"example.com/", "example.com/"},
	} {
		if got := routeLabel(tt.pattern); got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.pattern, got, tt.want)
		}
	}
}

// TestSeriesCache checks the cache of series: every key added is found
// again, with the series the vectors give for its labels, including keys
// that differ only in the method or the class, and a pattern copied into
// new memory; and a new series costs O(1) amortized, however many there
// are, as routes may be added while a router serves: the table is replaced
// only to double it, so the entries copied come to fewer than twice those
// added; and the series of one route do not crowd the same slots.
func TestSeriesCache(t *testing.T) {
	labels := []string{"method", "route", "status"}
	c := &collectors{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "r"}, labels),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "d"}, labels),
	}
	c.series.init()
	const routes = 5000
	var keys []seriesKey
	copied := 0
	for i := range routes {
		route := "GET /r/" + strconv.Itoa(i) + "/{id}"
		for _, k := range []seriesKey{{"GET", route, class2xx}, {"GET", route, class3xx}, {"GET", route, class4xx}, {"GET", route, class5xx}, {"HEAD", route, class2xx}} {
			before, n := c.series.t.Load(), c.series.n
			c.lookup(k)
			if c.series.t.Load() != before {
				copied += n
			}
			keys = append(keys, k)
		}
	}
	if copied >= 2*len(keys) {
		t.Errorf("%d series added, %d entries copied: want fewer than %d", len(keys), copied, 2*len(keys))
	}
	if c.series.n != len(keys) {
		t.Errorf("%d entries, want %d", c.series.n, len(keys))
	}
	// The series of one route, which differ in the method or the class
	// only, start at slots apart: a table at most half full takes about
	// 1.5 probes to find a key.
	tab := c.series.t.Load()
	mask := uint64(len(tab.slots) - 1)
	probes := 0
	for _, k := range keys {
		for i := c.series.hash(k) & mask; ; i = (i + 1) & mask {
			probes++
			if tab.slots[i].Load().key == k {
				break
			}
		}
	}
	if avg := float64(probes) / float64(len(keys)); avg > 2 {
		t.Errorf("%d series in %d slots take %.2f probes on average, want at most 2", len(keys), len(tab.slots), avg)
	}
	for _, k := range keys {
		k.route = strings.Clone(k.route)
		want := c.requests.WithLabelValues(k.method, k.route, k.class.String())
		if got := c.lookup(k).requests; got != want {
			t.Fatalf("%v: another counter than the vector's for its labels", k)
		}
	}
	if c.series.n != len(keys) {
		t.Errorf("after looking every key up again, %d entries, want %d", c.series.n, len(keys))
	}
}
