package benchmarks

// This file generates the route sets of the growth benchmarks, which
// measure how lookup, registration and memory grow with the number of
// routes (BenchmarkGrowth, BenchmarkRegister) and with the depth of a path
// (BenchmarkDepth).
//
// Route i of a set of n hangs under one of a few prefixes, chosen as i
// modulo their number, and is told apart by a literal segment "r<i>":
//
//	static: GET /api/r0, GET /v1/r1, GET /v2/admin/r2, ..., GET /api/r8, ...
//	param:  GET /api/r0/:id, GET /v1/r1/:id, GET /v2/admin/r2/:id, ...
//
// so that the trees branch at the root and again inside the numbers, as
// those of real APIs do, rather than growing into one long list under a
// single node. No two routes of a set put a parameter and a literal at the
// same position under the same parent, which httprouter, gin and echo
// reject or resolve in their own ways, so every router under test can
// express every set, and a lookup has exactly one candidate at each step.

import (
	"fmt"
	"strconv"
	"strings"
)

// Kinds of route set for [GrowthRoutes].
const (
	GrowthStatic = "static" // static routes only
	GrowthParam  = "param"  // a literal prefix and one parameter each
)

// growthPrefixes are the prefixes routes are spread over: one or two
// segments, so that a route has two or three literal segments.
var growthPrefixes = []string{
	"/api", "/v1", "/v2/admin", "/users", "/static/img", "/docs", "/orgs/teams", "/search",
}

// GrowthRoutes returns n distinct GET routes of the given kind,
// [GrowthStatic] or [GrowthParam], as described at the top of this file.
// It panics on any other kind.
func GrowthRoutes(kind string, n int) []Route {
	var suffix string
	switch kind {
	case GrowthStatic:
	case GrowthParam:
		suffix = "/:id"
	default:
		panic(fmt.Sprintf("benchmarks: unknown kind of growth route set %q", kind))
	}
	routes := make([]Route, n)
	for i := range routes {
		p := growthPrefixes[i%len(growthPrefixes)]
		routes[i] = newRoute("GET", p+"/r"+strconv.Itoa(i)+suffix)
	}
	return routes
}

// DepthRoute returns a GET route of d segments that alternate a literal
// and a parameter, starting with a literal, as in the REST shape
// /repos/:owner/:repo/issues/:number:
//
//	d=1: /s0
//	d=4: /s0/:p1/s2/:p3
//
// so that a lookup of depth d matches d/2 literals (rounded up) and reads
// d/2 parameters (rounded down), at most 16 for d=32, within what a
// [Probe] records. A route of parameters only would measure parameter
// extraction alone; alternating also exercises the literal comparisons
// that deep real routes have between their parameters.
func DepthRoute(d int) Route {
	var b strings.Builder
	for k := range d {
		if k%2 == 0 {
			fmt.Fprintf(&b, "/s%d", k)
		} else {
			fmt.Fprintf(&b, "/:p%d", k)
		}
	}
	return newRoute("GET", b.String())
}

// growthSampleSize is the number of requests a lookup benchmark cycles
// through: enough that branch predictors and caches do not learn a single
// path, few enough to stay in cache like a server's hot routes.
const growthSampleSize = 64

// growthSample returns the indices of growthSampleSize routes spread evenly
// over a set of n, one at the middle of each of growthSampleSize equal
// slices of it (so some repeat when n is smaller than the sample).
func growthSample(n int) []int {
	idx := make([]int, growthSampleSize)
	for j := range idx {
		idx[j] = (2*j + 1) * n / (2 * growthSampleSize)
	}
	return idx
}
