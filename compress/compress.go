package compress

// This file holds the options, their checks, and the middleware's entry
// point, which picks a coding for each request and lends the response a
// filter from a pool.

import (
	"fmt"
	"net/http"
	"sync"

	"github.com/cairn-go/cairn/middleware"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// Options configures [New]. The zero value is ready to use, and so is a
// nil *Options: every field left at its zero value takes its default.
type Options struct {
	// GzipLevel is the gzip compression level: from gzip.BestSpeed (1) to
	// gzip.BestCompression (9), or gzip.DefaultCompression,
	// gzip.HuffmanOnly or gzip.StatelessCompression, all from
	// github.com/klauspost/compress/gzip. 0 means gzip.DefaultCompression
	// (there is no level that stores without compressing: leave gzip out
	// of Encodings instead).
	GzipLevel int

	// ZstdLevel is the zstd compression level, from zstd.SpeedFastest to
	// zstd.SpeedBestCompression, of github.com/klauspost/compress/zstd;
	// zstd.EncoderLevelFromZstd maps the reference library's numeric
	// levels to these. 0 means zstd.SpeedDefault, which compares with
	// the reference library's level 3.
	ZstdLevel zstd.EncoderLevel

	// MinSize is the size in bytes from which a response is compressed:
	// a smaller one is sent as the handler wrote it. 0 means 1024; 1
	// compresses every response that has a body. The middleware holds up
	// to MinSize bytes of each response (in a buffer that it reuses)
	// before it decides, unless the handler flushes first.
	MinSize int

	// ContentTypes lists the media types that are compressed, such as
	// "application/json", "text/*" (any subtype of text) or
	// "application/*+json" (any subtype with that suffix); "*/*" allows
	// every type. Matching ignores case and the parameters of the
	// response's Content-Type. nil means the default list (see the
	// package documentation), which holds text and structured data but
	// no images other than SVG, no audio, video, archives or
	// application/octet-stream. An empty list is an error.
	ContentTypes []string

	// Encodings lists the codings offered, "zstd" and "gzip", in the
	// server's order of preference: of the codings a client accepts with
	// the same q-value, the first listed wins. A coding left out is never
	// used. nil means {"zstd", "gzip"}; an empty list is an error.
	Encodings []string
}

// defaultMinSize is MinSize when Options leaves it 0.
const defaultMinSize = 1024

// defaultEncodings are the codings offered when Options.Encodings is nil:
// zstd compresses better and faster than gzip (see the package
// documentation), so it comes first.
var defaultEncodings = []coding{zstdCoding, gzipCoding}

// A config is a checked Options, shared by the handlers of one [New].
type config struct {
	gzipLevel int
	zstdLevel zstd.EncoderLevel
	minSize   int
	types     []mediaRange
	prefs     []coding // the codings offered, best first

	// pools holds the filters for each coding, and so for each level; the
	// pools are the package's, shared with the configs of other New calls
	// with the same levels.
	pools [numCodings]*sync.Pool
}

// Pools of filters, each holding an encoder for one coding and level, so
// that configs with the same level share them. A filter from one of these
// never holds an encoder of another level.
var (
	plainPool sync.Pool                                                       // filters without an encoder
	gzipPools [gzip.BestCompression - gzip.StatelessCompression + 1]sync.Pool // by level - StatelessCompression
	zstdPools [zstd.SpeedBestCompression + 1]sync.Pool                        // by level
)

// newConfig checks opts and returns them with the defaults filled in. It
// panics as New documents.
func newConfig(opts *Options) *config {
	var o Options
	if opts != nil {
		o = *opts
	}
	c := &config{gzipLevel: o.GzipLevel, zstdLevel: o.ZstdLevel, minSize: o.MinSize}
	if c.gzipLevel == 0 {
		c.gzipLevel = gzip.DefaultCompression
	}
	if c.gzipLevel < gzip.StatelessCompression || c.gzipLevel > gzip.BestCompression {
		panic(fmt.Sprintf("compress: GzipLevel %d is out of range: want %d to %d", o.GzipLevel, gzip.StatelessCompression, gzip.BestCompression))
	}
	if c.zstdLevel == 0 {
		c.zstdLevel = zstd.SpeedDefault
	}
	if c.zstdLevel < zstd.SpeedFastest || c.zstdLevel > zstd.SpeedBestCompression {
		panic(fmt.Sprintf("compress: ZstdLevel %d is out of range: want zstd.SpeedFastest (%d) to zstd.SpeedBestCompression (%d)", o.ZstdLevel, zstd.SpeedFastest, zstd.SpeedBestCompression))
	}
	switch {
	case c.minSize == 0:
		c.minSize = defaultMinSize
	case c.minSize < 0:
		panic(fmt.Sprintf("compress: MinSize %d is negative", o.MinSize))
	}

	types := o.ContentTypes
	switch {
	case types == nil:
		types = defaultTypes
	case len(types) == 0:
		panic("compress: ContentTypes is empty: list media types, or leave it nil for the defaults")
	}
	for _, s := range types {
		m, err := parseMediaRange(s)
		if err != nil {
			panic("compress: ContentTypes: " + err.Error())
		}
		c.types = append(c.types, m)
	}

	if o.Encodings == nil {
		c.prefs = defaultEncodings
	} else {
		if len(o.Encodings) == 0 {
			panic("compress: Encodings is empty: list \"zstd\", \"gzip\" or both, or leave it nil")
		}
		for _, s := range o.Encodings {
			cd, ok := parseCoding(s)
			if !ok {
				panic(fmt.Sprintf("compress: Encodings: unknown coding %q: want \"zstd\" or \"gzip\"", s))
			}
			for _, prev := range c.prefs {
				if prev == cd {
					panic(fmt.Sprintf("compress: Encodings: %q is listed twice", s))
				}
			}
			c.prefs = append(c.prefs, cd)
		}
	}

	c.pools[identity] = &plainPool
	c.pools[gzipCoding] = &gzipPools[c.gzipLevel-gzip.StatelessCompression]
	c.pools[zstdCoding] = &zstdPools[c.zstdLevel]
	return c
}

// New returns middleware that compresses responses with zstd or gzip,
// whichever the client's Accept-Encoding header prefers, when their
// Content-Type is in opts.ContentTypes and they are at least
// opts.MinSize bytes long; see the package documentation for the rules.
// A nil opts means the defaults.
//
// New panics with a message that starts with "compress: " if a level is
// out of range, MinSize is negative, ContentTypes is empty or holds a
// malformed media type, or Encodings is empty, names a coding twice or
// one other than "zstd" and "gzip".
//
// Allocation: none per request once the pools are warm, but in the cases
// the package documentation lists.
func New(opts *Options) func(http.Handler) http.Handler {
	c := newConfig(opts)
	return func(next http.Handler) http.Handler {
		return &handler{c: c, next: next}
	}
}

// A handler compresses the responses of next.
type handler struct {
	c    *config
	next http.Handler
}

// ServeHTTP serves r with h.next through a filter that compresses the
// response if it should.
//
// Allocation: see New.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	wr, owned := middleware.Acquire(w)
	if owned {
		defer wr.Release()
	}
	if wr.Filter() != nil || r.Method == http.MethodConnect {
		// Another filter has the body (a compressor further out), or
		// there is no body to compress: a 2xx to CONNECT is a tunnel,
		// whose bytes, once hijacked or over HTTP/2, are not content.
		h.next.ServeHTTP(wr.ResponseWriter(), r)
		return
	}
	cd := negotiate(r.Header["Accept-Encoding"], h.c.prefs)
	f := h.c.getFilter(cd, wr, r)
	// Invariant: release runs whether next returns or panics, and only
	// detaches f; it never sends. So after a panic, a recoverer further
	// out finds the Writer as it was before, and can still answer 500 if
	// f had sent nothing.
	defer f.release()
	h.next.ServeHTTP(wr.ResponseWriter(), r)
	f.finish()
}

// getFilter returns a filter from the pool for cd, installed in w for the
// response to r.
func (c *config) getFilter(cd coding, w *middleware.Writer, r *http.Request) *filter {
	p := c.pools[cd]
	f, _ := p.Get().(*filter)
	if f == nil {
		f = &filter{pool: p}
	}
	f.start(c, cd, w, r)
	return f
}
