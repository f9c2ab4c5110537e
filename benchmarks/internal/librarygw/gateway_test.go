package librarygw

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cairn-go/cairn/examples/demo/library"
	"github.com/cairn-go/cairn/examples/demo/library/librarypb"
	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// newGateway serves the demo's library over gRPC on loopback and returns
// an HTTP server that runs the generated gateway in front of it, with a
// gRPC client of the library.
func newGateway(tb testing.TB) (*httptest.Server, librarypb.LibraryServiceClient) {
	tb.Helper()
	conn, stop, err := library.Serve("127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(stop)
	client := librarypb.NewLibraryServiceClient(conn)
	mux := runtime.NewServeMux()
	if err := RegisterLibraryServiceHandlerClient(context.Background(), mux, client); err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(mux)
	tb.Cleanup(srv.Close)
	return srv, client
}

// TestGetBook reads a seeded book through both of GetBook's bindings and
// compares the JSON with the book the library returns over gRPC.
func TestGetBook(t *testing.T) {
	srv, client := newGateway(t)
	want, err := client.GetBook(t.Context(), &librarypb.GetBookRequest{Name: "shelves/1/books/1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/v1/shelves/1/books/1", "/v1/books/shelves/1/books/1"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: got status %d (%s), want 200", path, resp.StatusCode, body)
		}
		if !strings.Contains(string(body), `"title":"The Left Hand of Darkness"`) {
			t.Errorf("GET %s: got %s, want the title in JSON", path, body)
		}
		got := new(librarypb.Book)
		if err := protojson.Unmarshal(body, got); err != nil {
			t.Fatalf("GET %s: %v in %s", path, err, body)
		}
		if !proto.Equal(got, want) {
			t.Errorf("GET %s: got %v, want %v", path, got, want)
		}
	}
}

// TestStatus checks the gateway's answers to requests the library refuses
// or that no rule matches, and to a body it passes on.
func TestStatus(t *testing.T) {
	srv, _ := newGateway(t)
	for _, tt := range []struct {
		method, path, body string
		code               int
		contains           string
	}{
		{"GET", "/v1/shelves", "", 200, `"theme":"poetry"`},
		{"GET", "/v1/shelves/1/books?pageSize=1", "", 200, `"nextPageToken":"1"`},
		{"GET", "/v1/shelves/1/books/9", "", 404, `"code":5`},
		{"DELETE", "/v1/shelves/1", "", 400, `"code":9`},
		{"POST", "/v1/shelves/2/books?bookId=kindred", `{"title":"Kindred"}`, 200, `"name":"shelves/2/books/kindred"`},
		{"POST", "/v1/shelves/2/books?bookId=kindred", `{"title":"Kindred"}`, 409, `"code":6`},
		{"POST", "/v1/shelves/1/books/2:move", `{"otherShelfName":"shelves/2"}`, 200, `"name":"shelves/2/books/2"`},
		{"GET", "/v1/nothing", "", 404, ""},
	} {
		req, err := http.NewRequest(tt.method, srv.URL+tt.path, strings.NewReader(tt.body))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != tt.code || !strings.Contains(string(body), tt.contains) {
			t.Errorf("%s %s: got %d %s, want %d with %s", tt.method, tt.path, resp.StatusCode, body, tt.code, tt.contains)
		}
	}
}
