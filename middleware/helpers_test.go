package middleware_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// discard is a ResponseWriter that keeps the status and throws the body
// away, for allocation tests and benchmarks.
type discard struct {
	h    http.Header
	code int
	n    int
}

func newDiscard() *discard { return &discard{h: make(http.Header)} }

func (d *discard) Header() http.Header { return d.h }

func (d *discard) WriteHeader(code int) {
	if d.code == 0 {
		d.code = code
	}
}

func (d *discard) Write(p []byte) (int, error) {
	if d.code == 0 {
		d.code = http.StatusOK
	}
	d.n += len(p)
	return len(p), nil
}

// reset makes d ready for the next request without allocating.
func (d *discard) reset() {
	clear(d.h)
	d.code, d.n = 0, 0
}

// serve serves req with h and returns the recorded response.
func serve(tb testing.TB, h http.Handler, req *http.Request) *httptest.ResponseRecorder {
	tb.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// syncBuffer is a bytes.Buffer safe for a server's goroutines to write
// while a test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
