package transcode

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
)

// TestStream checks the framing of server streams: newline-delimited JSON,
// server-sent events, and failures before and after the first message.
func TestStream(t *testing.T) {
	srv := serve(t, newTestHandler(t, nil))
	for _, tt := range []struct {
		name   string
		accept string
		query  string
		status int
		ctype  string
		want   string
	}{
		{"ndjson", "", "count=3&kinds.fInt32=4", 200, "application/x-ndjson",
			`{"result":{"fString":"0","fInt32":4}}` + "\n" + `{"result":{"fString":"1","fInt32":4}}` + "\n" + `{"result":{"fString":"2","fInt32":4}}` + "\n"},
		{"empty", "", "count=0", 200, "application/x-ndjson", ""},
		{"fails after a message", "", "count=1&failCode=14", 200, "application/x-ndjson",
			`{"result":{"fString":"0"}}` + "\n" + `{"error":{"code":14,"message":"stream failed"}}` + "\n"},
		{"fails before any", "", "count=0&failCode=5", 404, "application/json", `{"code":5,"message":"stream failed"}`},
		{"events", "text/html, text/event-stream", "count=2", 200, "text/event-stream",
			"data: {\"fString\":\"0\"}\n\ndata: {\"fString\":\"1\"}\n\n"},
		{"event error", "text/event-stream", "count=1&failCode=13", 200, "text/event-stream",
			"data: {\"fString\":\"0\"}\n\nevent: error\ndata: {\"error\":{\"code\":13,\"message\":\"stream failed\"}}\n\n"},
		{"events refused", "text/event-stream;q=0", "count=1", 200, "application/x-ndjson", `{"result":{"fString":"0"}}` + "\n"},
		{"events refused, q=0.0", "text/event-stream;q=0.0", "count=1", 200, "application/x-ndjson", `{"result":{"fString":"0"}}` + "\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			hd := http.Header{}
			if tt.accept != "" {
				hd.Set("Accept", tt.accept)
			}
			a := do(t, srv.URL, call{method: "GET", target: "/v1/streams/s:watch?" + tt.query, header: hd})
			if a.status != tt.status || a.header.Get("Content-Type") != tt.ctype {
				t.Fatalf("got %d %q, want %d %q", a.status, a.header.Get("Content-Type"), tt.status, tt.ctype)
			}
			if tt.status != 200 {
				if !sameJSON(a.body, tt.want) {
					t.Errorf("got %s, want %s", a.body, tt.want)
				}
				return
			}
			if !sameFrames(a.body, tt.want) {
				t.Errorf("got\n%s\nwant\n%s", a.body, tt.want)
			}
		})
	}
}

// TestErrors checks that gRPC errors become their HTTP statuses, with the
// google.rpc.Status as JSON, details included.
func TestErrors(t *testing.T) {
	srv := serve(t, newTestHandler(t, nil))
	for c := codes.Code(1); c <= 16; c++ {
		a := do(t, srv.URL, call{method: "POST", target: "/v1/fail", body: `{"code":` + itoa(int(c)) + `,"message":"m"}`})
		if a.status != HTTPStatus(c) {
			t.Errorf("%v: got HTTP %d, want %d", c, a.status, HTTPStatus(c))
		}
		want := `{"code":` + itoa(int(c)) + `,"message":"m","details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"code","description":"asked for"}]}]}`
		if !sameJSON(a.body, want) {
			t.Errorf("%v: got %s, want %s", c, a.body, want)
		}
		// gRPC's own trailer, which repeats the status, stays out.
		for k := range a.header {
			if strings.HasPrefix(k, "Grpc-Trailer-Grpc-") || strings.HasPrefix(k, "Grpc-Metadata-Grpc-") {
				t.Errorf("%v: header %s: %q", c, k, a.header[k])
			}
		}
	}
	for _, tt := range []struct {
		c    codes.Code
		want int
	}{
		{codes.OK, 200}, {codes.Canceled, 499}, {codes.Unknown, 500}, {codes.InvalidArgument, 400},
		{codes.DeadlineExceeded, 504}, {codes.NotFound, 404}, {codes.AlreadyExists, 409},
		{codes.PermissionDenied, 403}, {codes.ResourceExhausted, 429}, {codes.FailedPrecondition, 400},
		{codes.Aborted, 409}, {codes.OutOfRange, 400}, {codes.Unimplemented, 501}, {codes.Internal, 500},
		{codes.Unavailable, 503}, {codes.DataLoss, 500}, {codes.Unauthenticated, 401}, {codes.Code(99), 500},
	} {
		if got := HTTPStatus(tt.c); got != tt.want {
			t.Errorf("HTTPStatus(%v) = %d, want %d", tt.c, got, tt.want)
		}
	}
}

// itoa formats n.
func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestHttpBody checks google.api.HttpBody as the body of a request, a
// field of it, and a response.
func TestHttpBody(t *testing.T) {
	srv := serve(t, newTestHandler(t, nil))
	png := "\x89PNG\r\n\x1a\n\x00\x01"
	a := do(t, srv.URL, call{method: "POST", target: "/v1/raw", header: http.Header{"Content-Type": {"image/png"}}, body: png})
	if a.status != 200 || a.header.Get("Content-Type") != "image/png" || a.body != png {
		t.Errorf("POST /v1/raw: got %d %q %q, want 200 image/png and the body back", a.status, a.header.Get("Content-Type"), a.body)
	}
	// Data without a content type is served as octet-stream: net/http
	// would guess text/html for it.
	page := "<html><script>alert(1)</script>"
	a = do(t, srv.URL, call{method: "POST", target: "/v1/raw", body: page})
	if a.status != 200 || a.header.Get("Content-Type") != "application/octet-stream" || a.body != page {
		t.Errorf("POST /v1/raw without a content type: got %d %q %q, want 200 application/octet-stream and the body back", a.status, a.header.Get("Content-Type"), a.body)
	}
	a = do(t, srv.URL, call{method: "POST", target: "/v1/files/f1:upload", header: http.Header{"Content-Type": {"text/csv"}}, body: "a,b\n"})
	if want := `{"name":"files/f1","contentType":"text/csv","size":"4"}`; a.status != 200 || !sameJSON(a.body, want) {
		t.Errorf("upload: got %d %s, want 200 %s", a.status, a.body, want)
	}
	a = do(t, srv.URL, call{method: "GET", target: "/v1/files/f2"})
	if a.status != 200 || a.header.Get("Content-Type") != "text/plain; charset=utf-8" || a.body != "contents of files/f2" {
		t.Errorf("download: got %d %q %q", a.status, a.header.Get("Content-Type"), a.body)
	}
}

// TestMetadata checks headers sent as metadata, Grpc-Timeout as a deadline
// and metadata returned as headers.
func TestMetadata(t *testing.T) {
	srv := serve(t, newTestHandler(t, &Options{Headers: []string{"x-request-id"}}))
	hd := http.Header{
		"Authorization":               {"Bearer t"},
		"Grpc-Metadata-Authorization": {"Bearer smuggled"},
		"Grpc-Metadata-Grpc-Status":   {"0"},
		"Grpc-Metadata-Tenant":        {"acme"},
		"Grpc-Metadata-Trace-Bin":     {"AQI="},
		"X-Request-Id":                {"42"},
		"X-Other":                     {"not sent"},
		"Grpc-Timeout":                {"10S"},
	}
	a := do(t, srv.URL, call{method: "GET", target: "/v1/meta", header: hd})
	want := `{"entries":["authorization: Bearer t","tenant: acme","trace-bin: \u0001\u0002","user-agent: grpc-go/` + grpcVersion(t, a.body) + `","x-request-id: 42"],"deadline":"10s"}`
	if a.status != 200 || !sameJSON(a.body, want) {
		t.Errorf("GET /v1/meta: got %d %s, want %s", a.status, a.body, want)
	}
	for _, bad := range []http.Header{
		{"Grpc-Timeout": {"soon"}},
		{"Grpc-Timeout": {"+5S"}},
		{"Grpc-Timeout": {"123456789S"}},
		{"Grpc-Metadata-A!b": {"x"}},
		{"Grpc-Metadata-X": {"café"}},
		{"Authorization": {"Bearer café"}},
		{"Grpc-Metadata-X-Bin": {"!!"}},
	} {
		if a := do(t, srv.URL, call{method: "GET", target: "/v1/meta", header: bad}); a.status != 400 {
			t.Errorf("%v: got %d %s, want 400", bad, a.status, a.body)
		}
	}
	a = do(t, srv.URL, call{method: "GET", target: "/v1/meta", header: http.Header{"Grpc-Timeout": {"99999999H"}}})
	if a.status != 200 {
		t.Errorf("Grpc-Timeout: 99999999H: got %d %s, want 200", a.status, a.body)
	}
	a = do(t, srv.URL, call{method: "GET", target: "/v1/echo/x"})
	for k, v := range map[string]string{"Grpc-Metadata-X-Served-By": "echo", "Grpc-Metadata-X-Raw-Bin": "AQI=", "Grpc-Trailer-X-Checksum": "42", "Grpc-Metadata-Content-Type": ""} {
		if got := a.header.Get(k); got != v {
			t.Errorf("GET /v1/echo/x: header %s %q, want %q", k, got, v)
		}
	}
}

// grpcVersion returns the grpc-go version in the user agent that body
// reports, so that the test does not depend on it.
func grpcVersion(t *testing.T, body string) string {
	_, after, ok := strings.Cut(body, "grpc-go/")
	if !ok {
		t.Fatalf("no grpc-go user agent in %s", body)
	}
	v, _, _ := strings.Cut(after, `"`)
	return v
}

// sameFrames reports whether two stream bodies hold the same frames: the
// same lines of JSON, or the same events with the same JSON data. (JSON is
// compared as values: protojson varies its spacing from build to build.)
func sameFrames(got, want string) bool {
	if !strings.HasSuffix(got, "\n") && got != "" {
		return false
	}
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	if len(g) != len(w) {
		return false
	}
	for i := range g {
		gl, wl := g[i], w[i]
		gd, gData := strings.CutPrefix(gl, "data: ")
		wd, wData := strings.CutPrefix(wl, "data: ")
		switch {
		case gData != wData:
			return false
		case strings.HasPrefix(wl, "{") || wData:
			if !json.Valid([]byte(gd)) || !sameJSON(gd, wd) {
				return false
			}
		case gl != wl:
			return false
		}
	}
	return true
}

// TestMetadataFromMiddleware checks that metadata middleware put in the
// request's context reaches the server along with the headers' own, and
// that a header adds no value to a key the middleware set: a client could
// otherwise add "admin" to the user id an authenticating middleware set.
func TestMetadataFromMiddleware(t *testing.T) {
	h := newTestHandler(t, &Options{Headers: []string{"X-Tenant"}})
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := metadata.AppendToOutgoingContext(r.Context(), "x-request-id", "from-middleware", "x-user-id", "alice", "x-tenant", "t1")
		h.ServeHTTP(w, r.WithContext(ctx))
	}))
	a := do(t, srv.URL, call{method: "GET", target: "/v1/meta", header: http.Header{
		"Authorization":           {"Bearer t"},
		"Grpc-Metadata-X-User-Id": {"admin"},
		"X-Tenant":                {"t2"},
		"Grpc-Metadata-Region":    {"eu"},
	}})
	want := `{"entries":["authorization: Bearer t","region: eu","user-agent: grpc-go/` + grpcVersion(t, a.body) + `","x-request-id: from-middleware","x-tenant: t1","x-user-id: alice"]}`
	if a.status != 200 || !sameJSON(a.body, want) {
		t.Errorf("GET /v1/meta: got %d %s, want %s", a.status, a.body, want)
	}
}

// TestIgnoreMetadataHeaders checks that Options.IgnoreMetadataHeaders
// keeps Grpc-Metadata-* headers out of the call, and no other header.
func TestIgnoreMetadataHeaders(t *testing.T) {
	srv := serve(t, newTestHandler(t, &Options{IgnoreMetadataHeaders: true, Headers: []string{"X-Request-Id"}}))
	a := do(t, srv.URL, call{method: "GET", target: "/v1/meta", header: http.Header{
		"Authorization":           {"Bearer t"},
		"Grpc-Metadata-X-User-Id": {"admin"},
		"Grpc-Metadata-A!b":       {"not even checked"},
		"X-Request-Id":            {"42"},
	}})
	want := `{"entries":["authorization: Bearer t","user-agent: grpc-go/` + grpcVersion(t, a.body) + `","x-request-id: 42"]}`
	if a.status != 200 || !sameJSON(a.body, want) {
		t.Errorf("GET /v1/meta: got %d %s, want %s", a.status, a.body, want)
	}
}

// TestStreamHead checks that HEAD on a streaming GET rule answers with the
// stream's headers and ends the call after its first message.
func TestStreamHead(t *testing.T) {
	srv := serve(t, newTestHandler(t, nil))
	a := do(t, srv.URL, call{method: "HEAD", target: "/v1/streams/s:watch?count=100000"})
	if a.status != 200 || a.header.Get("Content-Type") != "application/x-ndjson" || a.body != "" {
		t.Errorf("HEAD: got %d %q %q, want 200 application/x-ndjson and no body", a.status, a.header.Get("Content-Type"), a.body)
	}
	a = do(t, srv.URL, call{method: "HEAD", target: "/v1/streams/s:watch?count=0&failCode=5"})
	if a.status != 404 {
		t.Errorf("HEAD of a stream that fails: got %d, want 404", a.status)
	}
}
