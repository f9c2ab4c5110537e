package main

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestRunBenchmarksPasses runs runBenchmarks with a fake go command that
// prints one result and exits 1, as go test does when a benchmark fails:
// every pass still runs, and the file records the passes that ran.
func TestRunBenchmarksPasses(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake go command is a shell script")
	}
	bin := t.TempDir()
	script := "#!/bin/sh\n" +
		"echo 'BenchmarkSingle/static/router=cairn  \t100\t  10.0 ns/op'\n" +
		"echo '--- FAIL: BenchmarkSingle/static/router=chi'\n" +
		"exit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))

	raw := filepath.Join(t.TempDir(), "benchmarks.txt")
	data, ran, err := runBenchmarks([]string{"test"}, raw, Info{Command: "go test"}, 3, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "pass 1") {
		t.Errorf("got error %v, want the first pass's", err)
	}
	if ran != 3 {
		t.Errorf("%d passes ran, want 3", ran)
	}
	if n := strings.Count(string(data), "BenchmarkSingle/static/router=cairn"); n != 3 {
		t.Errorf("the output holds %d results, want 3", n)
	}
	file, _ := os.ReadFile(raw)
	if info, ok := readInfo(file); !ok || info.Passes != 3 || info.Command != "go test" {
		t.Errorf("the file describes its run as %+v, %v; want 3 passes of go test", info, ok)
	}
}
