package transcode

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// DefaultMaxBodyBytes is the largest request body a Handler reads when
// Options.MaxBodyBytes is 0.
const DefaultMaxBodyBytes = 4 << 20

// Options configure a Handler. The zero value is ready to use.
type Options struct {
	// MarshalOptions write JSON responses: UseProtoNames for field names
	// as in the .proto file (book_id) instead of lowerCamelCase (bookId),
	// EmitUnpopulated to write fields that hold their zero value.
	MarshalOptions protojson.MarshalOptions

	// UnmarshalOptions read JSON request bodies. By default a field the
	// message does not have is an error (400); DiscardUnknown ignores it.
	UnmarshalOptions protojson.UnmarshalOptions

	// StrictQuery answers 400 to a query parameter that names no field of
	// the request, under body "*" too. By default such parameters are
	// ignored.
	StrictQuery bool

	// DecodeReserved decodes every percent-escape in variables that span
	// several segments ({name=shelves/*/books/*}), as
	// fully_decode_reserved_expansion does. By default the reserved
	// characters of RFC 6570 stay escaped there (%2F stays %2F), so that a
	// value keeps its segments; variables of one segment are always fully
	// decoded.
	DecodeReserved bool

	// MaxBodyBytes limits the size of request bodies; a larger body is
	// answered 413. 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64

	// Headers lists the request headers, besides Authorization and
	// Grpc-Metadata-*, that are sent to the server as metadata, under
	// their lower-cased names (for example "X-Request-Id").
	Headers []string

	// IgnoreMetadataHeaders stops Grpc-Metadata-* request headers from
	// becoming metadata. By default Grpc-Metadata-Tenant: acme is sent as
	// tenant: acme, so a client can set any metadata key that neither gRPC
	// nor middleware has set (see the package documentation): set this if
	// the server trusts a key that no middleware sets for every request.
	IgnoreMetadataHeaders bool

	// Rules are google.api.http rules from a service configuration (the
	// http section of a google.api.Service), each naming its method by
	// selector ("library.v1.LibraryService.GetBook"). A method with a rule
	// here is served by it instead of by its annotation.
	Rules []*annotations.HttpRule

	// NotFound answers requests that no rule matches. By default they are
	// answered 404 with a google.rpc.Status of code NOT_FOUND.
	NotFound http.Handler
}

// A Handler serves gRPC methods as HTTP/JSON: it matches a request to a
// method by the method's google.api.http rules, builds the request message
// from the path, the query and the body, calls the method over a gRPC
// connection, and writes its response as JSON.
//
// It is an http.Handler and can be mounted on a cairn Router, a group or
// an http.ServeMux. Rules are matched against the whole path, so mount it
// at the prefix its rules share without stripping it:
//
//	r.Handle("/v1/", h)
//
// While it serves a request it sets r.Pattern to the rule that matched,
// such as "GET /v1/{name=shelves/*/books/*}", so that logging and metrics
// middleware report the rule rather than the path.
//
// Methods are registered before the Handler serves its first request;
// registering later is an error.
type Handler struct {
	conn          grpc.ClientConnInterface
	opts          Options
	streamMarshal protojson.MarshalOptions // opts.MarshalOptions on one line, for streams
	headers       map[string]bool          // canonical names of Options.Headers
	rules         map[protoreflect.FullName][]*annotations.HttpRule

	mu      sync.Mutex // guards registration
	serving atomic.Bool
	matcher pathMatcher
	routes  []*route
}

// New returns a Handler that calls methods over conn. opts may be nil.
func New(conn grpc.ClientConnInterface, opts *Options) *Handler {
	if conn == nil {
		panic("transcode: New with a nil connection")
	}
	h := &Handler{conn: conn, headers: map[string]bool{}, rules: map[protoreflect.FullName][]*annotations.HttpRule{}}
	if opts != nil {
		h.opts = *opts
	}
	// A stream writes one message a line, or an event a data line.
	h.streamMarshal = h.opts.MarshalOptions
	h.streamMarshal.Multiline, h.streamMarshal.Indent = false, ""
	if h.opts.MaxBodyBytes <= 0 {
		h.opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	for _, name := range h.opts.Headers {
		h.headers[http.CanonicalHeaderKey(name)] = true
	}
	for _, rule := range h.opts.Rules {
		sel := protoreflect.FullName(rule.GetSelector())
		h.rules[sel] = append(h.rules[sel], rule)
	}
	return h
}

// RegisterService registers every method of sd that has a google.api.http
// rule, in Options.Rules or as an annotation. Methods without one are
// skipped. It returns every problem it found, joined; a service with an
// error registers none of its methods.
func (h *Handler) RegisterService(sd protoreflect.ServiceDescriptor) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.checkServing(); err != nil {
		return err
	}
	var all []*route
	var errs []error
	methods := sd.Methods()
	for i := 0; i < methods.Len(); i++ {
		md := methods.Get(i)
		rules := h.rules[md.FullName()]
		if len(rules) == 0 {
			if rule := methodRule(md); rule != nil {
				rules = []*annotations.HttpRule{rule}
			}
		}
		for _, rule := range rules {
			rts, err := routesOf(md, rule)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			all = append(all, rts...)
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	return h.addRoutes(all)
}

// RegisterMethod registers md with rule, whatever rules md has elsewhere.
// rule's selector is ignored.
func (h *Handler) RegisterMethod(md protoreflect.MethodDescriptor, rule *annotations.HttpRule) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.checkServing(); err != nil {
		return err
	}
	rts, err := routesOf(md, rule)
	if err != nil {
		return err
	}
	return h.addRoutes(rts)
}

// checkServing returns an error once the Handler has served a request.
func (h *Handler) checkServing() error {
	if h.serving.Load() {
		return errors.New("transcode: methods must be registered before the Handler serves its first request")
	}
	return nil
}

// routesOf returns the routes of rule and its additional bindings for md.
func routesOf(md protoreflect.MethodDescriptor, rule *annotations.HttpRule) ([]*route, error) {
	if md.IsStreamingClient() {
		return nil, fmt.Errorf("transcode: %s: client-streaming methods cannot be transcoded", md.FullName())
	}
	var rts []*route
	for i, r := range append([]*annotations.HttpRule{rule}, rule.GetAdditionalBindings()...) {
		if i > 0 && len(r.GetAdditionalBindings()) > 0 {
			return nil, fmt.Errorf("transcode: %s: an additional binding has additional bindings of its own", md.FullName())
		}
		rt, err := newRoute(md, r)
		if err != nil {
			method, path, _ := ruleMethod(r)
			return nil, fmt.Errorf("transcode: %s: rule %s %s: %w", md.FullName(), method, path, err)
		}
		rts = append(rts, rt)
	}
	return rts, nil
}

// addRoutes adds rts to the matcher, all or none.
func (h *Handler) addRoutes(rts []*route) error {
	n := len(h.routes)
	for _, rt := range rts {
		if err := h.matcher.add(rt.httpMethod, rt.tmpl, len(h.routes), string(rt.method.FullName())); err != nil {
			// Undo: build the matcher again from the routes before rts.
			h.routes = h.routes[:n]
			h.matcher = pathMatcher{}
			for i, old := range h.routes {
				h.matcher.add(old.httpMethod, old.tmpl, i, string(old.method.FullName()))
			}
			return err
		}
		h.routes = append(h.routes, rt)
	}
	return nil
}

// Patterns returns the patterns of the registered rules, as they appear in
// r.Pattern, sorted: "GET /v1/{name=shelves/*}", ...
func (h *Handler) Patterns() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	ps := make([]string, len(h.routes))
	for i, rt := range h.routes {
		ps[i] = rt.pattern
	}
	sort.Strings(ps)
	return ps
}

// ServeHTTP serves r by the rule its method and path match.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.serving.Load() {
		h.mu.Lock() // wait for a registration in progress
		h.serving.Store(true)
		h.mu.Unlock()
	}
	path := escapedPath(r.URL)
	var b bindings
	i, st := h.matcher.match(r.Method, path, &b)
	if st == methodNotAllowed && r.Method == http.MethodHead {
		// HEAD is GET without the body, which net/http leaves out.
		b = bindings{}
		i, st = h.matcher.match(http.MethodGet, path, &b)
	}
	switch st {
	case notFound:
		if h.opts.NotFound != nil {
			h.opts.NotFound.ServeHTTP(w, r)
			return
		}
		h.writeError(w, codes.NotFound, http.StatusNotFound, "no rule matches "+path)
		return
	case methodNotAllowed:
		w.Header().Set("Allow", h.allowHeader(path))
		if r.Method == http.MethodOptions {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.writeError(w, codes.Unimplemented, http.StatusMethodNotAllowed, "method "+r.Method+" is not allowed for "+path)
		return
	}
	rt := h.routes[i]
	r.Pattern = rt.pattern
	h.serve(w, r, rt, &b)
}

// allowHeader returns the Allow header for path: the methods of the rules
// that match it, HEAD where GET is, and OPTIONS, which the Handler answers
// itself for a path without an OPTIONS rule.
func (h *Handler) allowHeader(path string) string {
	var ms []string
	if a := h.matcher.allow(path); a != "" {
		ms = strings.Split(a, ", ")
	}
	if slices.Contains(ms, http.MethodGet) && !slices.Contains(ms, http.MethodHead) {
		ms = append(ms, http.MethodHead)
	}
	if !slices.Contains(ms, http.MethodOptions) {
		ms = append(ms, http.MethodOptions)
	}
	slices.Sort(ms)
	return strings.Join(ms, ", ")
}

// serve calls rt's method for r and writes its answer.
func (h *Handler) serve(w http.ResponseWriter, r *http.Request, rt *route, b *bindings) {
	req := rt.in.New()
	if err := h.buildRequest(w, r, rt, b, req); err != nil {
		h.writeRequestError(w, err)
		return
	}
	ctx, cancel, err := h.outgoingContext(r)
	if err != nil {
		h.writeRequestError(w, err)
		return
	}
	defer cancel()
	if rt.streaming {
		h.serveStream(ctx, w, r, rt, req.Interface())
		return
	}
	h.serveUnary(ctx, w, rt, req.Interface())
}

// writeRequestError answers a request the Handler could not turn into a
// call.
func (h *Handler) writeRequestError(w http.ResponseWriter, err error) {
	if re, ok := err.(*requestError); ok {
		c := codes.InvalidArgument
		if re.status == http.StatusRequestEntityTooLarge {
			c = codes.ResourceExhausted
		}
		h.writeError(w, c, re.status, re.msg)
		return
	}
	h.writeError(w, codes.Internal, http.StatusInternalServerError, strings.TrimPrefix(err.Error(), "transcode: "))
}

// escapedPath returns the path of u as the client sent it, escapes
// included. url.URL.EscapedPath is not enough: it drops RawPath when that
// holds bytes it would have escaped itself (a "|", say), and escapes Path
// again, turning a %2F into a separator.
func escapedPath(u *url.URL) string {
	if u.RawPath != "" {
		if p, err := url.PathUnescape(u.RawPath); err == nil && p == u.Path {
			return u.RawPath
		}
	}
	return u.EscapedPath()
}
