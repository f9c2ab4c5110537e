// Package compress is net/http middleware that compresses responses with
// zstd or gzip, whichever the client prefers, using the pure-Go encoders
// of github.com/klauspost/compress, pooled and reset for each response.
//
// It is a module of its own, github.com/cairn-go/cairn/compress, so that
// importing the router does not pull in the codecs.
//
//	r := cairn.New()
//	r.Use(compress.New(nil))
//
// [New] returns a plain func(http.Handler) http.Handler, so it works with
// any router. [Options] sets the levels, the minimum size, the media types
// and the codings offered; its zero value (or nil) is ready to use.
//
// # Negotiation
//
// The coding comes from the request's Accept-Encoding header, with its
// q-values: "x-gzip" counts as gzip, "*" stands for the codings the header
// does not name, "gzip;q=0" refuses gzip, and among codings of equal
// weight the server's order wins (zstd, then gzip, by default). A request
// without the header, or one that accepts neither coding, gets the body as
// it is: even with "identity;q=0", the response goes out uncompressed
// rather than as a 406. HEAD requests are never compressed, but get the
// header a GET would: Vary, and, if the GET would be compressed (as the
// Content-Length the handler sets, or the body it writes, tells),
// Content-Encoding, a weak ETag and no Content-Length; the body that the
// handler writes is then dropped, since net/http would count it into a
// Content-Length.
//
// # What is compressed
//
// A response is compressed when its Content-Type is in the allow-list and
// its body reaches MinSize (1024 bytes by default). The default list is
//
//	text/*  application/json  application/*+json  application/x-ndjson
//	application/javascript  application/xml  application/*+xml
//	application/wasm  image/svg+xml  font/ttf  font/otf
//
// which covers text/event-stream and application/graphql-response+json;
// it leaves out images other than SVG, audio, video, archives and
// application/octet-stream. A wildcard entry, such as application/*+json
// or */*, never takes in the types of gRPC, gRPC-Web and Connect streams
// (application/grpc+json, application/grpc-web+json,
// application/connect+json, ...): their messages carry their own
// compression, and gRPC has no content coding over HTTP. An entry that
// names one of them exactly does. A response is never compressed if its status
// has no body (1xx, 204, 304), if it is partial (206, or any response with
// Content-Range), if it already has a Content-Encoding, or if it answers
// CONNECT (a tunnel, over HTTP/1.1 or HTTP/2, has no content to code).
//
// The middleware holds up to MinSize bytes of the body before it decides,
// unless the Content-Length the handler set decides for it. A response
// that ends below MinSize is sent as it is, with its Content-Length if the
// handler set one. If the handler set no Content-Type, the middleware sets
// the one [http.DetectContentType] finds in the held bytes, as net/http
// would have (net/http would otherwise sniff the compressed bytes).
//
// # Header
//
// A response whose type is in the allow-list gets Vary: Accept-Encoding,
// compressed or not, unless Vary already names it (or is "*"). A
// compressed one gets Content-Encoding, loses Content-Length and
// Accept-Ranges, and its strong ETag becomes weak ("x" becomes W/"x"), as
// the body is no longer byte for byte the one the ETag names. A 304 gets
// the Vary and ETag of the 200 it confirms: Vary if its type is in the
// allow-list, and both Vary and the weak ETag if the client asks with the
// weak form of the handler's strong ETag (If-None-Match: W/"x"), which
// only compression makes. A 304 that tells neither goes as the handler
// made it.
//
// While the middleware holds a response that it may compress, the header
// is not sent either, even after the handler has called WriteHeader.
// Changes the handler makes to the header in that time are sent with it,
// where net/http ignores changes made after WriteHeader (gzhttp behaves
// as this package does). So the value of a trailer set then goes out in
// the header as well as in the trailer. A handler that sets trailers
// should flush after WriteHeader: the header then goes out as it is.
//
// # Streaming
//
// A flush ([http.Flusher] or [http.ResponseController]) sends the header
// and everything written so far, compressed if the type allows whatever
// its size, and flushes the encoder and the connection: server-sent events
// arrive one by one, compressed. Hijack and ReadFrom work through the
// middleware as well: a status the handler wrote before it hijacks the
// connection goes to the client first, uncompressed, with the header as
// the handler left it, as net/http sends it. Once the middleware has decided not to compress a
// response, it steps aside, and the handler writes to the ResponseWriter
// directly: a file that [http.FileServer] serves uncompressed (an image,
// or any file to a client that accepts neither coding), whose type and
// length the header gives, still goes out with sendfile.
//
// # Order
//
// The middleware takes its response writer from
// [github.com/cairn-go/cairn/middleware.Acquire], and so shares one pooled
// Writer with cairn's logger, recoverer and metrics. Put it inside them:
//
//	r.UseBeforeRouting(middleware.RequestID(nil))
//	r.Use(middleware.Logger(logger, nil), middleware.Recover(nil), compress.New(nil))
//
// The logger then records the status and the uncompressed size the
// handler wrote. When a handler panics, the middleware lets go of the
// response without sending anything, so Recover still answers 500 if
// nothing had gone to the client. One request is compressed once: under
// an outer compressor (a router's Use around a group's), an inner one
// passes the request through, and the outer one's options apply.
//
// # Allocations
//
// None per request once the pools are warm, for a response compressed or
// not, except one when a strong ETag becomes weak, one when the sniffed
// type is other than plain text or HTML, and, with zstd, two of 16 bytes
// or less for a response longer than 128 KiB or flushed (all asserted
// with [testing.AllocsPerRun]). The time per request, from go test -bench
// . -benchmem -count 3 (medians, on an Intel Xeon), with a handler that
// writes JSON in one call to a ResponseWriter that discards it:
//
//	4 KiB, gzip (to 644 bytes)     13.8 µs
//	4 KiB, zstd (to 532 bytes)     12.1 µs
//	64 KiB, gzip                    141 µs
//	64 KiB, zstd                    135 µs
//	100 bytes, below MinSize        300 ns
//	4 KiB, client accepts neither   170 ns
//	4 KiB, no middleware             23 ns
//
// Each response being compressed holds an encoder from a pool: about 1 MB
// for gzip at the default level, and 1.9 MB for zstd at SpeedDefault, with
// the 128 KiB window this package sets (the library's default of 8 MiB
// would take 18 MB). The pools are shared by every [New] with the same
// level, and let go of encoders that stay unused for two garbage
// collections, as any [sync.Pool] does.
//
// # Brotli
//
// There is no brotli. The pure-Go encoder tried,
// github.com/andybalholm/brotli v1.2.8, allocates nothing once reset, but
// it is slower for the same size. Timing the encoders alone on the 4 KiB
// JSON above, its quality 1 takes 18 µs for a body 20%
// larger than zstd's, and quality 4 takes 65 µs to match zstd's size
// (zstd: 12 µs); on 64 KiB, quality 1 matches zstd's size in 1.7 times
// zstd's time. Browsers that send br in Accept-Encoding also accept zstd
// or gzip.
package compress
