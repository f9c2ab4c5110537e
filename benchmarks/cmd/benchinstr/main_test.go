package main

import (
	"strings"
	"testing"
)

func TestParseIRefs(t *testing.T) {
	for _, tc := range []struct {
		out  string
		want int64
		ok   bool
	}{
		{"==765== \n==765== I   refs:      544,427,623\n==765== \n", 544427623, true},
		{"==1== I refs: 12\n", 12, true},
		{"==1== Branches: 3\n", 0, false},
		{"==1== I   refs:      5x4\n", 0, false},
	} {
		got, err := parseIRefs(tc.out)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseIRefs(%q) = %d, %v; want %d, ok %v", tc.out, got, err, tc.want, tc.ok)
		}
	}
}

func TestWriteTable(t *testing.T) {
	cs := []benchCase{{name: "A"}, {name: "B"}, {name: "C"}}
	counts := map[[2]string]float64{
		{"A", "cairn"}: 80, {"A", "echo"}: 100, {"A", "gin"}: 200,
		{"B", "cairn"}: 300, {"B", "gin"}: 150, // echo missing
		{"C", "echo"}: 10, // cairn missing
	}
	var b strings.Builder
	writeTable(&b, cs, []string{"cairn", "echo", "gin"}, counts)
	want := `| case | cairn | echo | gin | cairn ÷ fewest other |
|:--|--:|--:|--:|--:|
| A | 80 | 100 | 200 | 0.80× |
| B | 300 | n/a | 150 | 2.00× |
| C | n/a | 10 | n/a | n/a |
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
