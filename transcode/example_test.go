package transcode_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"

	"github.com/cairn-go/cairn/transcode"
	"github.com/cairn-go/cairn/transcode/internal/testpb"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// echoServer is a gRPC service whose Echo method answers with its request.
type echoServer struct {
	testpb.UnimplementedTestServer
}

func (echoServer) Echo(_ context.Context, k *testpb.Kinds) (*testpb.Kinds, error) { return k, nil }

// Example serves a gRPC service, whose Echo method has the rule
//
//	get: "/v1/echo/{f_string}"
//
// as HTTP/JSON from a ServeMux (a cairn Router works alike).
func Example() {
	// A gRPC server on loopback, and a connection to it.
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	gs := grpc.NewServer()
	testpb.RegisterTestServer(gs, echoServer{})
	go gs.Serve(lis)
	defer gs.Stop()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()

	// The transcoder reads the rules from the service's descriptor.
	h := transcode.New(conn, nil)
	if err := h.RegisterService(testpb.File_test_proto.Services().ByName("Test")); err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/v1/", h)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	for _, target := range []string{"/v1/echo/hello?fInt32=7&rString=a&rString=b", "/v1/echo/hello?fInt32=x"} {
		resp, err := http.Get(srv.URL + target)
		if err != nil {
			log.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var compact bytes.Buffer
		json.Compact(&compact, body)
		fmt.Println(resp.StatusCode, compact.String())
	}
	// Output:
	// 200 {"fInt32":7,"fString":"hello","rString":["a","b"]}
	// 400 {"code":3,"message":"query: fInt32: invalid value for int32 field f_int32: \"x\""}
}
