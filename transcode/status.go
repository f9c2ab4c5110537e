package transcode

// This file maps gRPC status codes to HTTP statuses and writes errors as
// the JSON form of google.rpc.Status:
//
//	HTTP/1.1 404 Not Found
//	Content-Type: application/json
//
//	{"code":5,"message":"book shelves/1/books/9 not found"}
//
// The transcoder's own errors (no route, a value that does not parse, a
// body that is not JSON) are written the same way, with the gRPC code that
// says what went wrong, so a client reads every error alike.

import (
	"net/http"
	"strconv"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/anypb"
)

// _ makes sure errdetails' types are registered, so that the details of a
// status (BadRequest, ErrorInfo, ...) marshal to JSON.
var _ = errdetails.ErrorInfo{}

// HTTPStatus returns the HTTP status that stands for the gRPC code c, as
// google.rpc.Code documents it: OK 200, CANCELLED 499, INVALID_ARGUMENT,
// FAILED_PRECONDITION and OUT_OF_RANGE 400, UNAUTHENTICATED 401,
// PERMISSION_DENIED 403, NOT_FOUND 404, ALREADY_EXISTS and ABORTED 409,
// RESOURCE_EXHAUSTED 429, UNIMPLEMENTED 501, UNAVAILABLE 503,
// DEADLINE_EXCEEDED 504, and 500 for UNKNOWN, INTERNAL, DATA_LOSS and any
// other code.
func HTTPStatus(c codes.Code) int {
	switch c {
	case codes.OK:
		return http.StatusOK
	case codes.Canceled:
		return 499 // Client Closed Request
	case codes.InvalidArgument, codes.FailedPrecondition, codes.OutOfRange:
		return http.StatusBadRequest
	case codes.Unauthenticated:
		return http.StatusUnauthorized
	case codes.PermissionDenied:
		return http.StatusForbidden
	case codes.NotFound:
		return http.StatusNotFound
	case codes.AlreadyExists, codes.Aborted:
		return http.StatusConflict
	case codes.ResourceExhausted:
		return http.StatusTooManyRequests
	case codes.Unimplemented:
		return http.StatusNotImplemented
	case codes.Unavailable:
		return http.StatusServiceUnavailable
	case codes.DeadlineExceeded:
		return http.StatusGatewayTimeout
	}
	return http.StatusInternalServerError
}

// statusJSON returns the JSON form of st's google.rpc.Status. Details whose
// types are not linked into the program cannot be written as JSON; they are
// left out, and the rest is kept.
func statusJSON(marshal protojson.MarshalOptions, st *status.Status) []byte {
	p := st.Proto()
	b, err := marshal.Marshal(p)
	if err == nil {
		return b
	}
	kept := p.Details[:0:0]
	for _, d := range p.Details {
		if _, err := protojson.Marshal(d); err == nil {
			kept = append(kept, d)
		}
	}
	p.Details = kept
	if b, err = marshal.Marshal(p); err != nil {
		p.Details = []*anypb.Any(nil)
		b, _ = marshal.Marshal(p)
	}
	return b
}

// writeStatus writes st as the whole response, with the HTTP status that
// stands for its code. code overrides that status when it is not 0 (405 and
// 413 have no gRPC code of their own).
func (h *Handler) writeStatus(w http.ResponseWriter, st *status.Status, code int) {
	if code == 0 {
		code = HTTPStatus(st.Code())
	}
	b := statusJSON(h.opts.MarshalOptions, st)
	hd := w.Header()
	hd.Set("Content-Type", "application/json")
	hd.Set("Content-Length", strconv.Itoa(len(b)))
	hd.Del("Content-Encoding")
	w.WriteHeader(code)
	w.Write(b)
}

// writeError writes a transcoder's own error: code says what kind, msg is
// the message.
func (h *Handler) writeError(w http.ResponseWriter, c codes.Code, httpCode int, msg string) {
	h.writeStatus(w, status.New(c, msg), httpCode)
}
