package transcode

// This file builds a method's request message from an HTTP request, in
// steps whose order decides which source wins:
//
//  1. the body: the whole message (body "*"), one field (body "book"), or
//     nothing; JSON read with protojson, or raw bytes into a
//     google.api.HttpBody;
//  2. the path: each template variable, decoded, sets its leaf field,
//     replacing what the body said (so PATCH /v1/shelves/1/books/2 with
//     body "book" updates shelves/1/books/2 whatever book.name the body
//     holds);
//  3. the query: each parameter names a field by its dotted proto or JSON
//     name (?page_size=10, ?book.author=Le%20Guin, ?tags=a&tags=b for a
//     repeated field); fields bound by the path or inside the body are not
//     set from the query, and with body "*" the query sets nothing;
//  4. for a PATCH whose body is a message field, an update_mask that the
//     query left empty gets the paths of the fields the body sets.
//
// Every mistake a client can make here is a *requestError, answered 400
// (413 for a body over the limit).

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"google.golang.org/genproto/googleapis/api/httpbody"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
)

// requestError is a client's mistake in a request; status is its HTTP
// status.
type requestError struct {
	status int
	msg    string
}

// Error returns the message.
func (e *requestError) Error() string { return e.msg }

// badRequest returns a 400 requestError.
func badRequest(format string, args ...any) error {
	return &requestError{status: http.StatusBadRequest, msg: fmt.Sprintf(format, args...)}
}

// bufPool holds buffers for reading request bodies.
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBuffer is the largest buffer put back in bufPool, so that one
// large body does not stay in memory for good.
const maxPooledBuffer = 64 << 10

// buildRequest fills msg, the request of rt, from r and the matched path
// values b.
func (h *Handler) buildRequest(w http.ResponseWriter, r *http.Request, rt *route, b *bindings, msg protoreflect.Message) error {
	var mask []string // the paths the body sets, for rt.updateMask
	if rt.body != bodyNone {
		var err error
		if mask, err = h.readBody(w, r, rt, msg); err != nil {
			return err
		}
	}
	for i := 0; i < b.len(); i++ {
		bd := b.at(i)
		fp := rt.vars[bd.variable]
		s, err := unescapeValue(bd.raw, bd.multi, h.opts.DecodeReserved)
		if err != nil {
			return badRequest("path: %v", err)
		}
		if err := setPath(msg, fp, s); err != nil {
			return badRequest("path: %s: %v", fp, err)
		}
	}
	// Under body "*" the body sets every field, and the query none; its
	// parameters are read only to refuse unknown ones under StrictQuery.
	if (rt.body != bodyAll || h.opts.StrictQuery) && r.URL.RawQuery != "" {
		q, err := parseQuery(r.URL.RawQuery)
		if err != nil {
			return err
		}
		var set []fieldPath // the singular fields set so far
		for _, p := range q {
			if err := h.setQuery(rt, msg, p.key, p.vals, &set); err != nil {
				return err
			}
		}
	}
	if len(mask) > 0 && !hasPaths(msg, rt.updateMask) {
		mergeInto(msg.Mutable(rt.updateMask).Message().Interface(), &fieldmaskpb.FieldMask{Paths: mask})
	}
	return nil
}

// hasPaths reports whether the FieldMask field fd of msg has a path.
func hasPaths(msg protoreflect.Message, fd protoreflect.FieldDescriptor) bool {
	if !msg.Has(fd) {
		return false
	}
	m := msg.Get(fd).Message()
	return m.Get(m.Descriptor().Fields().ByName("paths")).List().Len() > 0
}

// bodyMask returns the paths of the fields that data, a JSON object that
// was read into a message of type md, sets, in order. As grpc-gateway
// fills an update_mask, a field whose value is an object is followed into,
// and is one path itself if none of its fields is set ({"author":{}});
// a repeated field, a map and null are one path each. Unlike grpc-gateway,
// a well-known type is one path too, a Struct or a Value included (their
// keys are no field names), and names unknown to md, which the
// unmarshaler was told to discard, set none (grpc-gateway refuses them).
func bodyMask(data []byte, md protoreflect.MessageDescriptor) []string {
	var paths []string
	var walk func(raw []byte, md protoreflect.MessageDescriptor, prefix string)
	walk = func(raw []byte, md protoreflect.MessageDescriptor, prefix string) {
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return
		}
		for k, v := range obj {
			fd := fieldNamed(md, k)
			if fd == nil {
				continue
			}
			path := prefix + string(fd.Name())
			if singularMessage(fd) && fd.Message().FullName().Parent() != "google.protobuf" && bytes.HasPrefix(bytes.TrimSpace(v), []byte("{")) {
				n := len(paths)
				walk(v, fd.Message(), path+".")
				if len(paths) > n {
					continue
				}
			}
			paths = append(paths, path)
		}
	}
	walk(data, md, "")
	slices.Sort(paths)
	return paths
}

// fieldNamed returns the field of md that name names, by its proto name or
// its JSON name, as protojson and query parameters name fields, or nil.
func fieldNamed(md protoreflect.MessageDescriptor, name string) protoreflect.FieldDescriptor {
	fields := md.Fields()
	if fd := fields.ByName(protoreflect.Name(name)); fd != nil {
		return fd
	}
	return fields.ByJSONName(name)
}

// equal reports whether p and q are the same path.
func (p fieldPath) equal(q fieldPath) bool { return len(p) == len(q) && p.covers(q) }

// queryParam is a query parameter and its values, in the order they came.
type queryParam struct {
	key  string
	vals []string
}

// parseQuery parses a query string as url.ParseQuery does ("+" is a
// space), but keeps the parameters in the order they come, with the values
// of a key that repeats at once in one parameter, so that ?tags=a&tags=b
// fills a repeated field with a then b, and ?tags=a&Tags=b&tags=c (two
// names of one field) with a, b, c.
func parseQuery(raw string) ([]queryParam, error) {
	var q []queryParam
	for part := range strings.SplitSeq(raw, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		key, err := url.QueryUnescape(k)
		if err != nil {
			return nil, badRequest("query: %v", err)
		}
		val, err := url.QueryUnescape(v)
		if err != nil {
			return nil, badRequest("query: %v", err)
		}
		if n := len(q); n > 0 && q[n-1].key == key {
			q[n-1].vals = append(q[n-1].vals, val)
			continue
		}
		q = append(q, queryParam{key: key, vals: []string{val}})
	}
	return q, nil
}

// readBody reads r's body into msg as rt says, and returns, if rt has an
// update mask, the paths of the fields the body sets (see bodyMask).
func (h *Handler) readBody(w http.ResponseWriter, r *http.Request, rt *route, msg protoreflect.Message) ([]string, error) {
	buf := bufPool.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= maxPooledBuffer {
			buf.Reset()
			bufPool.Put(buf)
		}
	}()
	buf.Reset()
	if r.Body != nil { // a server's requests always have one; others may not
		body := http.MaxBytesReader(w, r.Body, h.opts.MaxBodyBytes)
		if _, err := buf.ReadFrom(body); err != nil {
			if mb := (*http.MaxBytesError)(nil); errors.As(err, &mb) {
				return nil, &requestError{status: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf("body: larger than %d bytes", mb.Limit)}
			}
			return nil, badRequest("body: %v", err)
		}
	}
	data := buf.Bytes()
	if rt.bodyRaw {
		hb := &httpbody.HttpBody{ContentType: r.Header.Get("Content-Type"), Data: bytes.Clone(data)}
		dst := msg
		if rt.body == bodyField {
			dst = msg.Mutable(rt.bodyPath[0]).Message()
		}
		mergeInto(dst.Interface(), hb)
		return nil, nil
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil // an empty body sets no field
	}
	if rt.body == bodyAll {
		if err := h.opts.UnmarshalOptions.Unmarshal(data, msg.Interface()); err != nil {
			return nil, badRequest("body: %v", err)
		}
		return nil, nil
	}
	fd := rt.bodyPath[0]
	if singularMessage(fd) {
		m := msg.Mutable(fd).Message()
		if err := h.opts.UnmarshalOptions.Unmarshal(data, m.Interface()); err != nil {
			return nil, badRequest("body: %v", err)
		}
		if rt.updateMask != nil {
			return bodyMask(data, m.Descriptor()), nil
		}
		return nil, nil
	}
	// A scalar, repeated or map field: read it as the value of that field
	// in a JSON object of the request's type, once it is known to be one JSON
	// value, so that nothing can be spliced into that object.
	if !oneJSONValue(data) {
		return nil, badRequest("body: not a single JSON value")
	}
	wrapped := make([]byte, 0, len(data)+len(fd.JSONName())+4)
	wrapped = append(wrapped, '{', '"')
	wrapped = append(wrapped, fd.JSONName()...)
	wrapped = append(wrapped, '"', ':')
	wrapped = append(wrapped, data...)
	wrapped = append(wrapped, '}')
	tmp := msg.New()
	if err := h.opts.UnmarshalOptions.Unmarshal(wrapped, tmp.Interface()); err != nil {
		return nil, badRequest("body: %v", err)
	}
	if tmp.Has(fd) {
		// An empty list or map ([] or {}) is not set, and Get gives a
		// read-only one, which Set refuses with a panic.
		msg.Set(fd, tmp.Get(fd))
	}
	return nil, nil
}

// setPath sets the leaf of fp in msg to the text s, making the messages on
// the way.
func setPath(msg protoreflect.Message, fp fieldPath, s string) error {
	for _, fd := range fp[:len(fp)-1] {
		msg = msg.Mutable(fd).Message()
	}
	leaf := fp[len(fp)-1]
	v, err := parseValue(msg, leaf, s)
	if err != nil {
		return err
	}
	msg.Set(leaf, v)
	return nil
}

// setQuery sets the field that the query parameter key names to vals, or
// ignores the parameter as the rules above say. set lists the singular
// fields and the maps that earlier parameters set: a field named twice
// (?page_size=1&pageSize=2) is an error, as are two members of a oneof.
func (h *Handler) setQuery(rt *route, msg protoreflect.Message, key string, vals []string, set *[]fieldPath) error {
	md := msg.Descriptor()
	var fp fieldPath
	// A map's entry is named by the map and its key in brackets:
	// labels[env]=prod. As in grpc-gateway, the key is what the last '['
	// opens, so labels[a][b] names no field.
	path, entry, isEntry := key, "", false
	if i := strings.LastIndexByte(key, '['); i > 0 && strings.HasSuffix(key, "]") {
		path, entry, isEntry = key[:i], key[i+1:len(key)-1], true
	}
	inMap := false // path goes on past a map: labels.env
	for name := range strings.SplitSeq(path, ".") {
		if n := len(fp); n > 0 && fp[n-1].IsMap() {
			inMap = true
			break
		}
		if md == nil {
			return h.unknownQuery(key)
		}
		fd := fieldNamed(md, name)
		if fd == nil {
			return h.unknownQuery(key)
		}
		if n := len(fp); n > 0 {
			if p := fp[n-1]; p.IsList() || scalarMessage(p.Message()) {
				return h.unknownQuery(key)
			}
		}
		fp = append(fp, fd)
		md = fd.Message()
	}
	if rt.body == bodyAll {
		return nil // inside the body
	}
	if rt.body == bodyField {
		if rt.bodyPath.covers(fp) {
			return nil // inside the body
		}
		if sharesOneof(fp, rt.bodyPath) {
			return badRequest("query: %s and the body, %s, are members of one oneof", fp, rt.bodyPath)
		}
	}
	for _, v := range rt.vars {
		if v.covers(fp) || fp.covers(v) {
			return nil // bound by the path
		}
		if sharesOneof(fp, v) {
			// As two members in the query are: the value would clear
			// the path's, or be dropped.
			return badRequest("query: %s and %s, which the path sets, are members of one oneof", fp, v)
		}
	}
	leaf := fp[len(fp)-1]
	if inMap || leaf.IsMap() && !isEntry {
		return badRequest("query: %s is a map: name an entry as %s[key]", fp, fp)
	}
	if isEntry {
		return setMapEntry(msg, fp, key, entry, vals, set)
	}
	if !bindable(leaf) {
		return badRequest("query: %s is %s, which a query parameter cannot set", key, kindOf(leaf))
	}
	for _, fd := range fp[:len(fp)-1] {
		msg = msg.Mutable(fd).Message()
	}
	if !leaf.IsList() {
		if len(vals) > 1 {
			return badRequest("query: %s is not repeated but has %d values", key, len(vals))
		}
		for _, p := range *set {
			if p.equal(fp) {
				return badRequest("query: %s is set twice", fp)
			}
			if sharesOneof(fp, p) {
				return badRequest("query: %s and %s are members of one oneof", p, fp)
			}
		}
		*set = append(*set, fp)
		v, err := parseValue(msg, leaf, vals[0])
		if err != nil {
			return badRequest("query: %s: %v", key, err)
		}
		msg.Set(leaf, v)
		return nil
	}
	list := msg.Mutable(leaf).List()
	for _, s := range vals {
		v, err := parseValue(msg, leaf, s)
		if err != nil {
			return badRequest("query: %s: %v", key, err)
		}
		list.Append(v)
	}
	return nil
}

// setMapEntry sets the entry with the key text entry of the map field at fp
// in msg to the one value in vals, for the query parameter key. An entry
// set twice is an error, as a singular field is, and so is a map in a
// member of a oneof another member of which set (see setQuery) holds; fp
// is added to set.
func setMapEntry(msg protoreflect.Message, fp fieldPath, key, entry string, vals []string, set *[]fieldPath) error {
	leaf := fp[len(fp)-1]
	if !leaf.IsMap() {
		return badRequest("query: %s is %s, not a map", fp, kindOf(leaf))
	}
	vfd := leaf.MapValue()
	if !bindable(vfd) {
		return badRequest("query: %s has values of %s, which a query parameter cannot set", fp, kindName(vfd))
	}
	if len(vals) > 1 {
		return badRequest("query: %q is set twice", key)
	}
	seen := false
	for _, p := range *set {
		if sharesOneof(fp, p) {
			return badRequest("query: %s and %s are members of one oneof", p, fp)
		}
		seen = seen || p.equal(fp)
	}
	if !seen {
		*set = append(*set, fp)
	}
	for _, fd := range fp[:len(fp)-1] {
		msg = msg.Mutable(fd).Message()
	}
	k, err := parseScalar(leaf.MapKey(), entry)
	if err != nil {
		return badRequest("query: %q: key: %v", key, err)
	}
	m := msg.Mutable(leaf).Map()
	if m.Has(k.MapKey()) {
		return badRequest("query: %q is set twice", key)
	}
	v, err := parseValue(msg, leaf, vals[0])
	if err != nil {
		return badRequest("query: %q: %v", key, err)
	}
	m.Set(k.MapKey(), v)
	return nil
}

// unknownQuery returns the error for a query parameter that names no field:
// nil unless the handler is strict.
func (h *Handler) unknownQuery(key string) error {
	if h.opts.StrictQuery {
		return badRequest("query: unknown parameter %q", key)
	}
	return nil
}

// mergeInto merges src into dst, two messages of the same type that may be
// of different Go types: a generated one and a dynamic one, or two dynamic
// ones made from different copies of a descriptor.
func mergeInto(dst, src proto.Message) {
	if dst.ProtoReflect().Descriptor() == src.ProtoReflect().Descriptor() {
		proto.Merge(dst, src)
		return
	}
	b, err := proto.Marshal(src)
	if err == nil {
		err = proto.UnmarshalOptions{Merge: true}.Unmarshal(b, dst)
	}
	if err != nil {
		panic("transcode: copying " + string(src.ProtoReflect().Descriptor().FullName()) + ": " + err.Error())
	}
}

// oneJSONValue reports whether data is exactly one JSON value.
func oneJSONValue(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		return false
	}
	_, err := dec.Token()
	return err == io.EOF
}

// sharesOneof reports whether setting p would clear q: below the messages
// they share, they go through two members of one oneof.
func sharesOneof(p, q fieldPath) bool {
	for i := 0; i < len(p) && i < len(q); i++ {
		if p[i] != q[i] {
			o := p[i].ContainingOneof()
			return o != nil && o == q[i].ContainingOneof()
		}
	}
	return false
}
