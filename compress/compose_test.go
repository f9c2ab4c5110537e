package compress

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/cairn-go/cairn"
	"github.com/cairn-go/cairn/middleware"
)

func TestRouter(t *testing.T) {
	r := cairn.New()
	r.Use(New(nil))
	r.HandleFunc("GET /users", writeJSON(big))

	api := r.Group("/api", New(&Options{Encodings: []string{"gzip"}}))
	api.HandleFunc("GET /items", writeJSON(big))

	plain := cairn.New() // a router for routes without the router-wide compressor
	plain.HandleFunc("GET /raw", writeJSON(big))
	plain.Group("/grp", New(nil)).HandleFunc("GET /items", writeJSON(big))

	sub := cairn.New()
	sub.HandleFunc("GET /things", writeJSON(big))
	r.Mount("/sub", sub)

	inner := cairn.New()
	inner.Use(New(nil)) // under the outer one: compresses nothing twice
	inner.HandleFunc("GET /things", writeJSON(big))
	r.Mount("/inner", inner)

	plain.Mount("/mounted", inner)

	for _, tt := range []struct {
		h      http.Handler
		path   string
		ae     string
		wantCE string
	}{
		{r, "/users", "zstd, gzip", "zstd"},
		{r, "/api/items", "zstd, gzip", "zstd"}, // the router's compressor, outside the group's, wins
		{r, "/sub/things", "gzip", "gzip"},
		{r, "/inner/things", "zstd", "zstd"},
		{plain, "/raw", "gzip", ""},
		{plain, "/grp/items", "gzip", "gzip"},
		{plain, "/mounted/things", "zstd", "zstd"},
	} {
		rec := serve(t, tt.h, newRequestPath(tt.path, tt.ae))
		if rec.Code != 200 || rec.Header().Get("Content-Encoding") != tt.wantCE {
			t.Errorf("%s: got %d %q, want 200 %q", tt.path, rec.Code, rec.Header().Get("Content-Encoding"), tt.wantCE)
			continue
		}
		if got := decode(t, tt.wantCE, rec.Body.Bytes()); !bytes.Equal(got, big) {
			t.Errorf("%s: the body, decoded once, differs", tt.path)
		}
	}

	// The router's own answers go through the compressor too: a 404
	// page is small, and text, so it gets Vary only.
	rec := serve(t, r, newRequestPath("/nothing", "gzip"))
	if rec.Code != 404 || rec.Header().Get("Content-Encoding") != "" || rec.Header().Get("Vary") != "Accept-Encoding" {
		t.Errorf("404: got %d, Content-Encoding %q, Vary %q", rec.Code, rec.Header().Get("Content-Encoding"), rec.Header().Get("Vary"))
	}
}

// newRequestPath returns a GET request for path with the Accept-Encoding ae.
func newRequestPath(path, ae string) *http.Request {
	r := newRequest(http.MethodGet, ae)
	r.URL.Path, r.RequestURI = path, path
	return r
}

func TestNested(t *testing.T) {
	h := New(nil)(New(&Options{Encodings: []string{"gzip"}})(writeJSON(big)))
	rec := serve(t, h, newRequest(http.MethodGet, "gzip, zstd"))
	if ce := rec.Header().Get("Content-Encoding"); ce != "zstd" {
		t.Fatalf("Content-Encoding %q, want the outer compressor's zstd", ce)
	}
	if got := decode(t, "zstd", rec.Body.Bytes()); !bytes.Equal(got, big) {
		t.Error("the body, decoded once, differs")
	}
}

// acquire returns middleware that takes the shared Writer first, as the
// middleware package's do, and hands it to check once next has returned.
func acquire(check func(wr *middleware.Writer)) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			wr, owned := middleware.Acquire(w)
			if owned {
				defer wr.Release()
			}
			next.ServeHTTP(wr, r)
			check(wr)
		})
	}
}

func TestSharedWriter(t *testing.T) {
	var outer *middleware.Writer
	var seen http.ResponseWriter
	h := acquire(func(wr *middleware.Writer) {
		outer = wr
		if wr.Filter() != nil {
			t.Error("the compressor left its filter in the Writer")
		}
		if wr.Status() != 200 || wr.Written() != int64(len(big)) {
			t.Errorf("Status %d, Written %d; want 200 and %d, the uncompressed size", wr.Status(), wr.Written(), len(big))
		}
		if !wr.Sent() {
			t.Error("Sent() = false after a compressed response")
		}
	})(New(nil)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = w
		writeJSON(big)(w, r)
	})))
	rec := serve(t, h, newRequest(http.MethodGet, "gzip"))
	if rec.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("Content-Encoding %q, want gzip", rec.Header().Get("Content-Encoding"))
	}
	if got := decode(t, "gzip", rec.Body.Bytes()); !bytes.Equal(got, big) {
		t.Error("the decoded body differs")
	}
	if seen != http.ResponseWriter(outer) {
		t.Errorf("the handler wrote to %T %p, not the outer middleware's Writer %p", seen, seen, outer)
	}
}

func TestRecover(t *testing.T) {
	quiet := slog.New(slog.DiscardHandler)
	for _, tt := range []struct {
		name     string
		inside   bool // Recover inside the compressor rather than outside
		before   []byte
		wantCode int
		wantCE   string
		abort    bool // the response was under way: Recover aborts it
	}{
		{"outside, nothing written", false, nil, 500, "", false},
		{"outside, small part held", false, small, 500, "", false},
		{"outside, compressed part sent", false, big, 0, "", true},
		{"inside, nothing written", true, nil, 500, "", false},
		{"inside, small part held", true, small, 500, "", false},
		{"inside, compressed part sent", true, big, 0, "", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			panicky := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("Etag", `"v1"`)
				w.Write(tt.before)
				panic("boom")
			})
			recoverer := middleware.Recover(&middleware.RecoverOptions{Logger: quiet})
			var h http.Handler
			if tt.inside {
				h = New(nil)(recoverer(panicky))
			} else {
				h = recoverer(New(nil)(panicky))
			}
			h = acquire(func(wr *middleware.Writer) {
				if wr.Filter() != nil {
					t.Error("a filter is left in the Writer")
				}
			})(h)
			rec := httptest.NewRecorder()
			func() {
				defer func() {
					v := recover()
					if aborted := v == http.ErrAbortHandler; aborted != tt.abort {
						t.Errorf("panic %v; want http.ErrAbortHandler: %v", v, tt.abort)
					}
				}()
				h.ServeHTTP(rec, newRequest(http.MethodGet, "gzip"))
			}()
			if tt.abort {
				return
			}
			if rec.Code != tt.wantCode || rec.Header().Get("Content-Encoding") != tt.wantCE {
				t.Errorf("got %d %q, want %d %q", rec.Code, rec.Header().Get("Content-Encoding"), tt.wantCode, tt.wantCE)
			}
			if body := rec.Body.String(); body != "Internal Server Error\n" {
				t.Errorf("body %q, want the 500 alone", body)
			}
		})
	}
}

func TestStepsAside(t *testing.T) {
	for _, tt := range []struct {
		name    string
		ae      string
		kv      []string
		wantOff bool // the handler writes to the ResponseWriter directly after WriteHeader
	}{
		{"image", "gzip", []string{"Content-Type", "image/png"}, true},
		{"not accepted", "-", []string{"Content-Type", "application/json"}, true},
		{"declared small", "gzip", []string{"Content-Type", "application/json", "Content-Length", "100"}, true},
		{"already encoded", "gzip", []string{"Content-Type", "application/json", "Content-Encoding", "br"}, true},
		{"declared large", "gzip", []string{"Content-Type", "application/json", "Content-Length", "4096"}, false},
		{"held", "gzip", []string{"Content-Type", "application/json"}, false},
		{"no type", "-", nil, false}, // held to sniff the type, for Vary
	} {
		h := New(nil)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			for i := 0; i < len(tt.kv); i += 2 {
				w.Header().Set(tt.kv[i], tt.kv[i+1])
			}
			w.WriteHeader(200)
			if off := w.(*middleware.Writer).Filter() == nil; off != tt.wantOff {
				t.Errorf("%s: filter removed after WriteHeader: %v, want %v", tt.name, off, tt.wantOff)
			}
		}))
		serve(t, h, newRequest(http.MethodGet, tt.ae))
	}
}
