package cairn

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// This file checks the fast paths of Param against the simple versions
// they replaced, kept here as oracles: segments found one IndexByte call at
// a time, and names found by comparing them in turn.

// segmentAtSimple is segmentAt, one segment at a time.
func segmentAtSimple(p string, idx int, multi bool) (string, bool) {
	if p == "" || p[0] != '/' {
		return "", false
	}
	p = p[1:]
	for ; idx > 0; idx-- {
		j := strings.IndexByte(p, '/')
		if j < 0 {
			return "", false
		}
		p = p[j+1:]
	}
	if multi {
		return p, true
	}
	if j := strings.IndexByte(p, '/'); j >= 0 {
		return p[:j], true
	}
	return p, true
}

// segmentFromEndSimple is segmentFromEnd, one segment at a time.
func segmentFromEndSimple(p string, k int) (string, bool) {
	for ; k > 0; k-- {
		j := strings.LastIndexByte(p, '/')
		if j < 0 {
			return "", false
		}
		p = p[:j]
	}
	j := strings.LastIndexByte(p, '/')
	if j < 0 {
		return "", false
	}
	return p[j+1:], true
}

// randomPath returns a string of up to max bytes, mostly slashes and
// letters, with now and then a byte that differs from '/' in one bit.
func randomPath(rng *rand.Rand, max int) string {
	const alphabet = "//////abcxyz%.\xaf\x2e\x6f\x0f\x2d\x3f"
	b := make([]byte, rng.IntN(max+1))
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	if len(b) > 0 && rng.IntN(4) > 0 {
		b[0] = '/'
	}
	return string(b)
}

// TestSegmentOracle checks segmentAt, segmentFromEnd and lastSegment
// against the simple versions on random paths, at every index.
func TestSegmentOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		p := randomPath(rng, 70)
		for k := range strings.Count(p, "/") + 2 {
			for _, multi := range []bool{false, true} {
				got, gotOK := segmentAt(p, k, multi)
				want, wantOK := segmentAtSimple(p, k, multi)
				if got != want || gotOK != wantOK {
					t.Fatalf("segmentAt(%q, %d, %v) = %q, %v; want %q, %v", p, k, multi, got, gotOK, want, wantOK)
				}
			}
			got, gotOK := segmentFromEnd(p, k)
			want, wantOK := segmentFromEndSimple(p, k)
			if got != want || gotOK != wantOK {
				t.Fatalf("segmentFromEnd(%q, %d) = %q, %v; want %q, %v", p, k, got, gotOK, want, wantOK)
			}
			if k == 0 {
				if got, gotOK := lastSegment(p); got != want || gotOK != wantOK {
					t.Fatalf("lastSegment(%q) = %q, %v; want %q, %v", p, got, gotOK, want, wantOK)
				}
			}
		}
	}
}

// TestNextSegmentOracle checks nextSegment against cutting the path at
// its second slash, on random paths that start with one.
func TestNextSegmentOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for range 50000 {
		p := "/" + randomPath(rng, 30)
		seg, rest := nextSegment(p)
		wantSeg, wantRest := p[1:], ""
		if i := strings.IndexByte(p[1:], '/'); i >= 0 {
			wantSeg, wantRest = p[1:1+i], p[1+i:]
		}
		if p == "/" {
			wantSeg = "/"
		}
		if seg != wantSeg || rest != wantRest {
			t.Fatalf("nextSegment(%q) = %q, %q; want %q, %q", p, seg, rest, wantSeg, wantRest)
		}
	}
}

// TestNameIndexOracle checks layout.position, with its perfect hash,
// against comparing the names in turn, for random sets of names and
// random names to look up.
func TestNameIndexOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	randomName := func() string {
		const alphabet = "abcdefghijklmnopqrstuvwxyz_0123456789"
		b := make([]byte, 1+rng.IntN(20))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	indexed, eligible := 0, 0
	for range 5000 {
		seen := map[string]bool{}
		var names []string
		for range 2 + rng.IntN(31) {
			if n := randomName(); !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
		vars := make([]layoutVar, len(names))
		for i, n := range names {
			vars[i] = newLayoutVar(n, i)
		}
		l := &layout{vars: vars, byName: indexNames(vars)}
		if indexable(vars) {
			eligible++
		}
		if l.byName != nil {
			indexed++
		}
		probes := append([]string{"", "zz", "abcdeXYZ"}, names...)
		for range 20 {
			probes = append(probes, randomName())
		}
		// Names that differ from one of the set in a single byte, which
		// the comparison of words must tell apart wherever it is.
		for _, n := range names {
			b := []byte(n)
			b[rng.IntN(len(b))] ^= 1
			probes = append(probes, string(b))
		}
		for _, name := range probes {
			want := -1
			for i, n := range names {
				if n == name {
					want = i
				}
			}
			if got := l.position(name); got != want {
				t.Fatalf("names %q: position(%q) = %d, want %d", names, name, got, want)
			}
		}
	}
	// Nearly every set must get an index, or the fast path is rarely
	// taken (and this test checks little).
	if indexed < eligible*98/100 {
		t.Errorf("%d of %d name sets indexed, want nearly all", indexed, eligible)
	}
}

// TestNameWordOracle checks that two names of the same length, from one
// to eight bytes, have the same keyWord exactly when they are equal (as
// layoutVar.word relies on), that shortWord gives keyWord up to three
// bytes and midWord from four on, and that two of nine to sixteen bytes have the same first and last
// words exactly when they are equal (as layout.position and literalPrefix
// rely on), for random names over a small alphabet (so that many pairs
// share bytes).
func TestNameWordOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	random := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "ab\x00\xff"[rng.IntN(4)]
		}
		return string(b)
	}
	for range 200000 {
		n := 1 + rng.IntN(16)
		a, b := random(n), random(n)
		same := keyWord(a) == keyWord(b)
		if n >= 4 && n <= 8 && (midWord(a) != keyWord(a) || midWord(b) != keyWord(b)) {
			t.Fatalf("%q, %q: midWord differs from keyWord", a, b)
		}
		if n <= 3 && (shortWord(a) != keyWord(a) || shortWord(b) != keyWord(b)) {
			t.Fatalf("%q, %q: shortWord differs from keyWord", a, b)
		}
		if n > 8 {
			same = same && lastWord(a) == lastWord(b)
		}
		if same != (a == b) {
			t.Fatalf("%q and %q: words equal is %v", a, b, same)
		}
	}
}

// TestIdentTableOracle checks the registry's table against a Go map:
// identities added and removed at random, one at a time or in batches of
// all sizes, each looked up by its own string, by a copy and by a prefix.
func TestIdentTableOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var tbl identTable
	present := map[*ident]bool{}
	var all []*ident
	for range 20000 {
		if rng.IntN(500) == 0 {
			// A batch, as a router adds when it first serves, sorted
			// from minSortedAdds identities on.
			batch := make([]*ident, rng.IntN(3*minSortedAdds))
			for i := range batch {
				batch[i] = &ident{pat: pattern{str: cloneString("GET /b" + strconv.Itoa(len(all)))}}
				present[batch[i]] = true
				all = append(all, batch[i])
			}
			tbl.addAll(batch)
		} else if len(all) == 0 || rng.IntN(3) > 0 {
			id := &ident{pat: pattern{str: cloneString("GET /p" + strconv.Itoa(len(all)))}}
			tbl.add(id)
			present[id] = true
			all = append(all, id)
		} else if rng.IntN(500) == 0 {
			// A batch, as a collected router's cleanup removes; some
			// removed already.
			var keys []*byte
			seen := map[*ident]bool{}
			for range rng.IntN(3 * minSortedAdds) {
				if id := all[rng.IntN(len(all))]; !seen[id] {
					seen[id] = true
					keys = append(keys, id.key())
					present[id] = false
				}
			}
			tbl.removeAll(slices.Values(keys))
		} else {
			id := all[rng.IntN(len(all))]
			tbl.remove(id.key())
			present[id] = false
		}
		id := all[rng.IntN(len(all))]
		want := id
		if !present[id] {
			want = nil
		}
		if got := tbl.find(id.pat.str); got != want {
			t.Fatalf("find(%q) = %p, want %p", id.pat.str, got, want)
		}
		if got := tbl.find(strings.Clone(id.pat.str)); got != nil {
			t.Fatalf("a copy of %q found %p", id.pat.str, got)
		}
		if got := tbl.find(id.pat.str[:len(id.pat.str)-1]); got != nil {
			t.Fatalf("a prefix of %q found %p", id.pat.str, got)
		}
	}
	live := 0
	for _, ok := range present {
		if ok {
			live++
		}
	}
	if tbl.live != live {
		t.Errorf("live = %d, want %d", tbl.live, live)
	}
	checkIdentCounts(t, &tbl)
	for id, ok := range present {
		if got := tbl.find(id.pat.str); ok && got != id || !ok && got != nil {
			t.Fatalf("at the end, find(%q) = %p, want it present: %v", id.pat.str, got, ok)
		}
	}
}

// checkIdentCounts checks tbl's counts against its slots: live counts the
// identities, used the slots that are not empty, and no more than half the
// slots are used.
func checkIdentCounts(t *testing.T, tbl *identTable) {
	t.Helper()
	sl := tbl.slots.Load()
	live, used := 0, 0
	for i := range sl.s {
		switch sl.s[i].Load() {
		case nil:
		case deletedIdent:
			used++
		default:
			live++
			used++
		}
	}
	if live != tbl.live || used != tbl.used || 2*used > len(sl.s) {
		t.Errorf("%d slots holding %d identities, %d used; counted %d live, %d used", len(sl.s), live, used, tbl.live, tbl.used)
	}
}

// TestIdentTableTurnover checks that a registry whose routers are built
// and dropped in turn, each router's identities added before the last
// one's are removed, keeps its slot array: the slots of removed
// identities are emptied where nothing follows them, instead of staying
// marked until the array is full of marks and has to be copied.
func TestIdentTableTurnover(t *testing.T) {
	var tbl identTable
	router := func(gen int) ([]*ident, []*byte) {
		ids := make([]*ident, 20000)
		keys := make([]*byte, len(ids))
		for i := range ids {
			ids[i] = &ident{pat: pattern{str: cloneString("GET /g" + strconv.Itoa(gen) + "/" + strconv.Itoa(i))}}
			keys[i] = ids[i].key()
		}
		return ids, keys
	}
	ids, keys := router(0)
	tbl.addAll(ids)
	var arrays []*identSlots
	for gen := 1; gen <= 20; gen++ {
		next, nextKeys := router(gen)
		tbl.addAll(next)
		tbl.removeAll(slices.Values(keys))
		checkIdentCounts(t, &tbl)
		for _, id := range next[:100] {
			if got := tbl.find(id.pat.str); got != id {
				t.Fatalf("generation %d: find(%q) = %p, want %p", gen, id.pat.str, got, id)
			}
		}
		for _, id := range ids[:100] {
			if got := tbl.find(id.pat.str); got != nil {
				t.Fatalf("generation %d: removed %q found", gen, id.pat.str)
			}
		}
		if sl := tbl.slots.Load(); !slices.Contains(arrays, sl) {
			arrays = append(arrays, sl)
		}
		ids, keys = next, nextKeys
	}
	// Two routers' 40 000 identities take an array of 131 072 slots, which
	// the first generation grows to, and which holds every later one with
	// the marks its predecessors leave: one more array, made to clear
	// marks that piled up, is allowed. Without the emptying of marks, the
	// array was replaced every other generation.
	if len(arrays) > 2 {
		t.Errorf("20 generations of routers used %d slot arrays, want at most 2", len(arrays))
	}
}

// TestIdentTableShrinks checks that removing most identities from a large
// registry replaces its slot array by a smaller one that holds the rest,
// without the removed ones' slots, and that removing a few does not.
func TestIdentTableShrinks(t *testing.T) {
	var tbl identTable
	ids := make([]*ident, 20000)
	var keys []*byte
	for i := range ids {
		ids[i] = &ident{pat: pattern{str: cloneString("GET /s" + strconv.Itoa(i))}}
		keys = append(keys, ids[i].key())
	}
	tbl.addAll(ids)
	full := len(tbl.slots.Load().s)
	tbl.removeAll(slices.Values(keys[:1000]))
	if n := len(tbl.slots.Load().s); n != full {
		t.Errorf("%d of %d identities left: %d slots, want %d as before", tbl.live, len(ids), n, full)
	}
	tbl.removeAll(slices.Values(keys[1000:19990]))
	if n := len(tbl.slots.Load().s); n > 64 || tbl.used != tbl.live || tbl.live != 10 {
		t.Errorf("10 identities left: %d slots, %d used, %d live; want at most 64 slots, 10 used and live", n, tbl.used, tbl.live)
	}
	for i, id := range ids {
		want := id
		if i < 19990 {
			want = nil
		}
		if got := tbl.find(id.pat.str); got != want {
			t.Fatalf("find(%q) = %p, want %p", id.pat.str, got, want)
		}
	}
}

// TestSortBySlot checks that sortBySlot orders identities by their first
// slot in a slot array of any size, and loses none.
func TestSortBySlot(t *testing.T) {
	var ids []*ident
	for i := range 5000 {
		ids = append(ids, &ident{pat: pattern{str: cloneString("GET /s" + strconv.Itoa(i))}})
	}
	sorted := sortBySlot(ids)
	if len(sorted) != len(ids) {
		t.Fatalf("%d identities sorted, want %d", len(sorted), len(ids))
	}
	seen := map[*ident]bool{}
	for _, id := range sorted {
		seen[id] = true
	}
	if len(seen) != len(ids) {
		t.Fatalf("%d distinct identities sorted, want %d", len(seen), len(ids))
	}
	for _, shift := range []uint{64 - 4, 64 - slotSortBits, 64 - 16, 64 - 20} {
		sl := &identSlots{shift: shift}
		for i := 1; i < len(sorted); i++ {
			a, b := sl.slot(sorted[i-1].key()), sl.slot(sorted[i].key())
			// Within a bucket of the sort, slots of larger arrays may go
			// down; from one bucket to the next they never do.
			bucket := func(slot uintptr) uintptr { return slot >> max(0, int(64-shift)-slotSortBits) }
			if bucket(b) < bucket(a) {
				t.Fatalf("shift %d: slot %d after slot %d", shift, b, a)
			}
		}
	}
}

// TestRequestPathOracle checks requestPath, which reads a RawPath without
// allocating, against url.URL.EscapedPath, for random raw paths and paths
// that they encode, almost encode, or do not: it must give the escaped
// path where it escapes '/' or '.', else the path itself, and either way
// the segments of the escaped path.
func TestRequestPathOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	const alphabet = "/ab%2fF0zZ+?#;:@!$&'()*,=[]~._- \x7f\xc3\xa9\x00"
	for range 200000 {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		raw := string(b)
		p, err := url.PathUnescape(raw)
		switch {
		case err != nil || rng.IntN(4) == 0:
			p = randomPath(rng, 8)
		case rng.IntN(4) == 0 && p != "":
			p = p[:len(p)-1]
		}
		u := &url.URL{Path: p, RawPath: raw}
		got, escaped := requestPath(u)
		want, wantEscaped := p, false
		if lower := strings.ToLower(raw); u.EscapedPath() == raw && raw != "" &&
			(strings.Contains(lower, "%2f") || strings.Contains(lower, "%2e")) {
			want, wantEscaped = raw, true
		}
		if got != want || escaped != wantEscaped {
			t.Fatalf("requestPath(Path %q, RawPath %q) = %q, %v; want %q, %v", p, raw, got, escaped, want, wantEscaped)
		}
		// Either way, the segments unescaped are those of the escaped
		// path unescaped, and "." and ".." are where they are there.
		if w := u.EscapedPath(); segmentsOf(got, escaped) != segmentsOf(w, true) || unclean(got) != unclean(w) {
			t.Fatalf("requestPath(Path %q, RawPath %q) = %q: segments %q, escaped path %q has %q",
				p, raw, got, segmentsOf(got, escaped), w, segmentsOf(w, true))
		}
	}
	if n := testing.AllocsPerRun(100, func() {
		requestPath(&url.URL{Path: "/a/b/c", RawPath: "/a%2Fb/c"})
	}); n != 0 {
		t.Errorf("requestPath allocates %v times for a RawPath that encodes Path", n)
	}
	if p, escaped := requestPath(&url.URL{Path: "/a b/c", RawPath: "/a%20b/c"}); p != "/a b/c" || escaped {
		t.Errorf("requestPath of an escaped space: %q, %v", p, escaped)
	}
}

// TestUnescapeToOracle checks unescapeTo against pathUnescape, the simple
// version, on random strings with escapes well and badly formed, short
// and longer than its buffer.
func TestUnescapeToOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	const alphabet = "%%%2fF0aZz+/"
	var buf [maxUnescapedOnStack]byte
	for range 100000 {
		b := make([]byte, rng.IntN(2*maxUnescapedOnStack))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		s := string(b)
		if got, want := unescapeTo(&buf, s), pathUnescape(s); got != want {
			t.Fatalf("unescapeTo(%q) = %q, want %q", s, got, want)
		}
	}
}

// segmentsOf returns the segments of path p, unescaped if escaped, joined
// by NUL.
func segmentsOf(p string, escaped bool) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = segmentValue(s, escaped)
	}
	return strings.Join(segs, "\x00")
}

// unclean returns the positions of the empty, "." and ".." segments of
// the path p as it is, before any unescaping.
func unclean(p string) string {
	var b strings.Builder
	for i, s := range strings.Split(p, "/") {
		if i > 0 && (s == "" || s == "." || s == "..") {
			b.WriteString(strconv.Itoa(i) + ",")
		}
	}
	return b.String()
}

// TestUUIDOracle checks isUUID against a regular expression, on random
// strings near a UUID: right and wrong lengths, dashes and digits.
func TestUUIDOracle(t *testing.T) {
	re := regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	rng := rand.New(rand.NewPCG(17, 18))
	const alphabet = "0123456789abcdefABCDEF-gG/\\xff"
	for range 100000 {
		b := []byte("6ba7b810-9dad-11d1-80b4-00c04fd430c8")
		for range rng.IntN(3) {
			b[rng.IntN(len(b))] = alphabet[rng.IntN(len(alphabet))]
		}
		b = b[:len(b)-rng.IntN(2)]
		if got, want := isUUID(string(b)), re.Match(b); got != want {
			t.Fatalf("isUUID(%q) = %v, want %v", b, got, want)
		}
	}
	// Every byte at every position.
	for i := range 36 {
		for c := range 256 {
			b := []byte("6ba7b810-9dad-11d1-80b4-00c04fd430c8")
			b[i] = byte(c)
			if got, want := isUUID(string(b)), re.Match(b); got != want {
				t.Fatalf("isUUID(%q) = %v, want %v", b, got, want)
			}
		}
	}
}

// TestIPv4Oracle checks isIPv4 against net/netip, on random strings of
// digits and dots, and near dotted quads.
func TestIPv4Oracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	const alphabet = "0123456789.....12/a:x"
	check := func(s string) {
		a, err := netip.ParseAddr(s)
		if got, want := isIPv4(s), err == nil && a.Is4(); got != want {
			t.Fatalf("isIPv4(%q) = %v, want %v", s, got, want)
		}
	}
	for range 200000 {
		b := make([]byte, rng.IntN(18))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		check(string(b))
	}
	for range 100000 {
		s := fmt.Sprintf("%d.%d.%d.%d", rng.IntN(300), rng.IntN(300), rng.IntN(1100), rng.IntN(300))
		b := []byte(s)
		if rng.IntN(2) == 0 {
			b[rng.IntN(len(b))] = alphabet[rng.IntN(len(alphabet))]
		}
		check(string(b))
	}
}

// TestHexBitsOracle checks hexBits against isHexDigit on every byte, at
// every position of a word, next to every kind of neighbour.
func TestHexBitsOracle(t *testing.T) {
	for _, fill := range []byte{'0', 'f', 'F', 0x00, 0x7f, 0x80, 0xff, '/'} {
		for pos := range 8 {
			for c := range 256 {
				b := bytes.Repeat([]byte{fill}, 8)
				b[pos] = byte(c)
				got := hexBits(word(string(b), 0))
				var want uint64
				for i, x := range b {
					if isHexDigit(x) {
						want |= 0x80 << (8 * i)
					}
				}
				if got != want {
					t.Fatalf("hexBits(%q) = %#x, want %#x", b, got, want)
				}
			}
		}
	}
}

// TestASCIIRepeatOracle checks the constraints that regular expressions of
// one repeated ASCII class compile to against the regexps themselves, on
// random segments that mix the class's bytes with others, multi-byte
// characters and invalid UTF-8.
func TestASCIIRepeatOracle(t *testing.T) {
	exprs := []string{
		`[A-Z]{3}`, `[a-z0-9-]+`, `\d{4}`, `\d{2,}`, `[a-c]{1,3}`, `x*`, `x?`, `[_\w]+`, `[[:alpha:]]{2}`,
		`(?i)[a-z]+`, `(?i)k+`, `[^a-z]+`, `.{3}`, `\pL+`, `é+`, `[a-z]+-[0-9]+`, `(ab)+`, `(?:[a-f])+`,
	}
	fast := map[string]bool{`[A-Z]{3}`: true, `[a-z0-9-]+`: true, `\d{4}`: true, `\d{2,}`: true, `[a-c]{1,3}`: true, `x*`: true, `x?`: true, `[_\w]+`: true, `[[:alpha:]]{2}`: true, `(?:[a-f])+`: true}
	pieces := []string{"a", "b", "c", "x", "k", "A", "K", "Z", "0", "9", "-", "_", "é", "\u212a", "\xff", "\x80", "/", " ", ""}
	rng := rand.New(rand.NewPCG(21, 22))
	for _, expr := range exprs {
		a, ok := asciiRepeatOf(expr)
		if ok != fast[expr] {
			t.Errorf("%s: compiled to a byte table: %v, want %v", expr, ok, fast[expr])
			continue
		}
		c, err := compileConstraint(expr)
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(`^(?:` + expr + `)$`)
		for range 20000 {
			var b strings.Builder
			for range rng.IntN(6) {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			s := b.String()
			if got, want := c.match(s), re.MatchString(s); got != want {
				t.Fatalf("%s on %q: %v, want %v", expr, s, got, want)
			}
			if ok && a.match(s) != re.MatchString(s) {
				t.Fatalf("%s on %q: byte table says %v", expr, s, a.match(s))
			}
		}
	}
}
