package profiler_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cairn-go/cairn"
	"github.com/cairn-go/cairn/profiler"
)

// requireToken answers 401 unless the request carries the token.
func requireToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer secret" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func TestRegister(t *testing.T) {
	fast := cairn.New()
	fast.PopulatePathValues(false)
	profiler.Register(fast, "/debug/pprof")

	grouped := cairn.New()
	profiler.Register(grouped.Group("/admin", requireToken), "/debug/pprof")

	mux := http.NewServeMux()
	profiler.Register(mux, "/internal/pprof")

	// Prefixes that start with pprof's own, whose index pprof.Index would
	// take for a profile's name.
	nested := cairn.New()
	profiler.Register(nested, "/debug/pprof/app")
	nestedGroup := cairn.New()
	profiler.Register(nestedGroup.Group("/debug/pprof"), "/g")

	for _, tt := range []struct {
		name   string
		h      http.Handler
		prefix string
		auth   bool
	}{
		{"router without path values", fast, "/debug/pprof", false},
		{"group behind a token", grouped, "/admin/debug/pprof", true},
		{"ServeMux", mux, "/internal/pprof", false},
		{"below /debug/pprof/", nested, "/debug/pprof/app", false},
		{"group below /debug/pprof/", nestedGroup, "/debug/pprof/g", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.h)
			defer srv.Close()
			get := func(method, path string, token bool) (int, string, http.Header) {
				t.Helper()
				req, _ := http.NewRequest(method, srv.URL+path, nil)
				if token {
					req.Header.Set("Authorization", "Bearer secret")
				}
				c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
				resp, err := c.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				return resp.StatusCode, string(b), resp.Header
			}
			for _, c := range []struct {
				method, path string
				code         int
				contains     string
			}{
				{"GET", "/", 200, "Types of profiles available"},
				{"GET", "/goroutine?debug=1", 200, "goroutine profile:"},
				{"GET", "/heap?debug=1", 200, "heap profile:"},
				{"GET", "/allocs", 200, ""},
				{"GET", "/threadcreate?debug=1", 200, "threadcreate profile:"},
				{"GET", "/cmdline", 200, ".test"},
				{"GET", "/symbol", 200, "num_symbols:"},
				{"POST", "/symbol", 200, ""},
				{"GET", "/profile?seconds=1", 200, ""},
				{"GET", "/trace?seconds=0.1", 200, ""},
				{"GET", "/nosuch", 404, "Unknown profile"},
			} {
				code, body, _ := get(c.method, tt.prefix+c.path, tt.auth)
				if code != c.code || !strings.Contains(body, c.contains) {
					t.Errorf("%s %s: %d %.60q, want %d containing %q", c.method, c.path, code, body, c.code, c.contains)
				}
			}
			code, _, h := get("GET", tt.prefix, tt.auth)
			if code/100 != 3 || !strings.HasSuffix(h.Get("Location"), tt.prefix+"/") {
				t.Errorf("GET %s: %d to %q, want a redirect to %s/", tt.prefix, code, h.Get("Location"), tt.prefix)
			}
			if tt.auth {
				for _, p := range []string{"/", "/heap", "/cmdline", "/nosuch"} {
					if code, _, _ := get("GET", tt.prefix+p, false); code != 401 {
						t.Errorf("GET %s without the token: %d, want 401", p, code)
					}
				}
			}
		})
	}
}

func TestRegisterBadPrefix(t *testing.T) {
	for _, prefix := range []string{"", "debug", "/debug/", "/{x}", "GET /debug"} {
		func() {
			defer func() {
				v := recover()
				if s, ok := v.(string); !ok || !strings.HasPrefix(s, "profiler: ") || !strings.Contains(s, prefix) {
					t.Errorf("Register(%q): panic %v, want a profiler error naming it", prefix, v)
				}
			}()
			profiler.Register(http.NewServeMux(), prefix)
		}()
	}
}
