package transcode

// This file turns a method's google.api.http rules into routes, checking
// each against the method's messages. Given
//
//	rpc UpdateBook(UpdateBookRequest) returns (Book) {
//	  option (google.api.http) = {
//	    patch: "/v1/{book.name=shelves/*/books/*}"
//	    body: "book"
//	  };
//	}
//
// the route's template has one variable, book.name, which must name a chain
// of singular message fields (book) ending in a scalar leaf (name) of
// UpdateBookRequest; the body must name a top-level field; the query may
// set every field that neither binds. Errors name the method and the rule.

import (
	"fmt"
	"net/http"
	"strings"

	"golang.org/x/net/http/httpguts"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
)

// httpBodyName is the full name of google.api.HttpBody, whose messages
// carry raw bytes and a content type instead of JSON.
const httpBodyName = "google.api.HttpBody"

// fieldPath is a chain of fields from a request message to a leaf: the
// template variable book.name is [book, name].
type fieldPath []protoreflect.FieldDescriptor

// String returns the path as written in rules, with proto names.
func (p fieldPath) String() string {
	var b strings.Builder
	for i, fd := range p {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(string(fd.Name()))
	}
	return b.String()
}

// covers reports whether p is q or one of q's ancestors (a.b covers a.b.c).
func (p fieldPath) covers(q fieldPath) bool {
	if len(p) > len(q) {
		return false
	}
	for i := range p {
		if p[i] != q[i] {
			return false
		}
	}
	return true
}

// bodyKind says where a route reads its request body.
type bodyKind uint8

const (
	bodyNone  bodyKind = iota // no body: fields come from the path and the query
	bodyAll                   // body "*": the whole request message
	bodyField                 // body "field": one top-level field
)

// route is one binding of a method: an HTTP method and template, and how
// a request and a response map onto the method's messages.
type route struct {
	httpMethod string // "GET", or "*" for any
	tmpl       *pathTemplate
	pattern    string // r.Pattern while the route serves: "GET /v1/{name=shelves/*}"

	method     protoreflect.MethodDescriptor
	fullMethod string // "/library.v1.Library/GetBook"
	in, out    protoreflect.MessageType
	streaming  bool

	vars      []fieldPath // one per template variable, in the template's order
	body      bodyKind
	bodyPath  fieldPath                    // the body field, for bodyField
	bodyRaw   bool                         // the body is a google.api.HttpBody
	respField protoreflect.FieldDescriptor // response_body, or nil for the whole message
	respRaw   bool                         // the response (or response_body) is a google.api.HttpBody

	// updateMask is, for a PATCH whose body is a message field, the
	// request's one google.protobuf.FieldMask (see updateMaskField),
	// which the body's fields fill when the request leaves it empty.
	updateMask protoreflect.FieldDescriptor
}

// methodRule returns the google.api.http option of md, or nil. Options
// built without the extension linked in (descriptors parsed at run time)
// hold it as unknown bytes; they are parsed again with the program's types.
func methodRule(md protoreflect.MethodDescriptor) *annotations.HttpRule {
	opts := md.Options()
	if opts == nil {
		return nil
	}
	if mo, ok := opts.(*descriptorpb.MethodOptions); ok && proto.HasExtension(mo, annotations.E_Http) {
		return proto.GetExtension(mo, annotations.E_Http).(*annotations.HttpRule)
	}
	b, err := proto.Marshal(opts)
	if err != nil {
		return nil
	}
	mo := new(descriptorpb.MethodOptions)
	if err := (proto.UnmarshalOptions{Resolver: protoregistry.GlobalTypes}).Unmarshal(b, mo); err != nil {
		return nil
	}
	if !proto.HasExtension(mo, annotations.E_Http) {
		return nil
	}
	return proto.GetExtension(mo, annotations.E_Http).(*annotations.HttpRule)
}

// messageType returns the Go type of md's messages: the generated one if
// it is linked into the program and describes the same message, or else a
// dynamic one.
func messageType(md protoreflect.MessageDescriptor) protoreflect.MessageType {
	if mt, err := protoregistry.GlobalTypes.FindMessageByName(md.FullName()); err == nil && mt.Descriptor() == md {
		return mt
	}
	return dynamicpb.NewMessageType(md)
}

// ruleMethod returns the HTTP method and template text of rule.
func ruleMethod(rule *annotations.HttpRule) (method, path string, err error) {
	switch p := rule.GetPattern().(type) {
	case *annotations.HttpRule_Get:
		return "GET", p.Get, nil
	case *annotations.HttpRule_Put:
		return "PUT", p.Put, nil
	case *annotations.HttpRule_Post:
		return "POST", p.Post, nil
	case *annotations.HttpRule_Delete:
		return "DELETE", p.Delete, nil
	case *annotations.HttpRule_Patch:
		return "PATCH", p.Patch, nil
	case *annotations.HttpRule_Custom:
		kind := p.Custom.GetKind()
		if kind == "" {
			return "", "", fmt.Errorf("custom pattern without a kind")
		}
		if kind != "*" && !httpguts.ValidHeaderFieldName(kind) { // a method is a token
			return "", "", fmt.Errorf("custom kind %q is not an HTTP method", kind)
		}
		return kind, p.Custom.GetPath(), nil
	}
	return "", "", fmt.Errorf("no pattern")
}

// newRoute checks one binding of rule (not its additional bindings) against
// md and returns its route.
func newRoute(md protoreflect.MethodDescriptor, rule *annotations.HttpRule) (*route, error) {
	method, path, err := ruleMethod(rule)
	if err != nil {
		return nil, err
	}
	tmpl, err := parseTemplate(path)
	if err != nil {
		return nil, err
	}
	in, out := md.Input(), md.Output()
	rt := &route{
		httpMethod: method,
		tmpl:       tmpl,
		method:     md,
		fullMethod: "/" + string(md.Parent().FullName()) + "/" + string(md.Name()),
		in:         messageType(in),
		out:        messageType(out),
		streaming:  md.IsStreamingServer(),
	}
	rt.pattern = method + " " + tmpl.String()
	if method == "*" {
		rt.pattern = tmpl.String()
	}
	for _, v := range tmpl.variables() {
		fp, err := resolvePath(in, v)
		if err != nil {
			return nil, fmt.Errorf("variable %s: %w", v, err)
		}
		leaf := fp[len(fp)-1]
		if leaf.IsList() || !bindable(leaf) {
			return nil, fmt.Errorf("variable %s: field %s is %s, not a singular scalar", v, leaf.FullName(), kindOf(leaf))
		}
		rt.vars = append(rt.vars, fp)
	}
	switch body := rule.GetBody(); body {
	case "":
	case "*":
		rt.body = bodyAll
		rt.bodyRaw = in.FullName() == httpBodyName
	default:
		fd, err := topField(in, body)
		if err != nil {
			return nil, fmt.Errorf("body: %w", err)
		}
		rt.body = bodyField
		rt.bodyPath = fieldPath{fd}
		rt.bodyRaw = isHTTPBody(fd)
		for _, v := range rt.vars {
			if v[0] == fd && len(v) == 1 {
				return nil, fmt.Errorf("body: field %s is also a path variable", body)
			}
		}
		if method == http.MethodPatch && !rt.bodyRaw && singularMessage(fd) {
			rt.updateMask = updateMaskField(in, fd)
		}
	}
	rt.respRaw = out.FullName() == httpBodyName
	if rb := rule.GetResponseBody(); rb != "" {
		fd, err := topField(out, rb)
		if err != nil {
			return nil, fmt.Errorf("response_body: %w", err)
		}
		rt.respField = fd
		rt.respRaw = isHTTPBody(fd)
	}
	if rt.respRaw && md.IsStreamingServer() && rt.respField != nil {
		return nil, fmt.Errorf("response_body: a stream of google.api.HttpBody must be the method's output itself")
	}
	return rt, nil
}

// updateMaskField returns the field of md, other than body, that is a
// singular google.protobuf.FieldMask, whatever its name, if md has exactly
// one; otherwise nil. This is the field grpc-gateway fills.
func updateMaskField(md protoreflect.MessageDescriptor, body protoreflect.FieldDescriptor) protoreflect.FieldDescriptor {
	var found protoreflect.FieldDescriptor
	fields := md.Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if fd == body || !singularMessage(fd) || fd.Message().FullName() != "google.protobuf.FieldMask" {
			continue
		}
		if found != nil {
			return nil
		}
		found = fd
	}
	return found
}

// topField returns the field of md named name, which a body or
// response_body names: a top-level field. (A map is read and written as a
// JSON object, as grpc-gateway does.)
func topField(md protoreflect.MessageDescriptor, name string) (protoreflect.FieldDescriptor, error) {
	fd := md.Fields().ByName(protoreflect.Name(name))
	if fd == nil {
		return nil, fmt.Errorf("%s has no field %q", md.FullName(), name)
	}
	return fd, nil
}

// singularMessage reports whether fd holds one message: not a list, not a
// map (whose entries are messages), and not a scalar.
func singularMessage(fd protoreflect.FieldDescriptor) bool {
	return fd.Message() != nil && !fd.IsList() && !fd.IsMap()
}

// isHTTPBody reports whether fd holds one google.api.HttpBody.
func isHTTPBody(fd protoreflect.FieldDescriptor) bool {
	return singularMessage(fd) && fd.Message().FullName() == httpBodyName
}

// resolvePath finds the fields that the dotted proto names in path name,
// starting at md. Every field but the last is a singular message.
func resolvePath(md protoreflect.MessageDescriptor, path string) (fieldPath, error) {
	var fp fieldPath
	for name := range strings.SplitSeq(path, ".") {
		if md == nil {
			return nil, fmt.Errorf("field %s is not a message", fp[len(fp)-1].FullName())
		}
		fd := md.Fields().ByName(protoreflect.Name(name))
		if fd == nil {
			return nil, fmt.Errorf("%s has no field %q", md.FullName(), name)
		}
		if len(fp) > 0 {
			if p := fp[len(fp)-1]; p.IsList() || p.IsMap() || scalarMessage(p.Message()) {
				return nil, fmt.Errorf("field %s is %s, not a singular message", p.FullName(), kindOf(p))
			}
		}
		fp = append(fp, fd)
		md = fd.Message()
	}
	return fp, nil
}

// kindOf describes a field's type for messages: "repeated string",
// "map", "message library.v1.Book".
func kindOf(fd protoreflect.FieldDescriptor) string {
	switch {
	case fd.IsMap():
		return "a map"
	case fd.IsList():
		return "repeated " + kindName(fd)
	}
	return "a " + kindName(fd)
}

// kindName names fd's kind, or its message type.
func kindName(fd protoreflect.FieldDescriptor) string {
	if md := fd.Message(); md != nil {
		return "message " + string(md.FullName())
	}
	return fd.Kind().String()
}
