package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestInfoRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	if err := writeInfo(&buf, sampleInfo); err != nil {
		t.Fatal(err)
	}
	got, ok := readInfo(append(buf.Bytes(), "goos: linux\nBenchmarkX 1 1 ns/op\n"...))
	if !ok || !reflect.DeepEqual(got, sampleInfo) {
		t.Errorf("got %+v, %v, want %+v", got, ok, sampleInfo)
	}
	if _, ok := readInfo([]byte("goos: linux\nBenchmarkX 1 1 ns/op\n")); ok {
		t.Errorf("found an Info in output without one")
	}
}

func TestPeerVersions(t *testing.T) {
	out := `{"Path": "github.com/cairn-go/cairn/benchmarks", "Main": true, "Dir": "/w/benchmarks"}
{"Path": "github.com/cairn-go/cairn", "Main": true, "Dir": "/w"}
{"Path": "github.com/gin-gonic/gin", "Version": "v1.12.0"}
{"Path": "github.com/go-chi/chi/v5", "Version": "v5.5.0"}
{"Path": "github.com/gorilla/mux", "Version": "v1.8.1", "Replace": {"Path": "../mux", "Dir": "/mux"}}
{"Path": "golang.org/x/net", "Version": "v0.59.0"}
`
	mods, dir, err := peerVersions([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	want := []Module{
		{"chi", "github.com/go-chi/chi/v5", "v5.5.0"},
		{"gorilla", "github.com/gorilla/mux", "v1.8.1 => ../mux"},
		{"gin", "github.com/gin-gonic/gin", "v1.12.0"},
	}
	if !reflect.DeepEqual(mods, want) || dir != "/w" {
		t.Errorf("got %+v, %q, want %+v, %q", mods, dir, want, "/w")
	}
}

func TestTrimMajor(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"github.com/go-chi/chi/v5", "github.com/go-chi/chi"},
		{"github.com/gorilla/mux", "github.com/gorilla/mux"},
		{"example.com/vendor/values", "example.com/vendor/values"},
	} {
		if got := trimMajor(tt.in); got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestGitCommit checks that gitCommit marks a tree whose tracked files
// changed, and not one where only go.work.sum did.
func TestGitCommit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed to test gitCommit:", err)
	}
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, s string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	write("go.work.sum", "a\n")
	write("main.go", "package main\n")
	git("add", ".")
	git("commit", "-q", "-m", "first")
	clean, err := gitCommit(dir)
	if err != nil || clean == "" || strings.Contains(clean, "+") {
		t.Fatalf("clean tree: gitCommit = %q, %v", clean, err)
	}
	write("go.work.sum", "a\nb\n")
	if c, err := gitCommit(dir); err != nil || c != clean {
		t.Errorf("go.work.sum changed: gitCommit = %q, %v; want %q", c, err, clean)
	}
	write("main.go", "package main // changed\n")
	if c, err := gitCommit(dir); err != nil || c != clean+"+changes" {
		t.Errorf("main.go changed: gitCommit = %q, %v; want %q", c, err, clean+"+changes")
	}
}
