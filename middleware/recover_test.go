package middleware_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cairn-go/cairn/middleware"
)

func TestRecover(t *testing.T) {
	jsonError := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, `{"error":"internal"}`)
	})
	for _, tt := range []struct {
		name     string
		h        http.HandlerFunc
		answer   http.Handler
		wantCode int
		wantBody string
		wantType string
	}{
		{
			name:     "panic before writing",
			h:        func(w http.ResponseWriter, r *http.Request) { panic("boom") },
			wantCode: 500, wantBody: "Internal Server Error\n", wantType: "text/plain; charset=utf-8",
		},
		{
			name: "headers set, nothing sent",
			h: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Length", "100")
				w.Header().Set("Etag", `"v1"`)
				panic(errors.New("boom"))
			},
			wantCode: 500, wantBody: "Internal Server Error\n", wantType: "text/plain; charset=utf-8",
		},
		{
			name:     "replaced answer",
			h:        func(w http.ResponseWriter, r *http.Request) { panic("boom") },
			answer:   jsonError,
			wantCode: 500, wantBody: `{"error":"internal"}`, wantType: "application/json",
		},
		{
			name:     "no panic",
			h:        func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "fine") },
			wantCode: 200, wantBody: "fine", wantType: "", // the recorder sniffs only when Write sends the header
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			l := slog.New(slog.NewJSONHandler(&buf, nil))
			h := middleware.Recover(&middleware.RecoverOptions{Logger: l, Handler: tt.answer})(tt.h)
			rec := serve(t, h, httptest.NewRequest("GET", "/x", nil))
			if rec.Code != tt.wantCode || rec.Body.String() != tt.wantBody || rec.Header().Get("Content-Type") != tt.wantType {
				t.Errorf("got %d %q %q, want %d %q %q", rec.Code, rec.Body.String(), rec.Header().Get("Content-Type"), tt.wantCode, tt.wantBody, tt.wantType)
			}
			if rec.Header().Get("Etag") != "" || rec.Header().Get("Content-Length") != "" {
				t.Errorf("headers of the failed response kept: %v", rec.Header())
			}
			if tt.wantCode != 500 {
				if buf.Len() != 0 {
					t.Errorf("logged without a panic: %s", buf.String())
				}
				return
			}
			var m map[string]any
			if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
				t.Fatalf("record %q: %v", buf.String(), err)
			}
			if m["level"] != "ERROR" || m["panic"] != "boom" || m["answered"] != true || !strings.Contains(m["stack"].(string), "recover_test.go") {
				t.Errorf("record = %v", m)
			}
		})
	}
}

// TestRecoverAfterSending checks that a panic after the response started
// aborts the connection: the client sees an error, not a truncated body
// that looks whole, and the server keeps serving.
func TestRecoverAfterSending(t *testing.T) {
	var buf syncBuffer
	l := slog.New(slog.NewJSONHandler(&buf, nil))
	mux := http.NewServeMux()
	mux.HandleFunc("/late", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000")
		io.WriteString(w, "partial")
		http.NewResponseController(w).Flush()
		panic("late")
	})
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	srv := httptest.NewUnstartedServer(middleware.Recover(&middleware.RecoverOptions{Logger: l})(mux))
	srv.Config.ErrorLog = nil
	srv.Start()
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/late")
	if err == nil {
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("status = %d, want the 200 already sent", resp.StatusCode)
		}
	}
	if err == nil {
		t.Error("reading the aborted response: no error")
	}
	if !strings.Contains(buf.String(), `"answered":false`) {
		t.Errorf("record = %s, want answered false", buf.String())
	}
	resp, err = http.Get(srv.URL + "/ok")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "ok" {
		t.Errorf("after the abort: %q", body)
	}
}

func TestRecoverAbortHandler(t *testing.T) {
	var buf bytes.Buffer
	h := middleware.Recover(&middleware.RecoverOptions{Logger: slog.New(slog.NewJSONHandler(&buf, nil))})(
		http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) }))
	defer func() {
		if v := recover(); v != http.ErrAbortHandler {
			t.Errorf("recovered %v, want http.ErrAbortHandler passed through", v)
		}
		if buf.Len() != 0 {
			t.Errorf("ErrAbortHandler logged: %s", buf.String())
		}
	}()
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
}

func TestRecoverAllocs(t *testing.T) {
	h := middleware.Recover(nil)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }))
	d := newDiscard()
	req := httptest.NewRequest("GET", "/", nil)
	if allocs := testing.AllocsPerRun(100, func() { d.reset(); h.ServeHTTP(d, req) }); allocs != 0 {
		t.Errorf("Recover without a panic: %v allocations, want 0", allocs)
	}
}

// TestRecoverKeepsOuterEncoding checks that a Content-Encoding set by a
// compressor around Recover survives the 500, while one the handler set
// goes.
func TestRecoverKeepsOuterEncoding(t *testing.T) {
	for _, tt := range []struct {
		name  string
		outer bool
		want  string
	}{{"set by an outer compressor", true, "gzip"}, {"set by the handler", false, ""}} {
		var h http.Handler = middleware.Recover(&middleware.RecoverOptions{Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))})(
			http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Encoding", "gzip")
				panic("boom")
			}))
		if tt.outer {
			inner := h
			h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Encoding", "gzip")
				inner.ServeHTTP(w, r)
			})
		}
		rec := serve(t, h, httptest.NewRequest("GET", "/", nil))
		if got := rec.Header().Get("Content-Encoding"); rec.Code != 500 || got != tt.want {
			t.Errorf("%s: %d with Content-Encoding %q, want 500 with %q", tt.name, rec.Code, got, tt.want)
		}
	}
}
