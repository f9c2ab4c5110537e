// Package middleware holds the middleware that every service puts on its
// serving path, built as the router is: measured, pooled, and free of
// allocations where it can be.
//
//   - [RequestID] gives each request an ID, taken from a well-formed incoming
//     header or generated, and echoes it on the response.
//   - [Logger] writes one [log/slog] record per request, and costs nothing
//     when the logger's level drops the record.
//   - [Recover] turns a panic into a 500 and a log record.
//
// Each is a plain func(http.Handler) http.Handler, so it works with any
// net/http router and alongside any net/http middleware. The ones that
// need to see the response share one [Writer], taken from a pool by the
// first of them and found by the others, so a request through all of them,
// and through cairn's compress and metrics packages, is wrapped once.
//
// # Order
//
// With a cairn Router, the usual order is
//
//	r.UseBeforeRouting(middleware.RequestID(nil))
//	r.Use(middleware.Logger(logger, nil), middleware.Recover(nil))
//
// RequestID runs before routing, so even the router's own answers carry an
// ID; Logger runs after routing, so it sees the matched pattern in
// r.Pattern; Recover runs inside Logger, so a panic is logged as the 500
// it becomes. Wrapping the whole Router works too (Logger(router)), as long
// as nothing between them replaces the request with a copy: the Router sets
// r.Pattern on the request it is given.
//
// # Allocations
//
// Per request, with warm pools: RequestID allocates one 48-byte object
// when it generates an ID (about 130 ns) and nothing for a valid incoming
// one (about 70 ns); Logger allocates nothing when its level is off (about
// 10 ns), and when it logs, what the slog handler allocates (one 128-byte
// allocation and under 1 µs with [slog.JSONHandler] writing to
// io.Discard); Recover allocates nothing unless a handler panics. The
// figures are from go test -bench . -benchmem in this package.
package middleware
