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
			next.ServeHTTP(wr, r)
			logRequest(ctx, ll, level, o.Message, r, wr, time.Since(start))
		})
	}
}

// logRequest writes the record of one request.
func logRequest(ctx context.Context, l *slog.Logger, level slog.Level, msg string, r *http.Request, wr *Writer, d time.Duration) {
	l.LogAttrs(ctx, level, msg,
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
		slog.String("pattern", r.Pattern),
		slog.Int("status", wr.Status()),
		slog.Int64("bytes", wr.Written()),
		slog.Duration("duration", d),
		slog.String("request_id", wr.RequestID()),
		slog.String("remote", r.RemoteAddr),
	)
}
