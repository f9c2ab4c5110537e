package compress

import (
	"strings"
	"testing"
)

func TestAllowTypeDefaults(t *testing.T) {
	c := newConfig(nil)
	for _, tt := range []struct {
		ct   string
		want bool
	}{
		{"text/html; charset=utf-8", true},
		{"text/plain", true},
		{"text/css", true},
		{"text/csv", true},
		{"text/javascript", true},
		{"text/event-stream", true},
		{"TEXT/HTML", true},
		{"  text/html ; charset=utf-8", true},
		{"application/json", true},
		{"application/json; charset=utf-8", true},
		{"Application/JSON", true},
		{"application/problem+json", true},
		{"application/graphql-response+json", true},
		{"application/ld+json", true},
		{"application/x-ndjson", true},
		{"application/javascript", true},
		{"application/xml", true},
		{"application/atom+xml", true},
		{"application/rss+xml", true},
		{"application/wasm", true},
		{"image/svg+xml", true},
		{"font/ttf", true},
		{"font/otf", true},

		{"", false},
		{"text", false},
		{"text/", false},
		{"/html", false},
		{"application/+json", false}, // a suffix alone is no subtype
		{"application/jsonx", false},
		{"application/octet-stream", false},
		{"application/zip", false},
		{"application/gzip", false},
		{"application/pdf", false},
		{"image/png", false},
		{"image/jpeg", false},
		{"image/webp", false},
		{"video/mp4", false},
		{"audio/mpeg", false},
		{"font/woff2", false}, // already compressed
		{"image/svg+json", false},
		{"application/grpc", false},
		{"application/grpc+json", false},
		{"application/GRPC+JSON", false},
		{"application/grpc-web+json", false},
		{"application/grpc-web-text", false},
		{"application/connect+json", false},
		{"application/grpcx+json", true}, // no gRPC type
	} {
		if got := c.allowType(tt.ct); got != tt.want {
			t.Errorf("%q: got %v, want %v", tt.ct, got, tt.want)
		}
	}
}

func TestAllowTypeOptions(t *testing.T) {
	for _, tt := range []struct {
		types []string
		ct    string
		want  bool
	}{
		{[]string{"application/json"}, "application/json", true},
		{[]string{"application/json"}, "text/html", false},
		{[]string{"application/json"}, "application/problem+json", false},
		{[]string{"application/*+json"}, "application/json", false},
		{[]string{"application/*"}, "application/anything", true},
		{[]string{"Text/*"}, "text/plain", true},
		{[]string{"*/*"}, "image/png", true},
		{[]string{"*/*"}, "nonsense", false},
		{[]string{"*/*"}, "application/grpc+json", false},
		{[]string{"application/*"}, "application/connect+json", false},
		{[]string{"application/grpc+json"}, "application/grpc+json", true},
		{[]string{"application/connect+json"}, "Application/Connect+JSON", true},
	} {
		c := newConfig(&Options{ContentTypes: tt.types})
		if got := c.allowType(tt.ct); got != tt.want {
			t.Errorf("%q allowing %q: got %v, want %v", tt.ct, tt.types, got, tt.want)
		}
	}
}

func TestParseMediaRangeErrors(t *testing.T) {
	for _, tt := range []struct {
		in, wantErr string
	}{
		{"", "is not a media type"},
		{"text", "is not a media type"},
		{"text/", "is not a media type"},
		{"/html", "is not a media type"},
		{"text/html; charset=utf-8", "is not a media type"},
		{"text /html", "is not a media type"},
		{"*/json", "a wildcard type goes only with a wildcard subtype"},
		{"*/*+json", "a wildcard type goes only with a wildcard subtype"},
		{"text/*html", "a wildcard subtype is"},
		{"text/*+", "a wildcard subtype is"},
		{"application/vnd.*", "a wildcard stands for a whole type"},
		{"app*/json", "a wildcard stands for a whole type"},
		{"application/*+*", "a wildcard stands for a whole type"},
	} {
		_, err := parseMediaRange(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%q: got error %v, want one that says %q", tt.in, err, tt.wantErr)
		}
	}
}

func TestAllowTypeAllocs(t *testing.T) {
	c := newConfig(nil)
	allocs := testing.AllocsPerRun(100, func() {
		if !c.allowType("application/problem+json; charset=utf-8") {
			t.Fatal("allowType: want true")
		}
	})
	if allocs != 0 {
		t.Errorf("allowType: %v allocations, want 0", allocs)
	}
}
