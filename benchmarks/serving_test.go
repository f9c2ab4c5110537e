package benchmarks

// This file compares cairn's serving-path middleware with the middleware
// people use today: compression against klauspost's gzhttp and chi's
// Compress, and a whole stack (request ID, access logging with its level
// off, recovery, metrics by route, compression) against the same stack
// built from chi's and from gorilla's middleware.
//
// Every stack is checked before it is timed: the body decodes to what the
// handler wrote, and the metrics count the request under its route.

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/cairn-go/cairn"
	"github.com/cairn-go/cairn/compress"
	"github.com/cairn-go/cairn/metrics"
	"github.com/cairn-go/cairn/middleware"
	"github.com/go-chi/chi/v5"
	chimw "github.com/go-chi/chi/v5/middleware"
	"github.com/gorilla/handlers"
	"github.com/gorilla/mux"
	"github.com/klauspost/compress/gzhttp"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/prometheus/client_golang/prometheus"
)

// level is the compression level of every compressor here: chi's
// default-less Compress needs one, and the same for all keeps the
// comparison about the middleware rather than the codec's effort.
const level = 5

// jsonBody returns a JSON document of about n bytes, of the repetitive
// kind APIs send.
func jsonBody(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"items":[`)
	for i := 0; b.Len() < n-40; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"item %d","tags":["a","b"],"ok":true}`, i, i)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// jsonHandler writes body as JSON.
func jsonHandler(body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}
}

// servingWriter is a ResponseWriter that discards the body and whose header
// map is cleared between requests, as a server's is new for each.
type servingWriter struct {
	h http.Header
	n int
}

func (w *servingWriter) Header() http.Header         { return w.h }
func (w *servingWriter) WriteHeader(int)             {}
func (w *servingWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }
func (w *servingWriter) reset()                      { clear(w.h); w.n = 0 }

// chiZstd makes chi's Compress offer zstd with klauspost's encoder.
func chiZstd(c *chimw.Compressor) {
	c.SetEncoder("zstd", func(w io.Writer, level int) io.Writer {
		enc, err := zstd.NewWriter(w, zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(level)), zstd.WithEncoderConcurrency(1))
		if err != nil {
			panic(err)
		}
		return enc
	})
}

// compressors returns the compression middleware compared, by name, for
// the encoding enc.
func compressors(enc string) map[string]func(http.Handler) http.Handler {
	m := map[string]func(http.Handler) http.Handler{
		"cairn": compress.New(&compress.Options{GzipLevel: level, ZstdLevel: zstd.EncoderLevelFromZstd(level)}),
		"chi": func(h http.Handler) http.Handler {
			c := chimw.NewCompressor(level)
			chiZstd(c)
			return c.Handler(h)
		},
	}
	if enc == "gzip" {
		w, err := gzhttp.NewWrapper(gzhttp.CompressionLevel(level))
		if err != nil {
			panic(err)
		}
		m["gzhttp"] = func(h http.Handler) http.Handler { return w(h) }
	}
	return m
}

// decode returns the body of rec, decoded.
func decode(tb testing.TB, rec *httptest.ResponseRecorder) []byte {
	tb.Helper()
	var r io.Reader = rec.Body
	switch ce := rec.Header().Get("Content-Encoding"); ce {
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			tb.Fatal(err)
		}
		r = zr
	case "zstd":
		zr, err := zstd.NewReader(r)
		if err != nil {
			tb.Fatal(err)
		}
		defer zr.Close()
		r = zr
	case "":
	default:
		tb.Fatalf("Content-Encoding %q", ce)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func TestCompressors(t *testing.T) {
	body := jsonBody(4 << 10)
	for _, enc := range []string{"gzip", "zstd"} {
		for name, mw := range compressors(enc) {
			h := mw(jsonHandler(body))
			req := httptest.NewRequest("GET", "/", nil)
			req.Header.Set("Accept-Encoding", enc)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if got := rec.Header().Get("Content-Encoding"); got != enc {
				t.Errorf("%s %s: Content-Encoding %q", name, enc, got)
			}
			if !bytes.Equal(decode(t, rec), body) {
				t.Errorf("%s %s: the body does not decode to the handler's", name, enc)
			}
		}
	}
}

func BenchmarkCompress(b *testing.B) {
	for _, size := range []int{4 << 10, 64 << 10} {
		body := jsonBody(size)
		for _, enc := range []string{"gzip", "zstd"} {
			for _, name := range []string{"cairn", "gzhttp", "chi"} {
				mw, ok := compressors(enc)[name]
				if !ok {
					continue
				}
				b.Run(fmt.Sprintf("%s/%s/%dKiB/%s", enc, "json", size>>10, name), func(b *testing.B) {
					h := mw(jsonHandler(body))
					req := httptest.NewRequest("GET", "/", nil)
					req.Header.Set("Accept-Encoding", enc)
					w := &servingWriter{h: make(http.Header)}
					b.SetBytes(int64(len(body)))
					b.ReportAllocs()
					for b.Loop() {
						w.reset()
						h.ServeHTTP(w, req)
					}
				})
			}
		}
	}
}

// stackBody is what the stack's route answers: a small JSON response,
// above every compressor's minimum size.
var stackBody = jsonBody(2 << 10)

// A stack is a router with the whole serving path in front of its route
// GET /items/{id}, and the counter its metrics keep.
type stack struct {
	h        http.Handler
	requests func(route string) float64
}

// cairnStack is the stack built from cairn's packages.
func cairnStack(compressed bool) stack {
	reg := prometheus.NewRegistry()
	off := slog.New(slog.NewJSONHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelWarn}))
	r := cairn.New()
	r.PopulatePathValues(false)
	r.UseBeforeRouting(middleware.RequestID(nil))
	r.Use(
		middleware.Logger(off, nil),
		metrics.New(&metrics.Options{Registerer: reg}),
		middleware.Recover(&middleware.RecoverOptions{Logger: off}),
	)
	if compressed {
		r.Use(compress.New(&compress.Options{GzipLevel: level}))
	}
	r.HandleFunc("GET /items/{id}", func(w http.ResponseWriter, req *http.Request) {
		_ = cairn.Param(req, "id")
		jsonHandler(stackBody)(w, req)
	})
	return stack{h: r, requests: func(route string) float64 {
		return gatherCounter(reg, "http_server_requests_total", "route", route)
	}}
}

// routeMetrics is the usual hand-written Prometheus middleware of chi and
// gorilla services: a counter, a histogram and an in-flight gauge labelled
// by method, route template and status class, the route read from the
// router after the handler.
type routeMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	inFlight prometheus.Gauge
}

func newRouteMetrics(reg prometheus.Registerer) *routeMetrics {
	m := &routeMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "http_server_requests_total"}, []string{"method", "route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "http_server_request_duration_seconds"}, []string{"method", "route", "status"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{Name: "http_server_requests_in_flight"}),
	}
	reg.MustRegister(m.requests, m.duration, m.inFlight)
	return m
}

// observe records a request that took seconds.
func (m *routeMetrics) observe(method, route string, status int, seconds float64) {
	class := fmt.Sprintf("%dxx", status/100)
	m.requests.WithLabelValues(method, route, class).Inc()
	m.duration.WithLabelValues(method, route, class).Observe(seconds)
}

// chiStack is the stack built from chi's middleware. chi's Logger has no
// level to turn off, so the stack has none: chi gets logging for free.
func chiStack(compressed bool) stack {
	reg := prometheus.NewRegistry()
	m := newRouteMetrics(reg)
	r := chi.NewRouter()
	r.Use(chimw.RequestID, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			m.inFlight.Inc()
			defer m.inFlight.Dec()
			start := nowSeconds()
			ww := chimw.NewWrapResponseWriter(w, req.ProtoMajor)
			next.ServeHTTP(ww, req)
			m.observe(req.Method, chi.RouteContext(req.Context()).RoutePattern(), ww.Status(), nowSeconds()-start)
		})
	}, chimw.Recoverer)
	if compressed {
		r.Use(chimw.Compress(level))
	}
	r.Get("/items/{id}", func(w http.ResponseWriter, req *http.Request) {
		_ = chi.URLParam(req, "id")
		jsonHandler(stackBody)(w, req)
	})
	return stack{h: r, requests: func(route string) float64 {
		return gatherCounter(reg, "http_server_requests_total", "route", route)
	}}
}

// gorillaStack is the stack built from gorilla's mux and handlers.
// gorilla has no request ID middleware and its LoggingHandler no level, so
// the stack has neither.
func gorillaStack(compressed bool) stack {
	reg := prometheus.NewRegistry()
	m := newRouteMetrics(reg)
	r := mux.NewRouter()
	r.HandleFunc("/items/{id}", func(w http.ResponseWriter, req *http.Request) {
		_ = mux.Vars(req)["id"]
		jsonHandler(stackBody)(w, req)
	}).Methods("GET")
	r.Use(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			m.inFlight.Inc()
			defer m.inFlight.Dec()
			start := nowSeconds()
			sw := &statusWriter{ResponseWriter: w, code: http.StatusOK}
			next.ServeHTTP(sw, req)
			route, _ := mux.CurrentRoute(req).GetPathTemplate()
			m.observe(req.Method, route, sw.code, nowSeconds()-start)
		})
	})
	var h http.Handler = r
	if compressed {
		h = handlers.CompressHandlerLevel(r, level)
	}
	h = handlers.RecoveryHandler()(h)
	return stack{h: h, requests: func(route string) float64 {
		return gatherCounter(reg, "http_server_requests_total", "route", route)
	}}
}

// nowSeconds returns the monotonic time in seconds, for durations.
func nowSeconds() float64 { return float64(time.Since(epoch)) / float64(time.Second) }

var epoch = time.Now()

// statusWriter records the status code for the gorilla stack's metrics.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) { w.code = code; w.ResponseWriter.WriteHeader(code) }

// gatherCounter returns the sum of the counter name's series whose label
// has the value value.
func gatherCounter(reg *prometheus.Registry, name, label, value string) float64 {
	mfs, err := reg.Gather()
	if err != nil {
		panic(err)
	}
	var sum float64
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, lp := range m.GetLabel() {
				if lp.GetName() == label && lp.GetValue() == value {
					sum += m.GetCounter().GetValue()
				}
			}
		}
	}
	return sum
}

func TestStacks(t *testing.T) {
	for _, tt := range []struct {
		name  string
		s     stack
		route string
		id    bool
	}{
		{"cairn", cairnStack(true), "GET /items/{id}", true},
		{"chi", chiStack(true), "/items/{id}", false},
		{"gorilla", gorillaStack(true), "/items/{id}", false},
	} {
		req := httptest.NewRequest("GET", "/items/7", nil)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		tt.s.h.ServeHTTP(rec, req)
		if rec.Code != 200 || !bytes.Equal(decode(t, rec), stackBody) {
			t.Errorf("%s: %d, the body does not decode to the handler's", tt.name, rec.Code)
		}
		if rec.Header().Get("Content-Encoding") != "gzip" {
			t.Errorf("%s: not compressed", tt.name)
		}
		if tt.id && rec.Header().Get("X-Request-Id") == "" {
			t.Errorf("%s: no request ID", tt.name)
		}
		if got := tt.s.requests(tt.route); got != 1 {
			t.Errorf("%s: %v requests counted for %q, want 1", tt.name, got, tt.route)
		}
	}
}

func BenchmarkStack(b *testing.B) {
	for _, compressed := range []bool{true, false} {
		for _, tt := range []struct {
			name string
			s    func(compressed bool) stack
		}{{"cairn", cairnStack}, {"chi", chiStack}, {"gorilla", gorillaStack}} {
			name := tt.name + "/compressed"
			if !compressed {
				name = tt.name + "/uncompressed"
			}
			b.Run(name, func(b *testing.B) {
				h := tt.s(compressed).h
				req := httptest.NewRequest("GET", "/items/7", nil)
				accept := []string{"gzip"}
				w := &servingWriter{h: make(http.Header)}
				b.ReportAllocs()
				for b.Loop() {
					w.reset()
					// gorilla's compressor deletes the header from the
					// request it was given.
					req.Header["Accept-Encoding"] = accept
					h.ServeHTTP(w, req)
				}
			})
		}
	}
}
