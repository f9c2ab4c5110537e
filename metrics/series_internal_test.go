package metrics

import (
	"net/http"
	"testing"
)

// TestMethodLabel checks that the standard methods are their own label and
// every other method is OTHER.
func TestMethodLabel(t *testing.T) {
	for _, tt := range []struct{ method, want string }{
		{"GET", "GET"},
		{"HEAD", "HEAD"},
		{"POST", "POST"},
		{"PUT", "PUT"},
		{"PATCH", "PATCH"},
		{"DELETE", "DELETE"},
		{"CONNECT", "CONNECT"},
		{"OPTIONS", "OPTIONS"},
		{"TRACE", "TRACE"},
		{"get", "OTHER"},
		{"PROPFIND", "OTHER"},
		{"", "OTHER"},
		{"GET /users/1", "OTHER"},
	} {
		if got := methodLabel(tt.method); got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.method, got, tt.want)
		}
	}
}

// TestClassOf checks the status class of codes at and around each
// boundary, and of the codes Writer.Status reports for a hijacked
// connection.
func TestClassOf(t *testing.T) {
	for _, tt := range []struct {
		code int
		want statusClass
	}{
		{0, class1xx}, // hijacked before a status was sent
		{100, class1xx},
		{http.StatusSwitchingProtocols, class1xx},
		{199, class1xx},
		{200, class2xx},
		{204, class2xx},
		{299, class2xx},
		{300, class3xx},
		{308, class3xx},
		{400, class4xx},
		{499, class4xx},
		{500, class5xx},
		{599, class5xx},
		{600, class5xx},
		{999, class5xx},
	} {
		if got := classOf(tt.code); got != tt.want {
			t.Errorf("%d: got %v, want %v", tt.code, got, tt.want)
		}
	}
}

// TestStatusClassString checks the label values, and that an invalid class
// prints as one.
func TestStatusClassString(t *testing.T) {
	for _, tt := range []struct {
		c    statusClass
		want string
	}{
		{class1xx, "1xx"},
		{class2xx, "2xx"},
		{class3xx, "3xx"},
		{class4xx, "4xx"},
		{class5xx, "5xx"},
		{0, "statusClass(0)"},
		{9, "statusClass(9)"},
	} {
		if got := tt.c.String(); got != tt.want {
			t.Errorf("%d: got %q, want %q", uint8(tt.c), got, tt.want)
		}
	}
}

// TestRouteLabel checks that "" is the one unmatched value and that
// patterns pass as they are.
func TestRouteLabel(t *testing.T) {
	for _, tt := range []struct{ pattern, want string }{
		{"", "unmatched"},
		{"GET /users/{id}", "GET /users/{id}"},
		{"/static/", "/static/"},
		{"example.com/", "example.com/"},
	} {
		if got := routeLabel(tt.pattern); got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.pattern, got, tt.want)
		}
	}
}
