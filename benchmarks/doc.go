// Package benchmarks compares cairn with other Go HTTP routers, side by
// side, on the same route sets: single routes, whole public APIs, wildcard
// constraints, growth with the number of routes and path depth, and end to
// end over the loopback interface.
//
// Every router is driven through its idiomatic API, and every handler reads
// the parameters of its route through the router's own API, so that no
// router gains from evaluating parameters lazily. A test checks, for every
// router and every route of every suite, that the right handler runs with
// the right parameters; a router that cannot express a route set is
// reported as such instead of being measured on something else.
//
// The module is separate from cairn's own, so that the peers never enter
// cairn's go.mod. Run the correctness tests with the repository's test
// command, and the full benchmark run, which regenerates
// report/benchmarks.md, as that file says.
package benchmarks
