package transcode

import (
	"net/http"
	"testing"

	"google.golang.org/genproto/googleapis/api/httpbody"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// chainResolver finds descriptors in first, then in second.
type chainResolver struct{ first, second *protoregistry.Files }

func (c chainResolver) FindFileByPath(path string) (protoreflect.FileDescriptor, error) {
	if fd, err := c.first.FindFileByPath(path); err == nil {
		return fd, nil
	}
	return c.second.FindFileByPath(path)
}

func (c chainResolver) FindDescriptorByName(name protoreflect.FullName) (protoreflect.Descriptor, error) {
	if d, err := c.first.FindDescriptorByName(name); err == nil {
		return d, nil
	}
	return c.second.FindDescriptorByName(name)
}

// dynamicTestService returns the Test service built again at run time from
// its descriptor, with google/api/httpbody.proto, as a program that reads
// descriptors from a file or a reflection service has them: its messages
// have no Go types (the Handler uses dynamic ones), and its options hold
// the google.api.http rules as unknown fields.
func dynamicTestService(t *testing.T) protoreflect.ServiceDescriptor {
	t.Helper()
	files := new(protoregistry.Files)
	var last protoreflect.FileDescriptor
	for _, fd := range []protoreflect.FileDescriptor{
		(&httpbody.HttpBody{}).ProtoReflect().Descriptor().ParentFile(),
		testService.ParentFile(),
	} {
		b, err := proto.Marshal(protodesc.ToFileDescriptorProto(fd))
		if err != nil {
			t.Fatal(err)
		}
		fdp := new(descriptorpb.FileDescriptorProto)
		if err := (proto.UnmarshalOptions{Resolver: new(protoregistry.Types)}).Unmarshal(b, fdp); err != nil {
			t.Fatal(err)
		}
		last, err = protodesc.NewFile(fdp, chainResolver{files, protoregistry.GlobalFiles})
		if err != nil {
			t.Fatal(err)
		}
		if err := files.RegisterFile(last); err != nil {
			t.Fatal(err)
		}
	}
	return last.Services().ByName("Test")
}

// TestDynamic serves the Test service from descriptors built at run time:
// dynamic messages, rules parsed from unknown fields, google.api.HttpBody
// of another descriptor than the linked one.
func TestDynamic(t *testing.T) {
	sd := dynamicTestService(t)
	if sd == testService {
		t.Fatal("the service was not built again")
	}
	h := New(startGRPC(t), nil)
	if err := h.RegisterService(sd); err != nil {
		t.Fatal(err)
	}
	if rt := h.routes[0]; rt.in.Descriptor() == (&httpbody.HttpBody{}).ProtoReflect().Descriptor() {
		t.Fatal("the route uses linked types")
	}
	srv := serve(t, h)
	a := do(t, srv.URL, call{method: "GET", target: "/v1/echo/x?fInt32=3&nested.inner.leaf=l&ts=2020-01-01T00:00:00Z&mask=a_b"})
	if want := `{"fString":"x","fInt32":3,"nested":{"inner":{"leaf":"l"}},"ts":"2020-01-01T00:00:00Z","mask":"aB"}`; a.status != 200 || !sameJSON(a.body, want) {
		t.Errorf("GET /v1/echo/x: got %d %s, want %s", a.status, a.body, want)
	}
	a = do(t, srv.URL, call{method: "PATCH", target: "/v1/things/1?kinds.labels[k]=v", body: `{"fString":"s","nested":{"name":"n"}}`})
	if want := `{"name":"things/1","kinds":{"fString":"s","nested":{"name":"n"}},"updateMask":"fString,nested.name"}`; a.status != 200 || !sameJSON(a.body, want) {
		t.Errorf("PATCH /v1/things/1: got %d %s, want %s", a.status, a.body, want)
	}
	a = do(t, srv.URL, call{method: "GET", target: "/v1/echo/x?labels[k]=v"})
	if want := `{"fString":"x","labels":{"k":"v"}}`; a.status != 200 || !sameJSON(a.body, want) {
		t.Errorf("GET /v1/echo/x?labels[k]=v: got %d %s, want %s", a.status, a.body, want)
	}
	a = do(t, srv.URL, call{method: "POST", target: "/v1/raw", header: http.Header{"Content-Type": {"text/csv"}}, body: "a,b"})
	if a.status != 200 || a.header.Get("Content-Type") != "text/csv" || a.body != "a,b" {
		t.Errorf("POST /v1/raw: got %d %q %q", a.status, a.header.Get("Content-Type"), a.body)
	}
	a = do(t, srv.URL, call{method: "POST", target: "/v1/files/f:upload", header: http.Header{"Content-Type": {"text/csv"}}, body: "a,b"})
	if want := `{"name":"files/f","contentType":"text/csv","size":"3"}`; a.status != 200 || !sameJSON(a.body, want) {
		t.Errorf("upload: got %d %s, want %s", a.status, a.body, want)
	}
	a = do(t, srv.URL, call{method: "GET", target: "/v1/files/f"})
	if a.status != 200 || a.body != "contents of files/f" {
		t.Errorf("download: got %d %q", a.status, a.body)
	}
	a = do(t, srv.URL, call{method: "GET", target: "/v1/streams/s:watch?count=2"})
	if want := `{"result":{"fString":"0"}}` + "\n" + `{"result":{"fString":"1"}}` + "\n"; a.status != 200 || !sameFrames(a.body, want) {
		t.Errorf("stream: got %d %q", a.status, a.body)
	}
}
