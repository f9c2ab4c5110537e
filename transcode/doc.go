// Package transcode serves gRPC methods as an HTTP/JSON API, from the
// google.api.http rules of their services, as Envoy's gRPC-JSON transcoder
// and grpc-gateway do, with no code to generate.
//
// A [Handler] reads the rules from the service's descriptor (the
// annotations compiled into the generated code, or rules of a service
// configuration given in [Options]), calls each method over any
// grpc.ClientConnInterface, and mounts on a cairn Router, a group or an
// http.ServeMux like any handler:
//
//	conn, _ := grpc.NewClient("127.0.0.1:9090", grpc.WithTransportCredentials(insecure.NewCredentials()))
//	h := transcode.New(conn, nil)
//	if err := h.RegisterService(librarypb.File_library_proto.Services().ByName("LibraryService")); err != nil {
//		log.Fatal(err)
//	}
//	r.Handle("/v1/", h)
//
// # Rules
//
// Templates follow google/api/http.proto: literal segments, * (one
// segment), ** (one or more, or none at the end: /a/** matches /a, but
// /a/**/b does not match /a/b, which grpc-gateway matches; followed by
// literals only), variables
// {field.path} and {field=segments}, and a trailing :verb. A request
// matches the most specific template, segment by segment (a literal before
// *, * before **, trying the next when a choice fails further on), never
// the first registered. A trailing :verb is a verb only when some rule has
// that verb; otherwise the colon belongs to the last segment, so
// /v1/books/a:b reaches {name=books/*} with the name books/a:b (but a name
// that ends in a registered verb, such as a:move, must be sent as
// a%3Amove, which a variable of several segments, such as this one, keeps
// escaped unless Options.DecodeReserved is set; see Requests). As in the
// reference, empty segments at the end are dropped:
// /v1/shelves/ is /v1/shelves. A path no template matches is answered 404;
// a path that templates match for other HTTP methods, 405 with an Allow
// header. HEAD is served by a GET rule (without the body), and OPTIONS
// answered 204 with Allow, unless rules of their own exist. Two rules that match the same
// requests are an error at registration, as is a variable that does not
// name a singular scalar field of the request, or a body or response_body
// that names no field.
//
// # Requests
//
// The request message is built from the body (body "*" for the whole
// message, a field name for one field), then the path (which wins over
// the body), then the query (fields bound by neither; none with body
// "*"). Path variables of one segment are fully percent-decoded; variables
// of several segments keep the reserved characters (and "%") escaped unless
// Options.DecodeReserved is set. Path and query values are text: numbers in
// decimal (NaN and Infinity for floats), true or false, enums by name or
// number, bytes in base64 of either alphabet, UTF-8 strings, Timestamps in
// RFC 3339, Durations as "1.5s", FieldMasks as paths separated by commas
// (updateTime or update_time; "" is the empty mask, as protojson writes
// it), and the wrapper types by their value: the forms of protojson, where
// grpc-gateway also takes 1, t and True for true and Go's durations (1h). Query parameters name fields
// by their proto or JSON names, dotted for nested fields, repeated for
// repeated fields (their values in the order they come, whichever name each
// uses), and a map's entries with the key in brackets, as grpc-gateway
// does (?labels[env]=prod&labels[team]=web; the key is text too, so
// ?counts[7]=1 for a map with int32 keys). A singular field or a map entry
// set twice is an error, as are two members of one oneof (one of which
// the path or the body may set) and a map named without a key; parameters
// that name no field are ignored unless Options.StrictQuery is set, and so
// are those that name a field the path or the body sets.
//
// A PATCH whose body is a message field (body "book") fills the request's
// google.protobuf.FieldMask (update_mask, or whatever the one FieldMask
// field of the request is called; none if it has two) from the body when
// the query leaves it empty, as grpc-gateway does: with the paths of the
// fields the body's JSON sets, relative to the body field. An object is
// followed into its fields, and is one path if it sets none; a repeated
// field, a map and a null are one path each. PATCH /v1/shelves/1/books/2
// with {"title":"T","author":{"name":"N"}} gets update_mask
// "author.name,title"; with {"author":{}}, "author". Unlike grpc-gateway, a
// Struct or a Value is one path (its keys are no field names), a name
// that UnmarshalOptions.DiscardUnknown lets through is no path rather than
// an error, and a mask the query gives empty (?update_mask=) is filled
// too, as for an update without a mask in AIP-134, where grpc-gateway
// keeps it empty. An empty body leaves the mask unset. A body is read as JSON whatever its
// Content-Type; a google.api.HttpBody takes the raw bytes and the
// Content-Type instead.
//
// Authorization and Grpc-Metadata-* headers (and the headers listed in
// Options.Headers) become metadata of the call; Grpc-Timeout becomes its
// deadline. Grpc-Metadata-Authorization and keys gRPC keeps for itself
// (grpc-*, content-type, ...) are dropped; a key or value gRPC would
// refuse is answered 400. A key that middleware set in the outgoing
// metadata of the request's context (metadata.AppendToOutgoingContext)
// keeps the middleware's values only: no header adds to it. Any other key
// can come from a client's Grpc-Metadata-* header, as in grpc-gateway
// before v2.33, whose default now forwards none; set
// Options.IgnoreMetadataHeaders to forward none either. The server's
// header and trailer metadata come back as
// Grpc-Metadata-* and Grpc-Trailer-* headers, but for gRPC's own keys
// (grpc-*): grpc-status-details-bin would repeat the status that an
// error's body holds.
//
// # Responses
//
// A unary method's response (or its response_body field) is written with
// protojson, or as raw bytes for a google.api.HttpBody, with its
// content_type as Content-Type (application/octet-stream if it has none:
// never one that net/http guesses from the bytes). A response_body
// field follows the proto3 JSON mapping as a whole message does: an int64
// is a string ("5"), where grpc-gateway writes a number. A server stream is
// written as newline-delimited JSON, one line {"result": message} a
// message, as grpc-gateway writes it, flushed as each arrives; or as
// server-sent events, each message the data of an event, when the client
// accepts text/event-stream. A stream that fails after its first message
// ends with a line {"error": status} (an event named "error"); one that
// fails before is answered like a unary failure.
//
// Errors are the JSON form of google.rpc.Status, with the HTTP status of
// the gRPC code ([HTTPStatus]: NOT_FOUND 404, INVALID_ARGUMENT 400,
// UNAVAILABLE 503, ...). A request the Handler cannot turn into a call (a
// value that does not parse, bad JSON, a malformed escape) is answered 400
// with code INVALID_ARGUMENT, a body over Options.MaxBodyBytes 413.
//
// # Differences from the reference
//
// Matching follows grpc-httpjson-transcoding, the library behind Envoy's
// transcoder, except where it would fail silently: two rules for the same
// requests are an error at registration (the reference keeps both and
// answers neither), and {x} and * in the same place count as the same
// rule; a path that only other methods' rules match is answered 405 with
// Allow rather than as unmatched; a malformed percent-escape is 400; in
// variables of several segments "%" stays escaped with the reserved
// characters, so that a%252Fb and a%2Fb stay different values; templates
// are parsed strictly (field paths are identifiers, literals are path
// characters or well-formed escapes); a variable of literals after a "**"
// is bound from the end of the path, where it is. In the query "+" is a
// space, as net/url and HTML forms have it.
//
// # Routes
//
// While a Handler serves a request, r.Pattern is the rule that matched,
// as "GET /v1/{name=shelves/*/books/*}", so that logging and metrics
// middleware label requests by rule, not by path. The Handler sets it on
// the *http.Request it is given: middleware that reads r.Pattern after
// calling the next handler sees it if it passed that same request on, as
// cairn's middleware, a cairn Router and a ServeMux do; middleware that
// passes a copy (r.WithContext) does not, and should take the route from
// a handler placed inside the copy.
package transcode
