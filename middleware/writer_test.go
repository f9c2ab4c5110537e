package middleware_test

import (
	"bufio"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/cairn-go/cairn/middleware"
)

func TestAcquireShares(t *testing.T) {
	rec := httptest.NewRecorder()
	wr, owned := middleware.Acquire(rec)
	if !owned {
		t.Fatal("Acquire of a recorder: owned = false, want true")
	}
	again, owned2 := middleware.Acquire(wr)
	if again != wr || owned2 {
		t.Fatalf("Acquire of a Writer: got %p, %v; want %p, false", again, owned2, wr)
	}
	wr.Release()
}

func TestWriterRecords(t *testing.T) {
	for _, tt := range []struct {
		name       string
		h          func(w http.ResponseWriter)
		wantStatus int
		wantBytes  int64
		wantBody   string
		wantSent   bool
	}{
		{"nothing written", func(w http.ResponseWriter) {}, 200, 0, "", false},
		{"write", func(w http.ResponseWriter) { io.WriteString(w, "hello") }, 200, 5, "hello", true},
		{"status", func(w http.ResponseWriter) { w.WriteHeader(404); w.Write([]byte("no")) }, 404, 2, "no", true},
		{"second status ignored", func(w http.ResponseWriter) { w.WriteHeader(201); w.WriteHeader(500) }, 201, 0, "", true},
		{"informational first", func(w http.ResponseWriter) { w.WriteHeader(103); w.WriteHeader(204) }, 204, 0, "", true},
		{"read from", func(w http.ResponseWriter) { w.(io.ReaderFrom).ReadFrom(strings.NewReader("abc")) }, 200, 3, "abc", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			wr, _ := middleware.Acquire(rec)
			defer wr.Release()
			tt.h(wr)
			if got := wr.Status(); got != tt.wantStatus {
				t.Errorf("Status() = %d, want %d", got, tt.wantStatus)
			}
			if got := wr.Written(); got != tt.wantBytes {
				t.Errorf("Written() = %d, want %d", got, tt.wantBytes)
			}
			if got := wr.Sent(); got != tt.wantSent {
				t.Errorf("Sent() = %v, want %v", got, tt.wantSent)
			}
			if got := rec.Body.String(); got != tt.wantBody {
				t.Errorf("body = %q, want %q", got, tt.wantBody)
			}
			if tt.wantSent && rec.Code != tt.wantStatus && rec.Code != 103 { // the recorder keeps a 1xx code
				t.Errorf("recorded code = %d, want %d", rec.Code, tt.wantStatus)
			}
		})
	}
}

// upper is a Filter that upper-cases the body and holds it until Flush or
// the end, to test the Writer's calls into a filter.
type upper struct {
	w    *middleware.Writer
	code int
	buf  []byte
}

func (u *upper) WriteHeader(code int) { u.code = code }
func (u *upper) Write(p []byte) (int, error) {
	u.buf = append(u.buf, strings.ToUpper(string(p))...)
	return len(p), nil
}
func (u *upper) Reset()       { u.code, u.buf = 0, nil }
func (u *upper) Flush() error { return u.end() }
func (u *upper) end() error {
	if !u.w.Sent() {
		u.w.SendHeader(u.code)
	}
	_, err := u.w.SendBody(u.buf)
	u.buf = u.buf[:0]
	return err
}

func TestWriterFilter(t *testing.T) {
	rec := httptest.NewRecorder()
	wr, _ := middleware.Acquire(rec)
	defer wr.Release()
	f := &upper{w: wr}
	if old := wr.SetFilter(f); old != nil {
		t.Fatalf("SetFilter on a new Writer returned %v, want nil", old)
	}
	wr.WriteHeader(202)
	io.WriteString(wr, "abc")
	if wr.Sent() {
		t.Fatal("Sent() = true while the filter holds the header")
	}
	wr.Write([]byte("def"))
	if err := f.end(); err != nil {
		t.Fatal(err)
	}
	wr.SetFilter(nil)
	if rec.Code != 202 || rec.Body.String() != "ABCDEF" {
		t.Errorf("got %d %q, want 202 \"ABCDEF\"", rec.Code, rec.Body.String())
	}
	if wr.Written() != 6 {
		t.Errorf("Written() = %d, want 6 (bytes before the filter)", wr.Written())
	}
}

func TestWriterResponseController(t *testing.T) {
	flushed := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		wr, owned := middleware.Acquire(w)
		if owned {
			defer wr.Release()
		}
		rc := http.NewResponseController(wr)
		io.WriteString(wr, "first\n")
		if err := rc.Flush(); err != nil {
			t.Errorf("Flush through the Writer: %v", err)
		}
		<-flushed
		io.WriteString(wr, "second\n")
	}))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	line, err := br.ReadString('\n')
	if err != nil || line != "first\n" {
		t.Fatalf("before the handler returned: got %q, %v; want the flushed line", line, err)
	}
	close(flushed)
	rest, _ := io.ReadAll(br)
	if string(rest) != "second\n" {
		t.Errorf("rest = %q", rest)
	}
}

func TestWriterHijack(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		wr, owned := middleware.Acquire(w)
		if owned {
			defer wr.Release()
		}
		conn, buf, err := http.NewResponseController(wr).Hijack()
		if err != nil {
			t.Errorf("Hijack through the Writer: %v", err)
			return
		}
		defer conn.Close()
		buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi")
		buf.Flush()
		if !wr.Hijacked() || wr.Status() != 0 {
			t.Errorf("after Hijack: Hijacked() = %v, Status() = %d; want true, 0", wr.Hijacked(), wr.Status())
		}
	}))
	defer srv.Close()
	if _, body := getBody(t, srv.URL); body != "hi" {
		t.Errorf("body = %q, want \"hi\"", body)
	}

	// A recorder cannot be hijacked: the error says so.
	wr, _ := middleware.Acquire(httptest.NewRecorder())
	defer wr.Release()
	if _, _, err := wr.Hijack(); !errors.Is(err, http.ErrNotSupported) {
		t.Errorf("Hijack of a recorder: %v, want http.ErrNotSupported", err)
	}
	var _ net.Conn
}

func TestWriterAllocs(t *testing.T) {
	d := newDiscard()
	body := []byte("hello")
	allocs := testing.AllocsPerRun(100, func() {
		d.reset()
		wr, _ := middleware.Acquire(d)
		wr.WriteHeader(200)
		wr.Write(body)
		wr.Release()
	})
	if allocs != 0 {
		t.Errorf("Acquire, write, Release: %v allocations, want 0", allocs)
	}
}

// failingReader fails on its first read, having read nothing.
type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("upstream reset") }

// readOnly hides the WriteTo method of a reader, so that io.Copy calls the
// Writer's ReadFrom.
type readOnly struct{ io.Reader }

// noFlush is a ResponseWriter with neither a flush method nor Unwrap, as
// http.TimeoutHandler's is.
type noFlush struct{ http.ResponseWriter }

// TestWriterSendsNothingItCannot checks, through a real server, that a
// copy whose source fails before it yields a byte, and a flush that the
// ResponseWriter under the Writer cannot do, leave the status to the
// handler, as they do without a Writer: the handler answers 502 and 501.
func TestWriterSendsNothingItCannot(t *testing.T) {
	for _, tt := range []struct {
		name string
		wrap func(http.ResponseWriter) http.ResponseWriter
		h    func(w http.ResponseWriter)
		code int
		body string
	}{
		{"copy that fails at once", nil, func(w http.ResponseWriter) {
			if _, err := io.Copy(w, failingReader{}); err != nil {
				http.Error(w, "bad gateway", http.StatusBadGateway)
			}
		}, http.StatusBadGateway, "bad gateway\n"},
		{"copy of nothing", nil, func(w http.ResponseWriter) {
			io.Copy(w, readOnly{strings.NewReader("")})
			w.WriteHeader(http.StatusNoContent)
		}, http.StatusNoContent, ""},
		{"copy that fails later", nil, func(w http.ResponseWriter) {
			io.Copy(w, readOnly{io.MultiReader(strings.NewReader("partial"), failingReader{})})
		}, http.StatusOK, "partial"},
		{"copy through a filter", nil, func(w http.ResponseWriter) {
			w.(*middleware.Writer).SetFilter(&passFilter{w: w.(*middleware.Writer)})
			if _, err := io.Copy(w, failingReader{}); err != nil {
				http.Error(w, "bad gateway", http.StatusBadGateway)
			}
		}, http.StatusBadGateway, "bad gateway\n"},
		{"flush that cannot be done", func(w http.ResponseWriter) http.ResponseWriter { return noFlush{w} }, func(w http.ResponseWriter) {
			if err := http.NewResponseController(w).Flush(); !errors.Is(err, http.ErrNotSupported) {
				t.Errorf("Flush: %v, want ErrNotSupported", err)
			}
			http.Error(w, "streaming unsupported", http.StatusNotImplemented)
		}, http.StatusNotImplemented, "streaming unsupported\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tt.wrap != nil {
					w = tt.wrap(w)
				}
				wr, owned := middleware.Acquire(w)
				if owned {
					defer wr.Release()
				}
				tt.h(wr)
			}))
			defer srv.Close()
			if code, body := getBody(t, srv.URL); code != tt.code || body != tt.body {
				t.Errorf("got %d %q, want %d %q", code, body, tt.code, tt.body)
			}
		})
	}
}

// passFilter is a Filter that passes everything on.
type passFilter struct{ w *middleware.Writer }

func (f *passFilter) WriteHeader(code int)        { f.w.SendHeader(code) }
func (f *passFilter) Write(p []byte) (int, error) { return f.w.SendBody(p) }
func (f *passFilter) Flush() error                { return nil }
func (f *passFilter) Reset()                      {}

// getBody sends a GET for url and returns the status and the body.
func getBody(tb testing.TB, url string) (int, string) {
	tb.Helper()
	resp, err := http.Get(url)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

// TestWriterFlusherOnlyWhereFlushWorks checks that the middleware hand
// their handlers an http.Flusher exactly where flushing works, as
// net/http's own writers are one or not: a streaming handler that checks
// for one answers that it cannot stream, instead of streaming nothing
// until it returns. The handlers after them still share one Writer.
func TestWriterFlusherOnlyWhereFlushWorks(t *testing.T) {
	stack := func(h http.Handler) http.Handler {
		return middleware.RequestID(nil)(middleware.Recover(nil)(h))
	}
	for _, tt := range []struct {
		name      string
		around    func(http.Handler) http.Handler
		wantFlush bool
	}{
		{"server's writer", func(h http.Handler) http.Handler { return h }, true},
		{"a wrapper without Flush", func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(noFlush{w}, r) })
		}, false},
		{"http.TimeoutHandler", func(h http.Handler) http.Handler {
			return http.TimeoutHandler(h, 10*time.Second, "timeout")
		}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var outer *middleware.Writer
			var flusher, shared bool
			var flushErr error
			srv := httptest.NewServer(tt.around(middleware.Logger(slog.New(slog.NewTextHandler(io.Discard, nil)), nil)(
				http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					outer, _ = middleware.Acquire(w)
					stack(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
						_, flusher = w.(http.Flusher)
						flushErr = http.NewResponseController(w).Flush()
						inner, owned := middleware.Acquire(w)
						shared = inner == outer && !owned
						if owned {
							inner.Release()
						}
						io.WriteString(w, "ok")
					})).ServeHTTP(w, r)
				}))))
			defer srv.Close()
			if code, body := getBody(t, srv.URL); code != http.StatusOK || body != "ok" {
				t.Fatalf("got %d %q, want 200 \"ok\"", code, body)
			}
			if flusher != tt.wantFlush {
				t.Errorf("the handler's writer is an http.Flusher: %v, want %v", flusher, tt.wantFlush)
			}
			if (flushErr == nil) != tt.wantFlush || !tt.wantFlush && !errors.Is(flushErr, http.ErrNotSupported) {
				t.Errorf("ResponseController.Flush: %v", flushErr)
			}
			if !shared {
				t.Error("the handler's writer is not the Writer the outer middleware acquired")
			}
		})
	}
}

// unwrapOnly is a wrapper of another kind of middleware (as httpsnoop's):
// it unwraps to the writer it wraps, and has no Flush of its own.
type unwrapOnly struct{ http.ResponseWriter }

func (u unwrapOnly) Unwrap() http.ResponseWriter { return u.ResponseWriter }

// TestWriterNoFlushThroughAnotherWrapper checks that the view without
// Flush stays without it when a wrapper of another kind sits between two
// cairn middleware, under an http.TimeoutHandler, which cannot flush: the
// handler sees no http.Flusher, its flush fails and sends nothing, and
// the status it then sets is the one the client gets.
func TestWriterNoFlushThroughAnotherWrapper(t *testing.T) {
	var flusher bool
	var flushErr error
	h := middleware.RequestID(nil)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		middleware.Logger(slog.New(slog.NewTextHandler(io.Discard, nil)), nil)(
			http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, flusher = w.(http.Flusher)
				flushErr = http.NewResponseController(w).Flush()
				http.Error(w, "cannot stream", http.StatusNotImplemented)
			})).ServeHTTP(unwrapOnly{w}, r)
	}))
	srv := httptest.NewServer(http.TimeoutHandler(h, 10*time.Second, "timeout"))
	defer srv.Close()
	if code, body := getBody(t, srv.URL); code != http.StatusNotImplemented || body != "cannot stream\n" {
		t.Errorf("got %d %q, want 501 \"cannot stream\\n\"", code, body)
	}
	if flusher || !errors.Is(flushErr, http.ErrNotSupported) {
		t.Errorf("the handler's writer is an http.Flusher: %v, its flush gave %v; want false, ErrNotSupported", flusher, flushErr)
	}
}

// TestWriterAfterHijack checks that a write after a hijack fails with
// http.ErrHijacked and is not recorded, as net/http's writer does, with
// and without a filter that would hold the bytes: the logger reports no
// status for a connection that got none.
func TestWriterAfterHijack(t *testing.T) {
	for _, filtered := range []bool{false, true} {
		var n int
		var werr, serr, rerr error
		var status int
		var written int64
		done := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer close(done)
			wr, owned := middleware.Acquire(w)
			if owned {
				defer wr.Release()
			}
			if filtered {
				wr.SetFilter(&holdAll{w: wr})
			}
			conn, _, err := wr.Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			defer conn.Close()
			wr.WriteHeader(http.StatusTeapot)
			n, werr = wr.Write([]byte("late"))
			_, serr = wr.WriteString("late")
			_, rerr = wr.ReadFrom(strings.NewReader("late"))
			status, written = wr.Status(), wr.Written()
		}))
		resp, err := srv.Client().Get(srv.URL)
		if err == nil {
			resp.Body.Close()
		}
		<-done // Close does not wait for hijacked connections
		srv.Close()
		if n != 0 || !errors.Is(werr, http.ErrHijacked) || !errors.Is(serr, http.ErrHijacked) || !errors.Is(rerr, http.ErrHijacked) || status != 0 || written != 0 {
			t.Errorf("filter %v: Write gave %d, %v; WriteString %v; ReadFrom %v; status %d, written %d; want 0, ErrHijacked thrice, 0, 0",
				filtered, n, werr, serr, rerr, status, written)
		}
	}
}

// holdAll is a Filter that holds the status and the body and sends
// nothing, as a compressor does before it decides.
type holdAll struct {
	w    *middleware.Writer
	code int
	body []byte
}

func (f *holdAll) WriteHeader(code int)        { f.code = code }
func (f *holdAll) Write(p []byte) (int, error) { f.body = append(f.body, p...); return len(p), nil }
func (f *holdAll) Flush() error                { return nil }
func (f *holdAll) Reset()                      { f.code, f.body = 0, nil }

// heldHeader is a Filter that holds the status until Flush, which sends
// it marked "flush"; with detach set, it also has Detach, which sends it
// marked "detach".
type heldHeader struct {
	w    *middleware.Writer
	code int
}

func (f *heldHeader) WriteHeader(code int) { f.code = code }
func (f *heldHeader) Write(p []byte) (int, error) {
	return len(p), nil
}
func (f *heldHeader) Flush() error { return f.send("flush") }
func (f *heldHeader) Reset()       { f.code = 0 }
func (f *heldHeader) send(how string) error {
	if f.code != 0 && !f.w.Sent() {
		f.w.Header().Set("X-Sent-By", how)
		f.w.SendHeader(f.code)
	}
	return nil
}

// detachingHeader is heldHeader with Detach.
type detachingHeader struct{ heldHeader }

func (f *detachingHeader) Detach() error { return f.send("detach") }

// TestWriterHijackSendsHeldStatus checks that a status a filter holds
// goes to the client before a hijack: through the filter's Detach if it
// has one, and otherwise through its Flush.
func TestWriterHijackSendsHeldStatus(t *testing.T) {
	for _, tt := range []struct {
		name   string
		filter func(*middleware.Writer) middleware.Filter
		want   string
	}{
		{"Flush", func(w *middleware.Writer) middleware.Filter { return &heldHeader{w: w} }, "flush"},
		{"Detach", func(w *middleware.Writer) middleware.Filter { return &detachingHeader{heldHeader{w: w}} }, "detach"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan struct{})
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				defer close(done)
				wr, owned := middleware.Acquire(w)
				if owned {
					defer wr.Release()
				}
				wr.SetFilter(tt.filter(wr))
				wr.WriteHeader(http.StatusAccepted)
				conn, buf, err := wr.Hijack()
				if err != nil {
					t.Error(err)
					return
				}
				defer conn.Close()
				buf.WriteString("TUNNEL")
				buf.Flush()
			}))
			defer srv.Close()
			conn, err := net.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			conn.SetDeadline(time.Now().Add(10 * time.Second))
			io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			<-done
			if err != nil {
				t.Fatalf("no response before the tunnel: %v", err)
			}
			if resp.StatusCode != http.StatusAccepted || resp.Header.Get("X-Sent-By") != tt.want {
				t.Errorf("got %d sent by %q, want 202 sent by %q", resp.StatusCode, resp.Header.Get("X-Sent-By"), tt.want)
			}
		})
	}
}
