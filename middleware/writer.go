package middleware

// This file holds the response writer that the middleware of this package,
// and cairn's compress and metrics packages, share.
//
// Logging and metrics need the status and the size of a response, recovery
// needs to know whether anything went to the client, and compression must
// see the body before it goes. Each would otherwise wrap the ResponseWriter
// in its own type, so a request through all of them would pass three
// wrappers, each allocated per request. Instead the first of them to see a
// request takes a Writer from a pool with [Acquire] and the others find it:
// Acquire returns the same Writer when it is handed one. The one that took
// it releases it when the request is done.
//
// Invariant: a Writer is used by one request at a time, from the
// goroutine(s) its handler writes from, as any ResponseWriter is.

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"sync"
)

// A Writer is an [http.ResponseWriter] that records what the handler sent:
// the status code and the number of body bytes. It may hold a [Filter]
// that rewrites the body on its way to the client, as compression does.
//
// A Writer keeps the optional interfaces of the ResponseWriter under it
// reachable: it has Flush, FlushError, Hijack and ReadFrom methods, and
// Unwrap, so [http.ResponseController] works through it. Flush and Hijack
// report [http.ErrNotSupported] (FlushError, Hijack) when the writer under
// it cannot do them. A middleware hands the handlers after it
// [Writer.ResponseWriter], which has no Flush method where the writer
// under it cannot flush, so that their check for an [http.Flusher] says
// whether flushing works, as it does without the Writer.
type Writer struct {
	rw       http.ResponseWriter
	filter   Filter
	status   int   // the final status code the handler sent, or 0
	written  int64 // body bytes the handler wrote
	sent     bool  // the header went to rw
	hijacked bool

	// The request ID, and the response header that carries it, set when
	// the header is sent; see RequestID.
	id      string
	idKey   string
	idValue []string
}

var writerPool = sync.Pool{New: func() any { return new(Writer) }}

// Acquire returns w as a *Writer. If w is one, or the view of one that
// [Writer.ResponseWriter] hands on, Acquire returns that Writer and owned
// is false: a middleware further out took it, and will release it. Pass
// the handlers wr.ResponseWriter(), not wr itself, so that they see
// [http.Flusher] only where a flush works.
// Otherwise Acquire returns a Writer from a pool around w, and owned is
// true: the caller must call [Writer.Release] once the handlers it passes
// the Writer to have returned, and must not use the Writer after that.
//
// A middleware of another kind between two of these (otelhttp, a
// compressor of another package) hides the outer Writer behind its own
// wrapper, so the inner one is another Writer; if the wrapper has an
// Unwrap method, the inner Writer still takes the request ID of the outer.
//
// Acquire allocates nothing once the pool is warm.
func Acquire(w http.ResponseWriter) (wr *Writer, owned bool) {
	if wr := asWriter(w); wr != nil {
		return wr, false
	}
	wr = writerPool.Get().(*Writer)
	wr.rw = w
	for u := w; ; {
		uw, ok := u.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			break
		}
		u = uw.Unwrap()
		if outer := asWriter(u); outer != nil {
			wr.id, wr.idKey, wr.idValue = outer.id, outer.idKey, outer.idValue
			break
		}
	}
	return wr, true
}

// asWriter returns w as a *Writer, if it is one or a Writer's view
// without Flush, or nil.
func asWriter(w http.ResponseWriter) *Writer {
	switch t := w.(type) {
	case *Writer:
		return t
	case *noFlushWriter:
		return (*Writer)(t)
	}
	return nil
}

// ResponseWriter returns w as the ResponseWriter to hand to the handlers
// after the middleware that acquired it: w itself, or, if the
// ResponseWriter under w cannot flush (an [http.TimeoutHandler] around the
// server's handler, or a wrapper that has no Flush and no Unwrap), w
// without its Flush method. Handlers commonly ask a ResponseWriter whether
// it is an [http.Flusher] before they stream, and a Writer's Flush does
// nothing where flushing is not supported; without it, they learn that
// as they would without the Writer. [Acquire] takes either back as w.
//
// Allocation: none.
func (w *Writer) ResponseWriter() http.ResponseWriter {
	if flusher(w.rw) == nil {
		return (*noFlushWriter)(w)
	}
	return w
}

// A noFlushWriter is a Writer without its Flush and FlushError methods,
// which [Writer.ResponseWriter] hands on where the writer under it cannot
// flush. It has every other method of a Writer that a handler or
// [http.ResponseController] looks for; the controller's Flush unwraps it
// to the writer under it, and fails there, as it would without the Writer.
type noFlushWriter Writer

func (v *noFlushWriter) Header() http.Header                 { return (*Writer)(v).Header() }
func (v *noFlushWriter) WriteHeader(code int)                { (*Writer)(v).WriteHeader(code) }
func (v *noFlushWriter) Write(p []byte) (int, error)         { return (*Writer)(v).Write(p) }
func (v *noFlushWriter) WriteString(s string) (int, error)   { return (*Writer)(v).WriteString(s) }
func (v *noFlushWriter) ReadFrom(r io.Reader) (int64, error) { return (*Writer)(v).ReadFrom(r) }
func (v *noFlushWriter) Unwrap() http.ResponseWriter         { return v.rw }
func (v *noFlushWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return (*Writer)(v).Hijack()
}

// Release returns w to the pool. Only the caller that Acquire told it owns w
// may release it.
func (w *Writer) Release() {
	*w = Writer{}
	writerPool.Put(w)
}

// Header returns the header map of the ResponseWriter under w.
func (w *Writer) Header() http.Header { return w.rw.Header() }

// WriteHeader records code and sends it, through the filter if w has one.
// Informational codes (1xx other than 101) go straight to the client and
// are not recorded; a second final code is ignored, as net/http ignores it,
// and so is any code once the connection is hijacked.
func (w *Writer) WriteHeader(code int) {
	if w.hijacked {
		// As net/http: the connection is the handler's now.
		return
	}
	if code >= 100 && code <= 199 && code != http.StatusSwitchingProtocols {
		w.rw.WriteHeader(code)
		return
	}
	if w.status != 0 {
		return
	}
	w.status = code
	if w.filter != nil {
		w.filter.WriteHeader(code)
		return
	}
	w.SendHeader(code)
}

// SendHeader sends code to the client. It is for a [Filter], which
// decides when the header goes; handlers call WriteHeader.
func (w *Writer) SendHeader(code int) {
	w.setIDHeader()
	w.rw.WriteHeader(code) // panics for an invalid code: then nothing was sent
	w.sent = true
}

// setIDHeader sets the response's request ID header, if RequestID gave w
// one. It sets rather than adds, so that a proxy that copies an upstream's
// echo of the same ID into the response does not send it twice.
func (w *Writer) setIDHeader() {
	if w.idKey != "" {
		w.rw.Header()[w.idKey] = w.idValue
	}
}

// SendBody writes p to the client. It is for a [Filter]; handlers call
// Write. The filter must have sent the header first.
func (w *Writer) SendBody(p []byte) (int, error) { return w.rw.Write(p) }

// SendString is SendBody for a string.
func (w *Writer) SendString(s string) (int, error) { return io.WriteString(w.rw, s) }

// Write writes p as part of the body, after sending the status 200 if the
// handler sent none. Once the connection is hijacked, it writes nothing,
// records nothing, and returns [http.ErrHijacked], as net/http does.
func (w *Writer) Write(p []byte) (int, error) {
	if w.hijacked {
		return 0, http.ErrHijacked
	}
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	w.written += int64(len(p))
	if w.filter != nil {
		return w.filter.Write(p)
	}
	return w.rw.Write(p)
}

// WriteString is Write for a string, so that [io.WriteString] need not
// copy it, unless w has a filter that is not an [io.StringWriter].
func (w *Writer) WriteString(s string) (int, error) {
	if w.hijacked {
		return 0, http.ErrHijacked
	}
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	w.written += int64(len(s))
	switch f := w.filter.(type) {
	case nil:
		return io.WriteString(w.rw, s)
	case io.StringWriter:
		return f.WriteString(s)
	default:
		return f.Write([]byte(s))
	}
}

// ReadFrom copies src into the body. Without a filter it hands src to the
// ResponseWriter under w when that is an [io.ReaderFrom], so net/http can
// use sendfile for files. As with net/http, the status 200 goes only with
// the first bytes of src, so that a handler whose copy fails before any
// arrive can still answer with another status (502, say).
func (w *Writer) ReadFrom(src io.Reader) (int64, error) {
	if w.hijacked {
		return 0, http.ErrHijacked
	}
	var n int64
	if w.status == 0 {
		k, done, err := w.copyFirst(src)
		if done {
			return k, err
		}
		n = k
	}
	var m int64
	var err error
	if rf, ok := w.rw.(io.ReaderFrom); ok && w.filter == nil {
		m, err = rf.ReadFrom(src)
	} else if rf, ok := w.filter.(io.ReaderFrom); ok {
		m, err = rf.ReadFrom(src)
	} else {
		// Optimization: bodyWriter hides ReadFrom, so io.CopyBuffer does
		// not come back here, and is a pointer, so the conversion to
		// io.Writer allocates nothing; the buffer is pooled.
		buf := copyBuffers.Get().(*[]byte)
		m, err = io.CopyBuffer((*bodyWriter)(w), src, *buf)
		copyBuffers.Put(buf)
		return n + m, err // bodyWriter counted the bytes
	}
	w.written += m
	return n + m, err
}

// copyFirst reads src until it yields bytes, ends or fails, and writes
// what it yields with Write, which sends the header first. done reports
// that src ended or failed, or that writing failed: ReadFrom is then over.
// It reads at most sniffLen bytes, as net/http's ReadFrom does before it
// hands the rest of src to the connection.
func (w *Writer) copyFirst(src io.Reader) (n int64, done bool, err error) {
	buf := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(buf)
	p := (*buf)[:sniffLen]
	for {
		k, rerr := src.Read(p)
		if k > 0 {
			m, werr := w.Write(p[:k])
			switch {
			case werr != nil:
				return int64(m), true, werr
			case rerr == io.EOF:
				return int64(m), true, nil
			}
			return int64(m), rerr != nil, rerr
		}
		if rerr == io.EOF {
			return 0, true, nil
		}
		if rerr != nil {
			return 0, true, rerr
		}
	}
}

// sniffLen is how many bytes copyFirst reads, the number net/http sniffs
// a Content-Type from.
const sniffLen = 512

// copyBuffers holds the buffers of ReadFrom.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// A bodyWriter is a Writer seen only as an io.Writer.
type bodyWriter Writer

func (b *bodyWriter) Write(p []byte) (int, error) { return (*Writer)(b).Write(p) }

// FlushError sends what is buffered to the client: the header (status 200
// if the handler sent none), what the filter holds, and what the
// ResponseWriter under w holds. It returns [http.ErrNotSupported], and
// sends nothing, if that ResponseWriter cannot flush.
func (w *Writer) FlushError() error {
	f := flusher(w.rw)
	if f == nil {
		return http.ErrNotSupported
	}
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if w.filter != nil {
		if err := w.filter.Flush(); err != nil {
			return err
		}
	}
	switch t := f.(type) {
	case interface{ FlushError() error }:
		return t.FlushError()
	default:
		t.(http.Flusher).Flush()
		return nil
	}
}

// flusher returns rw, or the ResponseWriter it unwraps to, that has a
// flush method, as [http.ResponseController] looks for one, or nil if no
// flush through rw reaches a writer that can flush. A Writer, which a
// wrapper of another kind may hand on between two middleware, is the one
// to flush through, but flushes only if the writer under it does, so the
// search looks through it.
func flusher(rw http.ResponseWriter) http.ResponseWriter {
	var through http.ResponseWriter // the first Writer on the way, if any
	for {
		switch t := rw.(type) {
		case *Writer:
			if through == nil {
				through = rw
			}
			rw = t.rw
		case interface{ FlushError() error }, http.Flusher:
			if through != nil {
				return through
			}
			return rw
		case interface{ Unwrap() http.ResponseWriter }:
			rw = t.Unwrap()
		default:
			return nil
		}
	}
}

// Flush is FlushError for callers that use [http.Flusher].
func (w *Writer) Flush() { _ = w.FlushError() }

// Hijack hands the connection over to the caller, as [http.Hijacker]
// does, if the ResponseWriter under w can. As with net/http, a status the
// handler wrote before goes to the client first: if w's filter still
// holds it, the filter sends it, with any body it holds, as they are (see
// [Filter]).
func (w *Writer) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h := hijacker(w.rw)
	if h == nil {
		return nil, nil, http.ErrNotSupported
	}
	if w.filter != nil && w.status != 0 && !w.sent {
		var err error
		if d, ok := w.filter.(interface{ Detach() error }); ok {
			err = d.Detach()
		} else {
			err = w.filter.Flush()
		}
		if err != nil {
			return nil, nil, err
		}
	}
	c, rw, err := h.Hijack()
	if err == nil {
		w.hijacked = true
	}
	return c, rw, err
}

// hijacker returns rw, or the ResponseWriter it unwraps to, that can
// hijack, as [http.ResponseController] looks for one, or nil.
func hijacker(rw http.ResponseWriter) http.Hijacker {
	for {
		switch t := rw.(type) {
		case http.Hijacker:
			return t
		case interface{ Unwrap() http.ResponseWriter }:
			rw = t.Unwrap()
		default:
			return nil
		}
	}
}

// Unwrap returns the ResponseWriter under w, for [http.ResponseController].
func (w *Writer) Unwrap() http.ResponseWriter { return w.rw }

// Status returns the status code of the response: the code the handler
// sent, or 200 if it sent none (net/http sends 200 for a handler that
// writes nothing), or 0 if the connection was hijacked before any was sent.
func (w *Writer) Status() int {
	if w.status == 0 && !w.hijacked {
		return http.StatusOK
	}
	return w.status
}

// Written returns the number of body bytes the handler wrote, before any
// filter (such as compression) changed them.
func (w *Writer) Written() int64 { return w.written }

// Sent reports whether the header has gone to the client. Until then the
// response can still be started over.
func (w *Writer) Sent() bool { return w.sent }

// Hijacked reports whether the handler took the connection over.
func (w *Writer) Hijacked() bool { return w.hijacked }

// RequestID returns the ID the [RequestID] middleware gave the request,
// or "" if it did not run.
func (w *Writer) RequestID() string { return w.id }

// SetFilter makes f the filter the body passes through, and returns the
// filter it replaces. Set it before the handler writes, and put the old one
// back (usually nil) when the handler has returned; a filter of nil sends
// the body as the handler writes it. A filter may also take itself out
// earlier, once it has sent the header and would pass the rest of the body
// on unchanged.
func (w *Writer) SetFilter(f Filter) (old Filter) {
	old, w.filter = w.filter, f
	return old
}

// Filter returns the filter w holds, or nil.
func (w *Writer) Filter() Filter { return w.filter }

// restart forgets the response so far, so that another can be written in
// its place, and reports whether it could: it cannot once the header has
// gone to the client.
func (w *Writer) restart() bool {
	if w.sent || w.hijacked {
		return false
	}
	if w.filter != nil {
		w.filter.Reset()
	}
	w.status, w.written = 0, 0
	return true
}

// A Filter rewrites a response body on its way from a [Writer] to the
// client; cairn's compress package is one. The Writer calls it from the
// handler's goroutine, in this order: WriteHeader once per response, with
// the handler's final status code; then Write and Flush any number of
// times; after Reset, the same again for the response that replaces the
// first. The filter decides when the header goes to the client, with
// [Writer.SendHeader], and sends the body with [Writer.SendBody] or
// [Writer.SendString]. Whoever installs the filter ends the body once the
// handler returns (a compressor writes its trailer), unless the handler
// hijacked the connection ([Writer.Hijacked]), and removes the filter with
// [Writer.SetFilter]. A filter may implement [io.StringWriter] and
// [io.ReaderFrom]; the Writer uses them when it has them. It may also have
// a method Detach() error, which the Writer calls when the handler
// hijacks the connection while the filter holds the header: it sends the
// header as the handler left it, and the body the filter holds, unchanged,
// since what the handler sends after that does not pass through the
// filter. A filter without it gets a Flush instead.
type Filter interface {
	// WriteHeader receives the handler's status code. The filter may
	// change the header map before it sends the code.
	WriteHeader(code int)
	// Write receives body bytes, and reports len(p) unless sending fails.
	Write(p []byte) (int, error)
	// Flush sends everything the filter holds: the header, if it is still
	// held, and the body so far.
	Flush() error
	// Reset drops the header and the body the filter holds and has not
	// sent, so that the response can be started over; the Writer calls it
	// only while nothing has gone to the client.
	Reset()
}
