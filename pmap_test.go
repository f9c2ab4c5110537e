package cairn

import (
	"fmt"
	"maps"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// A pmapHashFunc is a hash function that tests run pmaps with, through
// [pmap.lookup] and [pmap.insert].
type pmapHashFunc struct {
	name string
	hash func(string) uint64
}

// pmapHashFuncs returns the real hash and weak ones that force collisions
// at every depth: few distinct hashes that agree in their high bits
// ("low4"), hashes that differ only at the first and last levels
// ("ends"), and one hash for every key ("const").
func pmapHashFuncs() []pmapHashFunc {
	return []pmapHashFunc{
		{"maphash", pmapHash},
		{"low4", func(k string) uint64 { return pmapHash(k) & 0xf }},
		{"ends", func(k string) uint64 { return pmapHash(k) & (0xf<<60 | 0x3) }},
		{"const", func(string) uint64 { return 0x5a5a }},
	}
}

// pmapStats describes the shape of a pmap.
type pmapStats struct {
	collisionNodes int
	depth          int // levels of the deepest node, counting the root as 1
}

// checkPmap checks m, whose keys were hashed with hash, against want: its
// length, a lookup of every key and of some absent ones, the keys that all
// yields, and the invariants of the trie. It returns m's shape.
func checkPmap(tb testing.TB, m *pmap[int], hash func(string) uint64, want map[string]int) pmapStats {
	tb.Helper()
	if got := m.len(); got != len(want) {
		tb.Fatalf("len: got %d, want %d", got, len(want))
	}
	for k, v := range want {
		if got, ok := m.lookup(k, hash(k)); !ok || got != v {
			tb.Fatalf("%q: got %d, %t, want %d, true", k, got, ok, v)
		}
	}
	for _, k := range []string{"absent", "/api/absent", "/api/r", "\x00"} {
		if _, in := want[k]; in {
			continue
		}
		if got, ok := m.lookup(k, hash(k)); ok {
			tb.Fatalf("%q: got %d, true, want absent", k, got)
		}
	}
	seen := map[string]int{}
	for k, v := range m.all {
		if _, dup := seen[k]; dup {
			tb.Fatalf("all: %q twice", k)
		}
		seen[k] = v
	}
	if !maps.Equal(seen, want) {
		tb.Fatalf("all: got %v, want %v", seen, want)
	}
	var st pmapStats
	if m != nil {
		checkPmapNode(tb, m, hash, 0, 0, 1, &st)
	}
	return st
}

// checkPmapNode checks the invariants of the node n at the given shift,
// whose keys' hashes have the low shift bits of prefix, and adds to st.
func checkPmapNode(tb testing.TB, n *pmap[int], hash func(string) uint64,
	shift uint, prefix uint64, depth int, st *pmapStats) {
	tb.Helper()
	st.depth = max(st.depth, depth)
	for _, e := range n.entries {
		if h := hash(e.key); e.hash != h || h&(1<<shift-1) != prefix {
			tb.Fatalf("%q at shift %d: hash %#x, want %#x with prefix %#x", e.key, shift, e.hash, h, prefix)
		}
	}
	if shift >= hashBits {
		st.collisionNodes++
		if n.datamap != 0 || n.nodemap != 0 || len(n.children) != 0 ||
			len(n.entries) < 2 || n.size != len(n.entries) {
			tb.Fatalf("collision node at prefix %#x: %+v", prefix, n)
		}
		return
	}
	if n.datamap&n.nodemap != 0 || len(n.entries) != bits.OnesCount64(n.datamap) ||
		len(n.children) != bits.OnesCount64(n.nodemap) {
		tb.Fatalf("node at shift %d prefix %#x: bitmaps %#x %#x, %d entries, %d children",
			shift, prefix, n.datamap, n.nodemap, len(n.entries), len(n.children))
	}
	size := len(n.entries)
	for i, dm := 0, n.datamap; dm != 0; i, dm = i+1, dm&(dm-1) {
		s, e := uint64(bits.TrailingZeros64(dm)), n.entries[i]
		if want := e.hash >> shift & pmapMask; s != want {
			tb.Fatalf("%q at shift %d: in slot %d, want %d", e.key, shift, s, want)
		}
	}
	for i, nm := 0, n.nodemap; nm != 0; i, nm = i+1, nm&(nm-1) {
		s := uint64(bits.TrailingZeros64(nm))
		checkPmapNode(tb, n.children[i], hash, shift+pmapBits, prefix|s<<shift, depth+1, st)
		size += n.children[i].size
	}
	if n.size != size {
		tb.Fatalf("node at shift %d prefix %#x: size %d, want %d", shift, prefix, n.size, size)
	}
}

// pmapSet is one call of set in a test.
type pmapSet struct {
	key string
	val int
}

// TestPmapBasics checks small and large maps built from nil and zero maps,
// with and without a token, including the empty key and overwrites.
func TestPmapBasics(t *testing.T) {
	var many []pmapSet
	for i := range 3000 {
		many = append(many, pmapSet{"/api/r" + strconv.Itoa(i), i}, pmapSet{strconv.Itoa(i % 50), i})
	}
	for _, tt := range []struct {
		name string
		zero bool // start from a zero pmap instead of a nil one
		sets []pmapSet
	}{
		{name: "nil"},
		{name: "zero", zero: true},
		{name: "one", sets: []pmapSet{{"a", 1}}},
		{name: "one on zero", zero: true, sets: []pmapSet{{"a", 1}}},
		{name: "empty key", sets: []pmapSet{{"", 7}}},
		{name: "overwrite", sets: []pmapSet{{"a", 1}, {"b", 2}, {"a", 3}}},
		{name: "prefixes", sets: []pmapSet{{"/", 1}, {"/a", 2}, {"/a/", 3}, {"/a/b", 4}, {"", 5}}},
		{name: "many", sets: many},
	} {
		for _, edit := range []*editToken{nil, new(editToken)} {
			t.Run(fmt.Sprintf("%s/token=%t", tt.name, edit != nil), func(t *testing.T) {
				var m *pmap[int]
				if tt.zero {
					m = new(pmap[int])
				}
				want := map[string]int{}
				for _, s := range tt.sets {
					m = m.set(s.key, s.val, edit)
					want[s.key] = s.val
				}
				checkPmap(t, m, pmapHash, want)
			})
		}
	}
}

// TestPmapAllStops checks that all stops when yield returns false, at
// every entry.
func TestPmapAllStops(t *testing.T) {
	var m *pmap[int]
	for i := range 200 {
		m = m.set(strconv.Itoa(i), i, nil)
	}
	for stop := 1; stop <= m.len(); stop++ {
		calls := 0
		for range m.all {
			calls++
			if calls == stop {
				break
			}
		}
		if calls != stop {
			t.Errorf("break after %d: got %d calls, want %d", stop, calls, stop)
		}
	}
}

// randomPmapKey returns a short key, often one that others share a prefix
// with: the empty key, short strings over a small alphabet, and path-like
// keys.
func randomPmapKey(rng *rand.Rand) string {
	switch rng.IntN(8) {
	case 0:
		return ""
	case 1, 2:
		b := make([]byte, rng.IntN(4))
		for i := range b {
			b[i] = "ab/"[rng.IntN(3)]
		}
		return string(b)
	default:
		return "/api/r" + strconv.Itoa(rng.IntN(300))
	}
}

// TestPmapProperty checks pmaps against Go maps over random sets, with the
// real hash and with weak ones, and checks the rule of edit tokens: a map
// whose token is retired, or that a set with a nil token was made from,
// never changes.
func TestPmapProperty(t *testing.T) {
	for seed, hf := range pmapHashFuncs() {
		t.Run(hf.name, func(t *testing.T) {
			type snapshot struct {
				m    *pmap[int]
				want map[string]int
			}
			rng := rand.New(rand.NewPCG(1, uint64(seed)))
			for range 30 {
				var m *pmap[int]
				want := map[string]int{}
				var published []snapshot
				edit := new(editToken)
				for step := range 200 {
					k, v := randomPmapKey(rng), step
					switch rng.IntN(10) {
					case 0: // publish m and retire its token
						published = append(published, snapshot{m, maps.Clone(want)})
						edit = new(editToken)
					case 1: // a set with no token leaves m as it was
						before := snapshot{m, maps.Clone(want)}
						m = m.insert(k, hf.hash(k), v, nil)
						want[k] = v
						checkPmap(t, before.m, hf.hash, before.want)
					default:
						m = m.insert(k, hf.hash(k), v, edit)
						want[k] = v
					}
					checkPmap(t, m, hf.hash, want)
				}
				for _, s := range published {
					checkPmap(t, s.m, hf.hash, s.want)
				}
			}
		})
	}
}

// TestPmapEdit checks when set changes its map in place: only when the map
// was made under the set's token, and that token is not nil.
func TestPmapEdit(t *testing.T) {
	t1, t2 := new(editToken), new(editToken)
	for _, tt := range []struct {
		name        string
		made, set   *editToken
		key         string
		wantInPlace bool
	}{
		{"same token, new key", t1, t1, "c", true},
		{"same token, overwrite", t1, t1, "a", true},
		{"other token, new key", t1, t2, "c", false},
		{"other token, overwrite", t1, t2, "a", false},
		{"nil set, token made", t1, nil, "c", false},
		{"token set, nil made", nil, t1, "c", false},
		{"nil set, nil made", nil, nil, "a", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var m *pmap[int]
			want := map[string]int{}
			for i, k := range []string{"a", "b", "/x", "/x/y"} {
				m = m.set(k, i, tt.made)
				want[k] = i
			}
			r := m.set(tt.key, 100, tt.set)
			if inPlace := r == m; inPlace != tt.wantInPlace {
				t.Fatalf("set returned its receiver: %t, want %t", inPlace, tt.wantInPlace)
			}
			after := maps.Clone(want)
			after[tt.key] = 100
			checkPmap(t, r, pmapHash, after)
			if !tt.wantInPlace {
				checkPmap(t, m, pmapHash, want)
			}
		})
	}
}

// TestPmapCollisions checks maps whose keys have hashes that agree in some
// or all bits, and the shape they take: how deep, with how many collision
// nodes.
func TestPmapCollisions(t *testing.T) {
	const levels = (hashBits + pmapBits - 1) / pmapBits // below them, collision nodes
	for _, tt := range []struct {
		name           string
		hashes         map[string]uint64
		wantCollisions int
		wantDepth      int
	}{
		{"distinct slots", map[string]uint64{"a": 1, "b": 2, "c": 63}, 0, 1},
		{"same first slot", map[string]uint64{"a": 1, "b": 1 | 2<<pmapBits}, 0, 2},
		{"equal hashes", map[string]uint64{"a": 7, "b": 7}, 1, levels + 1},
		{"equal but top bit", map[string]uint64{"a": 7, "b": 7 | 1<<63}, 0, levels},
		{"three equal, one near", map[string]uint64{"a": 9, "b": 9, "": 9, "d": 9 | 1<<63},
			1, levels + 1},
		{"two collision nodes", map[string]uint64{"a": 0, "b": 0, "c": 1 << 63, "d": 1 << 63},
			2, levels + 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			hash := func(k string) uint64 {
				h, ok := tt.hashes[k]
				if !ok {
					return tt.hashes["a"] // absent keys collide too
				}
				return h
			}
			// Set every key, then overwrite every key, in both orders.
			keys := slices.Sorted(maps.Keys(tt.hashes))
			backward := slices.Clone(keys)
			slices.Reverse(backward)
			for _, order := range [][]string{keys, backward} {
				var m *pmap[int]
				want := map[string]int{}
				for round := range 2 {
					for i, k := range order {
						m = m.insert(k, hash(k), 10*round+i, nil)
						want[k] = 10*round + i
					}
					st := checkPmap(t, m, hash, want)
					if st.collisionNodes != tt.wantCollisions || st.depth != tt.wantDepth {
						t.Fatalf("order %q: got %d collision nodes, depth %d, want %d, %d",
							order, st.collisionNodes, st.depth, tt.wantCollisions, tt.wantDepth)
					}
				}
			}
		})
	}
}

// TestPmapGetAllocs checks that get allocates nothing.
func TestPmapGetAllocs(t *testing.T) {
	var m *pmap[*leaf]
	for i := range 1000 {
		m = m.set("/v2/admin/r"+strconv.Itoa(i), &leaf{}, nil)
	}
	collide := func(string) uint64 { return 42 }
	var c *pmap[*leaf]
	for _, k := range []string{"a", "b", "c"} {
		c = c.insert(k, collide(k), &leaf{}, nil)
	}
	for _, tt := range []struct {
		name string
		get  func() bool
	}{
		{"hit", func() bool { _, ok := m.get("/v2/admin/r500"); return ok }},
		{"miss", func() bool { _, ok := m.get("/v2/admin/x500"); return ok }},
		{"nil map", func() bool { _, ok := (*pmap[*leaf])(nil).get("a"); return ok }},
		{"collision hit", func() bool { _, ok := c.lookup("c", collide("c")); return ok }},
		{"collision miss", func() bool { _, ok := c.lookup("d", collide("d")); return ok }},
	} {
		if got := testing.AllocsPerRun(100, func() { tt.get() }); got != 0 {
			t.Errorf("%s: got %v allocations, want 0", tt.name, got)
		}
	}
}

// pmapBenchKeys returns n path-like keys such as "/v2/admin/r12345", the
// keys of a map, and n more of the same shape that it does not have.
func pmapBenchKeys(n int) (in, out []string) {
	sections := []string{"admin", "users", "orders", "items"}
	for i := range 2 * n {
		k := fmt.Sprintf("/v2/%s/r%d", sections[i%len(sections)], 10000+i)
		if i%2 == 0 {
			in = append(in, k)
		} else {
			out = append(out, k)
		}
	}
	return in, out
}

// pmapBenchProbes returns 1<<16 keys drawn at random from keys, so that
// lookups in large maps miss the cache as a router's would.
func pmapBenchProbes(keys []string) []string {
	rng := rand.New(rand.NewPCG(3, 4))
	probes := make([]string, 1<<16)
	for i := range probes {
		probes[i] = keys[rng.IntN(len(keys))]
	}
	return probes
}

// BenchmarkPmapGet compares get with a lookup in a Go map, of keys the map
// has and keys it does not, at each size.
func BenchmarkPmapGet(b *testing.B) {
	for _, size := range []int{16, 157, 10000, 100000} {
		in, out := pmapBenchKeys(size)
		var m *pmap[*leaf]
		gm := map[string]*leaf{}
		edit := new(editToken)
		for _, k := range in {
			m = m.set(k, &leaf{}, edit)
			gm[k] = &leaf{}
		}
		for _, op := range []struct {
			name string
			keys []string
		}{{"hit", in}, {"miss", out}} {
			probes := pmapBenchProbes(op.keys)
			for _, impl := range []string{"pmap", "map"} {
				b.Run(fmt.Sprintf("size=%d/op=%s/impl=%s", size, op.name, impl), func(b *testing.B) {
					b.ReportAllocs()
					found, i := 0, 0
					switch impl {
					case "pmap":
						for b.Loop() {
							if _, ok := m.get(probes[i]); ok {
								found++
							}
							i = (i + 1) & (len(probes) - 1)
						}
					case "map":
						for b.Loop() {
							if _, ok := gm[probes[i]]; ok {
								found++
							}
							i = (i + 1) & (len(probes) - 1)
						}
					}
					if (found > 0) != (op.name == "hit") {
						b.Fatalf("%d lookups found", found)
					}
				})
			}
		}
	}
}

// BenchmarkPmapSet measures adding one key to a map of each size, as a
// pmap with a nil token (copying the key's path) and as a Go map that is
// copied whole first, and building a map of each size, as a pmap under one
// token (a transient), as a pmap with nil tokens, and as a Go map.
func BenchmarkPmapSet(b *testing.B) {
	for _, size := range []int{16, 157, 10000, 100000} {
		in, out := pmapBenchKeys(size)
		out = out[:min(len(out), 1<<10)]
		var m *pmap[int]
		gm := map[string]int{}
		for i, k := range in {
			m = m.set(k, i, nil)
			gm[k] = i
		}
		b.Run(fmt.Sprintf("op=add/size=%d/impl=pmap", size), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				m.set(out[i], i, nil)
				i = (i + 1) % len(out)
			}
		})
		b.Run(fmt.Sprintf("op=add/size=%d/impl=map-clone", size), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				c := maps.Clone(gm)
				c[out[i]] = i
				i = (i + 1) % len(out)
			}
		})
		for _, impl := range []string{"pmap-token", "pmap-nil", "map"} {
			b.Run(fmt.Sprintf("op=build/size=%d/impl=%s", size, impl), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					switch impl {
					case "pmap-token":
						var m *pmap[int]
						edit := new(editToken)
						for i, k := range in {
							m = m.set(k, i, edit)
						}
					case "pmap-nil":
						var m *pmap[int]
						for i, k := range in {
							m = m.set(k, i, nil)
						}
					case "map":
						m := map[string]int{}
						for i, k := range in {
							m[k] = i
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*size), "ns/key")
			})
		}
	}
}
