package compress

// This file holds the encoders: how the filter makes them, with which
// settings, and how they write to the client.

import (
	"io"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// zstdWindow is the window of the zstd encoders: how far back a match may
// reach (RFC 9659 allows up to 8 MiB for HTTP). The library's default,
// 8 MiB, makes an encoder hold about 18 MB. With 128 KiB and
// WithLowerEncoderMem an encoder holds about 1.9 MB at SpeedDefault, most
// of it the level's match tables, which no option shrinks. On the JSON of
// the benchmarks it compresses as well as larger windows up to 128 KiB,
// and 1 MiB to 0.3% more than a 256 KiB window would (and 6% less than
// 64 KiB). A response of up to 128 KiB that is not flushed is then one
// block, which the encoder writes with no allocation; a longer or flushed
// one costs two small ones, for the frame header and the checksum, which
// the library writes through an interface.
const zstdWindow = 128 << 10

// An encoder is a *gzip.Writer or a *zstd.Encoder.
type encoder interface {
	Write(p []byte) (int, error)
	Flush() error
	Close() error
	Reset(w io.Writer)
}

// resetEncoder readies f.enc, making it if f has none, for a new stream
// to the client.
func (f *filter) resetEncoder() {
	if f.enc == nil {
		f.enc = f.c.newEncoder(f.coding)
	}
	f.enc.Reset((*sink)(f))
}

// newEncoder returns an encoder for cd, at c's level.
func (c *config) newEncoder(cd coding) encoder {
	switch cd {
	case gzipCoding:
		w, err := gzip.NewWriterLevel(nil, c.gzipLevel)
		if err != nil {
			panic("compress: " + err.Error()) // newConfig checked the level
		}
		return w
	case zstdCoding:
		e, err := zstd.NewWriter(nil,
			zstd.WithEncoderLevel(c.zstdLevel),
			// One goroutine, the handler's: no block is compressed
			// in the background, and none is left running.
			zstd.WithEncoderConcurrency(1),
			zstd.WithWindowSize(zstdWindow),
			// A history of window + block (256 KiB) rather than at
			// least 1 MiB.
			zstd.WithLowerEncoderMem(true),
			// A compressed response that is flushed but empty is
			// still a frame (the library's default, made explicit).
			zstd.WithZeroFrames(true),
		)
		if err != nil {
			panic("compress: " + err.Error()) // newConfig checked the level
		}
		return e
	}
	panic("compress: no encoder for " + cd.String())
}

// A sink is a filter seen as the io.Writer its encoder writes to: what it
// gets goes to the client.
type sink filter

// Write sends p to the client.
func (s *sink) Write(p []byte) (int, error) { return s.w.SendBody(p) }
