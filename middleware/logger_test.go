package middleware_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/cairn-go/cairn"
	"github.com/cairn-go/cairn/middleware"
)

// records decodes the JSON lines of a slog.JSONHandler.
func records(tb testing.TB, buf *bytes.Buffer) []map[string]any {
	tb.Helper()
	var out []map[string]any
	dec := json.NewDecoder(buf)
	for dec.More() {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			tb.Fatalf("decoding a record: %v", err)
		}
		out = append(out, m)
	}
	return out
}

// loggedRouter returns a router that logs to buf, with a route, a group, a
// mounted router and a panicking route.
func loggedRouter(buf *bytes.Buffer) *cairn.Router {
	l := slog.New(slog.NewJSONHandler(buf, nil))
	r := cairn.New()
	r.UseBeforeRouting(middleware.RequestID(nil))
	r.Use(middleware.Logger(l, nil), middleware.Recover(&middleware.RecoverOptions{Logger: l}))
	r.HandleFunc("GET /items/{id}", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "item "+cairn.Param(r, "id"))
	})
	r.HandleFunc("GET /panic", func(w http.ResponseWriter, r *http.Request) { panic("boom") })
	api := r.Group("/api", func(next http.Handler) http.Handler { return next })
	api.HandleFunc("POST /things", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusCreated) })
	org := cairn.New()
	org.HandleFunc("GET /repos/{repo}", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "repo") })
	r.Mount("/orgs/{org}", org)
	return r
}

func TestLogger(t *testing.T) {
	for _, tt := range []struct {
		method, path string
		pattern      string
		status       float64
		bytes        float64
	}{
		{"GET", "/items/7", "GET /items/{id}", 200, 6},
		{"POST", "/api/things", "POST /api/things", 201, 0},
		{"GET", "/orgs/acme/repos/cairn", "GET /orgs/{org}/repos/{repo}", 200, 4},
		{"GET", "/nowhere", "", 404, 19},
		{"DELETE", "/items/7", "", 405, 19},
		{"GET", "/panic", "GET /panic", 500, 22},
	} {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			var buf bytes.Buffer
			r := loggedRouter(&buf)
			req := httptest.NewRequest(tt.method, tt.path, nil)
			req.RemoteAddr = "192.0.2.1:1234"
			rec := serve(t, r, req)
			var access map[string]any
			for _, rec := range records(t, &buf) {
				if rec["msg"] == "request" {
					access = rec
				}
			}
			if access == nil {
				t.Fatalf("no request record in %q", buf.String())
			}
			want := map[string]any{
				"method": tt.method, "path": tt.path, "pattern": tt.pattern,
				"status": tt.status, "bytes": tt.bytes,
				"request_id": rec.Header().Get("X-Request-Id"), "remote": "192.0.2.1:1234",
			}
			for k, v := range want {
				if access[k] != v {
					t.Errorf("%s = %v, want %v", k, access[k], v)
				}
			}
			if d, ok := access["duration"].(float64); !ok || d <= 0 {
				t.Errorf("duration = %v, want a positive number of nanoseconds", access["duration"])
			}
		})
	}
}

func TestLoggerLevel(t *testing.T) {
	var buf bytes.Buffer
	var level slog.LevelVar
	level.Set(slog.LevelInfo)
	l := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: &level}))
	h := middleware.Logger(l, &middleware.LoggerOptions{Level: slog.LevelDebug, Message: "served"})(http.NotFoundHandler())
	serve(t, h, httptest.NewRequest("GET", "/", nil))
	if buf.Len() != 0 {
		t.Errorf("debug record logged at level info: %q", buf.String())
	}
	level.Set(slog.LevelDebug)
	serve(t, h, httptest.NewRequest("GET", "/", nil))
	recs := records(t, &buf)
	if len(recs) != 1 || recs[0]["msg"] != "served" || recs[0]["level"] != "DEBUG" {
		t.Errorf("records = %v, want one DEBUG \"served\"", recs)
	}
}

func TestLoggerAllocs(t *testing.T) {
	l := slog.New(slog.NewJSONHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelWarn}))
	r := cairn.New()
	r.PopulatePathValues(false)
	r.Use(middleware.Logger(l, nil), middleware.Recover(nil))
	r.HandleFunc("GET /items/{id}", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })
	d := newDiscard()
	for _, path := range []string{"/items/7", "/nowhere"} {
		req := httptest.NewRequest("GET", path, nil)
		allocs := testing.AllocsPerRun(100, func() {
			d.reset()
			r.ServeHTTP(d, req)
		})
		if allocs != 0 {
			t.Errorf("%s with the logger's level off: %v allocations, want 0", path, allocs)
		}
	}
}

func BenchmarkLogger(b *testing.B) {
	for _, tt := range []struct {
		name  string
		level slog.Level
	}{{"off", slog.LevelWarn}, {"json", slog.LevelInfo}} {
		b.Run(tt.name, func(b *testing.B) {
			l := slog.New(slog.NewJSONHandler(io.Discard, &slog.HandlerOptions{Level: tt.level}))
			h := middleware.Logger(l, nil)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }))
			d := newDiscard()
			req := httptest.NewRequest("GET", "/items/7", nil)
			req.Pattern = "GET /items/{id}"
			b.ReportAllocs()
			for b.Loop() {
				d.reset()
				h.ServeHTTP(d, req)
			}
		})
	}
}

// TestLoggerAborted checks that a request whose handler panics without a
// Recover inside the Logger is logged before the panic goes on.
func TestLoggerAborted(t *testing.T) {
	for _, tt := range []struct {
		name       string
		h          http.HandlerFunc
		wantStatus float64
	}{
		{"nothing sent", func(w http.ResponseWriter, r *http.Request) { panic(http.ErrAbortHandler) }, 500},
		{"partly sent", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "partial")
			panic("late")
		}, 200},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			h := middleware.Logger(slog.New(slog.NewJSONHandler(&buf, nil)), nil)(tt.h)
			func() {
				defer func() { recover() }()
				serve(t, h, httptest.NewRequest("GET", "/x", nil))
			}()
			recs := records(t, &buf)
			if len(recs) != 1 || recs[0]["status"] != tt.wantStatus || recs[0]["aborted"] != true {
				t.Errorf("records = %v, want one with status %v and aborted true", recs, tt.wantStatus)
			}
		})
	}
}

// unwrapper is a response writer wrapper of another package, with Unwrap,
// as otelhttp's and gorilla's are.
type unwrapper struct{ http.ResponseWriter }

func (u unwrapper) Unwrap() http.ResponseWriter { return u.ResponseWriter }

// TestLoggerRequestIDThroughWrapper checks that the Logger finds the
// request ID when another package's wrapper sits between it and RequestID.
func TestLoggerRequestIDThroughWrapper(t *testing.T) {
	var buf bytes.Buffer
	wrap := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { next.ServeHTTP(unwrapper{w}, r) })
	}
	h := middleware.RequestID(nil)(wrap(middleware.Logger(slog.New(slog.NewJSONHandler(&buf, nil)), nil)(http.NotFoundHandler())))
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("X-Request-Id", "abc")
	rec := serve(t, h, req)
	recs := records(t, &buf)
	if len(recs) != 1 || recs[0]["request_id"] != "abc" || rec.Header().Get("X-Request-Id") != "abc" {
		t.Errorf("records = %v, response ID %q; want the ID abc in both", recs, rec.Header().Get("X-Request-Id"))
	}
}

// hijackRecorder is a recorder whose connection can be hijacked: the
// server's end of a pipe, whose other end is closed.
type hijackRecorder struct{ *httptest.ResponseRecorder }

func (h hijackRecorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, other := net.Pipe()
	other.Close()
	return c, bufio.NewReadWriter(bufio.NewReader(c), bufio.NewWriter(c)), nil
}

// TestLoggerAbortedAfterHijack checks that a handler that panics after it
// took the connection over is logged with the status it sent through the
// writer, 0 for none, not with the 500 of a response the server aborts:
// the client never gets one.
func TestLoggerAbortedAfterHijack(t *testing.T) {
	var buf bytes.Buffer
	h := middleware.Logger(slog.New(slog.NewJSONHandler(&buf, nil)), nil)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Errorf("Hijack: %v", err)
			return
		}
		conn.Close()
		panic("after the hijack")
	}))
	func() {
		defer func() { recover() }()
		h.ServeHTTP(hijackRecorder{httptest.NewRecorder()}, httptest.NewRequest("GET", "/ws", nil))
	}()
	recs := records(t, &buf)
	if len(recs) != 1 || recs[0]["status"] != 0.0 || recs[0]["aborted"] != true {
		t.Errorf("records = %v, want one with status 0 and aborted true", recs)
	}
}
