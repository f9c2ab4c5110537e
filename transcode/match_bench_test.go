package transcode

import (
	"fmt"
	"testing"
)

// benchRules are the rules of a bookstore API.
var benchRules = []string{
	"GET /v1/shelves",
	"POST /v1/shelves",
	"GET /v1/shelves/{shelf}",
	"DELETE /v1/shelves/{shelf}",
	"PATCH /v1/{shelf.name=shelves/*}",
	"GET /v1/shelves/{shelf}/books",
	"POST /v1/shelves/{shelf}/books",
	"GET /v1/{name=shelves/*/books/*}",
	"DELETE /v1/{name=shelves/*/books/*}",
	"PATCH /v1/{book.name=shelves/*/books/*}",
	"POST /v1/{name=shelves/*/books/*}:move",
	"GET /v1/{name=shelves/*/books/*}/files/{path=**}/content",
	"GET /v1/authors/{author}",
	"GET /v1/authors:search",
	"* /v1/{name=operations/**}",
}

func BenchmarkMatch(b *testing.B) {
	m, _ := newTestMatcher(b, benchRules...)
	for _, bc := range []struct{ name, method, path string }{
		{"literal", "GET", "/v1/shelves"},
		{"variable", "GET", "/v1/shelves/s1"},
		{"multi", "GET", "/v1/shelves/s1/books/b1"},
		{"verb", "POST", "/v1/shelves/s1/books/b1:move"},
		{"doublestar", "GET", "/v1/shelves/s1/books/b1/files/a/b/c/content"},
		{"escaped", "GET", "/v1/shelves/s%2F1/books/b%20%3A1"},
		{"anymethod", "PUT", "/v1/operations/o1/o2"},
		{"notFound", "GET", "/v2/shelves"},
		{"methodNotAllowed", "PUT", "/v1/shelves/s1"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var bs bindings
			for b.Loop() {
				if _, st := m.match(bc.method, bc.path, &bs); st == notFound && bc.name != "notFound" {
					b.Fatalf("%q: %v", bc.path, st)
				}
			}
		})
	}
}

// BenchmarkMatchSize matches a path among more and more rules of the same
// shapes.
func BenchmarkMatchSize(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("routes=%d", n), func(b *testing.B) {
			var rules []string
			for i := range n {
				rules = append(rules, fmt.Sprintf("GET /v1/r%d/{name=items/*}/sub/{id}", i))
			}
			m, _ := newTestMatcher(b, rules...)
			path := fmt.Sprintf("/v1/r%d/items/7/sub/8", n/2)
			b.ReportAllocs()
			var bs bindings
			for b.Loop() {
				m.match("GET", path, &bs)
			}
		})
	}
}
