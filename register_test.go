package cairn_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cairn-go/cairn"
)

// TestRegistrationErrors checks the registration errors that composition
// and constraints add to the pattern errors of TestPanics.
func TestRegistrationErrors(t *testing.T) {
	h := http.NotFoundHandler()
	for _, tt := range []struct {
		name string
		f    func(r *cairn.Router)
		want string
	}{
		{"nil HandlerFunc", func(r *cairn.Router) { r.Handle("/", http.HandlerFunc(nil)) }, `cairn: nil handler for pattern "/"`},
		{"nil func", func(r *cairn.Router) { r.HandleFunc("/", nil) }, `cairn: nil handler for pattern "/"`},
		{"nil func in group", func(r *cairn.Router) { r.Group("/g").HandleFunc("/", nil) }, `cairn: nil handler for pattern "/g/"`},
		{"nil mount", func(r *cairn.Router) { r.Mount("/m", http.HandlerFunc(nil)) }, `cairn: nil handler mounted at "/m"`},
		{"bad group prefix", func(r *cairn.Router) { r.Group("/{") }, `cairn: prefix "/{": cairn: parsing "/{": at offset 1`},
		{"unknown constraint in prefix", func(r *cairn.Router) { r.Group("/{id:nosuch}") }, `unknown constraint "nosuch"`},
		{"{$} in prefix", func(r *cairn.Router) { r.Group("/a/{$}") }, `cairn: prefix "/a/{$}" ends in {$}: a prefix is followed by the paths of its routes, so it may not end in {$} or {name...}`},
		{"multi in prefix", func(r *cairn.Router) { r.Group("/a/{x...}") }, `cairn: prefix "/a/{x...}" ends in {x...}: `},
		{"multi in a group's prefix", func(r *cairn.Router) { r.Group("/a").Group("/{x...}") }, `cairn: prefix "/{x...}" ends in {x...}: `},
		{"multi in mount prefix", func(r *cairn.Router) { r.Mount("h.com/a/{x...}", h) }, `cairn: prefix "h.com/a/{x...}" ends in {x...}: `},
		{"slash in DefineRegexp", func(r *cairn.Router) { r.DefineRegexp("path", "a/b") }, `cairn: constraint "path": regexp "a/b" contains '/'`},
		{"nil middleware in Use", func(r *cairn.Router) { r.Use(nil) }, "cairn: nil middleware"},
		{"nil middleware in UseBeforeRouting", func(r *cairn.Router) { r.UseBeforeRouting(nil) }, "cairn: nil middleware"},
		{"nil middleware in Group", func(r *cairn.Router) { r.Group("/g", nil) }, "cairn: nil middleware"},
		{"nil middleware in With", func(r *cairn.Router) { r.With(nil) }, "cairn: nil middleware"},
		{"empty name", func(r *cairn.Router) { r.Named("") }, `cairn: invalid route name ""`},
		{"name with a slash", func(r *cairn.Router) { r.Named("a/b") }, `cairn: invalid route name "a/b"`},
		{"name taken", func(r *cairn.Router) {
			r.Named("users").Handle("GET /users", h)
			r.Named("users").Handle("GET /people", h)
		}, `cairn: route name "users" for pattern "GET /people" (registered at`},
		{"two groups claim a prefix", func(r *cairn.Router) {
			r.Group("/admin", trace("a")).Handle("GET /x", h)
			r.Group("/admin", trace("b")).Handle("GET /y", h)
		}, `cairn: group "/admin" (made at`},
		{"mount cycle", func(r *cairn.Router) {
			inner := cairn.New()
			r.Mount("/inner", inner)
			inner.Mount("/outer", r)
		}, "cairn: mounting a router at \"/outer\" would make a cycle"},
		{"mount itself", func(r *cairn.Router) { r.Mount("/self", r) }, "would make a cycle"},
		{"unknown slash policy", func(r *cairn.Router) { r.TrailingSlash(cairn.SlashPolicy(9)) }, "cairn: unknown trailing-slash policy SlashPolicy(9)"},
		{"prefix without a slash", func(r *cairn.Router) { r.Group("v1") }, `cairn: prefix "v1" has no '/': write "/v1" for a path, or "v1/" for the host v1`},
		{"mount prefix without a slash", func(r *cairn.Router) { r.Mount("v1", h) }, `cairn: prefix "v1" has no '/'`},
		{"nil from a constructor", func(r *cairn.Router) { r.Use(trace("a"), func(http.Handler) http.Handler { return nil }) }, "cairn: middleware 2 of 2 returned a nil handler"},
		{"nil from a group's constructor", func(r *cairn.Router) { r.Group("/g", func(http.Handler) http.Handler { return nil }) }, "cairn: middleware 1 of 1 returned a nil handler"},
		{"mounted router reuses a prefix wildcard", func(r *cairn.Router) {
			inner := cairn.New()
			inner.Handle("GET /x/{id}", h)
			r.Mount("/u/{id}", inner)
		}, `cairn: mounting a router at "/u/{id}": its pattern "GET /x/{id}" (registered at`},
		{"route of a mounted router reuses a prefix wildcard", func(r *cairn.Router) {
			inner := cairn.New()
			r.Mount("/u/{id}", inner)
			inner.Handle("GET /x/{id}", h)
		}, `cairn: pattern "GET /x/{id}" (registered at`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var v any
			func() {
				defer func() { v = recover() }()
				tt.f(cairn.New())
			}()
			err, ok := v.(error)
			if !ok {
				t.Fatalf("panic %#v, want an error containing %q", v, tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("panic %q, want it to contain %q", err, tt.want)
			}
		})
	}
	// The versions of one pattern may share a name.
	r := cairn.New()
	r.Named("user").Handle("GET /users/{id}", h)
	r.Named("user").Version("v2").Handle("GET /users/{id}", h)
	if p, err := r.Path("user", "id", "7"); p != "/users/7" || err != nil {
		t.Errorf(`Path("user") = %q, %v`, p, err)
	}
}

// positive is a constraint that panics on what is not an integer, as a
// careless one might.
func positive(s string) bool {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(fmt.Sprintf("cairn_test: positive(%q): %v", s, err))
	}
	return n > 0
}

// TestPanickingConstraint registers a pattern whose conflict check calls a
// constraint that panics: the registration panics, and the router goes on
// registering, listing and serving.
func TestPanickingConstraint(t *testing.T) {
	for _, serveFirst := range []bool{false, true} {
		r := cairn.New()
		r.DefineConstraint("pos", positive)
		r.HandleFunc("GET /items/{id:pos}", answer("item"))
		if serveFirst {
			do(t, r, "GET", "/items/1")
		}
		// Without a method, so that the check compares it with the
		// patterns below wildcards (see Router.soleCandidates).
		if msg := panicMessage(func() { r.HandleFunc("/items/new", answer("new")) }); !strings.Contains(msg, `positive("new")`) {
			t.Errorf("serveFirst=%v: panic %q, want the constraint's", serveFirst, msg)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			r.HandleFunc("GET /other", answer("other"))
			_ = r.Routes()
			_, _ = r.Path("GET /other")
			r.NotFound(nil)
			if got, _ := do(t, r, "GET", "/items/7"); got.code != 200 || got.body != "item" {
				t.Errorf("serveFirst=%v: GET /items/7: got %+v", serveFirst, got)
			}
			if got, _ := do(t, r, "GET", "/other"); got.code != 200 || got.body != "other" {
				t.Errorf("serveFirst=%v: GET /other: got %+v", serveFirst, got)
			}
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("serveFirst=%v: the router hangs after a constraint panicked", serveFirst)
		}
	}
}

// TestConcurrentRegistration has goroutines register routes (some with a
// panicking constraint), change settings and add middleware while others
// serve, for a bounded time. No call may hang, and every request must be
// routed to the handler of its path or get 404 before the route exists.
func TestConcurrentRegistration(t *testing.T) {
	r := cairn.New()
	r.DefineConstraint("pos", positive)
	r.HandleFunc("GET /items/{id:pos}", answer("item"))
	const writers, readers, perWriter = 3, 3, 150
	var registered [writers][perWriter]atomic.Bool
	var constructed, uses atomic.Int64
	deadline := time.Now().Add(2 * time.Second)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < perWriter && time.Now().Before(deadline); i++ {
				switch i % 10 {
				case 3:
					// A constraint that panics while the pattern is checked.
					if msg := panicMessage(func() { r.HandleFunc(fmt.Sprintf("/items/w%d-%d", w, i), answer("x")) }); msg == "" {
						t.Errorf("writer %d: a pattern checked with a panicking constraint was accepted", w)
					}
				case 5:
					r.NotFound(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(404) }))
				case 7:
					r.Use(func(next http.Handler) http.Handler { constructed.Add(1); return next })
					uses.Add(1)
				}
				name := fmt.Sprintf("w%d-%d", w, i)
				r.Group("/g/"+name, trace(name)).HandleFunc("GET /{id}", answer(name))
				registered[w][i].Store(true)
			}
		}()
	}
	var served atomic.Int64
	for range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
			for time.Now().Before(deadline) {
				w, i := rng.IntN(writers), rng.IntN(perWriter)
				name := fmt.Sprintf("w%d-%d", w, i)
				wasRegistered := registered[w][i].Load()
				got, _ := do(t, r, "GET", "/g/"+name+"/1")
				switch {
				case got.code == 200 && got.body != name:
					t.Errorf("GET /g/%s/1: served by %q", name, got.body)
				case got.code != 200 && wasRegistered:
					t.Errorf("GET /g/%s/1: got %d after its registration returned", name, got.code)
				case got.code != 200 && got.code != 404:
					t.Errorf("GET /g/%s/1: got %d", name, got.code)
				}
				served.Add(1)
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("registration or serving hangs")
	}
	if constructed.Load() != uses.Load() {
		t.Errorf("%d middleware constructor calls, want one per Use call, %d", constructed.Load(), uses.Load())
	}
	if served.Load() == 0 {
		t.Error("no request was served")
	}
	t.Logf("%d requests served while registering", served.Load())
}

// TestRegisterErrorsAreErrors checks that registration panics carry error
// values that errors.As and errors.Is see through.
func TestRegisterErrorsAreErrors(t *testing.T) {
	r := cairn.New()
	defer func() {
		var pe *cairn.PatternError
		if err, _ := recover().(error); !errors.As(err, &pe) {
			t.Errorf("bad group prefix: got %v, want a wrapped *cairn.PatternError", err)
		}
	}()
	r.Group("/{")
}

// TestRegistrationLocation checks that Routes and conflict messages give
// the file and line of the call that registered, through every way of
// registering.
func TestRegistrationLocation(t *testing.T) {
	next := func() string { // the line after the caller's
		_, file, line, _ := runtime.Caller(1)
		return fmt.Sprintf("%s:%d", file, line+1)
	}
	r := cairn.New()
	h := http.NotFoundHandler()
	var want []string
	want = append(want, next())
	r.Handle("GET /a", h)
	want = append(want, next())
	r.HandleFunc("GET /b", h.ServeHTTP)
	g := r.Group("/g")
	want = append(want, next())
	g.Handle("GET /c", h)
	want = append(want, next())
	g.HandleFunc("GET /d", h.ServeHTTP)
	routes := r.Routes()
	if len(routes) != len(want) {
		t.Fatalf("%d routes, want %d", len(routes), len(want))
	}
	for i, ri := range routes {
		if ri.Location != want[i] {
			t.Errorf("%s: Location %q, want %q", ri.Pattern, ri.Location, want[i])
		}
	}
	var conflictAt string
	defer func() {
		err, _ := recover().(*cairn.ConflictError)
		if err == nil || err.ExistingLocation != want[0] || err.PatternLocation != conflictAt {
			t.Errorf("conflict: got %v; want locations %s and %s", err, conflictAt, want[0])
		}
	}()
	conflictAt = next()
	r.Handle("GET /a", h)
}
