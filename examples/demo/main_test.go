package main

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-go/cairn"
)

// lockedBuffer is a buffer that the server's goroutines can log to.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestDemo serves the demo's router on a loopback port and exercises every
// route over real HTTP; it then checks from the request log that every
// registered pattern served a request.
func TestDemo(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var logs lockedBuffer
	r := newRouter(&logs)
	srv := &http.Server{Handler: r}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	base := "http://" + ln.Addr().String()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	const (
		uuid = "123e4567-e89b-12d3-a456-426614174000"
		v1   = "application/vnd.cairn.v1+json"
		v2   = "application/vnd.cairn.v2+json"
	)
	type header = map[string]string
	for _, tt := range []struct {
		method, path string
		header       header
		code         int
		contains     string
		wantHeader   header
	}{
		{"GET", "/", nil, 200, "GET /users/{id:int}", nil},
		{"GET", "/", nil, 200, "/files/docs/read%20me.txt", nil},
		{"GET", "/about", nil, 200, "zero allocations", nil},
		{"GET", "/hello", nil, 200, "hello, world", nil},
		{"GET", "/hello/gopher/", nil, 200, `hello, gopher (pattern "GET /hello/{word}/"`, nil},
		{"GET", "/hello/gopher/and/more", nil, 200, `path "/hello/gopher/and/more"`, nil},
		{"GET", "/hello/gopher", nil, 307, "", header{"Location": "/hello/gopher/"}},
		{"PUT", "/static/" + uuid + "/10.0.0.1", nil, 200, `ip = "10.0.0.1"`, nil},
		{"GET", "/static/10.0.0.1/" + uuid, nil, 200, `uuid = "` + uuid + `"`, nil},
		{"HEAD", "/static/10.0.0.1/" + uuid, nil, 200, "", nil},
		{"GET", "/static/" + uuid + "/10.0.0.1", nil, 405, "", header{"Allow": "OPTIONS, PUT"}},
		{"GET", "/static/10.0.0.999/" + uuid, nil, 404, "the routes are listed at /", nil},
		{"GET", "/users/42", nil, 200, `id = "42"`, nil},
		{"GET", "/users/gopher", nil, 200, `name = "gopher"`, nil},
		{"GET", "/users/Gopher", nil, 404, "", nil},
		{"DELETE", "/users/42", nil, 405, "", header{"Allow": "GET, HEAD, OPTIONS"}},
		{"OPTIONS", "/users/42", nil, 204, "", header{"Allow": "GET, HEAD, OPTIONS"}},
		{"GET", "/status", header{"Host": "api.localhost"}, 200, "api ok", nil},
		{"GET", "/status", nil, 404, "", nil},
		{"POST", "/files/a/b%2Fc", nil, 200, `path = "a/b/c"`, nil},
		{"GET", "/about/../hello", nil, 307, "", header{"Location": "/hello"}},
		{"GET", "//evil.example/..", nil, 307, "", header{"Location": "/"}},
		{"GET", "/api/users/42", nil, 200, `{"id": 42, "name": "user 42"}`, header{"Vary": "Accept"}},
		{"GET", "/api/users/42", header{"Accept": v1}, 200, `{"id": 42, "name": "user 42"}`, header{"Content-Type": v1}},
		{"GET", "/api/users/42", header{"Accept": v2}, 200, `{"version": "v2", "user": {"id": 42`, header{"Content-Type": v2, "Vary": "Accept"}},
		{"GET", "/api/users/42", header{"Accept": v1 + ";q=0.5, " + v2}, 200, `"version": "v2"`, nil},
		{"GET", "/api/users/42", header{"Accept": "application/vnd.cairn.v3+json"}, 406, "406 not acceptable", header{"Vary": "Accept"}},
		{"GET", "/api/users/x", nil, 404, "", nil},
		{"OPTIONS", "/api/users/42", nil, 204, "", header{"Allow": "GET, HEAD, OPTIONS"}},
		{"GET", "/admin/routes", nil, 401, "send Authorization", header{"WWW-Authenticate": `Bearer realm="cairn demo"`}},
		{"GET", "/admin/routes", header{"Authorization": token}, 200, `{"pattern": "GET /admin/routes", "method": "GET", "version": "", "middleware": 1, "mount": false}`, nil},
		{"GET", "/admin/tree", header{"Authorization": token}, 200, "/{id:int}  GET  GET v1  GET v2", nil},
		{"GET", "/debug/pprof", nil, 307, "", header{"Location": "/debug/pprof/"}},
		{"GET", "/debug/pprof/", nil, 200, "goroutine", nil},
		{"GET", "/debug/pprof/goroutine?debug=1", nil, 200, "goroutine profile:", nil},
		{"GET", "/debug/pprof/nosuchprofile", nil, 404, "Unknown profile", nil},
		{"GET", "/debug/pprof/cmdline", nil, 200, "demo", nil},
		{"GET", "/debug/pprof/symbol", nil, 200, "num_symbols", nil},
		{"POST", "/debug/pprof/symbol", nil, 200, "", nil},
		{"GET", "/debug/pprof/profile?seconds=1", nil, 200, "", nil},
		{"GET", "/debug/pprof/trace?seconds=0.1", nil, 200, "", nil},
		{"GET", "/nowhere", nil, 404, "404 page not found; the routes are listed at /", nil},
		{"GET", "/", nil, 200, "/debug/pprof/heap", nil},
		// The trailing-slash policy.
		{"GET", "/about/", nil, 307, "", header{"Location": "/about"}},
		// The admin group guards the router's own answers below /admin.
		{"DELETE", "/admin/tree", nil, 401, "send Authorization", header{"Allow": ""}},
		{"GET", "/admin/nothing", nil, 401, "send Authorization", nil},
		{"DELETE", "/admin/tree", header{"Authorization": token}, 405, "", header{"Allow": "GET, HEAD, OPTIONS"}},
		// Middleware before routing.
		{"POST", "/admin/cache", header{"Authorization": token, "X-HTTP-Method-Override": "DELETE"}, 200, "cache cleared", nil},
	} {
		req, err := http.NewRequest(tt.method, base+tt.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range tt.header {
			if k == "Host" {
				req.Host = v
			} else {
				req.Header.Set(k, v)
			}
		}
		if strings.HasPrefix(tt.path, "//") {
			req.URL.Opaque = tt.path // send the path as it is
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", tt.method, tt.path, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.code || !strings.Contains(string(body), tt.contains) {
			t.Errorf("%s %s %v: got %d %q, want %d containing %q", tt.method, tt.path, tt.header, resp.StatusCode, body, tt.code, tt.contains)
		}
		for k, v := range tt.wantHeader {
			if got := resp.Header.Get(k); got != v {
				t.Errorf("%s %s %v: header %s = %q, want %q", tt.method, tt.path, tt.header, k, got, v)
			}
		}
	}

	// Every route of the demo and of its pprof router served a request.
	log := logs.String()
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m) \d{3} ("[^"]*")`).FindAllStringSubmatch(log, -1) {
		seen[strings.Trim(m[1], `"`)] = true
	}
	for _, router := range []map[string]bool{routesOf(r), routesOf(pprofRouter(nil))} {
		for p := range router {
			if !seen[p] {
				t.Errorf("no request was served by the route %q", p)
			}
		}
	}
	for _, ri := range r.Routes() {
		key := strings.TrimSpace(ri.Pattern + " " + ri.Version)
		if notes[key] == "" {
			t.Errorf("route %q has no note", key)
		}
	}
}

// routesOf returns the patterns of r.
func routesOf(r *cairn.Router) map[string]bool {
	m := map[string]bool{}
	for _, ri := range r.Routes() {
		m[ri.Pattern] = true
	}
	return m
}
