package main

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// TestDemo serves the demo's router on a loopback port and exercises every
// route over real HTTP.
func TestDemo(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: newRouter()}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	base := "http://" + ln.Addr().String()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	const uuid = "123e4567-e89b-12d3-a456-426614174000"
	for _, tt := range []struct {
		method, path, host string
		code               int
		contains           string
	}{
		{"GET", "/", "", 200, "GET /users/{id:int}"},
		{"GET", "/about", "", 200, "zero allocations"},
		{"GET", "/hello", "", 200, "hello, world"},
		{"GET", "/hello/gopher/", "", 200, `hello, gopher (pattern "GET /hello/{word}/"`},
		{"GET", "/hello/gopher/and/more", "", 200, `path "/hello/gopher/and/more"`},
		{"GET", "/hello/gopher", "", 307, ""},
		{"PUT", "/static/" + uuid + "/10.0.0.1", "", 200, `ip = "10.0.0.1"`},
		{"GET", "/static/10.0.0.1/" + uuid, "", 200, `uuid = "` + uuid + `"`},
		{"HEAD", "/static/10.0.0.1/" + uuid, "", 200, ""},
		{"GET", "/static/" + uuid + "/10.0.0.1", "", 405, ""},
		{"GET", "/static/10.0.0.999/" + uuid, "", 404, ""},
		{"GET", "/users/42", "", 200, `id = "42"`},
		{"GET", "/users/gopher", "", 200, `name = "gopher"`},
		{"GET", "/users/Gopher", "", 404, ""},
		{"DELETE", "/users/42", "", 405, ""},
		{"GET", "/currencies/EUR", "", 200, `code = "EUR"`},
		{"GET", "/status", "api.localhost", 200, "api ok"},
		{"GET", "/status", "", 404, ""},
		{"POST", "/files/a/b%2Fc", "", 200, `path = "a/b/c"`},
		{"GET", "/nowhere", "", 404, "404 page not found"},
		{"GET", "/about/../hello", "", 307, ""},
	} {
		req, err := http.NewRequest(tt.method, base+tt.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if tt.host != "" {
			req.Host = tt.host
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", tt.method, tt.path, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.code || !strings.Contains(string(body), tt.contains) {
			t.Errorf("%s %s: got %d %q, want %d and %q", tt.method, tt.path, resp.StatusCode, body, tt.code, tt.contains)
		}
	}
}
