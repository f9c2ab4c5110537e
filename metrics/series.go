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
// ("GET", "GET /users/{id}", "2xx") and stores them in a free slot of the
// cache's table; every later one finds them with a lock-free probe.
//
// The keys are bounded as the labels are (routes × methods × 5), and a miss
// happens once per series for the life of the process; but routes may be
// registered while a router serves, so the number of series has no bound
// known in advance, and adding one costs O(1) amortized however many there
// are.

import (
	"hash/maphash"
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

// A seriesCache maps keys to series: an open-addressing hash table of
// pointers to entries, which readers probe without a lock. A writer holds
// mu; it stores a new entry into a free slot in place (one atomic store),
// and replaces the table only to double it, copying the pointers.
//
// Invariant: at most half of a table's slots are used, so a probe ends at
// an empty slot; a slot, once set, never changes; and a published table
// holds every entry of the tables before it.
type seriesCache struct {
	t    atomic.Pointer[seriesTable]
	mu   sync.Mutex // held by writers
	n    int        // entries
	seed maphash.Seed
}

// A seriesTable is the slot array of a seriesCache; its length is a power
// of two.
type seriesTable struct {
	slots []atomic.Pointer[seriesEntry]
}

// A seriesEntry is a key and its series.
type seriesEntry struct {
	key seriesKey
	s   series
}

// init publishes an empty table, so that lookup need not check for nil.
func (sc *seriesCache) init() {
	sc.seed = maphash.MakeSeed()
	sc.t.Store(&seriesTable{slots: make([]atomic.Pointer[seriesEntry], 64)})
}

// hash returns the hash of k. The method, one of methodLabel's constants,
// is told from the others by its length and first byte; these and the
// class are multiplied into bits of every position, the low ones that
// pick the slot included, so that the series of a route start apart.
func (sc *seriesCache) hash(k seriesKey) uint64 {
	m := uint64(k.class)
	if k.method != "" {
		m |= uint64(len(k.method))<<16 | uint64(k.method[0])<<8
	}
	return maphash.String(sc.seed, k.route) ^ m*0x9E3779B97F4A7C15
}

// get returns the entry of t for k, whose hash is h, or nil.
func (t *seriesTable) get(k seriesKey, h uint64) *seriesEntry {
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		if e := t.slots[i].Load(); e == nil || e.key == k {
			return e
		}
	}
}

// put stores e, whose key t does not hold and whose hash is h, in the
// first free slot from h's. The caller holds the cache's lock, and t has a
// free slot.
func (t *seriesTable) put(e *seriesEntry, h uint64) {
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	for t.slots[i].Load() != nil {
		i = (i + 1) & mask
	}
	t.slots[i].Store(e)
}

// lookup returns the series of k among c's metrics, making it on the first
// call for k.
//
// Allocation: none when k has been seen.
func (c *collectors) lookup(k seriesKey) series {
	h := c.series.hash(k)
	if e := c.series.t.Load().get(k, h); e != nil {
		return e.s
	}
	return c.add(k, h)
}

// add makes the series of k, whose hash is h, stores it in the cache, and
// returns it. Another request may have added k since lookup missed, so it
// looks again under the lock.
func (c *collectors) add(k seriesKey, h uint64) series {
	sc := &c.series
	sc.mu.Lock()
	defer sc.mu.Unlock()
	t := sc.t.Load()
	if e := t.get(k, h); e != nil {
		return e.s
	}
	// A copy, so that the key does not keep alive whatever larger string
	// a pattern not made by a router may be part of.
	k.route = strings.Clone(k.route)
	route, class := routeLabel(k.route), k.class.String()
	e := &seriesEntry{key: k, s: series{
		requests: c.requests.WithLabelValues(k.method, route, class),
		duration: c.duration.WithLabelValues(k.method, route, class),
	}}
	if 2*(sc.n+1) > len(t.slots) {
		next := &seriesTable{slots: make([]atomic.Pointer[seriesEntry], 2*len(t.slots))}
		for i := range t.slots {
			if old := t.slots[i].Load(); old != nil {
				next.put(old, sc.hash(old.key))
			}
		}
		next.put(e, h)
		sc.t.Store(next)
	} else {
		t.put(e, h)
	}
	sc.n++
	return e.s
}
