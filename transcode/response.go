package transcode

// This file calls methods and writes their answers. A unary call answers
// with one JSON document (or the raw bytes of a google.api.HttpBody). A
// server-streaming call answers with one JSON document a line,
// newline-delimited JSON, flushed as each message arrives, each message as
// the "result" of its line, as grpc-gateway writes them:
//
//	{"result":{"name":"shelves/1/books/1","title":"Dune"}}
//	{"result":{"name":"shelves/1/books/2","title":"Emma"}}
//	{"error":{"code":14,"message":"backend went away"}}
//
// the last line only if the stream fails after its first message (before
// it, the failure is the whole answer, with its HTTP status). A message
// is never written bare, so that one with a field named "error" cannot
// pass for a failure. A client that accepts text/event-stream gets
// server-sent events instead: each message a "data:" event, a failure an
// event named "error".

import (
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"google.golang.org/genproto/googleapis/api/httpbody"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// outPool holds buffers for writing responses.
var outPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// unaryCall holds what a unary call returns besides its response, and the
// options that ask for it, so that they are made once and pooled.
type unaryCall struct {
	header, trailer metadata.MD
	opts            []grpc.CallOption
}

// callPool holds unaryCalls.
var callPool = sync.Pool{New: func() any {
	c := new(unaryCall)
	c.opts = []grpc.CallOption{grpc.Header(&c.header), grpc.Trailer(&c.trailer)}
	return c
}}

// jsonContentType is the Content-Type of JSON answers, shared: a header's
// value slice is replaced by Set, never written into.
var jsonContentType = []string{"application/json"}

// serveUnary calls rt's unary method with req and writes its response.
func (h *Handler) serveUnary(ctx context.Context, w http.ResponseWriter, rt *route, req proto.Message) {
	resp := rt.out.New().Interface()
	c := callPool.Get().(*unaryCall)
	defer func() {
		c.header, c.trailer = nil, nil
		callPool.Put(c)
	}()
	err := h.conn.Invoke(ctx, rt.fullMethod, req, resp, c.opts...)
	hd := w.Header()
	writeMetadata(hd, metadataPrefix, c.header)
	writeMetadata(hd, trailerPrefix, c.trailer)
	if err != nil {
		h.writeStatus(w, status.Convert(err), 0)
		return
	}
	if rt.respRaw {
		hb := httpBodyOf(responseOf(rt, resp.ProtoReflect()))
		hd.Set("Content-Type", httpBodyType(hb))
		hd.Set("Content-Length", strconv.Itoa(len(hb.GetData())))
		w.WriteHeader(http.StatusOK)
		w.Write(hb.GetData())
		return
	}
	bp := outPool.Get().(*[]byte)
	defer putOut(bp)
	b, err := appendJSON(h.opts.MarshalOptions, (*bp)[:0], rt, resp.ProtoReflect())
	if err != nil {
		h.writeStatus(w, status.New(codes.Internal, "response: "+err.Error()), http.StatusInternalServerError)
		return
	}
	*bp = b
	hd["Content-Type"] = jsonContentType
	hd.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}

// putOut returns a response buffer to outPool unless it grew large.
func putOut(bp *[]byte) {
	if cap(*bp) <= maxPooledBuffer {
		outPool.Put(bp)
	}
}

// responseOf returns the message that is written of resp: its
// response_body field if that is a message, or resp itself.
func responseOf(rt *route, resp protoreflect.Message) protoreflect.Message {
	if rt.respField == nil || !singularMessage(rt.respField) {
		return resp
	}
	return resp.Get(rt.respField).Message()
}

// httpBodyType returns the Content-Type of hb's data: its content_type,
// or application/octet-stream if it has none. net/http would otherwise
// guess one from the first bytes, and a server's bytes that begin with
// <html> would be served to browsers as a page of the API's origin.
func httpBodyType(hb *httpbody.HttpBody) string {
	if ct := hb.GetContentType(); ct != "" {
		return ct
	}
	return "application/octet-stream"
}

// httpBodyOf returns m as a google.api.HttpBody.
func httpBodyOf(m protoreflect.Message) *httpbody.HttpBody {
	if hb, ok := m.Interface().(*httpbody.HttpBody); ok {
		return hb
	}
	hb := new(httpbody.HttpBody)
	mergeInto(hb, m.Interface()) // a dynamic message of the same type
	return hb
}

// appendJSON appends the JSON form of the response resp to b: the whole
// message, or its response_body field.
func appendJSON(opts protojson.MarshalOptions, b []byte, rt *route, resp protoreflect.Message) ([]byte, error) {
	fd := rt.respField
	if fd == nil || singularMessage(fd) {
		return opts.MarshalAppend(b, responseOf(rt, resp).Interface())
	}
	// A scalar, repeated or map field: write a message holding only that
	// field, then keep the field's value.
	holder := resp.New()
	if resp.Has(fd) {
		// An empty list is read-only, and Set panics with one; holder
		// has it already, and writes it as [].
		holder.Set(fd, resp.Get(fd))
	}
	opts.EmitUnpopulated = true
	js, err := opts.Marshal(holder.Interface())
	if err != nil {
		return b, err
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(js, &obj); err != nil {
		return b, err
	}
	name := fd.JSONName()
	if opts.UseProtoNames {
		name = string(fd.Name())
	}
	return append(b, obj[name]...), nil
}

// serveStream calls rt's server-streaming method with req and writes its
// messages as they come.
func (h *Handler) serveStream(ctx context.Context, w http.ResponseWriter, r *http.Request, rt *route, req proto.Message) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	desc := &grpc.StreamDesc{StreamName: string(rt.method.Name()), ServerStreams: true}
	stream, err := h.conn.NewStream(ctx, desc, rt.fullMethod)
	if err != nil {
		h.writeStatus(w, status.Convert(err), 0)
		return
	}
	if err := stream.SendMsg(req); err != nil && err != io.EOF {
		h.writeStatus(w, status.Convert(err), 0)
		return
	}
	if err := stream.CloseSend(); err != nil {
		h.writeStatus(w, status.Convert(err), 0)
		return
	}
	sse := acceptsEventStream(r)
	rc := http.NewResponseController(w)
	bp := outPool.Get().(*[]byte)
	defer putOut(bp)
	hd := w.Header()
	for n := 0; ; n++ {
		resp := rt.out.New().Interface()
		err := stream.RecvMsg(resp)
		if n == 0 {
			if md, herr := stream.Header(); herr == nil {
				writeMetadata(hd, metadataPrefix, md)
			}
			if err != nil && err != io.EOF {
				writeMetadata(hd, trailerPrefix, stream.Trailer())
				h.writeStatus(w, status.Convert(err), 0)
				return
			}
			switch {
			case rt.respRaw:
				if err == nil {
					hd.Set("Content-Type", httpBodyType(httpBodyOf(resp.ProtoReflect())))
				}
			case sse:
				hd.Set("Content-Type", "text/event-stream")
				hd.Set("Cache-Control", "no-cache")
			default:
				hd.Set("Content-Type", "application/x-ndjson")
			}
			w.WriteHeader(http.StatusOK)
			if r.Method == http.MethodHead {
				return // the headers are the answer; returning cancels the call
			}
			rc.Flush() // the headers go now; over HTTP/1.1 an empty stream keeps its trailers
		}
		if err == io.EOF {
			writeMetadata(hd, http.TrailerPrefix+trailerPrefix, stream.Trailer())
			return
		}
		if err != nil {
			if rt.respRaw {
				// Raw bytes have no way to say that they stopped short:
				// abort the response, so the client sees it incomplete.
				panic(http.ErrAbortHandler)
			}
			b := (*bp)[:0]
			if sse {
				b = append(b, "event: error\ndata: "...)
			}
			b = append(b, `{"error":`...)
			b = append(b, statusJSON(h.streamMarshal, status.Convert(err))...)
			b = append(b, '}', '\n')
			if sse {
				b = append(b, '\n')
			}
			*bp = b
			w.Write(b)
			rc.Flush()
			writeMetadata(hd, http.TrailerPrefix+trailerPrefix, stream.Trailer())
			return
		}
		if rt.respRaw {
			w.Write(httpBodyOf(resp.ProtoReflect()).GetData())
			rc.Flush()
			continue
		}
		// An event of its own, or the result of its line.
		open, end := `{"result":`, "}\n"
		if sse {
			open, end = "data: ", "\n\n"
		}
		b := append((*bp)[:0], open...)
		b, err = appendJSON(h.streamMarshal, b, rt, resp.ProtoReflect())
		if err != nil {
			panic(http.ErrAbortHandler)
		}
		b = append(b, end...)
		*bp = b
		if _, err := w.Write(b); err != nil {
			return // the client went away; cancel ends the call
		}
		rc.Flush()
	}
}

// acceptsEventStream reports whether r's Accept header lists
// text/event-stream.
func acceptsEventStream(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept") {
		for part := range strings.SplitSeq(v, ",") {
			mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err != nil || mt != "text/event-stream" {
				continue
			}
			if q, ok := params["q"]; ok {
				if f, err := strconv.ParseFloat(q, 64); err != nil || f <= 0 {
					continue
				}
			}
			return true
		}
	}
	return false
}
