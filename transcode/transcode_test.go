package transcode

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/encoding/protojson"
)

// TestUnary checks requests built from the path, the query and the body,
// for every kind of field, through a real HTTP server and gRPC server.
func TestUnary(t *testing.T) {
	srv := serve(t, newTestHandler(t, nil))
	for _, tt := range []struct {
		name string
		call
		status int
		want   string // JSON, compared as a value
	}{
		{"path", call{method: "GET", target: "/v1/echo/hello"}, 200, `{"fString":"hello"}`},
		{"path escapes decoded", call{method: "GET", target: "/v1/echo/a%2Fb%20c%3A"}, 200, `{"fString":"a/b c:"}`},
		{"path colon without a verb", call{method: "GET", target: "/v1/echo/a:b"}, 200, `{"fString":"a:b"}`},
		{"scalars from the query", call{method: "GET", target: "/v1/echo/x?fDouble=1.5&fFloat=-2&fInt32=-3&f_int64=-4&fUint32=5&fUint64=18446744073709551615" +
			"&fSint32=-7&fSint64=-8&fFixed32=9&fFixed64=10&fSfixed32=-11&fSfixed64=-12&fBool=true&fBytes=aGk_&fEnum=RED&fOptional="},
			200, `{"fString":"x","fDouble":1.5,"fFloat":-2,"fInt32":-3,"fInt64":"-4","fUint32":5,"fUint64":"18446744073709551615",
			"fSint32":-7,"fSint64":"-8","fFixed32":9,"fFixed64":"10","fSfixed32":-11,"fSfixed64":"-12","fBool":true,"fBytes":"aGk/","fEnum":"RED","fOptional":""}`},
		{"float words", call{method: "GET", target: "/v1/echo/x?fDouble=Infinity&fFloat=NaN"}, 200, `{"fString":"x","fDouble":"Infinity","fFloat":"NaN"}`},
		{"enum by number", call{method: "GET", target: "/v1/echo/x?fEnum=2"}, 200, `{"fString":"x","fEnum":"GREEN"}`},
		{"repeated", call{method: "GET", target: "/v1/echo/x?rString=a&r_string=b&rInt64=1&rInt64=2&rEnum=GREEN&rEnum=1"},
			200, `{"fString":"x","rString":["a","b"],"rInt64":["1","2"],"rEnum":["GREEN","RED"]}`},
		{"many parameters", call{method: "GET", target: "/v1/echo/x?" + strings.Repeat("p=1&", 20) + strings.Repeat("q=2&", 3) + "rString=a&r_string=b&rString=c"},
			200, `{"fString":"x","rString":["a","b","c"]}`}, // in order, whatever the names
		{"nested", call{method: "GET", target: "/v1/echo/x?nested.name=n&nested.inner.leaf=l&nested.inner.tags=t1&nested.inner.tags=t2"},
			200, `{"fString":"x","nested":{"name":"n","inner":{"leaf":"l","tags":["t1","t2"]}}}`},
		{"well-known types", call{method: "GET", target: "/v1/echo/x?ts=2020-01-02T03:04:05.5Z&dur=1.5s&wString=s&wInt64=9&wBool=true&wDouble=2.5&wBytes=aGk%3D&wUint32=7&mask=a.b,cD"},
			200, `{"fString":"x","ts":"2020-01-02T03:04:05.500Z","dur":"1.500s","wString":"s","wInt64":"9","wBool":true,"wDouble":2.5,"wBytes":"aGk=","wUint32":7,"mask":"a.b,cD"}`},
		{"oneof", call{method: "GET", target: "/v1/echo/x?choiceNum=3"}, 200, `{"fString":"x","choiceNum":"3"}`},
		{"map entries", call{method: "GET", target: "/v1/echo/x?labels[env]=prod&labels%5Bteam%5D=a%26b&labels[]=empty&labels[a.b]=c"},
			200, `{"fString":"x","labels":{"env":"prod","team":"a&b","":"empty","a.b":"c"}}`},
		{"map entries in a repeated message", call{method: "GET", target: "/v1/echo/x?rNested[k]=v"}, 400, ``},
		{"map key from the last bracket", call{method: "GET", target: "/v1/echo/x?labels[a][b]=1&labels[a[b]=2"}, 200, `{"fString":"x"}`},
		{"a map inside the body named dotted, ignored", call{method: "PUT", target: "/v1/things/1?kinds.labels.k=1&kinds.labels[k]=2", body: `{"fInt32":2}`},
			200, `{"name":"things/1","kinds":{"fInt32":2}}`},
		{"query does not override the path", call{method: "GET", target: "/v1/echo/x?fString=y"}, 200, `{"fString":"x"}`},
		{"unknown parameters ignored", call{method: "GET", target: "/v1/echo/x?nope=1&nested.nope=2&meta.x=1"}, 200, `{"fString":"x"}`},
		{"body *", call{method: "POST", target: "/v1/echo", body: `{"fString":"b","fInt32":3,"nested":{"name":"n"}}`}, 200, `{"fString":"b","fInt32":3,"nested":{"name":"n"}}`},
		{"body * takes no query", call{method: "POST", target: "/v1/echo?fInt32=9", body: `{"fInt32":3}`}, 200, `{"fInt32":3}`},
		{"empty body", call{method: "POST", target: "/v1/echo"}, 200, `{}`},
		{"body field, path wins inside it", call{method: "PUT", target: "/v1/echo/p?fString=q&nested.count=5", body: `{"name":"b","count":2}`},
			200, `{"fString":"q","nested":{"name":"p","count":2}}`},
		{"response_body", call{method: "PATCH", target: "/v1/echo/s/nested", body: `{"name":"n","count":1}`}, 200, `{"name":"n","count":1}`},

		{"bad int", call{method: "GET", target: "/v1/echo/x?fInt32=x"}, 400, ``},
		{"int out of range", call{method: "GET", target: "/v1/echo/x?fInt32=99999999999"}, 400, ``},
		{"bad bool", call{method: "GET", target: "/v1/echo/x?fBool=yes"}, 400, ``},
		{"bad enum", call{method: "GET", target: "/v1/echo/x?fEnum=BLUE"}, 400, ``},
		{"bad timestamp", call{method: "GET", target: "/v1/echo/x?ts=yesterday"}, 400, ``},
		{"field mask path with no JSON form", call{method: "GET", target: "/v1/echo/x?mask=0"}, 400, ``},
		{"bad float", call{method: "GET", target: "/v1/echo/x?fDouble=inf"}, 400, ``},
		{"bad bytes", call{method: "GET", target: "/v1/echo/x?fBytes=!!"}, 400, ``},
		{"two values for one", call{method: "GET", target: "/v1/echo/x?fInt32=1&fInt32=2"}, 400, ``},
		{"message from the query", call{method: "GET", target: "/v1/echo/x?nested=n"}, 400, ``},
		{"map from the query", call{method: "GET", target: "/v1/echo/x?labels=n"}, 400, ``},
		{"map entry set twice", call{method: "GET", target: "/v1/echo/x?labels[k]=1&labels[k]=2"}, 400, ``},
		{"map entry set twice apart", call{method: "GET", target: "/v1/echo/x?labels[k]=1&fInt32=1&labels[k]=2"}, 400, ``},
		{"map entry dotted", call{method: "GET", target: "/v1/echo/x?labels.k=1"}, 400, ``},
		{"map entry of a scalar", call{method: "GET", target: "/v1/echo/x?fInt32[k]=1"}, 400, ``},
		{"map key not UTF-8", call{method: "GET", target: "/v1/echo/x?labels[%C3]=1"}, 400, ``},
		{"a field named twice", call{method: "GET", target: "/v1/echo/x?fInt32=1&f_int32=2"}, 400, ``},
		{"not UTF-8 in the path", call{method: "GET", target: "/v1/echo/%FF"}, 400, ``},
		{"not UTF-8 in the query", call{method: "GET", target: "/v1/echo/x?nested.name=%C3"}, 400, ``},
		{"field mask as in the .proto file", call{method: "GET", target: "/v1/echo/x?mask=f_string,nested.inner.leaf"}, 200, `{"fString":"x","mask":"fString,nested.inner.leaf"}`},
		{"malformed query escape", call{method: "GET", target: "/v1/echo/x?fString=%zz"}, 400, ``},
		{"bad JSON", call{method: "POST", target: "/v1/echo", body: `{"fString":`}, 400, ``},
		{"unknown JSON field", call{method: "POST", target: "/v1/echo", body: `{"nope":1}`}, 400, ``},
		{"wrong JSON type", call{method: "POST", target: "/v1/echo", body: `{"fInt32":"x"}`}, 400, ``},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := do(t, srv.URL, tt.call)
			if a.status != tt.status {
				t.Fatalf("%s %s: got %d %s, want %d", tt.method, tt.target, a.status, a.body, tt.status)
			}
			if got := a.header.Get("Content-Type"); got != "application/json" {
				t.Errorf("%s %s: Content-Type %q, want application/json", tt.method, tt.target, got)
			}
			if tt.status != 200 {
				if !sameJSONShape(a.body, int(codes.InvalidArgument)) {
					t.Errorf("%s %s: got %s, want a google.rpc.Status of code INVALID_ARGUMENT", tt.method, tt.target, a.body)
				}
				return
			}
			if !sameJSON(a.body, tt.want) {
				t.Errorf("%s %s:\ngot  %s\nwant %s", tt.method, tt.target, a.body, tt.want)
			}
		})
	}
}

// sameJSONShape reports whether body is a google.rpc.Status of code c with
// a message.
func sameJSONShape(body string, c int) bool {
	var st struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	return json.Unmarshal([]byte(body), &st) == nil && st.Code == c && st.Message != ""
}

// TestOptions checks the options that change how requests are read and
// responses written.
func TestOptions(t *testing.T) {
	srv := serve(t, newTestHandler(t, &Options{
		MarshalOptions:   protojson.MarshalOptions{UseProtoNames: true},
		UnmarshalOptions: protojson.UnmarshalOptions{DiscardUnknown: true},
		StrictQuery:      true,
		MaxBodyBytes:     64,
	}))
	for _, tt := range []struct {
		call
		status int
		want   string
	}{
		{call{method: "GET", target: "/v1/echo/x?fInt32=1"}, 200, `{"f_string":"x","f_int32":1}`},
		{call{method: "GET", target: "/v1/echo/x?nope=1"}, 400, ``},
		{call{method: "GET", target: "/v1/echo/x?nested.nope=1"}, 400, ``},
		{call{method: "POST", target: "/v1/echo", body: `{"nope":1,"f_int32":2}`}, 200, `{"f_int32":2}`},
		// Under body "*", a parameter that names a field is ignored (the
		// body sets it), one that names none is unknown.
		{call{method: "POST", target: "/v1/echo?fInt32=5", body: `{"f_int32":2}`}, 200, `{"f_int32":2}`},
		{call{method: "POST", target: "/v1/echo?nope=1", body: `{"f_int32":2}`}, 400, ``},
		{call{method: "POST", target: "/v1/echo", body: `{"fString":"` + strings.Repeat("a", 100) + `"}`}, 413, ``},
	} {
		a := do(t, srv.URL, tt.call)
		if a.status != tt.status {
			t.Errorf("%s %s: got %d %s, want %d", tt.method, tt.target, a.status, a.body, tt.status)
			continue
		}
		if tt.want != "" && !sameJSON(a.body, tt.want) {
			t.Errorf("%s %s: got %s, want %s", tt.method, tt.target, a.body, tt.want)
		}
	}
}

// TestNotMatched checks the answers to requests that no rule serves.
func TestNotMatched(t *testing.T) {
	srv := serve(t, newTestHandler(t, nil))
	a := do(t, srv.URL, call{method: "GET", target: "/v2/echo/x"})
	if a.status != 404 || !sameJSONShape(a.body, int(codes.NotFound)) {
		t.Errorf("GET /v2/echo/x: got %d %s, want 404 and a NOT_FOUND status", a.status, a.body)
	}
	// GET /v1/echo/{f_string} and PUT /v1/echo/{nested.name} match the path.
	a = do(t, srv.URL, call{method: "DELETE", target: "/v1/echo/x"})
	if want := "GET, HEAD, OPTIONS, PUT"; a.status != 405 || a.header.Get("Allow") != want {
		t.Errorf("DELETE /v1/echo/x: got %d Allow %q %s, want 405 Allow %q", a.status, a.header.Get("Allow"), a.body, want)
	}
	a = do(t, srv.URL, call{method: "OPTIONS", target: "/v1/echo/x"})
	if want := "GET, HEAD, OPTIONS, PUT"; a.status != 204 || a.header.Get("Allow") != want || a.body != "" {
		t.Errorf("OPTIONS /v1/echo/x: got %d Allow %q %q, want 204 Allow %q", a.status, a.header.Get("Allow"), a.body, want)
	}
	get := do(t, srv.URL, call{method: "GET", target: "/v1/echo/x"})
	a = do(t, srv.URL, call{method: "HEAD", target: "/v1/echo/x"})
	if n := get.header.Get("Content-Length"); a.status != 200 || a.body != "" || a.header.Get("Content-Length") != n {
		t.Errorf("HEAD /v1/echo/x: got %d %q Content-Length %q, want 200, no body, Content-Length %q", a.status, a.body, a.header.Get("Content-Length"), n)
	}
	a = do(t, srv.URL, call{method: "HEAD", target: "/v1/echo"})
	if want := "OPTIONS, POST"; a.status != 405 || a.header.Get("Allow") != want {
		t.Errorf("HEAD /v1/echo: got %d Allow %q, want 405 Allow %q", a.status, a.header.Get("Allow"), want)
	}

	fallback := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "elsewhere", http.StatusTeapot) })
	srv = serve(t, newTestHandler(t, &Options{NotFound: fallback}))
	if a := do(t, srv.URL, call{method: "GET", target: "/v2/echo/x"}); a.status != http.StatusTeapot {
		t.Errorf("GET /v2/echo/x with NotFound: got %d, want %d", a.status, http.StatusTeapot)
	}
}

// TestPattern checks that the matched rule is r.Pattern for middleware
// around the Handler, mounted on a ServeMux.
func TestPattern(t *testing.T) {
	h := newTestHandler(t, nil)
	mux := http.NewServeMux()
	mux.Handle("/v1/", h)
	seen := make(chan string, 1)
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mux.ServeHTTP(w, r)
		seen <- r.Pattern
	}))
	for _, tt := range []struct{ method, target, want string }{
		{"GET", "/v1/echo/x", "GET /v1/echo/{f_string}"},
		{"PATCH", "/v1/echo/x/nested", "PATCH /v1/echo/{f_string}/nested"},
		{"GET", "/v1/streams/s:watch", "GET /v1/{name=streams/*}:watch"},
		{"GET", "/v1/none", "/v1/"},
	} {
		do(t, srv.URL, call{method: tt.method, target: tt.target})
		if got := <-seen; got != tt.want {
			t.Errorf("%s %s: r.Pattern %q, want %q", tt.method, tt.target, got, tt.want)
		}
	}
	want := []string{
		"GET /v1/echo/{f_string}", "GET /v1/meta", "GET /v1/{name=files/*}", "GET /v1/{name=streams/*}:watch",
		"PATCH /v1/echo/{f_string}/nested", "PATCH /v1/{name=things/*}", "POST /v1/echo", "POST /v1/fail", "POST /v1/raw",
		"POST /v1/{name=files/*}:upload", "PUT /v1/echo/{nested.name}", "PUT /v1/{name=things/*}",
	}
	if got := h.Patterns(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Patterns:\ngot  %q\nwant %q", got, want)
	}
}

// TestRegistrationErrors checks that rules that cannot work are refused
// with a message that names the method and the rule.
func TestRegistrationErrors(t *testing.T) {
	plain := testMethod("Plain")
	get := func(path string) *annotations.HttpRule {
		return &annotations.HttpRule{Pattern: &annotations.HttpRule_Get{Get: path}}
	}
	post := func(path, body, resp string) *annotations.HttpRule {
		return &annotations.HttpRule{Pattern: &annotations.HttpRule_Post{Post: path}, Body: body, ResponseBody: resp}
	}
	for _, tt := range []struct {
		rule *annotations.HttpRule
		want string // in the error
	}{
		{get("/v1/{nope}"), `has no field "nope"`},
		{get("/v1/{r_string}"), "repeated string"},
		{get("/v1/{nested}"), "not a singular scalar"},
		{get("/v1/{labels}"), "a map"},
		{get("/v1/{f_string.x}"), "not a message"},
		{get("/v1/{r_nested.name}"), "not a singular message"},
		{get("/v1/{ts.seconds}"), "not a singular message"},
		{get("/v1/{"), "transcode: cairn.transcode.test.v1.Test.Plain: rule GET /v1/{"},
		{post("/v1/x", "nope", ""), `body: cairn.transcode.test.v1.Kinds has no field "nope"`},
		{post("/v1/{f_string}", "f_string", ""), "also a path variable"},
		{post("/v1/x", "*", "nope"), `response_body: cairn.transcode.test.v1.Kinds has no field "nope"`},
		{&annotations.HttpRule{Pattern: &annotations.HttpRule_Custom{Custom: &annotations.CustomHttpPattern{Kind: "", Path: "/v1/x"}}}, "custom pattern without a kind"},
		{&annotations.HttpRule{Pattern: &annotations.HttpRule_Custom{Custom: &annotations.CustomHttpPattern{Kind: "GE T", Path: "/v1/x"}}}, "not an HTTP method"},
		{&annotations.HttpRule{}, "no pattern"},
		{&annotations.HttpRule{Pattern: &annotations.HttpRule_Get{Get: "/v1/a"}, AdditionalBindings: []*annotations.HttpRule{
			{Pattern: &annotations.HttpRule_Get{Get: "/v1/b"}, AdditionalBindings: []*annotations.HttpRule{get("/v1/c")}},
		}}, "additional binding has additional bindings"},
		{get("/v1/echo/{f_bool}"), "cairn.transcode.test.v1.Test.Echo"}, // the same as Echo's GET /v1/echo/{f_string}
	} {
		h := newTestHandler(t, nil)
		err := h.RegisterMethod(plain, tt.rule)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "transcode: ") {
			t.Errorf("rule %v: got error %v, want one containing %q", tt.rule, err, tt.want)
		}
	}
}

// TestRegistration checks rules given at registration: by method, by
// selector in Options.Rules, the custom kind "*", all-or-none
// registration and registration after serving.
func TestRegistration(t *testing.T) {
	conn := startGRPC(t)
	h := New(conn, &Options{Rules: []*annotations.HttpRule{
		{Selector: "cairn.transcode.test.v1.Test.Echo", Pattern: &annotations.HttpRule_Get{Get: "/v2/echo/{f_int32}"}},
	}})
	if err := h.RegisterService(testService); err != nil {
		t.Fatal(err)
	}
	any := &annotations.HttpRule{Pattern: &annotations.HttpRule_Custom{Custom: &annotations.CustomHttpPattern{Kind: "*", Path: "/v2/plain/{f_string}"}}}
	if err := h.RegisterMethod(testMethod("Plain"), any); err != nil {
		t.Fatal(err)
	}
	// The second rule duplicates the first: neither is registered.
	twice := &annotations.HttpRule{Pattern: &annotations.HttpRule_Get{Get: "/v2/twice"}, AdditionalBindings: []*annotations.HttpRule{
		{Pattern: &annotations.HttpRule_Get{Get: "/v2/twice"}},
	}}
	if err := h.RegisterMethod(testMethod("Plain"), twice); err == nil {
		t.Error("a rule and an additional binding alike: no error")
	}
	srv := serve(t, h)
	for _, tt := range []struct {
		call
		status int
		want   string
	}{
		{call{method: "GET", target: "/v2/echo/7"}, 200, `{"fInt32":7}`},
		{call{method: "GET", target: "/v1/echo/x"}, 404, ``}, // the annotation gave way to the rule
		{call{method: "GET", target: "/v2/plain/a"}, 200, `{"fString":"a"}`},
		{call{method: "DELETE", target: "/v2/plain/a"}, 200, `{"fString":"a"}`},
		{call{method: "GET", target: "/v2/twice"}, 404, ``},
	} {
		a := do(t, srv.URL, tt.call)
		if a.status != tt.status || (tt.want != "" && !sameJSON(a.body, tt.want)) {
			t.Errorf("%s %s: got %d %s, want %d %s", tt.method, tt.target, a.status, a.body, tt.status, tt.want)
		}
	}
	if err := h.RegisterMethod(testMethod("Plain"), &annotations.HttpRule{Pattern: &annotations.HttpRule_Get{Get: "/v2/late"}}); err == nil {
		t.Error("registration after serving: no error")
	}
}

// TestPathValues checks path variables of every kind of leaf, and the
// decoding of variables of one and of several segments.
func TestPathValues(t *testing.T) {
	rule := func(path string) *annotations.HttpRule {
		return &annotations.HttpRule{Pattern: &annotations.HttpRule_Get{Get: path}}
	}
	for _, decodeReserved := range []bool{false, true} {
		conn := startGRPC(t)
		h := New(conn, &Options{DecodeReserved: decodeReserved})
		for _, path := range []string{
			"/v2/kinds/{f_int32}/{f_int64}/{f_uint64}/{f_bool}/{f_enum}/{f_double}/{f_bytes}",
			"/v2/wkt/{ts}/{dur}/{w_int64}/{w_string}/{mask}",
			"/v2/nested/{nested.inner.leaf}/{nested.count}",
			"/v2/multi/{f_string=files/**}",
		} {
			if err := h.RegisterMethod(testMethod("Plain"), rule(path)); err != nil {
				t.Fatal(err)
			}
		}
		srv := serve(t, h)
		multi := `{"fString":"files/a b/c%2Fd%3F/e:f"}`
		if decodeReserved {
			multi = `{"fString":"files/a b/c/d?/e:f"}`
		}
		for _, tt := range []struct {
			target string
			status int
			want   string
		}{
			{"/v2/kinds/-1/2/3/true/GREEN/0.5/aGk", 200, `{"fInt32":-1,"fInt64":"2","fUint64":"3","fBool":true,"fEnum":"GREEN","fDouble":0.5,"fBytes":"aGk="}`},
			{"/v2/kinds/x/2/3/true/GREEN/0.5/aGk", 400, ``},
			{"/v2/kinds/1/2/-3/true/GREEN/0.5/aGk", 400, ``},
			{"/v2/wkt/2020-01-02T03:04:05Z/3s/-5/a%2Fb/x,y.z", 200, `{"ts":"2020-01-02T03:04:05Z","dur":"3s","wInt64":"-5","wString":"a/b","mask":"x,y.z"}`},
			{"/v2/wkt/2020-13-02T03:04:05Z/3s/-5/a/x", 400, ``},
			{"/v2/nested/%E2%82%AC%20/7", 200, `{"nested":{"count":7,"inner":{"leaf":"€ "}}}`},
			{"/v2/multi/files/a%20b/c%2Fd%3F/e:f", 200, multi},
		} {
			a := do(t, srv.URL, call{method: "GET", target: tt.target})
			if a.status != tt.status || (tt.want != "" && !sameJSON(a.body, tt.want)) {
				t.Errorf("DecodeReserved %v: GET %s: got %d %s, want %d %s", decodeReserved, tt.target, a.status, a.body, tt.status, tt.want)
			}
		}
	}
}

// TestNilBody checks a request made by hand without a body, as a test or
// another handler may pass: it has an empty body.
func TestNilBody(t *testing.T) {
	h := newTestHandler(t, nil)
	r := httptest.NewRequest("POST", "/v1/echo", nil)
	r.Body = nil
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != 200 || !sameJSON(w.Body.String(), `{}`) {
		t.Errorf("POST /v1/echo without a body: got %d %s, want 200 {}", w.Code, w.Body)
	}
}

// TestReviewCases checks answers to requests that once went wrong: a
// query parameter in the oneof of a path variable (ignored once, silently
// dropping what the client sent; now an error), a map as body and as
// response_body, an escaped slash next to bytes url.URL escapes again, a
// scalar body with more than one value, and indented JSON in streams.
func TestReviewCases(t *testing.T) {
	conn := startGRPC(t)
	h := New(conn, &Options{MarshalOptions: protojson.MarshalOptions{Multiline: true, Indent: "  "}})
	if err := h.RegisterService(testService); err != nil {
		t.Fatal(err)
	}
	for _, rule := range []*annotations.HttpRule{
		{Pattern: &annotations.HttpRule_Get{Get: "/v2/c/{choice_text}"}},
		{Pattern: &annotations.HttpRule_Post{Post: "/v2/cb"}, Body: "choice_text"},
		// Maps as body and response_body, as grpc-gateway serves them
		// (they were an error, which kept the whole service out).
		{Pattern: &annotations.HttpRule_Post{Post: "/v2/labels"}, Body: "labels"},
		{Pattern: &annotations.HttpRule_Get{Get: "/v2/labels/{f_string}"}, ResponseBody: "labels"},
		{Pattern: &annotations.HttpRule_Post{Post: "/v2/strings"}, Body: "r_string"},
		{Pattern: &annotations.HttpRule_Post{Post: "/v2/scalar"}, Body: "f_int32"},
		{Pattern: &annotations.HttpRule_Get{Get: "/v2/rs/{f_string}"}, ResponseBody: "r_string"},
	} {
		if err := h.RegisterMethod(testMethod("Plain"), rule); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.RegisterMethod(testMethod("Stream"), &annotations.HttpRule{Pattern: &annotations.HttpRule_Get{Get: "/v2/srs/{name}"}, ResponseBody: "r_string"}); err != nil {
		t.Fatal(err)
	}
	srv := serve(t, h)
	for _, tt := range []struct {
		call
		status int
		want   string
	}{
		// A member of the oneof of a path variable in the query is an
		// error, as two members in the query are; the path's own field
		// named again in the query is ignored.
		{call{method: "GET", target: "/v2/c/fromPath?choiceNum=7"}, 400, ``},
		{call{method: "GET", target: "/v2/c/fromPath?choice_text=q"}, 200, `{"choiceText":"fromPath"}`},
		{call{method: "POST", target: "/v2/cb?choiceNum=7", body: `"b"`}, 400, ``},
		{call{method: "POST", target: "/v2/cb", body: `"b"`}, 200, `{"choiceText":"b"}`},
		{call{method: "POST", target: "/v2/labels", body: `{"a":"x","b c":"y"}`}, 200, `{"labels":{"a":"x","b c":"y"}}`},
		{call{method: "POST", target: "/v2/labels?labels[z]=q&fString=s", body: `{"a":"x"}`}, 200, `{"fString":"s","labels":{"a":"x"}}`},
		{call{method: "POST", target: "/v2/labels", body: `{}`}, 200, `{}`},
		{call{method: "POST", target: "/v2/strings", body: `[]`}, 200, `{}`},
		{call{method: "POST", target: "/v2/strings", body: `["a"]`}, 200, `{"rString":["a"]}`},
		{call{method: "POST", target: "/v2/labels", body: `{"a":1}`}, 400, ``},
		{call{method: "POST", target: "/v2/labels", body: `{"a":"x"}, "fString": "y"`}, 400, ``},
		{call{method: "GET", target: "/v2/labels/x?labels[env]=prod&labels[team]=web"}, 200, `{"env":"prod","team":"web"}`},
		{call{method: "GET", target: "/v2/labels/x"}, 200, `{}`},
		{call{method: "GET", target: "/v1/echo/a%2Fb%7Cc"}, 200, `{"fString":"a/b|c"}`},
		{call{method: "POST", target: "/v2/scalar", body: `5`}, 200, `{"fInt32":5}`},
		{call{method: "POST", target: "/v2/scalar", body: `5, "fString": "x"`}, 400, ``},
		// A repeated response_body, full and empty (an empty list once
		// made the handler panic).
		{call{method: "GET", target: "/v2/rs/x?r_string=a&r_string=b"}, 200, `["a","b"]`},
		{call{method: "GET", target: "/v2/rs/x"}, 200, `[]`},
		// Two members of one oneof in the query; an empty FieldMask, as
		// protojson writes it.
		{call{method: "GET", target: "/v1/echo/x?choice_text=a&choice_num=2"}, 400, ``},
		{call{method: "GET", target: "/v1/echo/x?choiceNum=2&choiceText=a"}, 400, ``},
		{call{method: "GET", target: "/v1/echo/x?mask="}, 200, `{"fString":"x","mask":""}`},
		{call{method: "GET", target: "/v1/echo/x?mask=a,,b"}, 400, ``},
	} {
		a := do(t, srv.URL, tt.call)
		if a.status != tt.status || (tt.want != "" && !sameJSON(a.body, tt.want)) {
			t.Errorf("%s %s %q: got %d %s, want %d %s", tt.method, tt.target, tt.body, a.status, a.body, tt.status, tt.want)
		}
	}
	// The same for each message of a stream.
	if a := do(t, srv.URL, call{method: "GET", target: "/v2/srs/x?count=2"}); a.status != 200 || a.body != `{"result":[]}`+"\n"+`{"result":[]}`+"\n" {
		t.Errorf("stream with an empty repeated response_body: got %d %q, want 200 and an empty array a line", a.status, a.body)
	}
	// Go's client would send this path re-escaped, the %2F lost: serve it
	// as a server parses it.
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/v1/echo/a%2Fb|c", nil))
	if want := `{"fString":"a/b|c"}`; w.Code != 200 || !sameJSON(w.Body.String(), want) {
		t.Errorf("GET /v1/echo/a%%2Fb|c: got %d %s, want 200 %s", w.Code, w.Body, want)
	}
	a := do(t, srv.URL, call{method: "GET", target: "/v1/streams/s:watch?count=2&failCode=14"})
	if want := `{"result":{"fString":"0"}}` + "\n" + `{"result":{"fString":"1"}}` + "\n" + `{"error":{"code":14,"message":"stream failed"}}` + "\n"; !sameFrames(a.body, want) {
		t.Errorf("a stream with Multiline: got %q, want one message a line", a.body)
	}
}

// TestUpdateMaskFromBody checks that a PATCH whose body is a field fills
// an empty update_mask with the paths the body's JSON sets, as
// grpc-gateway does, and that nothing else does.
func TestUpdateMaskFromBody(t *testing.T) {
	srv := serve(t, newTestHandler(t, nil))
	for _, tt := range []struct {
		name string
		call
		status int
		mask   string // the updateMask in the echoed request; "-" for none
	}{
		{"fields", call{method: "PATCH", target: "/v1/things/1", body: `{"fString":"a","f_int32":null,"rString":["x"],"labels":{"k":"v"},"ts":"2020-01-01T00:00:00Z"}`},
			200, "fInt32,fString,labels,rString,ts"},
		{"nested fields", call{method: "PATCH", target: "/v1/things/1", body: `{"nested":{"name":"n","inner":{"leaf":"l","tags":["t"]}},"wString":"w"}`},
			200, "nested.inner.leaf,nested.inner.tags,nested.name,wString"},
		{"whole values", call{method: "PATCH", target: "/v1/things/1", body: `{"meta":{"a":{"b":1}},"mask":"a,b","rNested":[{"name":"n"}],"choiceText":"c"}`},
			200, "choiceText,mask,meta,rNested"},
		{"an empty object is one path", call{method: "PATCH", target: "/v1/things/1", body: `{"nested":{"inner":{}},"fInt32":1}`}, 200, "fInt32,nested.inner"},
		{"an empty object at the top", call{method: "PATCH", target: "/v1/things/1", body: `{}`}, 200, "-"},
		{"empty body", call{method: "PATCH", target: "/v1/things/1"}, 200, "-"},
		{"the query's mask wins", call{method: "PATCH", target: "/v1/things/1?updateMask=fString", body: `{"fString":"a","fInt32":1}`}, 200, "fString"},
		{"an empty mask in the query is no mask", call{method: "PATCH", target: "/v1/things/1?update_mask=", body: `{"fInt32":1}`}, 200, "fInt32"},
		{"PUT fills nothing", call{method: "PUT", target: "/v1/things/1", body: `{"fString":"a"}`}, 200, "-"},
		{"unknown field", call{method: "PATCH", target: "/v1/things/1", body: `{"nope":1}`}, 400, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := do(t, srv.URL, tt.call)
			if a.status != tt.status {
				t.Fatalf("%s %s: got %d %s, want %d", tt.method, tt.target, a.status, a.body, tt.status)
			}
			if tt.status != 200 {
				return
			}
			var got struct {
				Name       string          `json:"name"`
				UpdateMask *string         `json:"updateMask"`
				Kinds      json.RawMessage `json:"kinds"`
			}
			if err := json.Unmarshal([]byte(a.body), &got); err != nil {
				t.Fatalf("%s: %v", a.body, err)
			}
			mask := "-"
			if got.UpdateMask != nil {
				mask = *got.UpdateMask
			}
			if got.Name != "things/1" || mask != tt.mask {
				t.Errorf("%s %s %s: got name %q, mask %q; want things/1, %q", tt.method, tt.target, tt.body, got.Name, mask, tt.mask)
			}
		})
	}
}
