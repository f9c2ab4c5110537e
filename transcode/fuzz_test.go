package transcode

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/http/httpguts"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// echoConn is a grpc.ClientConnInterface whose unary methods answer with
// their request when the types agree, and fail otherwise; it has no
// streams. It lets a fuzz target run the Handler without a network.
type echoConn struct{}

// Invoke copies args into reply when they are of one type.
func (echoConn) Invoke(_ context.Context, method string, args, reply any, _ ...grpc.CallOption) error {
	in, out := args.(proto.Message), reply.(proto.Message)
	if in.ProtoReflect().Descriptor() != out.ProtoReflect().Descriptor() {
		return status.Errorf(codes.Unimplemented, "%s", method)
	}
	proto.Merge(out, in)
	return nil
}

// NewStream fails: the fuzz target's streams are answered with an error.
func (echoConn) NewStream(context.Context, *grpc.StreamDesc, string, ...grpc.CallOption) (grpc.ClientStream, error) {
	return nil, status.Error(codes.Unavailable, "no streams here")
}

// FuzzServe sends arbitrary requests to a Handler of the Test service: it
// must never panic, and never answer 500 to what is the client's mistake
// (the fake server itself only fails with UNIMPLEMENTED and UNAVAILABLE).
func FuzzServe(f *testing.F) {
	for _, s := range [][3]string{
		{"GET", "/v1/echo/x?fInt32=1&nested.inner.leaf=y", ""},
		{"POST", "/v1/echo", `{"fString":"b","rInt64":["1"]}`},
		{"PUT", "/v1/echo/p", `{"name":"n"}`},
		{"PATCH", "/v1/echo/s/nested", `{"count":1}`},
		{"GET", "/v1/streams/s:watch?count=2", ""},
		{"POST", "/v1/files/f:upload", "raw bytes"},
		{"GET", "/v1/echo/%E2%82%AC?ts=2020-01-01T00:00:00Z&mask=a,b", ""},
		{"GET", "/v1/echo/x?labels[a]=b&labels%5Bc%5D=d&labels.e=f", ""},
		{"PATCH", "/v1/things/1?kinds.fInt32=2", `{"fString":"a","nested":{"inner":{}},"labels":{"k":"v"}}`},
		{"POST", "/v2/labels?labels[z]=q&fString=s", `{"a":"x"}`},
		{"GET", "/v2/labels/x?labels[env]=prod", ""},
		{"GET", "/v2/c/p?choiceNum=7&choice_text=q", ""},
	} {
		f.Add(s[0], s[1], s[2])
	}
	h := New(echoConn{}, nil)
	if err := h.RegisterService(testService); err != nil {
		f.Fatal(err)
	}
	// A map as body and as response_body, and a member of a oneof in the
	// path.
	for _, rule := range []*annotations.HttpRule{
		{Pattern: &annotations.HttpRule_Post{Post: "/v2/labels"}, Body: "labels"},
		{Pattern: &annotations.HttpRule_Get{Get: "/v2/labels/{f_string}"}, ResponseBody: "labels"},
		{Pattern: &annotations.HttpRule_Get{Get: "/v2/c/{choice_text}"}},
	} {
		if err := h.RegisterMethod(testMethod("Plain"), rule); err != nil {
			f.Fatal(err)
		}
	}
	f.Fuzz(func(t *testing.T, method, target, body string) {
		if !httpguts.ValidHeaderFieldName(method) {
			return
		}
		u, err := url.ParseRequestURI(target)
		if err != nil || !strings.HasPrefix(target, "/") {
			return
		}
		r := httptest.NewRequest("GET", "/", strings.NewReader(body))
		r.Method, r.URL, r.RequestURI = method, u, target
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code == http.StatusInternalServerError {
			t.Errorf("%s %s %q: 500 %s", method, target, body, w.Body)
		}
	})
}
