package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-go/cairn"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/prometheus/client_golang/prometheus"
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
	reg := prometheus.NewRegistry()
	lib, stopLibrary, err := startLibrary("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stopLibrary)
	r := newRouter(&logs, reg, lib)
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
	auth := header{"Authorization": token}
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
		{"GET", "/admin/debug/pprof/", nil, 401, "send Authorization", nil},
		{"GET", "/admin/debug/pprof/heap", nil, 401, "send Authorization", nil},
		{"GET", "/admin/debug/pprof", auth, 307, "", header{"Location": "/admin/debug/pprof/"}},
		{"GET", "/admin/debug/pprof/", auth, 200, "goroutine", nil},
		{"GET", "/admin/debug/pprof/goroutine?debug=1", auth, 200, "goroutine profile:", nil},
		{"GET", "/admin/debug/pprof/nosuchprofile", auth, 404, "Unknown profile", nil},
		{"GET", "/admin/debug/pprof/cmdline", auth, 200, "demo", nil},
		{"GET", "/admin/debug/pprof/symbol", auth, 200, "num_symbols", nil},
		{"POST", "/admin/debug/pprof/symbol", auth, 200, "", nil},
		{"GET", "/admin/debug/pprof/profile?seconds=1", auth, 200, "", nil},
		{"GET", "/admin/debug/pprof/trace?seconds=0.1", auth, 200, "", nil},
		{"GET", "/orgs/acme/repos/cairn", nil, 200, `acme/cairn (pattern "GET /repos/{repo}")`, nil},
		{"GET", "/orgs/acme/repos/", nil, 200, "the repositories of acme", nil},
		{"GET", "/orgs/acme/repos", nil, 307, "", header{"Location": "repos/"}},
		{"GET", "/orgs/acme/nothing", nil, 404, "", nil},
		// A panic is a 500, and the server keeps serving.
		{"GET", "/panic", nil, 500, "Internal Server Error", nil},
		{"GET", "/hello", nil, 200, "hello, world", nil},
		// The request ID: a well-formed one is echoed, others replaced.
		{"GET", "/hello", header{"X-Request-Id": "trace-42"}, 200, "", header{"X-Request-Id": "trace-42"}},
		{"GET", "/nowhere", nil, 404, "404 page not found; the routes are listed at /", nil},
		{"GET", "/", nil, 200, "/orgs/acme/repos/cairn", nil},
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
		if id := resp.Header.Get("X-Request-Id"); id == "" || strings.ContainsAny(id, " \n") {
			t.Errorf("%s %s: X-Request-Id = %q, want an ID", tt.method, tt.path, id)
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

	testServingPath(t, client, base)
	testLibrary(t, base)
	testMetrics(t, client, base, r)

	// Every route of the demo, the mounted router's included, served a
	// request: the access log names the pattern of each.
	seen := map[string]bool{}
	dec := json.NewDecoder(strings.NewReader(logs.String()))
	for dec.More() {
		var rec struct{ Msg, Pattern string }
		if err := dec.Decode(&rec); err != nil {
			t.Fatalf("the access log is not JSON lines: %v", err)
		}
		if rec.Msg == "request" {
			seen[rec.Pattern] = true
		}
	}
	for p := range routesOf(r) {
		if !seen[p] {
			t.Errorf("no request was served by the route %q", p)
		}
	}
	for _, p := range lib.Patterns() {
		if !seen[p] {
			t.Errorf("no request was served by the library's rule %q", p)
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

// testServingPath checks what the demo's middleware adds: compressed
// bodies that decode, server-sent events that arrive one by one, and a
// request log with IDs.
func testServingPath(t *testing.T, client *http.Client, base string) {
	t.Helper()
	// The Transport must not ask for gzip itself, or it would decode it.
	raw := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	for _, enc := range []string{"gzip", "zstd", "identity"} {
		req, _ := http.NewRequest("GET", base+"/", nil)
		req.Header.Set("Accept-Encoding", enc)
		resp, err := raw.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body []byte
		switch got := resp.Header.Get("Content-Encoding"); {
		case enc == "identity" && got == "":
			body, err = io.ReadAll(resp.Body)
		case enc == "gzip" && got == "gzip":
			var zr *gzip.Reader
			if zr, err = gzip.NewReader(resp.Body); err == nil {
				body, err = io.ReadAll(zr)
			}
		case enc == "zstd" && got == "zstd":
			var zr *zstd.Decoder
			if zr, err = zstd.NewReader(resp.Body); err == nil {
				body, err = io.ReadAll(zr)
				zr.Close()
			}
		default:
			t.Errorf("Accept-Encoding %s: Content-Encoding %q", enc, got)
		}
		resp.Body.Close()
		if err != nil || !strings.Contains(string(body), "routes (pattern, version, note)") {
			t.Errorf("Accept-Encoding %s: body %.40q, %v; want the home page", enc, body, err)
		}
		if v := resp.Header.Get("Vary"); !strings.Contains(v, "Accept-Encoding") {
			t.Errorf("Accept-Encoding %s: Vary = %q", enc, v)
		}
	}

	// Events arrive one at a time, before the handler has returned.
	req, _ := http.NewRequest("GET", base+"/events", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := raw.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("/events: Content-Encoding %q, want gzip", resp.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(zr)
	start := time.Now()
	for i := 0; i < 2; i++ {
		line, err := br.ReadString('\n')
		if err != nil || !strings.HasPrefix(line, "id: ") {
			t.Fatalf("/events: line %q, %v", line, err)
		}
		br.ReadString('\n')
		br.ReadString('\n')
	}
	if d := time.Since(start); d > 150*time.Millisecond+100*time.Millisecond {
		t.Errorf("/events: two events took %v; they were not flushed as they came", d)
	}
	// Read the rest, so that the handler has returned (and been logged)
	// before the test reads the log.
	if _, err := io.Copy(io.Discard, br); err != nil {
		t.Errorf("/events: %v", err)
	}
}

// testMetrics checks that /metrics counts requests by route pattern.
func testMetrics(t *testing.T, client *http.Client, base string, r *cairn.Router) {
	t.Helper()
	resp, err := client.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{
		`route="GET /users/{id:int}"`,
		`route="GET /orgs/{org}/repos/{repo}"`,
		`route="GET /panic",status="5xx"`,
		`route="GET /admin/debug/pprof/{profile}"`,
		`route="GET /v1/{name=shelves/*/books/*}",status="2xx"`,
		`route="GET /v1/{name=shelves/*/books/*}",status="4xx"`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics has no series with %s", want)
		}
	}
	if strings.Contains(string(body), "/users/42") || strings.Contains(string(body), "shelves/1") {
		t.Errorf("/metrics has a raw path in a label")
	}
}

// testLibrary calls every HTTP rule of the library service through the
// demo's server, and checks the answers as JSON.
func testLibrary(t *testing.T, base string) {
	t.Helper()
	for _, tt := range []struct {
		method, path, body string
		code               int
		want               []string // "dotted.path=value" in the JSON answer
	}{
		{"GET", "/v1/shelves", "", 200, []string{"shelves.0.name=shelves/1", "shelves.1.theme=poetry"}},
		{"POST", "/v1/shelves?shelfId=essays", `{"theme": "essays"}`, 200, []string{"name=shelves/essays", "theme=essays"}},
		{"POST", "/v1/shelves?shelfId=essays", `{"theme": "again"}`, 409, []string{"code=6"}},
		{"GET", "/v1/shelves/essays", "", 200, []string{"name=shelves/essays"}},
		{"GET", "/v1/shelves/9", "", 404, []string{"code=5", "message=shelf shelves/9 not found"}},
		{"GET", "/v1/shelves/1/books?pageSize=1", "", 200, []string{"books.0.name=shelves/1/books/1", "nextPageToken=1"}},
		{"GET", "/v1/shelves/1/books?pageSize=1&pageToken=1", "", 200, []string{"books.0.title=Invisible Cities"}},
		{"GET", "/v1/shelves/1/books?pageSize=x", "", 400, []string{"code=3"}},
		{"POST", "/v1/shelves/essays/books?bookId=kindred", `{"title": "Kindred", "author": "Octavia E. Butler"}`, 200,
			[]string{"name=shelves/essays/books/kindred", "author=Octavia E. Butler"}},
		{"POST", "/v1/shelves/essays/books", `{"author": "nobody"}`, 400, []string{"code=3", "message=a book needs a title"}},
		{"POST", "/v1/shelves/essays/books", `{"title": `, 400, []string{"code=3"}},
		{"GET", "/v1/shelves/1/books/1", "", 200, []string{"title=The Left Hand of Darkness"}},
		{"GET", "/v1/books/shelves/1/books/2", "", 200, []string{"title=Invisible Cities"}}, // the additional binding
		{"GET", "/v1/shelves/1/books/9", "", 404, []string{"code=5"}},
		{"PATCH", "/v1/shelves/1/books/1?updateMask=read", `{"read": true, "title": "ignored"}`, 200, []string{"read=true", "title=The Left Hand of Darkness"}},
		{"PATCH", "/v1/shelves/1/books/1?updateMask=nope", `{}`, 400, []string{"code=3"}},
		{"POST", "/v1/shelves/1/books/2:move", `{"otherShelfName": "shelves/essays"}`, 200, []string{"name=shelves/essays/books/2"}},
		{"POST", "/v1/shelves/1/books/2:move", `{"otherShelfName": "shelves/essays"}`, 404, []string{"code=5"}},
		{"DELETE", "/v1/shelves/essays", "", 400, []string{"code=9", "message=shelf shelves/essays has books"}},
		{"DELETE", "/v1/shelves/essays/books/kindred", "", 200, nil},
		{"DELETE", "/v1/shelves/essays?force=true", "", 200, nil},
		{"GET", "/v1/shelves/essays", "", 404, []string{"code=5"}},
		{"PUT", "/v1/shelves/1", "", 405, []string{"code=12"}},
		{"GET", "/v1/nothing/here/at/all", "", 404, []string{"code=5"}},
	} {
		req, err := http.NewRequest(tt.method, base+tt.path, strings.NewReader(tt.body))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", tt.method, tt.path, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.code {
			t.Errorf("%s %s: got %d %s, want %d", tt.method, tt.path, resp.StatusCode, body, tt.code)
			continue
		}
		if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s %s: Content-Type %q", tt.method, tt.path, ct)
		}
		var doc any
		if err := json.Unmarshal(body, &doc); err != nil {
			t.Errorf("%s %s: %v in %s", tt.method, tt.path, err, body)
			continue
		}
		for _, w := range tt.want {
			path, value, _ := strings.Cut(w, "=")
			if got := jsonAt(doc, path); got != value {
				t.Errorf("%s %s: %s = %q, want %q in %s", tt.method, tt.path, path, got, value, body)
			}
		}
	}
	if resp, err := http.Get(base + "/v1/shelves/1"); err == nil {
		resp.Body.Close()
		if resp.Header.Get("Allow") != "" {
			t.Errorf("GET /v1/shelves/1: Allow %q on a 200", resp.Header.Get("Allow"))
		}
	}
	resp, err := http.Get(base + "/v1/shelves/1/books:watch")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	lines := strings.Split(strings.TrimSpace(string(body)), "\n")
	if resp.Header.Get("Content-Type") != "application/x-ndjson" || len(lines) != 1 || !strings.Contains(lines[0], "shelves/1/books/1") {
		t.Errorf("watch: got %q %q, want one book a line", resp.Header.Get("Content-Type"), body)
	}
}

// jsonAt returns the value at the dotted path in doc, formatted with %v.
func jsonAt(doc any, path string) string {
	for key := range strings.SplitSeq(path, ".") {
		switch d := doc.(type) {
		case map[string]any:
			doc = d[key]
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i >= len(d) {
				return "<none>"
			}
			doc = d[i]
		default:
			return "<none>"
		}
	}
	if doc == nil {
		return "<none>"
	}
	return fmt.Sprint(doc)
}

// TestLibraryOnGroup mounts the library's transcoder on a group with
// middleware, as a service would put an API behind authentication, and
// checks that the group's middleware sees the matched rule as r.Pattern
// and guards the transcoder's own answers.
func TestLibraryOnGroup(t *testing.T) {
	lib, stop, err := startLibrary("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	seen := make(chan string, 1)
	r := cairn.New()
	api := r.Group("/v1", requireToken, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			next.ServeHTTP(w, req)
			seen <- req.Pattern
		})
	})
	api.Handle("/", lib)
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	for _, tt := range []struct {
		path, auth string
		code       int
		pattern    string
	}{
		{"/v1/shelves/1/books/1", token, 200, "GET /v1/{name=shelves/*/books/*}"},
		{"/v1/shelves/1/books/1", "", 401, ""},
		{"/v1/nothing", token, 404, "/v1/"},
	} {
		req, _ := http.NewRequest("GET", srv.URL+tt.path, nil)
		if tt.auth != "" {
			req.Header.Set("Authorization", tt.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.code {
			t.Errorf("GET %s: got %d, want %d", tt.path, resp.StatusCode, tt.code)
		}
		if tt.code == 401 {
			continue
		}
		if got := <-seen; got != tt.pattern {
			t.Errorf("GET %s: the group's middleware saw r.Pattern %q, want %q", tt.path, got, tt.pattern)
		}
	}
}
