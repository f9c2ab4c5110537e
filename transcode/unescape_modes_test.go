package transcode

import "testing"

// TestUnescapeValueCases checks the three decodings of variable values.
func TestUnescapeValueCases(t *testing.T) {
	const reserved = "%21%23%24%26%27%28%29%2A%2B%2C%2F%3A%3B%3D%3F%40%5B%5D"
	for _, tt := range []struct {
		raw                   string
		multi, decodeReserved bool
		want                  string
	}{
		{"plain", false, false, "plain"},
		{"p%20q%2Fr+", false, false, "p q/r+"},
		{reserved, false, false, "!#$&'()*+,/:;=?@[]"},
		{reserved, true, false, reserved},
		{reserved, true, true, "!#$&'()*+,/:;=?@[]"},
		{"shelves/a%20b%2Fc/books/%7E", true, false, "shelves/a b%2Fc/books/~"},
		{"%e2%82%ac", false, false, "€"},
		{"%00", false, false, "\x00"},
		{"a%252Fb", true, false, "a%252Fb"}, // not a%2Fb, which is another value
		{"a%252Fb", true, true, "a%2Fb"},
		{"a%252Fb", false, false, "a%2Fb"},
	} {
		got, err := unescapeValue(tt.raw, tt.multi, tt.decodeReserved)
		if err != nil || got != tt.want {
			t.Errorf("unescapeValue(%q, %v, %v) = %q, %v; want %q", tt.raw, tt.multi, tt.decodeReserved, got, err, tt.want)
		}
	}
	for _, raw := range []string{"%", "%2", "a%G1", "%zz", "ab%"} {
		if _, err := unescapeValue(raw, false, false); err == nil {
			t.Errorf("unescapeValue(%q): no error", raw)
		}
	}
	if n := testing.AllocsPerRun(100, func() { unescapeValue("shelves/1/books/2%2F", true, false) }); n != 0 {
		t.Errorf("unescapeValue with nothing to decode: %v allocations, want 0", n)
	}
}
