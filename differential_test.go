package cairn_test

// This file checks cairn against net/http.ServeMux, the reference it must
// agree with. Pattern sets and requests are drawn from a small alphabet so
// that random patterns often overlap, conflict and match the random
// requests. Each pattern set is registered in order into a fresh ServeMux
// and fresh cairn Routers; the two must panic on the same registrations, and
// then every request must run the same handler with the same r.Pattern and
// path values, or produce the same status code, Location and Allow headers.
// A Router with a pass-through middleware before routing, which routes from
// the middleware's last hop, must answer exactly as the one without.
//
// On a disagreement, the pattern set is shrunk to a smallest subset that
// still disagrees, so that the failure message shows a small reproducer.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-go/cairn"
)

// maxDisagreements is how many disagreements a test reports before it stops.
const maxDisagreements = 40

// TestDifferentialServeMux compares cairn with ServeMux on random pattern
// sets and random requests. Each pattern set has its own seed, so a failure
// names the seed that reproduces it.
func TestDifferentialServeMux(t *testing.T) {
	sets, reqsPerSet := 4000, 40
	if testing.Short() {
		sets, reqsPerSet = 400, 20
	}
	var total diffTally
	for seed := range uint64(sets) {
		g := &caseGenerator{c: rand.New(rand.NewPCG(seed, 0x636169726e))}
		patterns := g.patterns()
		// Odd seeds serve while registering too.
		interleave := seed%2 == 1
		label := fmt.Sprintf("seed %d", seed)
		if interleave {
			label += ", serving after each registration"
		}
		total.add(checkDifferential(t, label, patterns, g.requests(patterns, reqsPerSet), interleave))
		if total.failures >= maxDisagreements {
			t.Fatalf("stopping after %d disagreements (%d cases run)", total.failures, total.cases)
		}
	}
	t.Logf("ran %d cases (%d pattern sets); in %d of them ServeMux's r.PathValue panicked, so path values were not compared",
		total.cases, sets, total.valuePanics)
}

// FuzzDifferentialServeMux compares cairn with ServeMux on pattern sets and
// requests chosen by the fuzz input: choices drive the generator (a seeded
// PCG takes over when they run out), pattern is an extra raw pattern added
// to the generated set, and target an extra raw request-target.
func FuzzDifferentialServeMux(f *testing.F) {
	for i, tt := range []struct {
		choices []byte
		pattern string
		target  string
	}{
		{nil, "", ""},
		{[]byte{0, 1, 2, 3}, "/a/{x}", "/a/b"},
		{[]byte{5, 5, 5}, "GET a.com/b/{$}", "/b/"},
		{[]byte{1}, "/a/{x}/b", "/a/x/b"},
		{[]byte{9, 200, 17}, "CONNECT /a/../b", "/a/../b"},
		{[]byte{2, 40}, "/{x}/{x}", "/a/b"},
		{[]byte{3, 3}, "HEAD /a/{y...}", "/a/%2F/b"},
		{[]byte{7}, "/tree/", "http://a.com/tree?q=1"},
		{[]byte{255, 0, 255}, "GET /{$}", "*"},
		{[]byte{}, "POST b.com/", "a.com:443"},
		{[]byte{1}, strings.Repeat("h", 70000) + "/a", "/a"}, // a long host: left out
	} {
		f.Add(uint64(i), tt.choices, tt.pattern, tt.target)
	}
	f.Fuzz(func(t *testing.T, seed uint64, choices []byte, pattern, target string) {
		g := &caseGenerator{c: &fuzzChooser{data: choices, rng: rand.New(rand.NewPCG(seed, ^seed))}}
		patterns := g.patterns()
		if pattern != "" && !mayUseExtension(pattern) && !hasEmptySegment(pattern) && !hasLongHost(pattern) {
			patterns = slices.Insert(patterns, g.c.IntN(len(patterns)+1), pattern)
		}
		reqs := g.requests(patterns, 10)
		if target != "" {
			spec := reqSpec{Method: g.requestMethod(), Host: g.requestHost(), Target: target}
			if _, err := spec.newRequest(); err == nil {
				reqs = append(reqs, spec)
			}
		}
		checkDifferential(t, "fuzz", patterns, reqs, seed%2 == 1)
	})
}

// TestDifferentialKnownCases compares cairn with ServeMux on hand-written
// cases around the corners of ServeMux's behaviour. The expected outcome is
// whatever ServeMux does; nothing here is hard-coded.
func TestDifferentialKnownCases(t *testing.T) {
	get := func(target string) reqSpec { return reqSpec{Method: "GET", Host: "a.com", Target: target} }
	req := func(method, host, target string) reqSpec { return reqSpec{Method: method, Host: host, Target: target} }
	for _, tt := range []struct {
		name     string
		patterns []string
		reqs     []reqSpec
	}{
		{
			name:     "host beats hostless",
			patterns: []string{"/a", "a.com/a", "b.com/", "/{x}/b", "a.com/c/{y}"},
			reqs: []reqSpec{
				get("/a"), req("GET", "b.com", "/a"), req("GET", "a.com:8080", "/a"),
				req("GET", "c.com", "/a"), req("GET", "a.com", "http://b.com/a"),
				req("GET", "b.com", "/c/b"), get("/c/b"), req("GET", "", "/a"),
			},
		},
		{
			name:     "HEAD matches GET",
			patterns: []string{"GET /a", "/b", "HEAD /c", "GET /c", "GET /d/{x}", "POST /d/{x}"},
			reqs: []reqSpec{
				req("HEAD", "a.com", "/a"), req("HEAD", "a.com", "/b"), req("HEAD", "a.com", "/c"),
				req("GET", "a.com", "/c"), req("POST", "a.com", "/a"), req("HEAD", "a.com", "/d/1"),
				req("PUT", "a.com", "/d/1"),
			},
		},
		{
			name:     "405 Allow is sorted",
			patterns: []string{"PUT /r", "POST /r", "GET /r", "DELETE /r", "patch /r", "a.com/s", "POST b.com/s", "PUT /s/"},
			reqs: []reqSpec{
				req("OPTIONS", "a.com", "/r"), req("CONNECT", "a.com", "/r"), req("HEAD", "a.com", "/r"),
				req("GET", "b.com", "/s"), req("GET", "b.com", "/s/x"), req("GET", "c.com", "/s"),
			},
		},
		{
			name:     "trailing slash redirect",
			patterns: []string{"/tree/", "GET /get/", "/a/{x}/", "/m/{x...}", "/a%2Fb/", "/q/{$}"},
			reqs: []reqSpec{
				get("/tree"), get("/tree?q=1"), req("HEAD", "a.com", "/tree"), req("POST", "a.com", "/tree"),
				req("CONNECT", "a.com", "/tree"), req("POST", "a.com", "/get"), get("/get"),
				get("/a/b"), get("/a/%2F"), get("/m"), get("/m/"), get("/a%2Fb"), get("/q"),
				get("http://a.com/tree"), get("http://b.com/tree"),
			},
		},
		{
			name:     "end anchor",
			patterns: []string{"/{$}", "/a/{$}", "/b/", "GET /c/{x}/{$}"},
			reqs: []reqSpec{
				get("/"), get("/a/"), get("/a"), get("/a/b"), get("/b/{$}"), get("/c/d/"), get("/c/d"),
				req("POST", "a.com", "/c/d/"), get("http://a.com"),
			},
		},
		{
			name:     "escaped slash in segments",
			patterns: []string{"/a/{x}", "/a/{y}/c", "/b/{x...}", "/a%2Fb", "/%61b"},
			reqs: []reqSpec{
				get("/a/b%2Fc"), get("/a%2Fb"), get("/a/b/c"), get("/a/%2F/c"), get("/%61/b%2F"),
				get("/b/%2F/x%2Fy"), get("/ab"), get("/%61%62"), get("/a/%61"),
			},
		},
		{
			name:     "escapes of bytes that are not UTF-8",
			patterns: []string{"/%E9", "/b/\xe9", "/c%e9/", "/d/{x}"},
			reqs: []reqSpec{
				get("/%e9"), get("/%E9"), get("/\xe9"), get("/b/%E9"), get("/b/%e9"), get("/b/\xe9"),
				get("/c%E9"), get("/c%e9"), get("/c\xe9/"), get("/d/%e9"), get("/d/\xe9"),
			},
		},
		{
			name:     "cleaning redirects",
			patterns: []string{"/a/b", "/c/", "/{x}/d"},
			reqs: []reqSpec{
				get("/a/../a/b"), get("/a//b"), get("/./a/b"), get("/a/b/.."), get("/a/./b?q=1"),
				get("/x/../a%2Fb"), get("//a/b"), get("/c/.."), get("/c/./"), get("/e/../c"),
				get("/%2E%2E/a/b"), get("/c/%2e"), req("POST", "a.com", "/a/../a/b"),
			},
		},
		{
			name:     "CONNECT",
			patterns: []string{"/a/", "CONNECT /a/../b", "/c/", "a.com:8080/d", "CONNECT /e"},
			reqs: []reqSpec{
				req("CONNECT", "a.com", "/a/../b"), req("CONNECT", "a.com", "/c"), req("CONNECT", "a.com", "a.com:443"),
				req("CONNECT", "a.com:8080", "/d"), req("GET", "a.com:8080", "/d"), req("CONNECT", "a.com", "/e"),
				req("GET", "a.com", "/e"), req("CONNECT", "a.com", "http://b.com/c"), req("CONNECT", "b.com", "http://a.com:8080/d"),
				req("CONNECT", "a.com", "/f/./g"), req("CONNECT", "a.com", "//a/"),
			},
		},
		{
			name:     "URL.Path rewritten without URL.RawPath",
			patterns: []string{"/a/{x}", "/a%2Fb", "/c/"},
			reqs: []reqSpec{
				{Method: "GET", Host: "a.com", Target: "/a%2Fb", StalePath: "/a/b"},
				{Method: "GET", Host: "a.com", Target: "/a%2Fb", StalePath: "/c/d"},
				{Method: "GET", Host: "a.com", Target: "/c/%2F", StalePath: "/a/b"},
				{Method: "GET", Host: "a.com", Target: "/a/%2F", StalePath: "/c"},
				{Method: "GET", Host: "a.com", Target: "/c/x", StalePath: "/c/../a/b"},
			},
		},
		{
			name:     "asterisk request-target",
			patterns: []string{"/", "/*", "OPTIONS /"},
			reqs:     []reqSpec{req("OPTIONS", "a.com", "*"), get("*"), req("CONNECT", "a.com", "*")},
		},
		{
			name:     "precedence and conflicts",
			patterns: []string{"/a/{x}", "/a/b", "/{x}/b", "GET /a/{y}", "GET /a/{x}/", "/a/{x}/c", "POST /a/", "/a/b/{z...}"},
			reqs: []reqSpec{
				get("/a/b"), get("/a/c"), get("/b/b"), get("/a/b/c"), req("POST", "a.com", "/a/z/y"),
				get("/a/b/c/d"), req("HEAD", "a.com", "/a/x/"),
			},
		},
		{
			name: "invalid patterns",
			patterns: []string{
				"", "GET", "a.com", "/{x}/{x}", "/{x...}/a", "GET /a/../b", "/a/../b", "{x}/a",
				"/{$}/a", "/a{x}", "/{x}a", "/{}", "/{1x}", "/{", "GET  /two", "GET\t/tab", "G(T /a",
				"/{...}", "/{$", "HEAD /a//b", "/%", "/%zz/{x}", "/{é}", "/{x²}", "/{_}", "M-SEARCH /m", "GET! /g",
			},
			reqs: []reqSpec{
				get("/a/../b"), get("/two"), get("/tab"), req("CONNECT", "a.com", "/a/../b"), get("/%25"),
				get("/%25zz/1"), req("M-SEARCH", "a.com", "/m"), req("GET!", "a.com", "/g"),
			},
		},
		{
			name:     "escaped slash as a whole segment",
			patterns: []string{"/%2F", "/b/%2F/{$}", "/c/%2F/"},
			reqs: []reqSpec{
				get("/"), get("/%2F"), get("/b/%2F/"), get("/b//"), req("CONNECT", "a.com", "/b//"),
				req("CONNECT", "a.com", "//"), get("/c/%2F"), get("/c/%2F/d"), get("/c//"),
			},
		},
		{
			name:     "escaped slash against end anchor",
			patterns: []string{"/%2F", "/{$}"},
			reqs:     []reqSpec{get("/"), get("/%2F")},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkDifferential(t, tt.name, tt.patterns, tt.reqs, false)
			checkDifferential(t, tt.name+", serving after each registration", tt.patterns, tt.reqs, true)
		})
	}
}

// A diffTally counts what checkDifferential did.
type diffTally struct {
	cases       int // requests compared
	failures    int // disagreements reported
	valuePanics int // requests for which ServeMux's r.PathValue panicked
}

// add adds the counts of u to t.
func (t *diffTally) add(u diffTally) {
	t.cases += u.cases
	t.failures += u.failures
	t.valuePanics += u.valuePanics
}

// checkDifferential registers patterns into a ServeMux and cairn Routers,
// serves every request on each of them, and reports each disagreement
// through tb, with a smallest pattern set that shows it. If interleave is
// set, it also serves one of reqs after each registration, so that cairn
// serves while its patterns change; otherwise cairn serves its first
// request after all registrations.
func checkDifferential(tb testing.TB, label string, patterns []string, reqs []reqSpec, interleave bool) (t diffTally) {
	tb.Helper()
	fx := newEmptyMuxFixture()
	for i, p := range patterns {
		if msg := fx.register(i, p); msg != "" {
			small := minimizePatterns(patterns[:i+1], func(ps []string) bool {
				_, m := newMuxFixture(ps)
				return m != ""
			})
			_, smallMsg := newMuxFixture(small)
			tb.Errorf("%s: registering %q: cairn and ServeMux disagree: %s\n\tsmallest pattern set: %q: %s",
				label, patterns, msg, small, smallMsg)
			t.failures++
			return t
		}
		if !interleave || len(reqs) == 0 {
			continue
		}
		spec := reqs[i%len(reqs)]
		t.cases++
		if d := fx.diff(spec); d != "" {
			t.failures++
			tb.Errorf("%s: patterns %q: serving after registering only %q: request %v:%s",
				label, patterns, patterns[:i+1], spec, d)
			if t.failures >= maxDisagreements {
				return t
			}
		}
	}
	for _, spec := range reqs {
		t.cases++
		d := fx.diff(spec)
		if fx.recs[0].valuePanic != "" {
			t.valuePanics++
		}
		if d == "" {
			continue
		}
		t.failures++
		small := minimizePatterns(patterns, func(ps []string) bool {
			fx, m := newMuxFixture(ps)
			return m == "" && fx.diff(spec) != ""
		})
		smallFx, _ := newMuxFixture(small)
		tb.Errorf("%s: patterns %q: request %v:%s\n\tsmallest pattern set (registered before serving): %q:%s",
			label, patterns, spec, d, small, smallFx.diff(spec))
		if t.failures >= maxDisagreements {
			break
		}
	}
	return t
}

// minimizePatterns returns a subsequence of patterns, as short as found by
// dropping one pattern at a time, for which fails still reports true.
func minimizePatterns(patterns []string, fails func([]string) bool) []string {
	ps := slices.Clone(patterns)
	for i := 0; i < len(ps); {
		shorter := slices.Delete(slices.Clone(ps), i, i+1)
		if fails(shorter) {
			ps = shorter
		} else {
			i++
		}
	}
	return ps
}

// A handlerRecord is what a handler saw of the request it served.
type handlerRecord struct {
	handler int    // index of the pattern whose handler ran, or -1
	pattern string // r.Pattern
	values  string // r.PathValue of each wildcard name, from formatValues
	params  string // cairn.Param of each wildcard name, from formatValues

	// valuePanic is the panic of r.PathValue, if any. ServeMux's panics
	// for some CONNECT paths with empty segments, for which its match
	// records fewer values than the pattern has wildcards.
	valuePanic string
}

// An outcome is the observable outcome of serving one request.
type outcome struct {
	Status   int
	Handler  int    // index of the pattern whose handler ran, or -1
	Pattern  string // r.Pattern as seen by that handler
	Values   string // r.PathValue of each wildcard name
	Params   string // cairn.Param of each wildcard name; for ServeMux, a copy of Values
	Location string
	Allow    string
	Panic    string // value recovered from a panicking ServeHTTP, if any
}

// A muxFixture holds a ServeMux and two cairn Routers, one with path values
// populated (the default) and one without, with the same patterns
// registered in the same order. Each has its own handlerRecord, written by the
// handlers registered on it.
type muxFixture struct {
	std  *http.ServeMux
	rt   *cairn.Router
	noPV *cairn.Router
	// pre is rt with middleware before routing, which makes the router
	// route the request from the middleware's last hop.
	pre  *cairn.Router
	recs [4]handlerRecord // for std, rt, noPV and pre in that order
}

// A registrar is what ServeMux and cairn.Router have in common for registration.
type registrar interface {
	HandleFunc(pattern string, handler func(http.ResponseWriter, *http.Request))
}

// newEmptyMuxFixture returns a muxFixture with no patterns.
func newEmptyMuxFixture() *muxFixture {
	fx := &muxFixture{std: http.NewServeMux(), rt: cairn.New(), noPV: cairn.New(), pre: cairn.New()}
	fx.noPV.PopulatePathValues(false)
	fx.pre.UseBeforeRouting(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { next.ServeHTTP(w, r) })
	})
	// ServeMux answers OPTIONS like any other method.
	fx.rt.DisableAutomaticOptions()
	fx.noPV.DisableAutomaticOptions()
	fx.pre.DisableAutomaticOptions()
	return fx
}

// newMuxFixture registers patterns into a new muxFixture. Registration goes
// on past rejected patterns, as ServeMux leaves its state unchanged when it
// rejects one. On the first registration disagreement, newMuxFixture stops
// and returns its description.
func newMuxFixture(patterns []string) (*muxFixture, string) {
	fx := newEmptyMuxFixture()
	for i, p := range patterns {
		if msg := fx.register(i, p); msg != "" {
			return fx, msg
		}
	}
	return fx, ""
}

// register registers pattern p, the i'th, on every router of fx. If cairn
// and ServeMux disagree on whether p is rejected, or cairn's panic value is
// not an error starting with "cairn:", register returns a description of
// the disagreement.
func (fx *muxFixture) register(i int, p string) string {
	names := wildcardNames(p)
	want := tryRegister(fx.std, p, recordingHandler(i, names, &fx.recs[0], false))
	got := tryRegister(fx.rt, p, recordingHandler(i, names, &fx.recs[1], true))
	gotNoPV := tryRegister(fx.noPV, p, recordingHandler(i, names, &fx.recs[2], true))
	gotPre := tryRegister(fx.pre, p, recordingHandler(i, names, &fx.recs[3], true))
	switch {
	case (got == nil) != (want == nil):
		return fmt.Sprintf("pattern %d %q: cairn panic: %v; ServeMux panic: %v", i, p, got, want)
	case (gotNoPV == nil) != (want == nil):
		return fmt.Sprintf("pattern %d %q: cairn with PopulatePathValues(false) panic: %v; ServeMux panic: %v", i, p, gotNoPV, want)
	case (gotPre == nil) != (want == nil):
		return fmt.Sprintf("pattern %d %q: cairn with middleware before routing panic: %v; ServeMux panic: %v", i, p, gotPre, want)
	case got != nil:
		if err, ok := got.(error); !ok || !strings.HasPrefix(err.Error(), "cairn:") {
			return fmt.Sprintf("pattern %d %q: cairn panic value %T %v is not an error starting with %q", i, p, got, got, "cairn:")
		}
	}
	return ""
}

// tryRegister calls h.HandleFunc(pattern, f) and returns the value of its panic, if any.
func tryRegister(h registrar, pattern string, f http.HandlerFunc) (panicValue any) {
	defer func() { panicValue = recover() }()
	h.HandleFunc(pattern, f)
	return nil
}

// recordingHandler returns the handler for pattern i, which stores into rec
// what it sees of the request. If withParam is set, it also stores
// cairn.Param for each name; otherwise it stores r.PathValue there too.
func recordingHandler(i int, names []string, rec *handlerRecord, withParam bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rec.handler = i
		rec.pattern = r.Pattern
		rec.values, rec.valuePanic = formatValues(names, r.PathValue)
		rec.params = rec.values
		if withParam {
			rec.params, _ = formatValues(names, func(name string) string { return cairn.Param(r, name) })
		}
	}
}

// formatValues formats value(name) for each of names as name="value" pairs.
// If value panics, formatValues shows the panic in place of the value and
// returns it as panicValue too.
func formatValues(names []string, value func(string) string) (s, panicValue string) {
	var b strings.Builder
	for i, name := range names {
		if i > 0 {
			b.WriteByte(' ')
		}
		v, p := callValue(value, name)
		if p != "" {
			v, panicValue = "panic: "+p, p
		}
		fmt.Fprintf(&b, "%s=%q", name, v)
	}
	return b.String(), panicValue
}

// callValue returns value(name), or the panic of value as p.
func callValue(value func(string) string, name string) (v, p string) {
	defer func() {
		if e := recover(); e != nil {
			p = fmt.Sprint(e)
		}
	}()
	return value(name), ""
}

// wildcardRE matches a wildcard "{name}" or "{name...}" in a pattern.
var wildcardRE = regexp.MustCompile(`\{([\pL_][\pL\pN_]*)(?:\.\.\.)?\}`)

// wildcardNames returns the sorted wildcard names of pattern together with
// the names of the generator's alphabet, which must have empty values when
// pattern lacks them.
func wildcardNames(pattern string) []string {
	names := slices.Clone(wildcardAlphabet)
	for _, m := range wildcardRE.FindAllStringSubmatch(pattern, -1) {
		names = append(names, m[1])
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// extensionRE matches the start of a constrained wildcard, such as "{id:"
// in "{id:int}" or "{code:[A-Z]{3}}".
var extensionRE = regexp.MustCompile(`\{[^{}/]*:`)

// mayUseExtension reports whether pattern may use cairn's constrained
// wildcards, which ServeMux rejects.
func mayUseExtension(pattern string) bool {
	return extensionRE.MatchString(pattern)
}

// hasEmptySegment reports whether pattern's path has an empty segment
// ("//"), which cairn matches literally and ServeMux as a wildcard: a
// documented difference, pinned by TestEmptySegment.
func hasEmptySegment(pattern string) bool {
	i := strings.IndexByte(pattern, '/')
	return i >= 0 && strings.Contains(pattern[i:], "//")
}

// hasLongHost reports whether pattern's method, blanks and host, what
// comes before its first '/', take more than 65 535 bytes, which
// cairn refuses and ServeMux takes: a documented difference.
func hasLongHost(pattern string) bool {
	i := strings.IndexByte(pattern, '/')
	if i < 0 {
		i = len(pattern)
	}
	return i > math.MaxUint16 // cairn's maxPatternHost
}

// diff serves spec on every router of fx and describes how cairn's outcome
// differs from ServeMux's, or returns "" if it does not.
func (fx *muxFixture) diff(spec reqSpec) string {
	want := serveOutcome(fx.std, &fx.recs[0], spec)
	got := serveOutcome(fx.rt, &fx.recs[1], spec)
	gotNoPV := serveOutcome(fx.noPV, &fx.recs[2], spec)
	gotPre := serveOutcome(fx.pre, &fx.recs[3], spec)
	gotAlone := got // before anything of ServeMux's is copied into it
	// Without populated path values, r.Pattern and r.PathValue are not
	// promised, but cairn.Param still is.
	gotNoPV.Pattern, gotNoPV.Values = want.Pattern, want.Values
	if fx.recs[0].valuePanic != "" {
		// ServeMux has no path values to compare with; the rest still counts.
		got.Values, got.Params = want.Values, want.Params
		gotNoPV.Params = want.Params
	}
	if !serveMuxKeepsEscapes && isRedirect(want.Status) && want.Status == got.Status && want.Location != got.Location {
		// The one known difference between Go versions: see
		// serveMuxKeepsEscapes. Only redirects of escaped paths and of
		// CONNECT requests, which are not cleaned, are concerned.
		if req, err := spec.newRequest(); err == nil && (req.Method == "CONNECT" || keepsEscapes(req.URL)) {
			want.Location, want.Pattern = got.Location, got.Pattern
			gotNoPV.Pattern = got.Pattern
		}
	}
	if isRedirect(want.Status) && want.Status == got.Status && isOtherHost(want.Location) && !isOtherHost(got.Location) {
		// A deliberate difference: ServeMux can redirect a CONNECT request
		// for "//host" to the scheme-relative "//host/", another host;
		// cairn's locations are always paths on the same host.
		want.Location = got.Location
		gotNoPV.Location = got.Location
	}
	var b strings.Builder
	if got != want {
		fmt.Fprintf(&b, "\n\tcairn:    %+v\n\tServeMux: %+v", got, want)
	}
	if gotNoPV != want {
		fmt.Fprintf(&b, "\n\tcairn with PopulatePathValues(false): %+v\n\tServeMux: %+v", gotNoPV, want)
	}
	if gotPre != gotAlone {
		// Middleware before routing changes nothing of the outcome.
		fmt.Fprintf(&b, "\n\tcairn with middleware before routing: %+v\n\tcairn:                                %+v", gotPre, gotAlone)
	}
	if spec.Target != "*" {
		// Handler names the pattern ServeMux.Handler names, and its handler
		// serves the request as ServeHTTP does.
		req, _ := spec.newRequest()
		_, wantPattern := fx.std.Handler(req)
		_, gotPattern := fx.rt.Handler(req)
		if gotPattern != wantPattern && (serveMuxKeepsEscapes || req.Method != "CONNECT") {
			fmt.Fprintf(&b, "\n\tcairn's Handler: pattern %q\n\tServeMux's Handler: pattern %q", gotPattern, wantPattern)
		}
		viaHandler := serveOutcome(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h, _ := fx.rt.Handler(r)
			h.ServeHTTP(w, r)
		}), &fx.recs[1], spec)
		if viaHandler != gotAlone {
			fmt.Fprintf(&b, "\n\tserved by cairn's Handler: %+v\n\tserved by cairn:           %+v", viaHandler, gotAlone)
		}
	}
	return b.String()
}

// keepsEscapes reports whether the escaped path of u holds escapes, or
// differs from the default encoding of its path: whether Go 1.26's ServeMux
// and cairn build different redirect locations for it.
func keepsEscapes(u *url.URL) bool {
	p := u.EscapedPath()
	return strings.Contains(p, "%") || p != (&url.URL{Path: u.Path}).EscapedPath()
}

// isOtherHost reports whether the location loc names a host.
func isOtherHost(loc string) bool {
	u, err := url.Parse(loc)
	return err == nil && u.Host != ""
}

// isRedirect reports whether code is a redirect status.
func isRedirect(code int) bool { return code >= 300 && code < 400 }

// serveOutcome serves a new request built from spec on h, whose handlers write
// into rec, and returns the outcome.
func serveOutcome(h http.Handler, rec *handlerRecord, spec reqSpec) outcome {
	*rec = handlerRecord{handler: -1}
	req, err := spec.newRequest()
	if err != nil {
		// The generators only make specs whose requests build.
		panic(fmt.Sprintf("building request %v: %v", spec, err))
	}
	w := httptest.NewRecorder()
	var res outcome
	func() {
		defer func() {
			if v := recover(); v != nil {
				res.Panic = fmt.Sprint(v)
			}
		}()
		h.ServeHTTP(w, req)
	}()
	res.Status = w.Code
	res.Handler = rec.handler
	res.Pattern = rec.pattern
	res.Values = rec.values
	res.Params = rec.params
	res.Location = w.Header().Get("Location")
	res.Allow = w.Header().Get("Allow")
	return res
}

// A reqSpec describes a request: its method, its Host header and its
// request-target as on the request line.
type reqSpec struct {
	Method string
	Host   string
	Target string // origin-form "/p?q", absolute-form "http://h/p", authority-form "h:443", or "*"

	// If StalePath is set, it replaces URL.Path after parsing, leaving
	// URL.RawPath as parsed, as a middleware that rewrites URL.Path alone
	// does. URL.EscapedPath then ignores the stale RawPath.
	StalePath string
}

// newRequest builds a request from s as the HTTP server would read it, but
// with r.Host taken from s.Host even when the target is absolute. It is built
// by hand because httptest.NewRequest reads CONNECT targets as authorities
// and gives r.Host the target's host.
func (s reqSpec) newRequest() (*http.Request, error) {
	var u *url.URL
	var err error
	if s.Method == "CONNECT" && !strings.HasPrefix(s.Target, "/") && s.Target != "*" {
		// Authority-form, read as http.ReadRequest does.
		u, err = url.ParseRequestURI("http://" + s.Target)
		if err == nil {
			u.Scheme = ""
		}
	} else {
		u, err = url.ParseRequestURI(s.Target)
	}
	if err != nil {
		return nil, err
	}
	if s.StalePath != "" {
		u.Path = s.StalePath
	}
	return &http.Request{
		Method:     s.Method,
		URL:        u,
		Proto:      "HTTP/1.1",
		ProtoMajor: 1,
		ProtoMinor: 1,
		Header:     make(http.Header),
		Body:       http.NoBody,
		Host:       s.Host,
		RequestURI: s.Target,
	}, nil
}

// String formats s with the URL fields that routing looks at.
func (s reqSpec) String() string {
	r, err := s.newRequest()
	if err != nil {
		return fmt.Sprintf("%s %q (Host %q; invalid target: %v)", s.Method, s.Target, s.Host, err)
	}
	return fmt.Sprintf("%s %q (Host %q; URL.Host %q, URL.Path %q, URL.RawPath %q, URL.RawQuery %q, URL.EscapedPath() %q)",
		s.Method, s.Target, s.Host, r.URL.Host, r.URL.Path, r.URL.RawPath, r.URL.RawQuery, r.URL.EscapedPath())
}

// A chooser makes the choices of a caseGenerator.
type chooser interface {
	// IntN returns a number in [0, n). It panics if n <= 0.
	IntN(n int) int
}

// A fuzzChooser takes its choices from fuzz input, then from rng.
type fuzzChooser struct {
	data []byte
	rng  *rand.Rand
}

// IntN returns the next input byte modulo n, or a random number in [0, n)
// once the input is used up.
func (c *fuzzChooser) IntN(n int) int {
	if len(c.data) == 0 {
		return c.rng.IntN(n)
	}
	b := c.data[0]
	c.data = c.data[1:]
	return int(b) % n
}

// The alphabets of the caseGenerator.
var (
	wildcardAlphabet = []string{"x", "y", "z"}

	patternMethods     = []string{"", "", "", "GET ", "GET ", "HEAD ", "POST ", "POST ", "PUT "}
	rarePatternMethods = []string{"CONNECT ", "DELETE ", "GET\t", "GET  ", "GET \t", "get ", "G(T ", "G/T ", "GET! ", "M-SEARCH "}
	patternHosts       = []string{"", "", "", "a.com", "b.com"}
	rarePatternHosts   = []string{"a.com:8080", "{x}", "A.COM", "[::1]", "::1", "a.com."}
	patternLiterals    = []string{"a", "b", "c"}
	escapedLiterals    = []string{"a%2Fb", "%61", "a%2fb", "%2F", "é", "%C3%A9", "%20", "%E9", "\xe9", "%e9a"}
	// oddSegments are path segments that make a pattern unclean (rejected
	// with a method other than CONNECT) or invalid, or are odd literals.
	// The empty segment is left out: ServeMux files it where it keeps
	// wildcards, a documented difference (see TestEmptySegment).
	oddSegments = []string{
		"..", ".", "{", "}", "{$}", "{x...}", "a{x}", "{x}a", "{}", "{1x}",
		"{...}", "{x}}", "%", "%zz", "%2E%2E",
		// Wildcard names that are or are not Go identifiers.
		"{é}", "{_}", "{x1}", "{x٣}", "{x²}", "{ x}", "{x }", "{$x}", "{x$}", "{...x}", "{x....}", "{é...}",
	}
	// malformedPatterns are whole patterns that ServeMux rejects, or edge cases of its grammar.
	malformedPatterns = []string{"", "GET", "a.com", "GET a", " /a", "GET /a{", "/{$", "\t/a", "GET /{x}/{x}"}

	requestMethods     = []string{"GET", "GET", "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT"}
	rareRequestMethods = []string{"get", "OPTIONS", "PATCH"}
	requestHosts       = []string{"a.com", "b.com", "a.com:8080", "c.com"}
	rareRequestHosts   = []string{"", "A.COM", "a.com.", "[::1]:8080", "::1", "a.com:", "a.com:x:y"}
	requestSegments    = []string{
		"a", "b", "c", "a", "b", "c", "x", "..", ".", "", "%2F", "a%2Fb", "%61",
	}
	rareRequestSegments = []string{
		"%2E%2E", "%2e", "a%2fb", "{$}", "%25", "%C3%A9", "%c3%a9", "é", "%20", "+", "a;b", "%3F", "%7B",
		"%E9", "%e9", "\xe9", "%E9a", "%e9a",
	}
)

// A caseGenerator makes random pattern sets and requests from small alphabets.
type caseGenerator struct {
	c chooser
}

// oneOf returns one of xs.
func (g *caseGenerator) oneOf(xs ...string) string {
	return xs[g.c.IntN(len(xs))]
}

// percent reports true with probability p percent.
func (g *caseGenerator) percent(p int) bool {
	return g.c.IntN(100) < p
}

// patterns returns 1 to 6 patterns.
func (g *caseGenerator) patterns() []string {
	ps := make([]string, 1+g.c.IntN(6))
	for i := range ps {
		ps[i] = g.pattern()
	}
	return ps
}

// pattern returns a pattern, most often a valid one.
func (g *caseGenerator) pattern() string {
	if g.percent(2) {
		return g.oneOf(malformedPatterns...)
	}
	var b strings.Builder
	if g.percent(6) {
		b.WriteString(g.oneOf(rarePatternMethods...))
	} else {
		b.WriteString(g.oneOf(patternMethods...))
	}
	if g.percent(3) {
		b.WriteString(g.oneOf(rarePatternHosts...))
	} else {
		b.WriteString(g.oneOf(patternHosts...))
	}
	used := map[string]bool{}
	dups := g.percent(4) // allow duplicate wildcard names
	n := g.c.IntN(4)
	for range n {
		b.WriteByte('/')
		switch k := g.c.IntN(100); {
		case k < 5:
			b.WriteString(g.oneOf(oddSegments...))
		case k < 12:
			b.WriteString(g.oneOf(escapedLiterals...))
		case k < 60:
			b.WriteString(g.oneOf(patternLiterals...))
		default:
			if name := g.wildcardName(used, dups); name != "" {
				b.WriteString("{" + name + "}")
			} else {
				b.WriteString(g.oneOf(patternLiterals...))
			}
		}
	}
	switch g.c.IntN(6) {
	case 0, 1:
		b.WriteString("/")
	case 2:
		b.WriteString("/{$}")
	case 3:
		if name := g.wildcardName(used, dups); name != "" {
			b.WriteString("/{" + name + "...}")
		} else {
			b.WriteString("/")
		}
	default:
		if n == 0 {
			b.WriteString("/")
		}
	}
	return b.String()
}

// wildcardName returns a wildcard name not in used and adds it to used, or
// returns "" if there is none left. If dups is set, it may return a used name.
func (g *caseGenerator) wildcardName(used map[string]bool, dups bool) string {
	var free []string
	for _, name := range wildcardAlphabet {
		if dups || !used[name] {
			free = append(free, name)
		}
	}
	if len(free) == 0 {
		return ""
	}
	name := g.oneOf(free...)
	used[name] = true
	return name
}

// requests returns n requests, more than half of them aimed at patterns.
func (g *caseGenerator) requests(patterns []string, n int) []reqSpec {
	reqs := make([]reqSpec, 0, n)
	for len(reqs) < n {
		spec := g.request(patterns)
		if _, err := spec.newRequest(); err != nil {
			panic(fmt.Sprintf("generated request %v does not build: %v", spec, err))
		}
		reqs = append(reqs, spec)
	}
	return reqs
}

// requestMethod returns a request method.
func (g *caseGenerator) requestMethod() string {
	if g.percent(3) {
		return g.oneOf(rareRequestMethods...)
	}
	return g.oneOf(requestMethods...)
}

// requestHost returns a Host header value.
func (g *caseGenerator) requestHost() string {
	if g.percent(5) {
		return g.oneOf(rareRequestHosts...)
	}
	return g.oneOf(requestHosts...)
}

// request returns a request, often one whose path is made from one of patterns.
func (g *caseGenerator) request(patterns []string) reqSpec {
	spec := reqSpec{Method: g.requestMethod(), Host: g.requestHost()}
	switch {
	case g.percent(2):
		spec.Target = "*"
		return spec
	case spec.Method == "CONNECT" && g.percent(15):
		// Authority-form.
		spec.Target = g.oneOf(spec.Host, "a.com:443", "b.com:80")
		if _, err := spec.newRequest(); spec.Target == "" || err != nil {
			spec.Target = "a.com:443"
		}
		return spec
	}
	var path string
	if len(patterns) > 0 && g.percent(60) {
		path = g.pathFor(patterns[g.c.IntN(len(patterns))])
	} else {
		path = g.randomPath()
	}
	query := ""
	if g.percent(10) {
		query = g.oneOf("?q=1", "?q=1", "?")
	}
	if g.percent(25) {
		// Absolute-form, whose host is usually the Host header's.
		host := spec.Host
		if host == "" || g.percent(15) {
			host = g.oneOf(requestHosts...)
		}
		if g.percent(5) {
			path = ""
		}
		spec.Target = "http://" + host + path + query
		if _, err := spec.newRequest(); err == nil {
			return spec
		}
		// Some odd hosts, such as "a.com:x:y", cannot be in a URL.
		if path == "" {
			path = "/"
		}
	}
	spec.Target = path + query
	if g.percent(3) {
		spec.StalePath, _ = url.PathUnescape(g.randomPath())
	}
	return spec
}

// requestSegment returns a request path segment, in escaped form.
func (g *caseGenerator) requestSegment() string {
	if g.percent(4) {
		return g.oneOf(rareRequestSegments...)
	}
	return g.oneOf(requestSegments...)
}

// randomPath returns a path of up to four random segments.
func (g *caseGenerator) randomPath() string {
	n := g.c.IntN(5)
	segs := make([]string, n)
	for i := range segs {
		segs[i] = g.requestSegment()
	}
	path := "/" + strings.Join(segs, "/")
	if n > 0 && g.percent(30) {
		path += "/"
	}
	return path
}

// pathFor returns a path that pattern may match: its literals kept, its
// wildcards filled with random segments, and sometimes its trailing slash
// toggled. For a pattern without a path, it returns a random path.
func (g *caseGenerator) pathFor(pattern string) string {
	p := pattern
	if i := strings.IndexAny(p, " \t"); i >= 0 {
		p = strings.TrimLeft(p[i+1:], " \t")
	}
	i := strings.IndexByte(p, '/')
	if i < 0 {
		return g.randomPath()
	}
	segs := strings.Split(p[i+1:], "/")
	var out []string
	for j, s := range segs {
		last := j == len(segs)-1
		switch {
		case s == "{$}":
			out = append(out, "")
		case strings.HasPrefix(s, "{") && strings.HasSuffix(s, "...}"), last && s == "" && g.percent(50):
			k := g.c.IntN(3)
			if k == 0 {
				out = append(out, "")
			}
			for range k {
				out = append(out, g.requestSegment())
			}
		case strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}"):
			out = append(out, g.requestSegment())
		case strings.ContainsAny(s, "%{}"):
			// Keep only valid escapes, so that the request builds.
			if _, err := url.PathUnescape(s); err != nil || strings.ContainsAny(s, "{}") {
				s = g.requestSegment()
			}
			out = append(out, s)
		default:
			out = append(out, s)
		}
	}
	path := "/" + strings.Join(out, "/")
	if _, err := url.ParseRequestURI(path); err != nil {
		// The pattern has a literal that no request-target can hold.
		return g.randomPath()
	}
	if g.percent(20) {
		if strings.HasSuffix(path, "/") {
			if len(path) > 1 {
				path = path[:len(path)-1]
			}
		} else {
			path += "/"
		}
	}
	return path
}
