package middleware

import (
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
)

// RecoverOptions configures [Recover]. The zero value is ready to use.
type RecoverOptions struct {
	// Logger receives a record at [slog.LevelError] for each panic, with
	// the panic's value and the goroutine's stack. The default is
	// [slog.Default].
	Logger *slog.Logger

	// Handler writes the answer to a request whose handler panicked; the
	// default is a plain-text 500 Internal Server Error. A JSON API puts
	// its own error document here. It runs only if nothing of the response
	// had reached the client; the response's header map still holds what
	// the panicking handler set, except Content-Length, ETag and a
	// Content-Encoding, which Recover removes (a Content-Encoding that a
	// compressor around Recover set stays).
	Handler http.Handler
}

// Recover returns middleware that turns a panic in the handlers it wraps
// into an answer and a log record, so that one bad request does not take
// the connection down with a bare error.
//
// If nothing of the response has gone to the client, the response is
// started over and opts.Handler answers (by default, 500). Otherwise the
// status and part of the body are already on their way, so Recover aborts
// the response as net/http does for a panic: it panics with
// [http.ErrAbortHandler], which makes the server close the connection (or
// reset the stream) without logging a stack. A panic with
// [http.ErrAbortHandler] itself passes through untouched, as net/http
// expects.
//
// Put Recover inside [Logger], so that the 500 is what is logged.
//
// Allocation: none unless a handler panics.
func Recover(opts *RecoverOptions) func(http.Handler) http.Handler {
	var o RecoverOptions
	if opts != nil {
		o = *opts
	}
	if o.Handler == nil {
		o.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError)
		})
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			wr, owned := Acquire(w)
			if owned {
				defer wr.Release()
			}
			// A Content-Encoding set further out, by a compressor
			// around this middleware, stays when the response is
			// started over; one the handler set goes.
			ce := wr.Header()["Content-Encoding"]
			defer func() {
				if v := recover(); v != nil {
					recovered(o, wr, r, v, ce)
				}
			}()
			next.ServeHTTP(wr.ResponseWriter(), r)
		})
	}
}

// recovered handles the panic v of the handler for r. ce is the
// Content-Encoding the response had before the handler ran.
func recovered(o RecoverOptions, wr *Writer, r *http.Request, v any, ce []string) {
	if v == http.ErrAbortHandler {
		panic(v)
	}
	l := o.Logger
	if l == nil {
		l = slog.Default()
	}
	restarted := wr.restart()
	l.LogAttrs(r.Context(), slog.LevelError, "panic serving request",
		slog.String("panic", fmt.Sprint(v)),
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
		slog.String("pattern", r.Pattern),
		slog.String("request_id", wr.RequestID()),
		slog.Bool("answered", restarted),
		slog.String("stack", string(debug.Stack())),
	)
	if !restarted {
		panic(http.ErrAbortHandler)
	}
	h := wr.Header()
	h.Del("Content-Length")
	h.Del("Etag")
	if ce == nil {
		h.Del("Content-Encoding")
	} else {
		h["Content-Encoding"] = ce
	}
	o.Handler.ServeHTTP(wr.ResponseWriter(), r)
}
