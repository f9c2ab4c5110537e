package cairn

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// dumpTree renders the lookup tree of every host of r, one node a line,
// children indented under their parent, and then the static paths held off
// it, for golden tests.
func dumpTree(r *Router) string {
	var b strings.Builder
	t := r.current()
	hosts := []string{""}
	for h := range t.hosts.all {
		hosts = append(hosts, h)
	}
	slices.Sort(hosts)
	for _, host := range hosts {
		fmt.Fprintf(&b, "host %q\n", host)
		dumpNode(&b, t.root(host), 1)
		var keys []string
		for k, l := range t.hostTree(host).static.all {
			if l.offTree() {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "  off tree %q\n", k)
			for _, rt := range t.hostTree(host).static.get(k).all() {
				fmt.Fprintf(&b, "    => %s\n", rt.id.pat.str)
			}
		}
	}
	return b.String()
}

// dumpNode writes n's routes and children to b at the given depth.
func dumpNode(b *strings.Builder, n *lookupNode, depth int) {
	indent := strings.Repeat("  ", depth)
	for _, rt := range n.leaf.all() {
		fmt.Fprintf(b, "%s=> %s\n", indent, rt.id.pat.str)
	}
	n.eachLiteral(func(k string, c *lookupNode) {
		fmt.Fprintf(b, "%s%q\n", indent, k)
		dumpNode(b, c, depth+1)
	})
	for _, c := range n.constrained() {
		fmt.Fprintf(b, "%s{:%s}\n", indent, c.con.key)
		dumpNode(b, c.node, depth+1)
	}
	if n.wild != nil {
		fmt.Fprintf(b, "%s{}\n", indent)
		dumpNode(b, n.wild, depth+1)
	}
	if n.multi() != nil {
		fmt.Fprintf(b, "%s{...}\n", indent)
		dumpNode(b, n.multi(), depth+1)
	}
}

// TestTreeShape pins the lookup tree for a small pattern set.
func TestTreeShape(t *testing.T) {
	r := New()
	h := http.NotFoundHandler()
	for _, p := range []string{
		"GET /a/b",
		"POST /a/{x}",
		"/a/",
		"GET /a/{n:int}/c",
		"GET /a/{h:hex}",
		"/a/{$}",
		"GET example.com/a/{x...}",
		"/",
	} {
		r.Handle(p, h)
	}
	want := `host ""
  "a"
    "/"
      => /a/{$}
    {:int}
      "c"
        => GET /a/{n:int}/c
    {:hex}
      => GET /a/{h:hex}
    {}
      => POST /a/{x}
    {...}
      => /a/
  {...}
    => /
  off tree "/a/b"
    => GET /a/b
host "example.com"
  "a"
    {...}
      => GET example.com/a/{x...}
`
	if got := dumpTree(r); got != want {
		t.Errorf("tree:\n%s\nwant:\n%s", got, want)
	}
}

// TestLookupBound builds a pattern set that makes a lookup back up at every
// level (differently constrained wildcards, which never conflict and are all
// tried, each matching every segment of the path) and checks that a path
// that matches a long prefix of every pattern, but none whole, visits each
// node at most once instead of retrying combinations.
func TestLookupBound(t *testing.T) {
	const depth = 40
	r := New()
	h := http.NotFoundHandler()
	// The pattern with {x:alnum} everywhere, and for each k the one with
	// {x:alpha} at position k: their tree has about depth²/2 nodes, while
	// the combinations of the two constraints number 2^depth.
	for k := -1; k < depth; k++ {
		var segs []string
		for i := 0; i < depth; i++ {
			c := "alnum"
			if i == k {
				c = "alpha"
			}
			segs = append(segs, fmt.Sprintf("{x%d:%s}", i, c))
		}
		r.Handle("GET /"+strings.Join(segs, "/")+"/end", h)
	}
	tbl := r.current()
	path := strings.Repeat("/a", depth) + "/nope"
	q := query{method: "GET"}
	if rt := tbl.match("", path, false, &q); rt != nil {
		t.Fatalf("%s matched %s", path, rt.id.pat.str)
	}
	size := countNodes(tbl.root(""))
	if q.steps > size {
		t.Errorf("lookup visited %d nodes, more than the %d in the tree", q.steps, size)
	}
	if q.steps < depth*depth/2 {
		t.Errorf("lookup visited %d nodes: the test does not exercise backtracking", q.steps)
	}
	q = query{method: "GET"}
	rt := tbl.match("", strings.Repeat("/a", depth)+"/end", false, &q)
	if rt == nil || strings.Contains(rt.id.pat.str, "alpha") {
		t.Errorf("the first registered constraint (alnum) did not win: got %v", rt.id.pat.str)
	}
}

// countNodes returns the number of nodes in the tree rooted at n.
func countNodes(n *lookupNode) int {
	if n == nil {
		return 0
	}
	c := 1
	n.eachLiteral(func(_ string, k *lookupNode) { c += countNodes(k) })
	for _, k := range n.constrained() {
		c += countNodes(k.node)
	}
	return c + countNodes(n.wild) + countNodes(n.multi())
}

// TestLongPaths checks that very long paths and paths with very many
// segments are answered, by the static map, the tree and a multi wildcard,
// without deep recursion.
func TestLongPaths(t *testing.T) {
	r := New()
	r.HandleFunc("GET /a/{x}", func(http.ResponseWriter, *http.Request) {})
	r.HandleFunc("GET /files/{rest...}", func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("X-Len", fmt.Sprint(len(req.PathValue("rest"))))
	})
	long := "/a/" + strings.Repeat("x", 1<<20)
	many := strings.Repeat("/a", 1<<16)
	files := "/files" + strings.Repeat("/b", 1<<16)
	for _, tt := range []struct {
		path string
		code int
	}{
		{long, 200},
		{many, 404},
		{files, 200},
		{many + "/..", 307},
	} {
		req, _ := http.NewRequest("GET", "http://x", nil)
		req.URL.Path = tt.path
		w := &recorder{h: http.Header{}}
		r.ServeHTTP(w, req)
		if w.code == 0 {
			w.code = 200 // nothing written
		}
		if w.code != tt.code {
			t.Errorf("path of %d bytes: got %d, want %d", len(tt.path), w.code, tt.code)
		}
	}
}

// recorder records the status code of a response.
type recorder struct {
	h    http.Header
	code int
}

func (w *recorder) Header() http.Header { return w.h }
func (w *recorder) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = 200
	}
	return len(b), nil
}
func (w *recorder) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}
