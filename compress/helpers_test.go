package compress

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// nopWriter is a ResponseWriter that discards everything and keeps one
// header map, so that allocation counts and benchmarks measure the
// middleware alone.
type nopWriter struct{ h http.Header }

// newNopWriter returns a nopWriter with an empty, reusable header map.
func newNopWriter() *nopWriter { return &nopWriter{h: make(http.Header)} }

// Header returns the writer's reusable header map.
func (w *nopWriter) Header() http.Header { return w.h }

// Write discards p and reports it fully written.
func (w *nopWriter) Write(p []byte) (int, error) { return len(p), nil }

// WriteHeader does nothing.
func (w *nopWriter) WriteHeader(int) {}

// Flush does nothing, so that flushes through an http.ResponseController
// succeed (they allocate an error for a writer that cannot flush).
func (w *nopWriter) Flush() {}

// reset empties the header map, keeping its storage.
func (w *nopWriter) reset() { clear(w.h) }

// jsonBody returns a JSON array of about n bytes (exactly n if n ends
// inside an element: callers get n bytes of realistic, compressible
// JSON, not necessarily valid).
func jsonBody(n int) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, `{"id":%d,"name":"user %d","email":"user%d@example.com","active":%v,"score":%d},`,
			i, i*7919%1000, i, i%3 == 0, i*31%977)
	}
	return b.Bytes()[:n]
}

// Static header values for handlers in allocation tests.
var jsonType = []string{"application/json"}

// writeJSON returns a handler that answers with body as application/json.
func writeJSON(body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = jsonType
		w.Write(body)
	}
}

// newRequest returns a request for / with the given method and
// Accept-Encoding header, or none if ae is "-".
func newRequest(method, ae string) *http.Request {
	r := httptest.NewRequest(method, "/", nil)
	if ae != "-" {
		r.Header.Set("Accept-Encoding", ae)
	}
	return r
}

// serve serves r with h and returns the recorded response.
func serve(tb testing.TB, h http.Handler, r *http.Request) *httptest.ResponseRecorder {
	tb.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec
}

// decode returns body decoded from the content coding ce ("" for none).
func decode(tb testing.TB, ce string, body []byte) []byte {
	tb.Helper()
	var r io.Reader
	switch ce {
	case "":
		return body
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			tb.Fatalf("gzip: %v", err)
		}
		r = zr
	case "zstd":
		zr, err := zstd.NewReader(bytes.NewReader(body))
		if err != nil {
			tb.Fatalf("zstd: %v", err)
		}
		defer zr.Close()
		r = zr
	default:
		tb.Fatalf("unknown Content-Encoding %q", ce)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		tb.Fatalf("decoding %s: %v", ce, err)
	}
	return out
}

// rawClient returns a client that shows responses as they come, without
// decompressing them.
func rawClient() *http.Client {
	return &http.Client{Transport: &http.Transport{DisableCompression: true}}
}
