package benchmarks

// This file compares the transcoder with grpc-gateway, serving the demo's
// library service from the same rules to the same gRPC server over
// loopback. The server answers from memory, so that what is measured is
// the gateway: matching, building the request, the gRPC call over
// loopback (the same for both), and writing the JSON answer.
//
//	go test -run '^$' -bench BenchmarkTranscode -benchmem -count 6 .

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-go/cairn/benchmarks/internal/librarygw"
	"github.com/cairn-go/cairn/examples/demo/library/librarypb"
	"github.com/cairn-go/cairn/transcode"
	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// cannedLibrary answers the library's calls from memory, always alike.
type cannedLibrary struct {
	librarypb.UnimplementedLibraryServiceServer
	book *librarypb.Book
}

// GetBook returns the canned book under the name asked for.
func (c *cannedLibrary) GetBook(_ context.Context, req *librarypb.GetBookRequest) (*librarypb.Book, error) {
	return &librarypb.Book{Name: req.GetName(), Title: c.book.Title, Author: c.book.Author, CreateTime: c.book.CreateTime}, nil
}

// UpdateBook returns the book it was sent.
func (c *cannedLibrary) UpdateBook(_ context.Context, req *librarypb.UpdateBookRequest) (*librarypb.Book, error) {
	return req.GetBook(), nil
}

// DeleteBook deletes nothing.
func (c *cannedLibrary) DeleteBook(context.Context, *librarypb.DeleteBookRequest) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, nil
}

// canned is the library the benchmarks' server answers from.
func canned() *cannedLibrary {
	return &cannedLibrary{book: &librarypb.Book{
		Title: "The Dispossessed", Author: "Ursula K. Le Guin", CreateTime: &timestamppb.Timestamp{Seconds: 1700000000},
	}}
}

// startCanned serves a cannedLibrary over gRPC on loopback and returns a
// connection to it.
func startCanned(tb testing.TB) *grpc.ClientConn {
	tb.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	gs := grpc.NewServer()
	librarypb.RegisterLibraryServiceServer(gs, canned())
	go gs.Serve(lis)
	tb.Cleanup(gs.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { conn.Close() })
	return conn
}

// directConn is a grpc.ClientConnInterface that calls a cannedLibrary's
// methods directly, without a transport, so that a benchmark through it
// measures the gateway alone.
type directConn struct{ srv *cannedLibrary }

// Invoke calls the method named method.
func (c directConn) Invoke(ctx context.Context, method string, args, reply any, _ ...grpc.CallOption) error {
	var out proto.Message
	var err error
	switch method {
	case librarypb.LibraryService_GetBook_FullMethodName:
		out, err = c.srv.GetBook(ctx, args.(*librarypb.GetBookRequest))
	case librarypb.LibraryService_UpdateBook_FullMethodName:
		out, err = c.srv.UpdateBook(ctx, args.(*librarypb.UpdateBookRequest))
	case librarypb.LibraryService_DeleteBook_FullMethodName:
		out, err = c.srv.DeleteBook(ctx, args.(*librarypb.DeleteBookRequest))
	default:
		return status.Errorf(codes.Unimplemented, "%s", method)
	}
	if err != nil {
		return err
	}
	proto.Merge(reply.(proto.Message), out)
	return nil
}

// NewStream refuses: no method of the benchmarks streams.
func (directConn) NewStream(context.Context, *grpc.StreamDesc, string, ...grpc.CallOption) (grpc.ClientStream, error) {
	return nil, status.Error(codes.Unimplemented, "no streams")
}

// gatewaysOf returns the two gateways over conn, by name. Both write
// unpopulated fields and ignore unknown ones, grpc-gateway's defaults.
func gatewaysOf(tb testing.TB, conn grpc.ClientConnInterface) map[string]http.Handler {
	tb.Helper()
	h := transcode.New(conn, &transcode.Options{
		MarshalOptions:   protojson.MarshalOptions{EmitUnpopulated: true},
		UnmarshalOptions: protojson.UnmarshalOptions{DiscardUnknown: true},
	})
	if err := h.RegisterService(librarypb.File_library_proto.Services().ByName("LibraryService")); err != nil {
		tb.Fatal(err)
	}
	mux := runtime.NewServeMux()
	if err := librarygw.RegisterLibraryServiceHandlerClient(context.Background(), mux, librarypb.NewLibraryServiceClient(conn)); err != nil {
		tb.Fatal(err)
	}
	return map[string]http.Handler{"cairn": h, "grpc-gateway": mux}
}

// transcodeCases are the requests compared.
var transcodeCases = []struct {
	name, method, path, body string
}{
	{"GetBook", "GET", "/v1/shelves/1/books/2", ""},
	{"UpdateBook", "PATCH", "/v1/shelves/1/books/2", `{"title":"The Word for World Is Forest","author":"Ursula K. Le Guin"}`},
	{"DeleteBook", "DELETE", "/v1/shelves/1/books/2", ""},
}

// TestTranscoders checks that both gateways give the same answers to the
// benchmarks' requests, so that they are compared doing the same work.
func TestTranscoders(t *testing.T) {
	for _, gws := range []map[string]http.Handler{gatewaysOf(t, startCanned(t)), gatewaysOf(t, directConn{canned()})} {
		compareGateways(t, gws)
	}
}

// compareGateways checks that the gateways of gws answer alike.
func compareGateways(t *testing.T, gws map[string]http.Handler) {
	for _, tc := range transcodeCases {
		var bodies []any
		for _, name := range []string{"cairn", "grpc-gateway"} {
			req := httptest.NewRequest(tc.method, tc.path, strings.NewReader(tc.body))
			rec := httptest.NewRecorder()
			gws[name].ServeHTTP(rec, req)
			if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
				t.Fatalf("%s %s: %d %q %s", name, tc.name, rec.Code, rec.Header().Get("Content-Type"), rec.Body)
			}
			var doc any
			if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
				t.Fatalf("%s %s: %v", name, tc.name, err)
			}
			bodies = append(bodies, doc)
		}
		if !reflect.DeepEqual(bodies[0], bodies[1]) {
			t.Errorf("%s: cairn answered %v, grpc-gateway %v", tc.name, bodies[0], bodies[1])
		}
	}
}

// BenchmarkTranscode measures each gateway's ServeHTTP for the cases,
// with a response writer that discards what it is given, calling the
// server over loopback gRPC.
func BenchmarkTranscode(b *testing.B) {
	benchmarkGateways(b, gatewaysOf(b, startCanned(b)))
}

// BenchmarkTranscodeDirect is BenchmarkTranscode with the server's methods
// called directly: the gateways' own cost, without gRPC's.
func BenchmarkTranscodeDirect(b *testing.B) {
	benchmarkGateways(b, gatewaysOf(b, directConn{canned()}))
}

// benchmarkGateways runs the cases through each of gws.
func benchmarkGateways(b *testing.B, gws map[string]http.Handler) {
	for _, tc := range transcodeCases {
		for _, name := range []string{"cairn", "grpc-gateway"} {
			b.Run(tc.name+"/"+name, func(b *testing.B) {
				h := gws[name]
				body := bytes.NewReader([]byte(tc.body))
				req := httptest.NewRequest(tc.method, tc.path, nil)
				w := &discardWriter{header: http.Header{}}
				b.ReportAllocs()
				for b.Loop() {
					body.Seek(0, io.SeekStart)
					req.Body = io.NopCloser(body)
					clear(w.header)
					w.code = 0
					h.ServeHTTP(w, req)
					if w.code != 200 {
						b.Fatalf("status %d", w.code)
					}
				}
			})
		}
	}
}

// discardWriter is a ResponseWriter that keeps the status and discards
// the body.
type discardWriter struct {
	header http.Header
	code   int
}

func (w *discardWriter) Header() http.Header { return w.header }

func (w *discardWriter) Write(p []byte) (int, error) {
	if w.code == 0 {
		w.code = 200
	}
	return len(p), nil
}

func (w *discardWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}
