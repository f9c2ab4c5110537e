package middleware_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/cairn-go/cairn/middleware"
)

var generatedID = regexp.MustCompile(`^[0-9a-f]{32}$`)

func TestRequestID(t *testing.T) {
	long := strings.Repeat("a", middleware.MaxRequestIDLength)
	for _, tt := range []struct {
		name     string
		opts     *middleware.RequestIDOptions
		incoming []string // values of the incoming header; nil for none
		header   string   // the header to send and expect; "" for X-Request-Id
		keep     bool     // the incoming ID is kept
	}{
		{name: "none", incoming: nil},
		{name: "uuid kept", incoming: []string{"0b9f5d0c-4d1b-4a2e-9c57-1f1e4b7e8a11"}, keep: true},
		{name: "base64 kept", incoming: []string{"aGVsbG8+/w=="}, keep: true},
		{name: "longest kept", incoming: []string{long}, keep: true},
		{name: "too long", incoming: []string{long + "a"}},
		{name: "empty", incoming: []string{""}},
		{name: "space", incoming: []string{"a b"}},
		{name: "newline", incoming: []string{"a\nlevel=ERROR msg=forged"}},
		{name: "quote", incoming: []string{`a"b`}},
		{name: "beyond ASCII", incoming: []string{"é"}},
		{name: "two values", incoming: []string{"a", "b"}},
		{name: "ignored", opts: &middleware.RequestIDOptions{IgnoreIncoming: true}, incoming: []string{"abc"}},
		{name: "other header", opts: &middleware.RequestIDOptions{Header: "x-correlation-id"}, header: "X-Correlation-Id", incoming: []string{"abc"}, keep: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			header := tt.header
			if header == "" {
				header = "X-Request-Id"
			}
			var seen, seenWriter string
			h := middleware.RequestID(tt.opts)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				seen = r.Header.Get(header)
				seenWriter = w.(*middleware.Writer).RequestID()
			}))
			req := httptest.NewRequest("GET", "/", nil)
			for _, v := range tt.incoming {
				req.Header.Add(header, v)
			}
			rec := serve(t, h, req)
			got := rec.Header().Values(header)
			if len(got) != 1 {
				t.Fatalf("response %s = %q, want one value", header, got)
			}
			if tt.keep {
				if got[0] != tt.incoming[0] {
					t.Errorf("response ID = %q, want the incoming %q", got[0], tt.incoming[0])
				}
			} else if !generatedID.MatchString(got[0]) {
				t.Errorf("response ID = %q, want a generated one", got[0])
			}
			if seen != got[0] || seenWriter != got[0] {
				t.Errorf("handler read %q from the request and %q from the Writer, response has %q", seen, seenWriter, got[0])
			}
		})
	}
}

func TestRequestIDUnique(t *testing.T) {
	h := middleware.RequestID(nil)(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	seen := make(map[string]bool)
	for range 10000 {
		id := serve(t, h, httptest.NewRequest("GET", "/", nil)).Header().Get("X-Request-Id")
		if seen[id] {
			t.Fatalf("ID %q generated twice", id)
		}
		seen[id] = true
	}
}

func TestRequestIDAllocs(t *testing.T) {
	h := middleware.RequestID(nil)(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	d := newDiscard()
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Accept", "*/*")
	for _, tt := range []struct {
		name     string
		incoming string
		want     float64
	}{
		{"incoming", "0b9f5d0c-4d1b-4a2e-9c57-1f1e4b7e8a11", 0},
		{"generated", "", 1}, // the ID string itself
	} {
		allocs := testing.AllocsPerRun(200, func() {
			d.reset()
			if tt.incoming != "" {
				req.Header["X-Request-Id"] = []string{tt.incoming}
			} else {
				delete(req.Header, "X-Request-Id")
			}
			h.ServeHTTP(d, req)
		})
		// Setting the incoming header in the loop above allocates its
		// slice; that is the test's, not RequestID's.
		if tt.incoming != "" {
			allocs--
		}
		if allocs != tt.want {
			t.Errorf("%s: %v allocations, want %v", tt.name, allocs, tt.want)
		}
	}
}

func BenchmarkRequestID(b *testing.B) {
	h := middleware.RequestID(nil)(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	d := newDiscard()
	req := httptest.NewRequest("GET", "/", nil)
	b.Run("generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			d.reset()
			delete(req.Header, "X-Request-Id")
			h.ServeHTTP(d, req)
		}
	})
	in := []string{"0b9f5d0c-4d1b-4a2e-9c57-1f1e4b7e8a11"}
	b.Run("incoming", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			d.reset()
			req.Header["X-Request-Id"] = in
			h.ServeHTTP(d, req)
		}
	})
}

// TestRequestIDProxied checks that a proxied response that echoes the ID
// the proxy passed upstream carries it once.
func TestRequestIDProxied(t *testing.T) {
	upstream := httptest.NewServer(middleware.RequestID(nil)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "upstream")
	})))
	defer upstream.Close()
	u, _ := url.Parse(upstream.URL)
	front := httptest.NewServer(middleware.RequestID(nil)(httputil.NewSingleHostReverseProxy(u)))
	defer front.Close()
	for _, incoming := range []string{"", "abc"} {
		req, _ := http.NewRequest("GET", front.URL, nil)
		if incoming != "" {
			req.Header.Set("X-Request-Id", incoming)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		got := resp.Header.Values("X-Request-Id")
		if len(got) != 1 || incoming != "" && got[0] != incoming {
			t.Errorf("incoming %q: X-Request-Id = %q, want one value", incoming, got)
		}
	}
}
