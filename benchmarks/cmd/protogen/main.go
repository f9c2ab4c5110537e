// Command protogen generates Go code from .proto files without protoc: it
// compiles them with github.com/bufbuild/protocompile and runs the
// standard code generator plugins (protoc-gen-go, protoc-gen-go-grpc,
// protoc-gen-grpc-gateway), built from the versions this module requires,
// on the request protoc would have sent them.
//
// Usage, from the benchmarks directory:
//
//	go run ./cmd/protogen -I ../transcode/internal/testpb -out ../transcode/internal/testpb -plugins go,go-grpc test.proto
//
// Files are named relative to the -I directory, and output is written
// relative to -out as with paths=source_relative. google/protobuf/*.proto
// and google/api/{annotations,http,httpbody}.proto are imported from the
// descriptors linked into this program, so no copy of them is needed.
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

// plugins maps a plugin's short name to its package and the parameter it
// is run with.
var plugins = map[string]struct{ pkg, param string }{
	"go":           {"google.golang.org/protobuf/cmd/protoc-gen-go", "paths=source_relative"},
	"go-grpc":      {"google.golang.org/grpc/cmd/protoc-gen-go-grpc", "paths=source_relative"},
	"grpc-gateway": {"github.com/grpc-ecosystem/grpc-gateway/v2/protoc-gen-grpc-gateway", "paths=source_relative,standalone=true"},
}

// linked makes sure the google/api files are registered.
var linked = []proto.Message{&annotations.HttpRule{}, &httpbody.HttpBody{}}

func main() {
	include := flag.String("I", ".", "the directory the .proto files are named relative to")
	out := flag.String("out", ".", "the output directory")
	names := flag.String("plugins", "go,go-grpc", "the plugins to run, comma-separated: go, go-grpc, grpc-gateway")
	pkg := flag.String("gateway_package", "", "the package name of grpc-gateway's output (default: the proto's)")
	flag.Parse()
	if err := run(*include, *out, strings.Split(*names, ","), *pkg, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "protogen:", err)
		os.Exit(1)
	}
}

// run generates the code for files.
func run(include, out string, names []string, gatewayPkg string, files []string) error {
	if len(files) == 0 {
		return errors.New("no .proto files")
	}
	req, err := request(include, files)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "protogen")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for _, name := range names {
		p, ok := plugins[name]
		if !ok {
			return fmt.Errorf("unknown plugin %q", name)
		}
		bin := filepath.Join(tmp, "protoc-gen-"+name)
		build := exec.Command("go", "build", "-o", bin, p.pkg)
		build.Stderr = os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("building %s: %w", p.pkg, err)
		}
		req.Parameter = proto.String(p.param)
		resp, err := runPlugin(bin, req)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		for _, f := range resp.GetFile() {
			content := f.GetContent()
			if name == "grpc-gateway" && gatewayPkg != "" {
				content = renamePackage(content, gatewayPkg)
			}
			path := filepath.Join(out, f.GetName())
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				return err
			}
			fmt.Println("wrote", path)
		}
	}
	return nil
}

// request compiles files and returns the request protoc would send.
func request(include string, files []string) (*pluginpb.CodeGeneratorRequest, error) {
	c := protocompile.Compiler{
		Resolver: protocompile.WithStandardImports(protocompile.CompositeResolver{
			&protocompile.SourceResolver{ImportPaths: []string{include}},
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
		for i := 0; i < imports.Len(); i++ {
			add(imports.Get(i).FileDescriptor)
		}
		req.ProtoFile = append(req.ProtoFile, protodesc.ToFileDescriptorProto(fd))
	}
	for _, f := range compiled {
		add(f)
	}
	for _, fdp := range req.ProtoFile {
		for _, f := range files {
			if fdp.GetName() == f {
				req.SourceFileDescriptors = append(req.SourceFileDescriptors, proto.Clone(fdp).(*descriptorpb.FileDescriptorProto))
			}
		}
	}
	return req, nil
}

// runPlugin runs the plugin bin on req.
func runPlugin(bin string, req *pluginpb.CodeGeneratorRequest) (*pluginpb.CodeGeneratorResponse, error) {
	in, err := proto.Marshal(req)
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
		return nil, err
	}
	if resp.Error != nil {
		return nil, errors.New(resp.GetError())
	}
	return resp, nil
}

// renamePackage replaces the package clause of the Go source src.
func renamePackage(src, name string) string {
	i := strings.Index(src, "\npackage ")
	if i < 0 {
		return src
	}
	j := strings.IndexByte(src[i+1:], '\n')
	return src[:i+1] + "package " + name + src[i+1+j:]
}
