package transcode

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cairn-go/cairn/transcode/internal/testpb"
	"google.golang.org/genproto/googleapis/api/httpbody"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/emptypb"
)

// testService is the descriptor of the Test service.
var testService = (&testpb.Kinds{}).ProtoReflect().Descriptor().ParentFile().Services().ByName("Test")

// testMethod returns the descriptor of the Test method named name.
func testMethod(name string) protoreflect.MethodDescriptor {
	return testService.Methods().ByName(protoreflect.Name(name))
}

// testServer implements the Test service for the tests.
type testServer struct {
	testpb.UnimplementedTestServer
}

// Echo answers with its request, and sends header and trailer metadata.
func (testServer) Echo(ctx context.Context, k *testpb.Kinds) (*testpb.Kinds, error) {
	grpc.SetHeader(ctx, metadata.Pairs("x-served-by", "echo", "x-raw-bin", "\x01\x02"))
	grpc.SetTrailer(ctx, metadata.Pairs("x-checksum", "42"))
	return k, nil
}

// Update answers with its request.
func (testServer) Update(_ context.Context, req *testpb.UpdateRequest) (*testpb.UpdateRequest, error) {
	return req, nil
}

// Plain answers with its request.
func (testServer) Plain(_ context.Context, k *testpb.Kinds) (*testpb.Kinds, error) { return k, nil }

// Stream sends count copies of the request's kinds, with f_string set to
// the message's number, then fails with fail_code if it is not 0.
func (testServer) Stream(req *testpb.StreamRequest, s grpc.ServerStreamingServer[testpb.Kinds]) error {
	for i := range req.GetCount() {
		k := &testpb.Kinds{FString: fmt.Sprint(i), FInt32: req.GetKinds().GetFInt32()}
		if err := s.Send(k); err != nil {
			return err
		}
	}
	if c := req.GetFailCode(); c != 0 {
		return status.Error(codes.Code(c), "stream failed")
	}
	return nil
}

// Fail fails as asked, with a BadRequest detail.
func (testServer) Fail(_ context.Context, req *testpb.FailRequest) (*emptypb.Empty, error) {
	st := status.New(codes.Code(req.GetCode()), req.GetMessage())
	st, _ = st.WithDetails(&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{{Field: "code", Description: "asked for"}}})
	return nil, st.Err()
}

// Upload describes the file it was sent.
func (testServer) Upload(_ context.Context, req *testpb.UploadRequest) (*testpb.UploadResponse, error) {
	return &testpb.UploadResponse{Name: req.GetName(), ContentType: req.GetFile().GetContentType(), Size: int64(len(req.GetFile().GetData()))}, nil
}

// Raw answers with its request.
func (testServer) Raw(_ context.Context, b *httpbody.HttpBody) (*httpbody.HttpBody, error) {
	return b, nil
}

// Download answers with a text file named after the request.
func (testServer) Download(_ context.Context, req *testpb.DownloadRequest) (*httpbody.HttpBody, error) {
	return &httpbody.HttpBody{ContentType: "text/plain; charset=utf-8", Data: []byte("contents of " + req.GetName())}, nil
}

// Meta answers with the metadata and the deadline it received.
func (testServer) Meta(ctx context.Context, _ *emptypb.Empty) (*testpb.Metadata, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	var out testpb.Metadata
	for k, vals := range md {
		switch k {
		case "authorization", "tenant", "trace-bin", "x-request-id", "user-agent", "x-user-id", "x-tenant", "region":
			for _, v := range vals {
				out.Entries = append(out.Entries, k+": "+v)
			}
		}
	}
	sort.Strings(out.Entries)
	if d, ok := ctx.Deadline(); ok {
		out.Deadline = durationpb.New(time.Until(d).Round(time.Second))
	}
	return &out, nil
}

// startGRPC serves the Test service on a loopback port and returns a
// connection to it.
func startGRPC(tb testing.TB) *grpc.ClientConn {
	tb.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	gs := grpc.NewServer()
	testpb.RegisterTestServer(gs, testServer{})
	go gs.Serve(lis)
	tb.Cleanup(gs.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { conn.Close() })
	return conn
}

// newTestHandler returns a Handler for the Test service over a loopback
// gRPC server.
func newTestHandler(tb testing.TB, opts *Options) *Handler {
	tb.Helper()
	h := New(startGRPC(tb), opts)
	if err := h.RegisterService(testService); err != nil {
		tb.Fatal(err)
	}
	return h
}

// call is one HTTP request of a test.
type call struct {
	method, target string
	header         http.Header
	body           string
}

// answer is what a server answered.
type answer struct {
	status int
	header http.Header
	body   string
}

// do sends c to the server at url and returns its answer.
func do(tb testing.TB, url string, c call) answer {
	tb.Helper()
	var body io.Reader
	if c.body != "" {
		body = strings.NewReader(c.body)
	}
	req, err := http.NewRequest(c.method, url+c.target, body)
	if err != nil {
		tb.Fatal(err)
	}
	for k, vs := range c.header {
		req.Header[k] = vs
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatalf("%s %s: %v", c.method, c.target, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatalf("%s %s: reading the body: %v", c.method, c.target, err)
	}
	h := resp.Header.Clone()
	for k, vs := range resp.Trailer {
		h[k] = vs
	}
	return answer{status: resp.StatusCode, header: h, body: string(b)}
}

// sameJSON reports whether a and b are the same JSON value.
func sameJSON(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// serve starts h behind an httptest server on loopback.
func serve(tb testing.TB, h http.Handler) *httptest.Server {
	tb.Helper()
	srv := httptest.NewServer(h)
	tb.Cleanup(srv.Close)
	return srv
}
