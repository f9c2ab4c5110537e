package transcode

// This file carries headers across the gateway. Into the call:
//
//	Authorization: Bearer t        -> authorization: Bearer t
//	Grpc-Metadata-Tenant: acme     -> tenant: acme
//	Grpc-Metadata-Trace-Bin: AQI=  -> trace-bin: "\x01\x02" (base64 decoded)
//	Grpc-Timeout: 250m             -> a deadline 250 ms from now
//	X-Request-Id: 42               -> x-request-id: 42, if listed in Options.Headers
//
// and out of it, the server's header metadata as Grpc-Metadata-Key and its
// trailer metadata as Grpc-Trailer-Key (binary values base64 encoded).

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/textproto"
	"strconv"
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
// the metadata its headers carry and the deadline Grpc-Timeout sets.
func (h *Handler) outgoingContext(r *http.Request) (context.Context, context.CancelFunc, error) {
	ctx := r.Context()
	var md metadata.MD
	add := func(k, v string) {
		if md == nil {
			md = metadata.MD{}
		}
		md[k] = append(md[k], v)
	}
	for name, vals := range r.Header {
		switch {
		case name == "Authorization":
			for _, v := range vals {
				add("authorization", v)
			}
		case len(name) > len(metadataPrefix) && strings.EqualFold(name[:len(metadataPrefix)], metadataPrefix):
			key := strings.ToLower(name[len(metadataPrefix):])
			for _, v := range vals {
				if strings.HasSuffix(key, "-bin") {
					b, err := decodeBinary(v)
					if err != nil {
						return nil, nil, badRequest("header %s: %v", name, err)
					}
					v = string(b)
				}
				add(key, v)
			}
		default:
			if h.headers[name] {
				for _, v := range vals {
					add(strings.ToLower(name), v)
				}
			}
		}
	}
	if md != nil {
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

// decodeBinary decodes a binary header value, base64 padded or not.
func decodeBinary(v string) ([]byte, error) {
	if len(v)%4 == 0 {
		return base64.StdEncoding.DecodeString(v)
	}
	return base64.RawStdEncoding.DecodeString(v)
}

// parseTimeout parses a gRPC timeout: up to 8 digits and a unit, H, M, S,
// m (milli), u (micro) or n (nano).
func parseTimeout(s string) (time.Duration, bool) {
	if len(s) < 2 || len(s) > 9 {
		return 0, false
	}
	n, err := strconv.ParseInt(s[:len(s)-1], 10, 64)
	if err != nil || n < 0 {
		return 0, false
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
	return time.Duration(n) * unit, true
}

// writeMetadata adds md to hd as headers named prefix+Key. The
// content-type of the gRPC response is the transport's, not the
// service's: it is left out.
func writeMetadata(hd http.Header, prefix string, md metadata.MD) {
	for k, vals := range md {
		if k == "content-type" {
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
