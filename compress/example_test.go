package compress_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/cairn-go/cairn"
	"github.com/cairn-go/cairn/compress"
)

func Example() {
	r := cairn.New()
	r.Use(compress.New(nil))
	r.HandleFunc("GET /users", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, "[", strings.Repeat(`{"name":"gopher","langs":["go"]},`, 100), "{}]")
	})

	for _, ae := range []string{"gzip, deflate, br, zstd", "gzip", "zstd;q=0.5, gzip", "br", ""} {
		req := httptest.NewRequest(http.MethodGet, "/users", nil)
		if ae != "" {
			req.Header.Set("Accept-Encoding", ae)
		}
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, req)
		fmt.Printf("Accept-Encoding: %-25q -> Content-Encoding: %q, Vary: %q\n",
			ae, rec.Header().Get("Content-Encoding"), rec.Header().Get("Vary"))
	}
	// Output:
	// Accept-Encoding: "gzip, deflate, br, zstd" -> Content-Encoding: "zstd", Vary: "Accept-Encoding"
	// Accept-Encoding: "gzip"                    -> Content-Encoding: "gzip", Vary: "Accept-Encoding"
	// Accept-Encoding: "zstd;q=0.5, gzip"        -> Content-Encoding: "gzip", Vary: "Accept-Encoding"
	// Accept-Encoding: "br"                      -> Content-Encoding: "", Vary: "Accept-Encoding"
	// Accept-Encoding: ""                        -> Content-Encoding: "", Vary: "Accept-Encoding"
}

// A group compresses only its own routes; Options change what and how.
func ExampleNew_options() {
	r := cairn.New()
	api := r.Group("/api", compress.New(&compress.Options{
		Encodings:    []string{"gzip"}, // gzip only
		MinSize:      256,
		ContentTypes: []string{"application/json", "application/*+json"},
	}))
	api.HandleFunc("GET /report", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, "[", strings.Repeat(`{"ok":true},`, 50), "{}]")
	})

	req := httptest.NewRequest(http.MethodGet, "/api/report", nil)
	req.Header.Set("Accept-Encoding", "zstd, gzip")
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, req)
	fmt.Println(rec.Header().Get("Content-Encoding"))
	// Output: gzip
}
