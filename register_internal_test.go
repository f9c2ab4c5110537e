package cairn

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"
)

// TestSoleCandidates checks the conflict check of static patterns with a
// method, which looks only at the routes of their own path (see
// Router.soleCandidates), against the check that walks the tree: on
// random pattern sets, with methods that include GET and HEAD, hosts,
// wildcards, constraints and multis, the two find the same conflicting
// pattern, or none, for every pattern before it is registered.
func TestSoleCandidates(t *testing.T) {
	methods := []string{"", "GET ", "HEAD ", "POST ", "CONNECT "}
	hosts := []string{"", "", "h.com"}
	pieces := []string{"a", "b", "{x}", "{y:int}", "{z...}", "{$}", "1"}
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	checked := 0
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 7))
		r := New()
		for range 30 {
			s := methods[rng.IntN(len(methods))] + hosts[rng.IntN(len(hosts))]
			for range 1 + rng.IntN(3) {
				s += "/" + pieces[rng.IntN(len(pieces))]
			}
			p, err := parsePattern(s, r.constraints.lookup)
			if err != nil {
				continue
			}
			r.mu.Lock()
			r.init()
			key := r.soleCandidates(p)
			var sole, walked *ConflictError
			if key != "" {
				checked++
				sole, walked = r.conflict(p, "", key), r.conflict(p, "", "")
			}
			r.mu.Unlock()
			if describe(sole) != describe(walked) {
				t.Fatalf("seed %d: %q: conflict %s among the routes of its path, %s in the tree", seed, s, describe(sole), describe(walked))
			}
			func() {
				defer func() { recover() }()
				r.Handle(s, h)
			}()
		}
	}
	if checked < 1000 {
		t.Errorf("only %d patterns were checked both ways", checked)
	}
}

// describe names the pattern that err reports a conflict with, or "none".
func describe(err *ConflictError) string {
	if err == nil {
		return "none"
	}
	return fmt.Sprintf("with %q", err.Error())
}
