package transcode

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
)

func TestUnescape(t *testing.T) {
	const reserved = "%21%23%24%26%27%28%29%2A%2B%2C%2F%3A%3B%3D%3F%40%5B%5D"
	for _, tt := range []struct {
		raw  string
		mode decodeMode
		want string
	}{
		{"", decodeSingle, ""},
		{"plain", decodeSingle, "plain"},
		{"a%2Fb%20c", decodeSingle, "a/b c"},
		{"a+b", decodeSingle, "a+b"},
		{"a%2Bb", decodeSingle, "a+b"},
		{"%41%62", decodeSingle, "Ab"},
		{"%e2%82%AC", decodeSingle, "€"},
		{"%25", decodeSingle, "%"},
		{"%252F", decodeSingle, "%2F"},
		{reserved, decodeSingle, "!#$&'()*+,/:;=?@[]"},
		{"%00%7f%ff", decodeSingle, "\x00\x7f\xff"},

		{"shelves/a%2Fb%20c", decodeMultiReserved, "shelves/a%2Fb c"},
		{reserved, decodeMultiReserved, reserved},
		{"a%2fb", decodeMultiReserved, "a%2fb"},
		{"%25", decodeMultiReserved, "%25"},
		{"a%252Fb/c", decodeMultiReserved, "a%252Fb/c"},
		{"a%7Eb%2d%5F%2E", decodeMultiReserved, "a~b-_."},
		{"a%20b%22%3C%3E%5C%5E%60%7B%7C%7D", decodeMultiReserved, `a b"<>\^` + "`{|}"},
		{"a+b", decodeMultiReserved, "a+b"},

		{"shelves/a%2Fb%20c", decodeMultiAll, "shelves/a/b c"},
		{reserved, decodeMultiAll, "!#$&'()*+,/:;=?@[]"},
		{"%25", decodeMultiAll, "%"},
	} {
		got, err := unescape(tt.raw, tt.mode)
		if err != nil || got != tt.want {
			t.Errorf("%q (%v): got %q, %v, want %q", tt.raw, tt.mode, got, err, tt.want)
		}
	}
}

func TestUnescapeErrors(t *testing.T) {
	for _, tt := range []struct {
		raw, want string
	}{
		{"%G1", `transcode: malformed escape "%G1" at offset 0`},
		{"%1G", `transcode: malformed escape "%1G" at offset 0`},
		{"ab%2", `transcode: malformed escape "%2" at offset 2`},
		{"ab%", `transcode: malformed escape "%" at offset 2`},
		{"%%41", `transcode: malformed escape "%%4" at offset 0`},
		{"%2F%", `transcode: malformed escape "%" at offset 3`},
		{"a/b%zz/c", `transcode: malformed escape "%zz" at offset 3`},
	} {
		for _, mode := range []decodeMode{decodeSingle, decodeMultiReserved, decodeMultiAll} {
			got, err := unescape(tt.raw, mode)
			if fmt.Sprint(err) != tt.want || got != "" {
				t.Errorf("%q (%v): got %q, %v, want %v", tt.raw, mode, got, err, tt.want)
			}
		}
	}
}

// TestUnescapeEveryByte checks the escape of each byte, in both cases of
// hexadecimal digits, in each mode.
func TestUnescapeEveryByte(t *testing.T) {
	for c := range 256 {
		for _, raw := range []string{fmt.Sprintf("%%%02X", c), fmt.Sprintf("%%%02x", c)} {
			for _, mode := range []decodeMode{decodeSingle, decodeMultiReserved, decodeMultiAll} {
				want := string([]byte{byte(c)})
				if mode == decodeMultiReserved && (c == '%' || strings.IndexByte("!#$&'()*+,/:;=?@[]", byte(c)) >= 0) {
					want = raw
				}
				if got, err := unescape(raw, mode); err != nil || got != want {
					t.Errorf("%q (%v): got %q, %v, want %q", raw, mode, got, err, want)
				}
			}
		}
	}
}

func TestUnescapeValueModes(t *testing.T) {
	for _, tt := range []struct {
		multi, decodeReserved bool
		want                  string
	}{
		{false, false, "a/b/c d"},
		{false, true, "a/b/c d"},
		{true, false, "a/b%2Fc d"},
		{true, true, "a/b/c d"},
	} {
		raw := "a/b%2Fc%20d"
		if got, err := unescapeValue(raw, tt.multi, tt.decodeReserved); err != nil || got != tt.want {
			t.Errorf("%q (multi %v, decodeReserved %v): got %q, %v, want %q", raw, tt.multi, tt.decodeReserved, got, err, tt.want)
		}
	}
}

func TestUnescapeAllocs(t *testing.T) {
	for _, tt := range []struct {
		raw                   string
		multi, decodeReserved bool
	}{
		{"plain-value", false, false},
		{"shelves/s1/books/b1", true, false},
		{"shelves/a%2Fb/c%3A", true, false}, // kept escapes only
	} {
		if n := testing.AllocsPerRun(100, func() { unescapeValue(tt.raw, tt.multi, tt.decodeReserved) }); n != 0 {
			t.Errorf("%q: got %v allocations, want 0", tt.raw, n)
		}
	}
}

// checkUnescape compares decodeSingle with net/url's PathUnescape, and
// checks that decodeMultiReserved loses nothing: decoding its value
// fully gives the fully decoded raw.
func checkUnescape(tb testing.TB, raw string) {
	tb.Helper()
	got, err := unescape(raw, decodeSingle)
	want, werr := url.PathUnescape(raw)
	if (err != nil) != (werr != nil) || got != want && err == nil {
		tb.Errorf("%q: got %q, %v, want %q, %v", raw, got, err, want, werr)
	}
	if err != nil {
		return
	}
	kept, err := unescape(raw, decodeMultiReserved)
	if err != nil {
		tb.Fatalf("%q: %v", raw, err)
	}
	if again, err := unescape(kept, decodeSingle); err != nil || again != got {
		tb.Errorf("%q: decoded from %q: got %q, %v, want %q", raw, kept, again, err, got)
	}
}

func TestUnescapeProperties(t *testing.T) {
	for _, raw := range []string{"a%252Fb", "%25%2F%2525", "a%2Fb/%41+", "%zz", "%", "%E2%82%AC/%2f"} {
		checkUnescape(t, raw)
	}
}

func FuzzUnescapeValue(f *testing.F) {
	for _, s := range []string{"a%2Fb%20c", "a%252Fb", "%G1", "%2", "a+b/%41"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) { checkUnescape(t, raw) })
}
