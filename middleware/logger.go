package middleware

import (
	"context"
	"log/slog"
	"net/http"
	"time"
)

// LoggerOptions configures [Logger]. The zero value is ready to use.
type LoggerOptions struct {
	// Level is the level of the records; the default is [slog.LevelInfo].
	// A [slog.LevelVar] here turns logging on and off while serving.
	Level slog.Leveler

	// Message is the records' message; the default is "request".
	Message string
}

// Logger returns middleware that writes one record to l for each request,
// once the handler has returned, with these attributes:
//
//	method       the request's method
//	path         the request's path, r.URL.Path
//	pattern      the matched pattern, r.Pattern ("" if none matched)
//	status       the response's status code
//	bytes        the body bytes the handler wrote (before compression)
//	duration     the time the handler took
//	request_id   the ID [RequestID] gave the request, if it ran
//	remote       the client's address, r.RemoteAddr
//	aborted      true, only if the handler panicked and nothing turned
//	             the panic into an answer (see [Recover])
//
// The status is 0 for a connection the handler hijacked without writing a
// status through the response writer (a WebSocket upgrade written on the
// connection itself), panic or not, and 500 for an aborted response of
// which nothing had been sent (net/http closes the connection). The record reflects what
// passed through the Logger: put middleware that answers on its own (a
// throttle's 429, a timeout's 504) inside it, in the same Use call after
// it or in a group.
//
// Under a cairn Router, add Logger with Use, so that it sees the pattern
// the Router matched, the full one through mounts; wrapped around the whole
// Router it sees it too, unless something between them copies the request.
// A nil l means [slog.Default].
//
// Allocation: none when l does not log at the level (the check is the
// first thing Logger does); otherwise what l's handler allocates for a
// record of eight attributes, a few hundred bytes with
// [slog.JSONHandler].
func Logger(l *slog.Logger, opts *LoggerOptions) func(http.Handler) http.Handler {
	var o LoggerOptions
	if opts != nil {
		o = *opts
	}
	if o.Level == nil {
		o.Level = slog.LevelInfo
	}
	if o.Message == "" {
		o.Message = "request"
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ll := l
			if ll == nil {
				ll = slog.Default()
			}
			level := o.Level.Level()
			ctx := r.Context()
			if !ll.Enabled(ctx, level) {
				next.ServeHTTP(w, r)
				return
			}
			wr, owned := Acquire(w)
			if owned {
				defer wr.Release()
			}
			start := time.Now()
			returned := false
			defer func() {
				if !returned {
					// The handler panicked, and nothing further in
					// turned the panic into an answer: the response is
					// aborted. Log it before the panic goes on up.
					logRequest(ctx, ll, level, o.Message, r, wr, time.Since(start), true)
				}
			}()
			next.ServeHTTP(wr.ResponseWriter(), r)
			returned = true
			logRequest(ctx, ll, level, o.Message, r, wr, time.Since(start), false)
		})
	}
}

// logRequest writes the record of one request; aborted says that its
// handler panicked.
func logRequest(ctx context.Context, l *slog.Logger, level slog.Level, msg string, r *http.Request, wr *Writer, d time.Duration, aborted bool) {
	status := wr.Status()
	if aborted && !wr.Sent() && !wr.Hijacked() {
		status = http.StatusInternalServerError // what the client is told, as the server closes the connection
	}
	attrs := [...]slog.Attr{
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
		slog.String("pattern", r.Pattern),
		slog.Int("status", status),
		slog.Int64("bytes", wr.Written()),
		slog.Duration("duration", d),
		slog.String("request_id", wr.RequestID()),
		slog.String("remote", r.RemoteAddr),
		slog.Bool("aborted", true),
	}
	n := len(attrs) - 1
	if aborted {
		n++
	}
	l.LogAttrs(ctx, level, msg, attrs[:n]...)
}
