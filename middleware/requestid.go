package middleware

import (
	"math/rand/v2"
	"net/http"
	"unsafe"
)

// RequestIDOptions configures [RequestID]. The zero value is ready to use.
type RequestIDOptions struct {
	// Header names the header that carries the ID, on the request and on
	// the response. The default is "X-Request-Id".
	Header string

	// IgnoreIncoming makes RequestID generate an ID for every request,
	// even one that arrives with a well-formed ID of its own (at the edge
	// of a network, where clients are not trusted to choose them).
	IgnoreIncoming bool
}

// MaxRequestIDLength is the longest incoming request ID [RequestID] keeps.
const MaxRequestIDLength = 128

// RequestID returns middleware that gives each request an ID.
//
// It keeps a well-formed ID that arrives in the request's header (unless
// opts.IgnoreIncoming is set): 1 to [MaxRequestIDLength] bytes of ASCII
// letters, digits and the characters - _ . : + / = @. Any other incoming
// value, such as one with spaces or control characters that would forge
// log lines, is replaced, never echoed. It generates an ID otherwise: 32
// hexadecimal digits from a random source that takes no lock and does no
// cryptography per request (a unique label, not a secret).
//
// The ID is put in the request's header, so handlers read it with
// r.Header.Get("X-Request-Id") and a proxy passes it on; in the response's
// header, set when the status is sent (so that a proxied response that
// echoes the same ID does not carry it twice), so the client sees it; and
// in the shared [Writer], where [Logger] finds it.
//
// Allocation: one 48-byte object for a generated ID (the ID and its
// header value); nothing for a well-formed incoming ID.
func RequestID(opts *RequestIDOptions) func(http.Handler) http.Handler {
	var o RequestIDOptions
	if opts != nil {
		o = *opts
	}
	if o.Header == "" {
		o.Header = "X-Request-Id"
	}
	key := http.CanonicalHeaderKey(o.Header)
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			wr, owned := Acquire(w)
			if owned {
				defer wr.Release()
			}
			var in []string
			if !o.IgnoreIncoming {
				in = r.Header[key]
			}
			if len(in) == 1 && validRequestID(in[0]) {
				wr.id, wr.idValue = in[0], in
			} else {
				v := newRequestID()
				wr.id, wr.idValue = v[0], v
				if r.Header == nil {
					r.Header = make(http.Header)
				}
				r.Header[key] = v
			}
			wr.idKey = key
			next.ServeHTTP(wr.ResponseWriter(), r)
			if !wr.sent && !wr.hijacked {
				// The handler wrote nothing: net/http sends the header
				// once it returns.
				wr.setIDHeader()
			}
		})
	}
}

// validRequestID reports whether an incoming ID may be kept.
func validRequestID(s string) bool {
	if len(s) == 0 || len(s) > MaxRequestIDLength {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '-', c == '_', c == '.', c == ':', c == '+', c == '/', c == '=', c == '@':
		default:
			return false
		}
	}
	return true
}

// A generatedID holds a generated ID and the header value that holds it,
// so that both take one allocation.
type generatedID struct {
	text  [32]byte
	value [1]string
}

// newRequestID returns a header value of 32 random hexadecimal digits.
// math/rand/v2's top-level source is per thread and seeded from the
// operating system: no lock and no per-call cryptography.
//
// Invariant: header values are not changed in place, and Header.Add
// copies a slice whose cap equals its len, so the request's and the
// response's header can share the value, and the bytes behind the string
// are never written after it is made.
func newRequestID() []string {
	const hex = "0123456789abcdef"
	g := new(generatedID)
	for half := 0; half < 2; half++ {
		x := rand.Uint64()
		for i := 0; i < 16; i++ {
			g.text[half*16+i] = hex[x&15]
			x >>= 4
		}
	}
	g.value[0] = unsafe.String(&g.text[0], len(g.text))
	return g.value[:1:1]
}
