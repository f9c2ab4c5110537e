package compress

import (
	"net/http"
	"testing"
)

// BenchmarkServeHTTP measures a request through the compressor end to
// end, with a handler that writes a JSON body and a ResponseWriter that
// discards it. SetBytes counts the uncompressed body.
func BenchmarkServeHTTP(b *testing.B) {
	json4k := jsonBody(4 << 10)
	json64k := jsonBody(64 << 10)
	for _, bc := range []struct {
		name string
		ae   string
		body []byte
	}{
		{"gzip/4KiB", "gzip", json4k},
		{"zstd/4KiB", "zstd", json4k},
		{"gzip/64KiB", "gzip", json64k},
		{"zstd/64KiB", "zstd", json64k},
		{"small/100B", "gzip, zstd", json4k[:100]}, // below MinSize: sent as it is
		{"identity/4KiB", "-", json4k},             // the client accepts no coding
	} {
		b.Run(bc.name, func(b *testing.B) {
			h := New(nil)(writeJSON(bc.body))
			req := newRequest(http.MethodGet, bc.ae)
			w := newNopWriter()
			b.SetBytes(int64(len(bc.body)))
			b.ReportAllocs()
			for b.Loop() {
				w.reset()
				h.ServeHTTP(w, req)
			}
		})
	}
}

// BenchmarkBaseline is the handler of BenchmarkServeHTTP without the
// compressor, to subtract.
func BenchmarkBaseline(b *testing.B) {
	h := writeJSON(jsonBody(4 << 10))
	req := newRequest(http.MethodGet, "gzip")
	w := newNopWriter()
	b.ReportAllocs()
	for b.Loop() {
		w.reset()
		h.ServeHTTP(w, req)
	}
}

// BenchmarkNegotiate measures the parsing of a browser's Accept-Encoding.
func BenchmarkNegotiate(b *testing.B) {
	header := []string{"gzip, deflate, br, zstd"}
	b.ReportAllocs()
	for b.Loop() {
		negotiate(header, zstdFirst)
	}
}
