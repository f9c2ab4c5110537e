package cairn

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// TestConstraintOncePerMiss checks that a request runs each constraint at
// most once on a long segment, whatever answer it gets: a miss (404), a
// 405 with its Allow header, an OPTIONS answer, a redirect to the path
// with a slash, a match, with 20 sibling constraints that all refuse the
// segment. A path a group claims is decided twice, before the group's
// middleware and after it (which may have changed the request): at most
// once each, and once more for each nested group.
func TestConstraintOncePerMiss(t *testing.T) {
	const n, longLen = 20, 1000
	var calls [n]atomic.Int64
	r := New()
	g := r.Group("/g", func(h http.Handler) http.Handler { return h })
	nested := g.Group("/n", func(h http.Handler) http.Handler { return h })
	for i := range n {
		name := "c" + string(rune('a'+i))
		r.DefineConstraint(name, func(s string) bool {
			if len(s) >= longLen {
				calls[i].Add(1) // runs on the long segment, not on a short one beside it ("n")
			}
			return strings.HasPrefix(s, name+"-")
		})
		r.HandleFunc("GET /a/{x:"+name+"}/b", func(http.ResponseWriter, *http.Request) {})
		r.HandleFunc("POST /m/{x:"+name+"}", func(http.ResponseWriter, *http.Request) {})
		r.HandleFunc("GET /s/{x:"+name+"}/", func(http.ResponseWriter, *http.Request) {})
		g.HandleFunc("GET /{x:"+name+"}/y", func(http.ResponseWriter, *http.Request) {})
		g.HandleFunc("GET /{x:"+name+"}/s/", func(http.ResponseWriter, *http.Request) {})
		nested.HandleFunc("GET /{x:"+name+"}/y", func(http.ResponseWriter, *http.Request) {})
	}
	r.HandleFunc("GET /a/{x}/c", func(http.ResponseWriter, *http.Request) {})
	long := strings.Repeat("z", longLen)
	for _, tt := range []struct {
		method, path string
		code         int
		runs         int64 // the most runs of one constraint
	}{
		{"GET", "/a/" + long + "/b", 404, 1},
		{"GET", "/a/" + long + "/c", 200, 1},
		{"GET", "/m/" + long, 404, 1},
		{"GET", "/m/cc-" + long, 405, 1},
		{"OPTIONS", "/m/cc-" + long, 204, 1},
		{"GET", "/s/" + long, 404, 1},
		{"GET", "/s/cd-" + long, 307, 1},
		{"GET", "/g/" + long + "/y", 404, 2},
		{"GET", "/g/cd-" + long + "/s", 307, 2},
		{"GET", "/g/n/" + long + "/y", 404, 3}, // once more for the nested group
		{"GET", "/a/" + long + "%2F/b", 404, 1},
		// Unclean paths, walked again once cleaned.
		{"GET", "/a/" + long + "/./b", 307, 1},
		{"GET", "/a/" + long + "/b/c/..", 307, 1},
		{"GET", "/a/" + long + "%2F/./b", 307, 1},
	} {
		for i := range calls {
			calls[i].Store(0)
		}
		w := httptest.NewRecorder()
		r.ServeHTTP(w, httptest.NewRequest(tt.method, tt.path, nil))
		if w.Code != tt.code {
			t.Errorf("%s %.20s...: got %d, want %d", tt.method, tt.path, w.Code, tt.code)
		}
		for i := range calls {
			if c := calls[i].Load(); c > tt.runs {
				t.Errorf("%s %.20s...: constraint %d ran %d times", tt.method, tt.path, i, c)
			}
		}
	}
}

// BenchmarkLongSegmentMiss measures a request whose 64 KiB segment misses
// 100 sibling regexp constraints: every constraint reads the segment to its
// end, once.
func BenchmarkLongSegmentMiss(b *testing.B) {
	r := New()
	for i := range 100 {
		r.HandleFunc("GET /r/{x:[a-y]+"+strconv.Itoa(i)+"}/end", func(http.ResponseWriter, *http.Request) {})
	}
	req := httptest.NewRequest("GET", "/r/"+strings.Repeat("a", 64<<10)+"/end", nil)
	w := &recorder{h: http.Header{}}
	r.ServeHTTP(w, req)
	b.ReportAllocs()
	for b.Loop() {
		r.ServeHTTP(w, req)
	}
}

// TestConstraintOncePerMissSlash is TestConstraintOncePerMiss under the
// policies that look up a path with a trailing slash again without it: the
// second lookup reuses the answers of the first.
func TestConstraintOncePerMissSlash(t *testing.T) {
	const longLen = 1000
	long := strings.Repeat("z", longLen)
	for _, policy := range []SlashPolicy{SlashRedirect, SlashServe} {
		var calls atomic.Int64
		r := New()
		r.TrailingSlash(policy)
		r.DefineConstraint("c", func(s string) bool {
			if len(s) >= longLen {
				calls.Add(1)
			}
			return strings.HasPrefix(s, "c-")
		})
		r.HandleFunc("POST /m/{x:c}/{$}", func(http.ResponseWriter, *http.Request) {})
		r.HandleFunc("GET /t/{x:c}", func(http.ResponseWriter, *http.Request) {})
		serve := http.StatusOK
		if policy == SlashRedirect {
			serve = http.StatusTemporaryRedirect
		}
		for _, tt := range []struct {
			method, path string
			code         int
		}{
			{"GET", "/m/c-" + long + "/", http.StatusMethodNotAllowed},
			{"GET", "/m/" + long + "/", http.StatusNotFound},
			{"GET", "/t/c-" + long + "/", serve},
		} {
			calls.Store(0)
			w := httptest.NewRecorder()
			r.ServeHTTP(w, httptest.NewRequest(tt.method, tt.path, nil))
			if w.Code != tt.code || calls.Load() > 1 {
				t.Errorf("%v: %s %.20s...: %d, the constraint ran %d times; want %d, once", policy, tt.method, tt.path, w.Code, calls.Load(), tt.code)
			}
		}
	}
}
