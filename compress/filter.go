package compress

// This file holds the filter, the [middleware.Filter] that compresses one
// response on its way from the shared [middleware.Writer] to the client.
//
// A filter holds the response until it knows enough to decide, then sends
// it compressed or as it is:
//
//	idle --WriteHeader--> holding --MinSize bytes, Flush or the end--> encoding, dropping or passing
//	idle --WriteHeader, when the header decides--> encoding, dropping or passing
//
// WriteHeader decides at once when the status and the header settle the
// matter: a status without a body (1xx, 204, 304), a partial answer (206,
// or any with Content-Range), a Content-Encoding already set, a
// Content-Type outside the allow-list or a client that accepts no coding
// rule compression out; a Content-Length decides by itself against
// MinSize. Otherwise the filter holds the status, the header map as it is,
// and up to MinSize bytes of body. Given a handler that sets Content-Type
// application/json and writes 300 bytes, then 900, the filter holds the
// 300, takes 724 of the 900 to reach 1024, decides to compress, edits the
// header, sends it, and feeds the 1024 bytes and then the other 176 to the
// encoder, which writes to the client as its blocks fill. Had the handler
// returned after the 300, the filter would have sent them as they were.
// Without a Content-Type, the filter holds at least 512 bytes (or the
// whole response, if shorter), to sniff the type from them as net/http
// would, before it decides. A Flush while holding decides at once, and
// compresses whatever the size if the type allows, so that a stream of
// server-sent events is compressed and still arrives event by event.
//
// A filter that passes the body through steps aside once it has sent the
// header (see send); the Writer then writes to the client directly. The
// response to a HEAD request that a GET would get compressed is dropping:
// it gets the header of the compressed response, and the filter drops the
// body the handler writes.
//
// Invariant: the filter changes the header map only in send, in the step
// that sends it. So while it holds a response the map is the handler's,
// and Reset, which the Writer calls only before anything is sent, has
// nothing to undo.

import (
	"net/http"
	"sync"

	"github.com/cairn-go/cairn/middleware"
)

// sniffLen is the number of bytes [http.DetectContentType] looks at.
const sniffLen = 512

// A state is where a filter is in a response; see the top of the file.
type state uint8

const (
	idle     state = iota // no status yet
	holding               // status, header and up to limit bytes held
	passing               // header sent; the body goes as it is
	encoding              // header sent with Content-Encoding; the body goes through enc
	dropping              // header sent with Content-Encoding for a HEAD; the body is dropped
)

// String returns the state's name.
func (s state) String() string {
	switch s {
	case idle:
		return "idle"
	case holding:
		return "holding"
	case passing:
		return "passing"
	case encoding:
		return "encoding"
	case dropping:
		return "dropping"
	}
	return "state(?)"
}

// A filter compresses one response at a time; it comes from a pool and
// goes back to it. See the top of the file.
type filter struct {
	w      *middleware.Writer
	c      *config
	coding coding      // what the client accepts: identity for none
	head   bool        // the request is a HEAD: a compressed response only gets the header
	reqHdr http.Header // the request's header, whose If-None-Match tells what a 304 confirms
	state  state
	code   int    // the status, from holding on
	limit  int    // how many body bytes to hold before deciding
	buf    []byte // the held body; once decided, scratch for WriteString

	old  middleware.Filter // the Writer's filter before f, put back when f is done
	enc  encoder           // for coding, made when first needed; kept across responses
	pool *sync.Pool        // where f goes back: the pool for its coding and level
	done bool              // finish returned: f ended its response without a panic
}

// start readies f for a response to r, written to w, with the coding cd,
// and makes it w's filter.
func (f *filter) start(c *config, cd coding, w *middleware.Writer, r *http.Request) {
	f.w, f.c, f.coding = w, c, cd
	f.head, f.reqHdr = r.Method == http.MethodHead, r.Header
	f.old = w.SetFilter(f)
	f.limit = c.minSize
	if cd == identity {
		// Holding is only to sniff the type, to know whether to add Vary;
		// WriteHeader raises the limit to sniffLen for a response without
		// a type, and sends any other at once.
		f.limit = min(c.minSize, sniffLen)
	}
	// Invariant: cap(f.buf) >= max(f.limit, sniffLen), so holding never
	// grows buf, and WriteString has scratch space.
	if n := max(f.limit, sniffLen); cap(f.buf) < n {
		f.buf = make([]byte, 0, n)
	}
}

// WriteHeader receives the handler's status, and decides at once if the
// status or the header settles whether to compress.
func (f *filter) WriteHeader(code int) {
	if f.state != idle {
		return
	}
	f.code, f.state = code, holding
	h := f.w.Header()
	ct, typed := h["Content-Type"]
	allowed := len(ct) > 0 && f.c.allowType(ct[0])
	switch {
	case hasValue(h, "Content-Encoding"):
		f.send(false, false) // the handler encoded the body itself
	case code == http.StatusNotModified:
		f.sendNotModified(allowed)
	case code < 200 || code == http.StatusNoContent:
		f.send(false, false) // no body
	case code == http.StatusPartialContent, hasValue(h, "Content-Range"):
		f.send(allowed, false) // a range of the uncompressed body
	case typed && (!allowed || f.coding == identity):
		f.send(allowed, false)
	case typed:
		// Optimization: a response that gives its length need not be
		// held to be measured.
		if n, ok := contentLength(h); ok {
			f.send(true, n >= int64(f.c.minSize))
		}
	default:
		// Without a type, hold as many bytes as net/http sniffs one
		// from, however many writes they come in.
		f.limit = max(f.limit, sniffLen)
	}
}

// Write holds p, or sends it on, compressed or not.
func (f *filter) Write(p []byte) (int, error) {
	if f.state == idle {
		f.WriteHeader(http.StatusOK) // not from a Writer, which sends the status first
	}
	if f.state != holding {
		return f.write(p)
	}
	n, full := hold(f, p)
	if !full {
		return n, nil
	}
	if err := f.decide(false); err != nil {
		return 0, err
	}
	m, err := f.write(p[n:])
	return n + m, err
}

// WriteString is Write for a string, without the conversion to []byte
// that the Writer would otherwise make, which allocates.
func (f *filter) WriteString(s string) (int, error) {
	if f.state == idle {
		f.WriteHeader(http.StatusOK)
	}
	n := 0
	if f.state == holding {
		var full bool
		if n, full = hold(f, s); !full {
			return n, nil
		}
		if err := f.decide(false); err != nil {
			return 0, err
		}
		s = s[n:]
	}
	// Optimization: the string goes through buf, empty once the filter
	// has decided, in pieces of its capacity.
	for s != "" {
		k := copy(f.buf[:cap(f.buf)], s)
		m, err := f.write(f.buf[:k])
		n += m
		if err != nil {
			return n, err
		}
		s = s[k:]
	}
	return n, nil
}

// hold appends to f.buf as much of p as f holds before it decides, and
// returns how much that was and whether f must decide now.
func hold[T string | []byte](f *filter, p T) (n int, full bool) {
	n = min(len(p), f.limit-len(f.buf))
	f.buf = append(f.buf, p[:n]...)
	return n, len(f.buf) >= f.limit
}

// Flush sends the header and what the encoder holds. While holding, it
// decides first, and compresses if the type allows whatever the size.
func (f *filter) Flush() error {
	switch f.state {
	case idle:
		return nil
	case holding:
		if err := f.decide(true); err != nil {
			return err
		}
	}
	if f.state == encoding {
		return f.enc.Flush()
	}
	return nil
}

// Detach sends what f holds as it is, for a handler that takes the
// connection over (see [middleware.Filter]): the header, uncompressed and
// as the handler left it, then the held body (up to MinSize bytes), which
// net/http buffers too and drops when the connection is hijacked: the
// server drops at most its buffer's last partial 2 KiB, while f's held
// bytes reach its buffer before the hijack, so the client may get more of
// a body written before a hijack than without f. The handler writes the
// rest to the connection itself, so none of it is compressed. The Writer calls Detach only while f holds the
// header; in any other state it does nothing.
func (f *filter) Detach() error {
	if f.state != holding {
		return nil
	}
	return f.send(false, false)
}

// Reset forgets the response, which the Writer starts over. See the
// invariant at the top of the file: there are no header changes to undo.
func (f *filter) Reset() {
	f.state, f.code = idle, 0
	f.buf = f.buf[:0]
}

// finish ends the response once the handler has returned: it sends a
// response it still holds, compressed if it reached MinSize (one without a
// type is held up to sniffLen bytes), or writes the end of the compressed
// stream. The error is the client's connection's,
// and there is no one left to tell.
func (f *filter) finish() error {
	var err error
	if !f.w.Hijacked() { // else the connection is the handler's
		if f.state == holding {
			// A response without a type, held to be sniffed, may reach
			// MinSize before its end: then it is compressed now.
			err = f.decide(false)
		}
		if err == nil && f.state == encoding {
			err = f.enc.Close()
		}
	}
	f.done = true
	return err
}

// release removes f from its Writer, putting back the filter it replaced,
// and returns f to its pool. It is deferred, so it runs when the handler
// panics too, and it sends nothing. A filter that did not finish, because
// of a panic, is dropped rather than reused: the panic may have left its
// encoder halfway through a call, and a fresh filter costs only an
// allocation.
func (f *filter) release() {
	f.w.SetFilter(f.old)
	if !f.done {
		return
	}
	*f = filter{buf: f.buf[:0], enc: f.enc, pool: f.pool}
	f.pool.Put(f)
}

// decide ends holding: it sets the Content-Type from the held bytes if
// the handler set none, then sends the response compressed if its type
// allows and it has reached MinSize (or whatever its size, on a flush),
// and as it is otherwise.
func (f *filter) decide(flush bool) error {
	h := f.w.Header()
	ct, typed := h["Content-Type"]
	if !typed && len(f.buf) > 0 {
		// Before compressing, or net/http would sniff compressed bytes.
		ct = sniff(f.buf)
		h["Content-Type"] = ct
	}
	allowed := len(ct) > 0 && f.c.allowType(ct[0])
	compress := allowed && f.coding != identity && (flush || len(f.buf) >= f.c.minSize)
	return f.send(allowed, compress)
}

// send edits the header of a response that varies with Accept-Encoding
// (vary) and that f compresses (compress), sends it, and sends the held
// body after it. The response to a HEAD request gets the header that
// compression gives, as the response to a GET would, and no encoder: its
// body, which net/http would not send, is dropped here, or net/http would
// count it, when short, into a Content-Length of the uncompressed body.
func (f *filter) send(vary, compress bool) error {
	h := f.w.Header()
	if vary {
		addVary(h)
	}
	f.state = passing
	if compress {
		setEncoded(h, f.coding)
		if f.head {
			f.state = dropping
		} else {
			f.resetEncoder()
			f.state = encoding
		}
	}
	f.w.SendHeader(f.code)
	var err error
	if len(f.buf) > 0 {
		_, err = f.write(f.buf)
		f.buf = f.buf[:0]
	}
	if f.state == passing {
		// Optimization: a filter that passes the body through steps
		// aside, so that the Writer writes straight to the
		// ResponseWriter under it, and its ReadFrom reaches net/http's,
		// which sends files with sendfile. An image, or a response to a
		// client that wants it uncompressed, then costs nothing more.
		f.w.SetFilter(f.old)
	}
	return err
}

// sendNotModified sends a 304 with the Vary and ETag that its 200 would
// have had (RFC 9110, section 15.4.5), from what f knows of that 200. A
// type in the allow-list tells that it had Vary. Whether it was compressed,
// and so had a weak ETag, only the client tells, by asking with the weak
// form of the handler's strong ETag, which only compression makes; and
// then it had Vary too, whatever the 304's type. A 304 otherwise
// goes as the handler made it, since adding Vary to the response that a
// cache has stored, or taking it away, would change how the cache keys it.
func (f *filter) sendNotModified(allowed bool) {
	h := f.w.Header()
	compressed := false
	if et, inm := h["Etag"], f.reqHdr["If-None-Match"]; len(et) > 0 && len(inm) > 0 && hasWeakTag(inm[0], et[0]) {
		compressed = weakenETag(h)
	}
	f.send(allowed || compressed, false)
}

// write sends p on, once f has decided.
func (f *filter) write(p []byte) (int, error) {
	switch {
	case len(p) == 0:
		return 0, nil
	case f.state == encoding:
		return f.enc.Write(p)
	case f.state == dropping:
		return len(p), nil
	}
	return f.w.SendBody(p)
}
