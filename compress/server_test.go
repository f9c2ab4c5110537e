package compress

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/textproto"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// get sends a GET request for url with the Accept-Encoding ae ("-" for
// none) and returns the response and its raw body.
func get(tb testing.TB, url, ae string, header ...string) (*http.Response, []byte) {
	tb.Helper()
	return send(tb, http.MethodGet, url, ae, header...)
}

// send is get for any method.
func send(tb testing.TB, method, url, ae string, header ...string) (*http.Response, []byte) {
	tb.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		tb.Fatal(err)
	}
	if ae != "-" {
		req.Header.Set("Accept-Encoding", ae)
	}
	for i := 0; i < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := rawClient().Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		tb.Fatal(err)
	}
	return res, body
}

func TestServer(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/big", writeJSON(big))
	mux.HandleFunc("/small", writeJSON(small))
	srv := httptest.NewServer(New(nil)(mux))
	defer srv.Close()
	for _, tt := range []struct {
		path, ae, wantCE string
		body             []byte
		wantLength       int64 // 0 for not checked
	}{
		{"/big", "gzip", "gzip", big, 0},
		{"/big", "zstd", "zstd", big, 0},
		{"/big", "gzip, deflate, br, zstd", "zstd", big, 0},
		{"/big", "-", "", big, 0},
		{"/small", "gzip", "", small, 100}, // sent as it is, and net/http counts it
	} {
		res, raw := get(t, srv.URL+tt.path, tt.ae)
		if ce := res.Header.Get("Content-Encoding"); ce != tt.wantCE {
			t.Errorf("%s %q: Content-Encoding %q, want %q", tt.path, tt.ae, ce, tt.wantCE)
			continue
		}
		if tt.wantLength != 0 && res.ContentLength != tt.wantLength {
			t.Errorf("%s %q: Content-Length %d, want %d", tt.path, tt.ae, res.ContentLength, tt.wantLength)
		}
		if v := res.Header.Get("Vary"); v != "Accept-Encoding" {
			t.Errorf("%s %q: Vary %q", tt.path, tt.ae, v)
		}
		if got := decode(t, tt.wantCE, raw); !bytes.Equal(got, tt.body) {
			t.Errorf("%s %q: the decoded body differs", tt.path, tt.ae)
		}
	}
}

// events are three server-sent events.
var events = []string{"data: one\n\n", "data: two\n\n", "data: three\n\n"}

// sse returns a handler that sends events, flushing after each, first with
// http.Flusher, then with an http.ResponseController, and waits for next
// before each event but the first.
func sse(t *testing.T, next <-chan struct{}) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		rc := http.NewResponseController(w)
		for i, e := range events {
			if i > 0 {
				select {
				case <-next:
				case <-time.After(10 * time.Second):
					t.Errorf("event %d: the client did not get the one before", i)
					return
				}
			}
			io.WriteString(w, e)
			if i == 0 {
				w.(http.Flusher).Flush()
			} else if err := rc.Flush(); err != nil {
				t.Errorf("ResponseController.Flush: %v", err)
			}
		}
	}
}

func TestServerSentEvents(t *testing.T) {
	for _, ae := range []string{"gzip", "zstd", "-"} {
		t.Run(ae, func(t *testing.T) {
			next := make(chan struct{})
			srv := httptest.NewServer(New(nil)(sse(t, next)))
			defer srv.Close()
			req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
			if ae != "-" {
				req.Header.Set("Accept-Encoding", ae)
			}
			res, err := rawClient().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			ce := res.Header.Get("Content-Encoding")
			if want := strings.TrimPrefix(ae, "-"); ce != want {
				t.Fatalf("Content-Encoding %q, want %q", ce, want)
			}
			var body io.Reader = res.Body
			switch ce {
			case "gzip":
				zr, err := gzip.NewReader(res.Body)
				if err != nil {
					t.Fatal(err)
				}
				body = zr
			case "zstd":
				zr, err := zstd.NewReader(res.Body, zstd.WithDecoderConcurrency(1))
				if err != nil {
					t.Fatal(err)
				}
				defer zr.Close()
				body = zr
			}
			events := events
			tp := textproto.NewReader(bufio.NewReader(body))
			for i, e := range events {
				// Each event arrives while the handler waits.
				line, err := tp.ReadLine()
				if err != nil || line != strings.TrimSuffix(e, "\n\n") {
					t.Fatalf("event %d: got %q, %v; want %q", i, line, err, e)
				}
				if blank, err := tp.ReadLine(); blank != "" || err != nil {
					t.Fatalf("event %d: got %q, %v after it, want an empty line", i, blank, err)
				}
				if i < len(events)-1 {
					next <- struct{}{}
				}
			}
			if rest, err := io.ReadAll(tp.R); len(rest) != 0 || err != nil {
				t.Errorf("after the events: %q, %v", rest, err)
			}
		})
	}
}

func TestServerHijack(t *testing.T) {
	srv := httptest.NewServer(New(nil)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Errorf("Hijack through the compressor: %v", err)
			return
		}
		defer conn.Close()
		buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi")
		buf.Flush()
	})))
	defer srv.Close()
	res, body := get(t, srv.URL, "gzip")
	if ce := res.Header.Get("Content-Encoding"); ce != "" || string(body) != "hi" {
		t.Errorf("got Content-Encoding %q and %q, want none and \"hi\"", ce, body)
	}
}

// TestServerStatusThenHijack checks that a status the handler wrote before
// it took the connection over reaches the client first, uncompressed, as
// it does without the compressor: a CONNECT proxy writes 200, hijacks, and
// then copies bytes both ways.
func TestServerStatusThenHijack(t *testing.T) {
	// hijackAfter answers a request for method on conn with a handler that
	// writes the status, then body, flushes if flush is set, then hijacks
	// and writes "TUNNEL", behind wrap, and returns the status line, the
	// Content-Type and Content-Encoding, and what follows the header.
	hijackAfter := func(t *testing.T, wrap func(http.Handler) http.Handler, method, ctype, body string, flush bool) (status, ct, ce, rest string) {
		srv := httptest.NewServer(wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if ctype != "" {
				w.Header().Set("Content-Type", ctype)
			}
			w.WriteHeader(http.StatusOK)
			io.WriteString(w, body)
			if flush {
				http.NewResponseController(w).Flush()
			}
			conn, buf, err := http.NewResponseController(w).Hijack()
			if err != nil {
				t.Errorf("Hijack: %v", err)
				return
			}
			defer conn.Close()
			buf.WriteString("TUNNEL")
			buf.Flush()
		})))
		defer srv.Close()
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(10 * time.Second))
		target := "/"
		if method == http.MethodConnect {
			target = "upstream.example:443"
		}
		io.WriteString(conn, method+" "+target+" HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
		br := bufio.NewReader(conn)
		tp := textproto.NewReader(br)
		if status, err = tp.ReadLine(); err != nil {
			t.Fatal(err)
		}
		h, err := tp.ReadMIMEHeader()
		if err != nil {
			t.Fatalf("after %q: %v", status, err)
		}
		b, _ := io.ReadAll(br)
		return status, h.Get("Content-Type"), h.Get("Content-Encoding"), string(b)
	}
	plain := func(h http.Handler) http.Handler { return h }
	for _, tt := range []struct {
		name, method, ctype, body string
		flush                     bool
	}{
		{"no type", "GET", "", "", false},
		{"compressible type", "GET", "text/plain", "", false},
		{"held body", "GET", "", "<html>", false},
		{"held body with a type", "GET", "application/json", "{}", false},
		// A 2xx to CONNECT has no content: no Content-Encoding either,
		// even once the header is flushed before the hijack.
		{"CONNECT", "CONNECT", "", "", false},
		{"CONNECT, flushed, compressible type", "CONNECT", "text/plain", "", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, ct, ce, rest := hijackAfter(t, New(nil), tt.method, tt.ctype, tt.body, tt.flush)
			if status != "HTTP/1.1 200 OK" {
				t.Errorf("status line %q, want \"HTTP/1.1 200 OK\"", status)
			}
			wstatus, wct, wce, wrest := hijackAfter(t, plain, tt.method, tt.ctype, tt.body, tt.flush)
			if status != wstatus || ct != wct || ce != wce || rest != wrest {
				t.Errorf("compressed: %q, Content-Type %q, Content-Encoding %q, then %q\nwithout:    %q, Content-Type %q, Content-Encoding %q, then %q",
					status, ct, ce, rest, wstatus, wct, wce, wrest)
			}
		})
	}
}

func TestServerFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "data.json"), big, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "image.png"), pngish, 0o600); err != nil {
		t.Fatal(err)
	}
	// http.FileServer writes the file with io.Copy, so through the
	// Writer's ReadFrom.
	srv := httptest.NewServer(New(nil)(http.FileServer(http.Dir(dir))))
	defer srv.Close()
	for _, tt := range []struct {
		path, ae, rng string
		wantCode      int
		wantCE        string
		wantBody      []byte
	}{
		{"/data.json", "gzip", "", 200, "gzip", big},
		{"/data.json", "zstd", "", 200, "zstd", big},
		{"/data.json", "-", "", 200, "", big},
		{"/data.json", "gzip", "bytes=0-99", 206, "", big[:100]},
		{"/image.png", "gzip", "", 200, "", pngish},
	} {
		var header []string
		if tt.rng != "" {
			header = []string{"Range", tt.rng}
		}
		res, raw := get(t, srv.URL+tt.path, tt.ae, header...)
		if res.StatusCode != tt.wantCode || res.Header.Get("Content-Encoding") != tt.wantCE {
			t.Errorf("%s %q %q: got %d %q, want %d %q", tt.path, tt.ae, tt.rng,
				res.StatusCode, res.Header.Get("Content-Encoding"), tt.wantCode, tt.wantCE)
			continue
		}
		if tt.wantCE != "" && res.Header.Get("Accept-Ranges") != "" {
			t.Errorf("%s %q: Accept-Ranges %q on a compressed response", tt.path, tt.ae, res.Header.Get("Accept-Ranges"))
		}
		if got := decode(t, tt.wantCE, raw); !bytes.Equal(got, tt.wantBody) {
			t.Errorf("%s %q %q: the decoded body differs", tt.path, tt.ae, tt.rng)
		}
	}
}

func TestServerEarlyHints(t *testing.T) {
	srv := httptest.NewServer(New(nil)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", "</style.css>; rel=preload")
		w.WriteHeader(http.StatusEarlyHints)
		w.Header().Set("Content-Type", "application/json")
		w.Write(big)
	})))
	defer srv.Close()
	var hints []int
	trace := &httptrace.ClientTrace{Got1xxResponse: func(code int, _ textproto.MIMEHeader) error {
		hints = append(hints, code)
		return nil
	}}
	req, _ := http.NewRequestWithContext(httptrace.WithClientTrace(t.Context(), trace), http.MethodGet, srv.URL, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	res, err := rawClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if len(hints) != 1 || hints[0] != http.StatusEarlyHints {
		t.Errorf("1xx responses %v, want [103]", hints)
	}
	if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("got %d %q, want 200 gzip", res.StatusCode, res.Header.Get("Content-Encoding"))
	}
	if !bytes.Equal(decode(t, "gzip", raw), big) {
		t.Error("the decoded body differs")
	}
}

// TestServerTrailers checks what the package documents of changes to the
// header after WriteHeader: while the middleware holds the response, they
// are sent, a trailer's value in the header too; after a flush, or for a
// client that accepts no coding, they are not. The trailer goes out as
// net/http sends it, compressed or not.
func TestServerTrailers(t *testing.T) {
	for _, flush := range []bool{false, true} {
		srv := httptest.NewServer(New(nil)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.Header().Set("Trailer", "X-Sum")
			w.WriteHeader(http.StatusOK)
			if flush {
				http.NewResponseController(w).Flush()
			}
			io.WriteString(w, "hello")
			w.Header().Set("X-Sum", "5")
			w.Header().Set("X-Late", "late")
		})))
		for _, ae := range []string{"gzip", "-"} {
			res, raw := get(t, srv.URL, ae)
			body := raw
			if ce := res.Header.Get("Content-Encoding"); ce != "" {
				body = decode(t, ce, raw)
			}
			// The header is held only for a client that accepts a coding.
			want := "5"
			if flush || ae == "-" {
				want = ""
			}
			if string(body) != "hello" || res.Trailer.Get("X-Sum") != "5" ||
				res.Header.Get("X-Sum") != want || res.Header.Get("X-Late") != strings.Repeat("late", len(want)) {
				t.Errorf("flush %v, Accept-Encoding %q: body %q, trailer X-Sum %q, header X-Sum %q and X-Late %q; want \"hello\", \"5\", %q and %q",
					flush, ae, body, res.Trailer.Get("X-Sum"), res.Header.Get("X-Sum"), res.Header.Get("X-Late"), want, strings.Repeat("late", len(want)))
			}
		}
		srv.Close()
	}
}

// TestServerSniffsAsNetHTTP checks, for a response without a Content-Type
// written in small pieces, that the type the client gets is the one
// net/http sniffs from its first 512 bytes, whatever MinSize and the
// coding, and that the response is compressed only if that type allows.
func TestServerSniffsAsNetHTTP(t *testing.T) {
	html := "\n<!DOCTYPE html><html><body>" + strings.Repeat("<p>hello</p>", 10) + "</body></html>\n"
	binary := strings.Repeat("a", 100) + strings.Repeat("\x00\x01\x02\xff", 200)
	for _, body := range []string{html, binary} {
		pieces := func(w http.ResponseWriter, r *http.Request) {
			for s := body; s != ""; {
				n := min(len(s), 32)
				io.WriteString(w, s[:n])
				s = s[n:]
			}
		}
		plain := httptest.NewServer(http.HandlerFunc(pieces))
		res, _ := get(t, plain.URL, "-")
		plain.Close()
		want := res.Header.Get("Content-Type")
		for _, minSize := range []int{1, 64, 2048} {
			srv := httptest.NewServer(New(&Options{MinSize: minSize})(http.HandlerFunc(pieces)))
			for _, ae := range []string{"-", "gzip"} {
				res, raw := get(t, srv.URL, ae)
				compressed := res.Header.Get("Content-Encoding") != ""
				wantCompressed := ae == "gzip" && want != "application/octet-stream" && minSize <= len(body)
				if got := res.Header.Get("Content-Type"); got != want || compressed != wantCompressed ||
					string(decode(t, res.Header.Get("Content-Encoding"), raw)) != body {
					t.Errorf("MinSize %d, Accept-Encoding %s: Content-Type %q, compressed %v; want %q (as net/http sniffs), compressed %v",
						minSize, ae, got, compressed, want, wantCompressed)
				}
			}
			srv.Close()
		}
	}
}

// TestServerValidators checks, through a real server, that the responses
// to HEAD and the 304s of conditional requests carry the header fields the
// 200 to a GET would: its ETag (weak once compressed), its Vary, and for
// HEAD its Content-Encoding and no Content-Length when the GET would be
// compressed (RFC 9110, sections 9.3.2, 8.6 and 15.4.5).
func TestServerValidators(t *testing.T) {
	modtime := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	// Hexadecimal digits, which compress to about half: enough that the
	// compressed GET is sent in chunks, without a Content-Length.
	var hex strings.Builder
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		hex.WriteByte("0123456789abcdef"[rng.IntN(16)])
	}
	body := `{"k":"` + hex.String() + `"}`
	mux := http.NewServeMux()
	mux.HandleFunc("/items.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		http.ServeContent(w, r, "items.json", modtime, strings.NewReader(body))
	})
	// A body of 1.5 KiB, over MinSize and short enough that net/http,
	// given it for a HEAD, would count it into a Content-Length.
	mid := `{"k":"` + hex.String()[:1500] + `"}`
	mux.HandleFunc("/mid.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, mid)
	})
	png := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 4096)...)
	mux.HandleFunc("/img.png", func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "img.png", modtime, bytes.NewReader(png))
	})
	srv := httptest.NewServer(New(nil)(mux))
	defer srv.Close()
	do := func(method, path, ae string, header ...string) *http.Response {
		res, _ := send(t, method, srv.URL+path, ae, header...)
		return res
	}
	fields := func(res *http.Response) string {
		return fmt.Sprintf("ETag %q, Vary %q, Content-Encoding %q, Content-Length %q",
			res.Header.Get("ETag"), res.Header.Get("Vary"), res.Header.Get("Content-Encoding"), res.Header.Get("Content-Length"))
	}
	for _, tt := range []struct {
		name   string
		res    *http.Response
		status int
		want   string
	}{
		{"GET, gzip", do("GET", "/items.json", "gzip"), 200,
			`ETag "W/\"v1\"", Vary "Accept-Encoding", Content-Encoding "gzip", Content-Length ""`},
		{"HEAD, gzip", do("HEAD", "/items.json", "gzip"), 200,
			`ETag "W/\"v1\"", Vary "Accept-Encoding", Content-Encoding "gzip", Content-Length ""`},
		{"HEAD, gzip, 1.5 KiB", do("HEAD", "/mid.json", "gzip"), 200,
			`ETag "", Vary "Accept-Encoding", Content-Encoding "gzip", Content-Length ""`},
		{"HEAD, identity, 1.5 KiB", do("HEAD", "/mid.json", "identity"), 200,
			fmt.Sprintf(`ETag "", Vary "Accept-Encoding", Content-Encoding "", Content-Length "%d"`, len(mid))},
		{"304 to the weak ETag", do("GET", "/items.json", "gzip", "If-None-Match", `W/"v1"`), 304,
			`ETag "W/\"v1\"", Vary "Accept-Encoding", Content-Encoding "", Content-Length ""`},
		{"GET, identity", do("GET", "/items.json", "identity"), 200,
			fmt.Sprintf(`ETag "\"v1\"", Vary "Accept-Encoding", Content-Encoding "", Content-Length "%d"`, len(body))},
		{"HEAD, identity", do("HEAD", "/items.json", "identity"), 200,
			fmt.Sprintf(`ETag "\"v1\"", Vary "Accept-Encoding", Content-Encoding "", Content-Length "%d"`, len(body))},
		{"304 to the strong ETag", do("GET", "/items.json", "identity", "If-None-Match", `"v1"`), 304,
			`ETag "\"v1\"", Vary "", Content-Encoding "", Content-Length ""`},
		{"image", do("GET", "/img.png", "gzip"), 200,
			fmt.Sprintf(`ETag "", Vary "", Content-Encoding "", Content-Length "%d"`, len(png))},
		{"304 for an image", do("GET", "/img.png", "gzip", "If-Modified-Since", modtime.Format(http.TimeFormat)), 304,
			`ETag "", Vary "", Content-Encoding "", Content-Length ""`},
	} {
		if got := fields(tt.res); tt.res.StatusCode != tt.status || got != tt.want {
			t.Errorf("%s: %d, %s\nwant %d, %s", tt.name, tt.res.StatusCode, got, tt.status, tt.want)
		}
	}
}
