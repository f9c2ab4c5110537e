package transcode

// This file carries headers across the gateway. Into the call:
//
//	Authorization: Bearer t        -> authorization: Bearer t
//	Grpc-Metadata-Tenant: acme     -> tenant: acme
//	Grpc-Metadata-Trace-Bin: AQI=  -> trace-bin: "\x01\x02" (base64 decoded)
//	Grpc-Metadata-Authorization    -> dropped: only Authorization sets it
//	Grpc-Timeout: 250m             -> a deadline 250 ms from now
//	X-Request-Id: 42               -> x-request-id: 42, if listed in Options.Headers
//
// and out of it, the server's header metadata as Grpc-Metadata-Key and its
// trailer metadata as Grpc-Trailer-Key (binary values base64 encoded).

import (
	"context"
	"encoding/base64"
	"math"
	"net/http"
	"net/textproto"
	"strings"
	"time"

	"google.golang.org/grpc/metadata"
)

// Header prefixes for metadata.
const (
	metadataPrefix = "Grpc-Metadata-"
	trailerPrefix  = "Grpc-Trailer-"
)

// outgoingContext returns the context of the call for r: r's context with
// the metadata its headers carry and the deadline Grpc-Timeout sets. A
// header that cannot be metadata (a key gRPC does not allow, a value with
// bytes other than printable ASCII) is the client's mistake: an error.
//
// A key that middleware has set in the outgoing metadata of r's context
// (an authenticated user's id, say) is the middleware's: the headers add
// no values to it, since a server that reads the last value, or all of
// them, could not tell the client's from the middleware's.
func (h *Handler) outgoingContext(r *http.Request) (context.Context, context.CancelFunc, error) {
	ctx := r.Context()
	// set is what middleware set, read at the first header that may be
	// metadata: FromOutgoingContext copies it.
	var set metadata.MD
	setRead := false
	var md metadata.MD
	add := func(name, k, v string) error {
		if !strings.HasSuffix(k, "-bin") && !printable(v) {
			return badRequest("header %s: a value of metadata must be printable ASCII", name)
		}
		if md == nil {
			md = metadata.MD{}
		}
		md[k] = append(md[k], v)
		return nil
	}
	for name, vals := range r.Header {
		var key string
		switch {
		case name == "Authorization":
			key = "authorization"
		case len(name) > len(metadataPrefix) && strings.EqualFold(name[:len(metadataPrefix)], metadataPrefix):
			if h.opts.IgnoreMetadataHeaders {
				continue
			}
			key = strings.ToLower(name[len(metadataPrefix):])
			if reservedKey(key) {
				continue // only the headers of their own may set these
			}
			if !validKey(key) {
				return nil, nil, badRequest("header %s: %q is not a valid metadata key", name, key)
			}
		case h.headers[name]:
			key = strings.ToLower(name)
			if !validKey(key) {
				continue
			}
		default:
			continue
		}
		if !setRead {
			set, _ = metadata.FromOutgoingContext(ctx)
			setRead = true
		}
		if len(set[key]) > 0 {
			continue // middleware set it
		}
		for _, v := range vals {
			if strings.HasSuffix(key, "-bin") {
				b, err := decodeBinary(v)
				if err != nil {
					return nil, nil, badRequest("header %s: %v", name, err)
				}
				v = string(b)
			}
			if err := add(name, key, v); err != nil {
				return nil, nil, err
			}
		}
	}
	if md != nil {
		if set != nil {
			md = metadata.Join(set, md) // keep what middleware has set
		}
		ctx = metadata.NewOutgoingContext(ctx, md)
	}
	if t := r.Header.Get("Grpc-Timeout"); t != "" {
		d, ok := parseTimeout(t)
		if !ok {
			return nil, nil, badRequest("header Grpc-Timeout: invalid value %q", t)
		}
		ctx, cancel := context.WithTimeout(ctx, d)
		return ctx, cancel, nil
	}
	return ctx, func() {}, nil
}

// reservedKey reports whether a metadata key may not be set through a
// Grpc-Metadata- header: authorization, which comes from the Authorization
// header alone (so that a proxy that checks that header sees every
// credential), and the keys gRPC keeps for itself.
func reservedKey(k string) bool {
	switch k {
	case "authorization", "content-type", "te", "user-agent", "connection", "host":
		return true
	}
	return strings.HasPrefix(k, "grpc-") || strings.HasPrefix(k, ":")
}

// validKey reports whether k is a metadata key gRPC accepts: lower-case
// letters, digits, and - _ . only.
func validKey(k string) bool {
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return k != ""
}

// printable reports whether v holds printable ASCII only, as gRPC requires
// of a metadata value that is not binary.
func printable(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] < 0x20 || v[i] > 0x7e {
			return false
		}
	}
	return true
}

// decodeBinary decodes a binary header value, base64 padded or not.
func decodeBinary(v string) ([]byte, error) {
	if len(v)%4 == 0 {
		return base64.StdEncoding.DecodeString(v)
	}
	return base64.RawStdEncoding.DecodeString(v)
}

// parseTimeout parses a gRPC timeout: 1 to 8 digits and a unit, H, M, S,
// m (milli), u (micro) or n (nano). A timeout longer than a
// time.Duration holds (99999999H is) is the longest one it holds.
func parseTimeout(s string) (time.Duration, bool) {
	if len(s) < 2 || len(s) > 9 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s)-1; i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	var unit time.Duration
	switch s[len(s)-1] {
	case 'H':
		unit = time.Hour
	case 'M':
		unit = time.Minute
	case 'S':
		unit = time.Second
	case 'm':
		unit = time.Millisecond
	case 'u':
		unit = time.Microsecond
	case 'n':
		unit = time.Nanosecond
	default:
		return 0, false
	}
	if n > int64(math.MaxInt64/unit) {
		return math.MaxInt64, true
	}
	return time.Duration(n) * unit, true
}

// writeMetadata adds md to hd as headers named prefix+Key. The
// content-type of the gRPC response is the transport's, not the
// service's, and the keys gRPC keeps for itself are its own: they are
// left out.
func writeMetadata(hd http.Header, prefix string, md metadata.MD) {
	for k, vals := range md {
		if k == "content-type" || strings.HasPrefix(k, "grpc-") {
			// gRPC's own keys, such as grpc-status-details-bin, which
			// repeats in base64 the status that the body holds.
			continue
		}
		name := prefix + textproto.CanonicalMIMEHeaderKey(k)
		bin := strings.HasSuffix(k, "-bin")
		for _, v := range vals {
			if bin {
				v = base64.StdEncoding.EncodeToString([]byte(v))
			}
			hd.Add(name, v)
		}
	}
}
