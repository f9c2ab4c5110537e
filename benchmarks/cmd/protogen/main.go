// Command protogen generates Go code from .proto files without protoc. It
// compiles them with github.com/bufbuild/protocompile, builds the
// pluginpb.CodeGeneratorRequest protoc would send, and runs the standard
// code generator plugins on it, each built once per run at the version
// this module requires:
//
//	-go_out            google.golang.org/protobuf/cmd/protoc-gen-go
//	-go-grpc_out       google.golang.org/grpc/cmd/protoc-gen-go-grpc
//	-grpc-gateway_out  github.com/grpc-ecosystem/grpc-gateway/v2/protoc-gen-grpc-gateway
//
// Usage, from the benchmarks directory (whose go.mod fixes the plugins'
// versions):
//
//	go run ./cmd/protogen [-I dir]... [-go_out dir] [-go-grpc_out dir] [-grpc-gateway_out dir[,param]...] file.proto...
//
// Files are named relative to an -I directory (default "."). Every plugin
// is given paths=source_relative, followed by the parameters after the
// first comma of its _out flag, as in
//
//	-grpc-gateway_out=internal/librarygw,standalone=true,omit_package_doc=true
//
// grpc-gateway's standalone output imports the service's own package but
// keeps its package name; protogen renames it after its output directory
// (librarygw above), so that the two can be imported side by side.
//
// google/protobuf/*.proto and google/api/{annotations,http,httpbody}.proto
// are resolved from the descriptors linked into this program, so no copy of
// them is needed. The output depends only on the inputs and the plugins'
// versions: a rerun rewrites the same bytes.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bufbuild/protocompile"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/genproto/googleapis/api/httpbody"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"
)

// plugin is a code generator plugin protogen knows how to run.
type plugin struct {
	name string // as in the -name_out flag
	pkg  string // the Go package that builds it
}

// plugins lists the known plugins in the order they run.
var plugins = []plugin{
	{"go", "google.golang.org/protobuf/cmd/protoc-gen-go"},
	{"go-grpc", "google.golang.org/grpc/cmd/protoc-gen-go-grpc"},
	{"grpc-gateway", "github.com/grpc-ecosystem/grpc-gateway/v2/protoc-gen-grpc-gateway"},
}

// One message of each google/api file the resolver needs, so that their
// packages are linked in and register their descriptors in
// protoregistry.GlobalFiles.
var _ = []proto.Message{&annotations.HttpRule{}, &httpbody.HttpBody{}}

// output is one plugin to run: where its files go and its parameter.
type output struct {
	plugin
	dir   string
	param string
}

// listFlag is a flag.Value that collects every occurrence of a flag.
type listFlag []string

// String returns the values joined by commas.
func (l *listFlag) String() string { return strings.Join(*l, ",") }

// Set appends v.
func (l *listFlag) Set(v string) error {
	*l = append(*l, v)
	return nil
}

func main() {
	var includes listFlag
	flag.Var(&includes, "I", "a directory the .proto files are named relative to (repeatable; default .)")
	outs := make([]*string, len(plugins))
	for i, p := range plugins {
		outs[i] = flag.String(p.name+"_out", "", "run protoc-gen-"+p.name+" and write its output under `dir`[,param...]")
	}
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: protogen [-I dir]... [-go_out dir] [-go-grpc_out dir] [-grpc-gateway_out dir[,param]...] file.proto...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if len(includes) == 0 {
		includes = listFlag{"."}
	}
	var todo []output
	for i, p := range plugins {
		if *outs[i] == "" {
			continue
		}
		dir, extra, _ := strings.Cut(*outs[i], ",")
		param := "paths=source_relative"
		if extra != "" {
			param += "," + extra
		}
		todo = append(todo, output{plugin: p, dir: dir, param: param})
	}
	if err := run(includes, todo, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "protogen:", err)
		os.Exit(1)
	}
}

// run compiles files and runs each of todo on them.
func run(includes []string, todo []output, files []string) error {
	if len(files) == 0 {
		return errors.New("no .proto files given")
	}
	if len(todo) == 0 {
		return errors.New("no output requested (-go_out, -go-grpc_out or -grpc-gateway_out)")
	}
	req, err := buildRequest(includes, files)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "protogen")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	written := map[string]string{}
	for _, o := range todo {
		bin := filepath.Join(tmp, "protoc-gen-"+o.name)
		build := exec.Command("go", "build", "-o", bin, o.pkg)
		build.Stderr = os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("building %s: %w", o.pkg, err)
		}
		req.Parameter = proto.String(o.param)
		resp, err := runPlugin(bin, req)
		if err != nil {
			return fmt.Errorf("protoc-gen-%s: %w", o.name, err)
		}
		for _, f := range resp.GetFile() {
			if f.GetInsertionPoint() != "" {
				return fmt.Errorf("protoc-gen-%s: insertion points are not supported (%s)", o.name, f.GetName())
			}
			path := filepath.Join(o.dir, filepath.FromSlash(f.GetName()))
			if prev, ok := written[path]; ok {
				return fmt.Errorf("protoc-gen-%s and protoc-gen-%s both write %s", prev, o.name, path)
			}
			written[path] = o.name
			content := f.GetContent()
			if o.name == "grpc-gateway" && slices.Contains(strings.Split(o.param, ","), "standalone=true") {
				abs, err := filepath.Abs(filepath.Dir(path))
				if err != nil {
					return err
				}
				content = renamePackage(content, filepath.Base(abs))
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				return err
			}
			fmt.Println("protogen: wrote", path)
		}
	}
	return nil
}

// buildRequest compiles files, found under includes, and returns the
// request protoc would send a plugin for them: proto_file holds every file
// they import, directly or not, each after its own imports, and then the
// files themselves, all with source code info.
func buildRequest(includes, files []string) (*pluginpb.CodeGeneratorRequest, error) {
	c := protocompile.Compiler{
		Resolver: protocompile.WithStandardImports(protocompile.CompositeResolver{
			&protocompile.SourceResolver{ImportPaths: includes},
			protocompile.ResolverFunc(func(path string) (protocompile.SearchResult, error) {
				fd, err := protoregistry.GlobalFiles.FindFileByPath(path)
				if err != nil {
					return protocompile.SearchResult{}, err
				}
				return protocompile.SearchResult{Desc: fd}, nil
			}),
		}),
		SourceInfoMode: protocompile.SourceInfoStandard,
	}
	compiled, err := c.Compile(context.Background(), files...)
	if err != nil {
		return nil, err
	}
	req := &pluginpb.CodeGeneratorRequest{FileToGenerate: files}
	seen := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		imports := fd.Imports()
		for i := range imports.Len() {
			add(imports.Get(i).FileDescriptor)
		}
		req.ProtoFile = append(req.ProtoFile, fileProto(fd))
	}
	for _, fd := range compiled {
		add(fd)
	}
	for _, fd := range compiled {
		req.SourceFileDescriptors = append(req.SourceFileDescriptors, fileProto(fd))
	}
	return req, nil
}

// fileProto returns the descriptor proto of fd: the compiler's own for a
// file it compiled from source, a conversion for one linked into this
// program.
func fileProto(fd protoreflect.FileDescriptor) *descriptorpb.FileDescriptorProto {
	if r, ok := fd.(interface {
		FileDescriptorProto() *descriptorpb.FileDescriptorProto
	}); ok {
		return proto.CloneOf(r.FileDescriptorProto())
	}
	return protodesc.ToFileDescriptorProto(fd)
}

// runPlugin runs the plugin binary bin on req and returns its response,
// or the error it reports.
func runPlugin(bin string, req *pluginpb.CodeGeneratorRequest) (*pluginpb.CodeGeneratorResponse, error) {
	in, err := proto.MarshalOptions{Deterministic: true}.Marshal(req)
	if err != nil {
		return nil, err
	}
	var stdout bytes.Buffer
	cmd := exec.Command(bin)
	cmd.Stdin = bytes.NewReader(in)
	cmd.Stdout = &stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, err
	}
	resp := new(pluginpb.CodeGeneratorResponse)
	if err := proto.Unmarshal(stdout.Bytes(), resp); err != nil {
		return nil, fmt.Errorf("reading its response: %w", err)
	}
	if resp.Error != nil {
		return nil, errors.New(resp.GetError())
	}
	return resp, nil
}

// renamePackage returns the Go source src with its package clause naming
// name instead.
func renamePackage(src, name string) string {
	i := strings.Index(src, "\npackage ")
	if i < 0 {
		return src
	}
	j := strings.IndexByte(src[i+1:], '\n')
	if j < 0 {
		return src[:i+1] + "package " + name
	}
	return src[:i+1] + "package " + name + src[i+1+j:]
}
