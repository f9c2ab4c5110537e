// This file describes how and where the benchmarks ran: the command, the
// date, the machine, the Go version and the version of every router.
//
// The description is collected before the run and written at the top of
// the raw output as comment lines ("# benchreport go: go1.26.0"), which
// benchstat ignores, so that a report made later with -in from that file
// describes the run, not the machine that made the report.

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// Info describes a benchmark run.
type Info struct {
	Command string   // the go test command line; "" if unknown
	Passes  int      // how many times Command ran, in turn; 0 if unknown (once)
	Date    string   // when the run started, "2006-01-02 15:04 MST"
	CPU     string   // CPU model
	Cores   string   // number of logical CPUs
	Memory  string   // total memory, "23.5 GiB"
	OS      string   // distribution, kernel and architecture
	Go      string   // Go version of the toolchain that ran the benchmarks
	Cairn   string   // cairn's commit, "abc1234" or "abc1234+changes"
	Modules []Module // the peer routers' modules
}

// A Module is the module that provides a peer router.
type Module struct {
	Router, Path, Version string
}

// peerModules maps the path of each peer router's module, without its
// major version suffix, to the router's name.
var peerModules = map[string]string{
	"github.com/julienschmidt/httprouter": "httprouter",
	"github.com/go-chi/chi":               "chi",
	"github.com/gorilla/mux":              "gorilla",
	"github.com/labstack/echo":            "echo",
	"github.com/gin-gonic/gin":            "gin",
	"github.com/uptrace/bunrouter":        "bunrouter",
	"github.com/dimfeld/httptreemux":      "httptreemux",
}

// infoPrefix starts the lines of the raw output that hold the Info.
const infoPrefix = "# benchreport "

// collectInfo describes this machine, the Go toolchain and the modules of
// the benchmarks module in dir. What it cannot find it reports on warn
// and leaves "unknown".
func collectInfo(dir string, warn io.Writer) Info {
	info := Info{
		CPU:    cpuModel(),
		Cores:  strconv.Itoa(runtime.NumCPU()),
		Memory: memTotal(),
		OS:     osName(),
		Go:     runtime.Version(),
		Cairn:  "unknown",
	}
	if out, err := goCmd(dir, "env", "GOVERSION"); err != nil {
		fmt.Fprintf(warn, "benchreport: %v; reporting the Go version of benchreport\n", err)
	} else {
		info.Go = strings.TrimSpace(string(out))
	}
	out, err := goCmd(dir, "list", "-m", "-json", "all")
	if err != nil {
		fmt.Fprintf(warn, "benchreport: %v; the report will not list module versions\n", err)
		return info
	}
	mods, cairnDir, err := peerVersions(out)
	if err != nil {
		fmt.Fprintf(warn, "benchreport: go list -m -json all: %v\n", err)
	}
	info.Modules = mods
	if cairnDir != "" {
		if c, err := gitCommit(cairnDir); err != nil {
			fmt.Fprintf(warn, "benchreport: cairn's commit: %v\n", err)
		} else {
			info.Cairn = c
		}
	}
	return info
}

// goCmd runs the go command in dir and returns its standard output.
func goCmd(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %v: %s", strings.Join(args, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	return out, nil
}

// peerVersions picks the peer routers' modules out of the output of
// go list -m -json all, in column order, and returns the directory of
// cairn's module.
func peerVersions(out []byte) (mods []Module, cairnDir string, err error) {
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var m struct {
			Path, Version, Dir string
			Replace            *struct{ Path, Version, Dir string }
		}
		if err := dec.Decode(&m); err == io.EOF {
			break
		} else if err != nil {
			return mods, cairnDir, err
		}
		if m.Path == "github.com/cairn-go/cairn" {
			cairnDir = m.Dir
			if m.Replace != nil && m.Replace.Dir != "" {
				cairnDir = m.Replace.Dir
			}
			continue
		}
		router, ok := peerModules[trimMajor(m.Path)]
		if !ok {
			continue
		}
		v := m.Version
		if m.Replace != nil {
			v += " => " + strings.TrimSpace(m.Replace.Path+" "+m.Replace.Version)
		}
		mods = append(mods, Module{Router: router, Path: m.Path, Version: v})
	}
	sortModules(mods)
	return mods, cairnDir, nil
}

// sortModules puts modules in the column order of their routers.
func sortModules(mods []Module) {
	slices.SortStableFunc(mods, func(a, b Module) int {
		return routerRank(a.Router) - routerRank(b.Router)
	})
}

// trimMajor removes a "/vN" major version suffix from a module path.
func trimMajor(path string) string {
	i := strings.LastIndex(path, "/v")
	if i < 0 {
		return path
	}
	if _, err := strconv.Atoi(path[i+2:]); err != nil {
		return path
	}
	return path[:i]
}

// gitCommit returns the short commit checked out in dir, followed by
// "+changes" if tracked files differ from it. go.work.sum does not count:
// the go command adds to it the checksums of whatever modules the
// machine's cache holds.
func gitCommit(dir string) (string, error) {
	out, err := exec.Command("git", "-C", dir, "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "", fmt.Errorf("git rev-parse: %v", err)
	}
	c := strings.TrimSpace(string(out))
	st, err := exec.Command("git", "-C", dir, "status", "--porcelain", "--untracked-files=no", "--", ":(top,exclude)go.work.sum").Output()
	if err == nil && len(bytes.TrimSpace(st)) > 0 {
		c += "+changes"
	}
	return c, nil
}

// cpuModel returns the model of the first CPU in /proc/cpuinfo, or the
// architecture if there is none.
func cpuModel() string {
	for _, key := range []string{"model name", "Model", "Hardware", "cpu model"} {
		if v := procField("/proc/cpuinfo", key); v != "" {
			return v
		}
	}
	return "unknown " + runtime.GOARCH
}

// memTotal returns the total memory from /proc/meminfo: "23.5 GiB".
func memTotal() string {
	v := procField("/proc/meminfo", "MemTotal")
	kb, err := strconv.ParseFloat(strings.TrimSuffix(v, " kB"), 64)
	if err != nil {
		return "unknown"
	}
	return scale(kb*1024, []string{"B", "KiB", "MiB", "GiB", "TiB"}, 1024)
}

// osName returns the distribution from /etc/os-release, the kernel and
// the architecture: "Debian GNU/Linux 12 (bookworm), Linux 6.8.0, amd64".
func osName() string {
	var parts []string
	if v := procField("/etc/os-release", "PRETTY_NAME"); v != "" {
		parts = append(parts, strings.Trim(v, `"`))
	}
	kernel := runtime.GOOS
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		kernel = "Linux " + strings.TrimSpace(string(b))
	}
	return strings.Join(append(parts, kernel, runtime.GOARCH), ", ")
}

// procField returns the value of the first line "key: value" or
// "key=value" of the file, or "" if there is none.
func procField(file, key string) string {
	b, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			k, v, ok = strings.Cut(sc.Text(), "=")
		}
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// writeInfo writes info as the comment lines that start the raw output.
func writeInfo(w io.Writer, info Info) error {
	var b strings.Builder
	line := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "%s%s: %s\n", infoPrefix, k, v)
		}
	}
	line("command", info.Command)
	if info.Passes > 0 {
		line("passes", strconv.Itoa(info.Passes))
	}
	line("date", info.Date)
	line("cpu", info.CPU)
	line("cores", info.Cores)
	line("memory", info.Memory)
	line("os", info.OS)
	line("go", info.Go)
	line("cairn", info.Cairn)
	for _, m := range info.Modules {
		line("module", m.Router+" "+m.Path+" "+m.Version)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// readInfo reads the Info that writeInfo wrote at the top of data, and
// reports whether there was one.
func readInfo(data []byte) (Info, bool) {
	var info Info
	found := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), infoPrefix)
		if !ok {
			continue
		}
		k, v, ok := strings.Cut(rest, ": ")
		if !ok {
			continue
		}
		found = true
		switch k {
		case "command":
			info.Command = v
		case "passes":
			info.Passes, _ = strconv.Atoi(v)
		case "date":
			info.Date = v
		case "cpu":
			info.CPU = v
		case "cores":
			info.Cores = v
		case "memory":
			info.Memory = v
		case "os":
			info.OS = v
		case "go":
			info.Go = v
		case "cairn":
			info.Cairn = v
		case "module":
			if f := strings.SplitN(v, " ", 3); len(f) == 3 {
				info.Modules = append(info.Modules, Module{Router: f[0], Path: f[1], Version: f[2]})
			}
		}
	}
	return info, found
}
