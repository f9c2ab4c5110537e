package compress

import (
	"bytes"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

var (
	big   = jsonBody(4 << 10)
	small = jsonBody(100)
)

// answer returns a handler that sets the header fields in kv (pairs of
// key and value), sends code (0 for none) and writes body.
func answer(code int, body []byte, kv ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i < len(kv); i += 2 {
			w.Header().Add(kv[i], kv[i+1])
		}
		if code != 0 {
			w.WriteHeader(code)
		}
		w.Write(body)
	}
}

// none stands for a header field that must be absent.
var none []string

func TestCompress(t *testing.T) {
	for _, tt := range []struct {
		name   string
		opts   *Options
		method string // GET if empty
		ae     string // Accept-Encoding; "-" for none
		inm    string // If-None-Match, if not empty
		h      http.HandlerFunc
		code   int         // the status wanted; 200 if 0
		body   []byte      // the body wanted, decoded
		want   http.Header // header fields wanted; a nil value wants the field absent
	}{
		// Negotiation.
		{name: "gzip", ae: "gzip", h: answer(0, big, "Content-Type", "application/json", "Content-Length", "4096"), body: big,
			want: http.Header{"Content-Encoding": {"gzip"}, "Vary": {"Accept-Encoding"}, "Content-Length": none}},
		{name: "zstd", ae: "zstd", h: writeJSON(big), body: big,
			want: http.Header{"Content-Encoding": {"zstd"}, "Vary": {"Accept-Encoding"}}},
		{name: "server prefers zstd", ae: "gzip, zstd", h: writeJSON(big), body: big,
			want: http.Header{"Content-Encoding": {"zstd"}}},
		{name: "Encodings puts gzip first", opts: &Options{Encodings: []string{"gzip", "zstd"}}, ae: "zstd, gzip", h: writeJSON(big), body: big,
			want: http.Header{"Content-Encoding": {"gzip"}}},
		{name: "client prefers gzip", ae: "zstd;q=0.5, gzip", h: writeJSON(big), body: big,
			want: http.Header{"Content-Encoding": {"gzip"}}},
		{name: "x-gzip", ae: "x-gzip", h: writeJSON(big), body: big,
			want: http.Header{"Content-Encoding": {"gzip"}}},
		{name: "no Accept-Encoding", ae: "-", h: writeJSON(big), body: big,
			want: http.Header{"Content-Encoding": none, "Vary": {"Accept-Encoding"}}},
		{name: "nothing acceptable, identity refused: no 406", ae: "br, identity;q=0", h: writeJSON(big), body: big,
			want: http.Header{"Content-Encoding": none, "Vary": {"Accept-Encoding"}}},
		{name: "gzip refused", opts: &Options{Encodings: []string{"gzip"}}, ae: "gzip;q=0, zstd", h: writeJSON(big), body: big,
			want: http.Header{"Content-Encoding": none, "Vary": {"Accept-Encoding"}}},

		// Size.
		{name: "below MinSize", ae: "gzip", h: answer(0, small, "Content-Type", "application/json", "Content-Length", "100"), body: small,
			want: http.Header{"Content-Encoding": none, "Vary": {"Accept-Encoding"}, "Content-Length": {"100"}}},
		{name: "just below MinSize", ae: "gzip", h: writeJSON(big[:1023]), body: big[:1023],
			want: http.Header{"Content-Encoding": none, "Vary": {"Accept-Encoding"}}},
		{name: "MinSize exactly", ae: "gzip", h: writeJSON(big[:1024]), body: big[:1024],
			want: http.Header{"Content-Encoding": {"gzip"}}},
		{name: "MinSize set", opts: &Options{MinSize: 10}, ae: "gzip", h: writeJSON(small[:10]), body: small[:10],
			want: http.Header{"Content-Encoding": {"gzip"}}},
		{name: "MinSize 1", opts: &Options{MinSize: 1}, ae: "zstd", h: writeJSON(small[:1]), body: small[:1],
			want: http.Header{"Content-Encoding": {"zstd"}}},
		{name: "declared below MinSize, written above", ae: "gzip", h: answer(0, big, "Content-Type", "application/json", "Content-Length", "10"), body: big,
			want: http.Header{"Content-Encoding": none, "Content-Length": {"10"}, "Vary": {"Accept-Encoding"}}},
		{name: "small pieces", ae: "gzip", body: big, h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			for p := big; len(p) > 0; p = p[min(len(p), 300):] {
				w.Write(p[:min(len(p), 300)])
			}
		}, want: http.Header{"Content-Encoding": {"gzip"}}},
		{name: "empty body", ae: "gzip", code: 201, h: answer(http.StatusCreated, nil, "Content-Type", "application/json"),
			want: http.Header{"Content-Encoding": none, "Vary": {"Accept-Encoding"}}},
		{name: "no body, no type", ae: "gzip", h: answer(http.StatusOK, nil),
			want: http.Header{"Content-Encoding": none, "Vary": none, "Content-Type": none}},
		{name: "nothing written", ae: "gzip", h: func(w http.ResponseWriter, r *http.Request) {},
			want: http.Header{"Content-Encoding": none, "Vary": none}},

		// Status.
		{name: "201", ae: "gzip", code: 201, h: answer(http.StatusCreated, big, "Content-Type", "application/json"), body: big,
			want: http.Header{"Content-Encoding": {"gzip"}}},
		{name: "404 page", ae: "gzip", code: 404, h: answer(http.StatusNotFound, big, "Content-Type", "text/html"), body: big,
			want: http.Header{"Content-Encoding": {"gzip"}}},
		{name: "204", ae: "gzip", code: 204, h: answer(http.StatusNoContent, nil, "Content-Type", "application/json"),
			want: http.Header{"Content-Encoding": none, "Vary": none}},
		// A 304 gets the Vary and ETag its 200 had: known from an allowed
		// type, or from the weak ETag the client asks with, which only
		// compression makes; otherwise it goes as it is.
		{name: "304 to the weak ETag of a compressed 200", ae: "gzip", inm: `"v0", W/"v1"`, code: 304, h: answer(http.StatusNotModified, nil, "Etag", `"v1"`),
			want: http.Header{"Content-Encoding": none, "Vary": {"Accept-Encoding"}, "Etag": {`W/"v1"`}}},
		{name: "304 to the strong ETag", ae: "gzip", inm: `"v1"`, code: 304, h: answer(http.StatusNotModified, nil, "Etag", `"v1"`),
			want: http.Header{"Content-Encoding": none, "Vary": none, "Etag": {`"v1"`}}},
		{name: "304 with an allowed type", ae: "gzip", code: 304, h: answer(http.StatusNotModified, nil, "Content-Type", "application/json", "Etag", `"v1"`),
			want: http.Header{"Content-Encoding": none, "Vary": {"Accept-Encoding"}, "Etag": {`"v1"`}}},
		{name: "304 of an image", ae: "gzip", code: 304, h: answer(http.StatusNotModified, nil, "Content-Type", "image/png"),
			want: http.Header{"Content-Encoding": none, "Vary": none}},
		{name: "206", ae: "gzip", code: 206, body: big[:2000], h: answer(http.StatusPartialContent, big[:2000],
			"Content-Type", "application/json", "Content-Range", "bytes 0-1999/4096", "Content-Length", "2000"),
			want: http.Header{"Content-Encoding": none, "Vary": {"Accept-Encoding"}, "Content-Length": {"2000"}}},
		{name: "Content-Range on a 200", ae: "gzip", body: big, h: answer(0, big,
			"Content-Type", "application/json", "Content-Range", "bytes 0-4095/4096"),
			want: http.Header{"Content-Encoding": none}},

		// Content-Encoding and Content-Type.
		{name: "already encoded", ae: "gzip", body: []byte("precompressed"), h: answer(0, []byte("precompressed"),
			"Content-Type", "text/css", "Content-Encoding", "br"),
			want: http.Header{"Content-Encoding": {"br"}, "Vary": none}},
		{name: "image", ae: "gzip", h: answer(0, big, "Content-Type", "image/png"), body: big,
			want: http.Header{"Content-Encoding": none, "Vary": none}},
		{name: "octet-stream", ae: "gzip", h: answer(0, big, "Content-Type", "application/octet-stream"), body: big,
			want: http.Header{"Content-Encoding": none, "Vary": none}},
		{name: "ContentTypes set", opts: &Options{ContentTypes: []string{"application/octet-stream"}}, ae: "gzip",
			h: answer(0, big, "Content-Type", "application/octet-stream"), body: big,
			want: http.Header{"Content-Encoding": {"gzip"}, "Vary": {"Accept-Encoding"}}},
		{name: "type with parameters", ae: "gzip", h: answer(0, big, "Content-Type", "Text/HTML; charset=utf-8"), body: big,
			want: http.Header{"Content-Encoding": {"gzip"}}},
		{name: "sniffed HTML", ae: "gzip", body: []byte("<!DOCTYPE html>" + string(big)), h: answer(0, []byte("<!DOCTYPE html>"+string(big))),
			want: http.Header{"Content-Encoding": {"gzip"}, "Content-Type": {"text/html; charset=utf-8"}}},
		{name: "sniffed small text", ae: "gzip", body: small, h: answer(0, small),
			want: http.Header{"Content-Encoding": none, "Content-Type": {"text/plain; charset=utf-8"}, "Vary": {"Accept-Encoding"}}},
		{name: "sniffed PNG", ae: "gzip", body: pngish, h: answer(0, pngish),
			want: http.Header{"Content-Encoding": none, "Content-Type": {"image/png"}, "Vary": none}},
		{name: "sniffing suppressed", ae: "gzip", body: big, h: func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Content-Type"] = nil
			w.Write(big)
		}, want: http.Header{"Content-Encoding": none, "Vary": none}},

		// Other header fields.
		{name: "Vary kept", ae: "gzip", h: answer(0, big, "Content-Type", "application/json", "Vary", "Origin"), body: big,
			want: http.Header{"Content-Encoding": {"gzip"}, "Vary": {"Origin", "Accept-Encoding"}}},
		{name: "Vary not duplicated", ae: "gzip", h: answer(0, big, "Content-Type", "application/json", "Vary", "origin, accept-encoding"), body: big,
			want: http.Header{"Content-Encoding": {"gzip"}, "Vary": {"origin, accept-encoding"}}},
		{name: "Vary *", ae: "gzip", h: answer(0, big, "Content-Type", "application/json", "Vary", "*"), body: big,
			want: http.Header{"Content-Encoding": {"gzip"}, "Vary": {"*"}}},
		{name: "strong ETag made weak", ae: "gzip", h: answer(0, big, "Content-Type", "application/json", "Etag", `"v1"`), body: big,
			want: http.Header{"Content-Encoding": {"gzip"}, "Etag": {`W/"v1"`}}},
		{name: "weak ETag kept", ae: "zstd", h: answer(0, big, "Content-Type", "application/json", "Etag", `W/"v1"`), body: big,
			want: http.Header{"Content-Encoding": {"zstd"}, "Etag": {`W/"v1"`}}},
		{name: "strong ETag of a small response kept", ae: "gzip", h: answer(0, small, "Content-Type", "application/json", "Etag", `"v1"`), body: small,
			want: http.Header{"Content-Encoding": none, "Etag": {`"v1"`}}},
		{name: "Accept-Ranges dropped", ae: "gzip", h: answer(0, big, "Content-Type", "application/json", "Accept-Ranges", "bytes"), body: big,
			want: http.Header{"Content-Encoding": {"gzip"}, "Accept-Ranges": none}},
		{name: "Accept-Ranges kept", ae: "-", h: answer(0, big, "Content-Type", "application/json", "Accept-Ranges", "bytes"), body: big,
			want: http.Header{"Content-Encoding": none, "Accept-Ranges": {"bytes"}}},

		// HEAD: the header a GET would get, and the body as the handler
		// wrote it, which net/http drops, unless the GET would be
		// compressed: then the filter drops it, or net/http would count
		// it into a Content-Length (see TestServerValidators).
		{name: "HEAD", method: http.MethodHead, ae: "gzip", h: answer(0, nil, "Content-Type", "application/json", "Content-Length", "4096", "Etag", `"v1"`),
			want: http.Header{"Content-Encoding": {"gzip"}, "Vary": {"Accept-Encoding"}, "Content-Length": none, "Etag": {`W/"v1"`}}},
		{name: "HEAD, small", method: http.MethodHead, ae: "gzip", h: answer(0, nil, "Content-Type", "application/json", "Content-Length", "100", "Etag", `"v1"`),
			want: http.Header{"Content-Encoding": none, "Vary": {"Accept-Encoding"}, "Content-Length": {"100"}, "Etag": {`"v1"`}}},
		{name: "HEAD, identity", method: http.MethodHead, ae: "-", h: answer(0, nil, "Content-Type", "application/json", "Content-Length", "4096", "Etag", `"v1"`),
			want: http.Header{"Content-Encoding": none, "Vary": {"Accept-Encoding"}, "Content-Length": {"4096"}, "Etag": {`"v1"`}}},
		{name: "HEAD with a body written", method: http.MethodHead, ae: "gzip", h: writeJSON(big), body: nil,
			want: http.Header{"Content-Encoding": {"gzip"}, "Vary": {"Accept-Encoding"}}},
		{name: "HEAD with a small body written", method: http.MethodHead, ae: "gzip", h: writeJSON(small), body: small,
			want: http.Header{"Content-Encoding": none, "Vary": {"Accept-Encoding"}}},

		// Ways to write.
		{name: "WriteString", ae: "gzip", body: big, h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, string(big[:10]))
			io.WriteString(w, string(big[10:]))
		}, want: http.Header{"Content-Encoding": {"gzip"}}},
		{name: "WriteString, small", ae: "zstd", body: small, h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, string(small))
		}, want: http.Header{"Content-Encoding": none}},
		{name: "ReadFrom", ae: "zstd", body: big, h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.(io.ReaderFrom).ReadFrom(struct{ io.Reader }{bytes.NewReader(big)})
		}, want: http.Header{"Content-Encoding": {"zstd"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			method := tt.method
			if method == "" {
				method = http.MethodGet
			}
			req := newRequest(method, tt.ae)
			if tt.inm != "" {
				req.Header.Set("If-None-Match", tt.inm)
			}
			rec := serve(t, New(tt.opts)(tt.h), req)
			res := rec.Result()
			wantCode := tt.code
			if wantCode == 0 {
				wantCode = http.StatusOK
			}
			if res.StatusCode != wantCode {
				t.Errorf("status %d, want %d", res.StatusCode, wantCode)
			}
			for k, v := range tt.want {
				if got := res.Header[k]; !reflect.DeepEqual(got, v) {
					t.Errorf("%s: %q, want %q", k, got, v)
				}
			}
			got := rec.Body.Bytes()
			if ce := res.Header.Get("Content-Encoding"); ce != "br" && method != http.MethodHead { // br: the handler's own
				got = decode(t, ce, got)
			}
			if !bytes.Equal(got, tt.body) {
				t.Errorf("body: %d bytes %.40q..., want %d bytes %.40q...", len(got), got, len(tt.body), tt.body)
			}
		})
	}
}

// pngish begins with PNG's signature, so that it sniffs as image/png.
var pngish = append([]byte("\x89PNG\x0D\x0A\x1A\x0A"), make([]byte, 2000)...)

func TestLevels(t *testing.T) {
	for _, opts := range []*Options{
		{GzipLevel: gzip.BestSpeed},
		{GzipLevel: gzip.BestCompression},
		{GzipLevel: gzip.HuffmanOnly},
		{GzipLevel: gzip.StatelessCompression},
		{ZstdLevel: zstd.SpeedFastest},
		{ZstdLevel: zstd.SpeedBetterCompression},
		{ZstdLevel: zstd.SpeedBestCompression},
	} {
		for _, ae := range []string{"gzip", "zstd"} {
			rec := serve(t, New(opts)(writeJSON(big)), newRequest(http.MethodGet, ae))
			ce := rec.Header().Get("Content-Encoding")
			if ce != ae {
				t.Errorf("%+v, %s: Content-Encoding %q", *opts, ae, ce)
			}
			if got := decode(t, ce, rec.Body.Bytes()); !bytes.Equal(got, big) {
				t.Errorf("%+v, %s: body differs after decoding", *opts, ae)
			}
		}
	}
}

func TestNewPanics(t *testing.T) {
	for _, tt := range []struct {
		opts Options
		want string
	}{
		{Options{GzipLevel: 10}, "compress: GzipLevel 10 is out of range"},
		{Options{GzipLevel: -4}, "compress: GzipLevel -4 is out of range"},
		{Options{ZstdLevel: 5}, "compress: ZstdLevel 5 is out of range"},
		{Options{ZstdLevel: -1}, "compress: ZstdLevel -1 is out of range"},
		{Options{MinSize: -1}, "compress: MinSize -1 is negative"},
		{Options{ContentTypes: []string{"json"}}, `compress: ContentTypes: "json" is not a media type`},
		{Options{ContentTypes: []string{}}, "compress: ContentTypes is empty"},
		{Options{Encodings: []string{}}, "compress: Encodings is empty"},
		{Options{Encodings: []string{"br"}}, `compress: Encodings: unknown coding "br"`},
		{Options{Encodings: []string{"zstd", "gzip", "ZSTD"}}, `compress: Encodings: "ZSTD" is listed twice`},
	} {
		func() {
			defer func() {
				v := recover()
				if s, _ := v.(string); !strings.HasPrefix(s, tt.want) {
					t.Errorf("New(%+v): panic %v, want one that starts %q", tt.opts, v, tt.want)
				}
			}()
			New(&tt.opts)
		}()
	}
}

func TestZeroOptions(t *testing.T) {
	// nil, a zero Options and the defaults written out agree.
	for _, opts := range []*Options{nil, {}, {
		GzipLevel:    gzip.DefaultCompression,
		ZstdLevel:    zstd.SpeedDefault,
		MinSize:      1024,
		ContentTypes: defaultTypes,
		Encodings:    []string{"zstd", "gzip"},
	}} {
		c := newConfig(opts)
		if c.gzipLevel != gzip.DefaultCompression || c.zstdLevel != zstd.SpeedDefault || c.minSize != 1024 ||
			len(c.types) != len(defaultTypes) || !reflect.DeepEqual(c.prefs, []coding{zstdCoding, gzipCoding}) {
			t.Errorf("%+v: got config %+v", opts, c)
		}
	}
}
