package middleware_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/cairn-go/cairn"
	"github.com/cairn-go/cairn/middleware"
)

// The serving path of a cairn Router: an ID for every request before
// routing, then an access log record and recovery after it.
func Example() {
	// A logger without the time and duration, so the output is stable.
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey || a.Key == "duration" || a.Key == "stack" {
				return slog.Attr{}
			}
			return a
		},
	}))

	r := cairn.New()
	r.UseBeforeRouting(middleware.RequestID(nil))
	r.Use(middleware.Logger(logger, nil), middleware.Recover(&middleware.RecoverOptions{Logger: logger}))
	r.HandleFunc("GET /items/{id}", func(w http.ResponseWriter, req *http.Request) {
		io.WriteString(w, "item "+cairn.Param(req, "id"))
	})
	r.HandleFunc("GET /broken", func(w http.ResponseWriter, req *http.Request) {
		panic("nil map")
	})

	for _, path := range []string{"/items/7", "/broken"} {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("X-Request-Id", "req-"+path[1:3])
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, req)
		fmt.Println(rec.Code, rec.Header().Get("X-Request-Id"))
	}
	// Output:
	// level=INFO msg=request method=GET path=/items/7 pattern="GET /items/{id}" status=200 bytes=6 request_id=req-it remote=192.0.2.1:1234
	// 200 req-it
	// level=ERROR msg="panic serving request" panic="nil map" method=GET path=/broken pattern="GET /broken" request_id=req-br answered=true
	// level=INFO msg=request method=GET path=/broken pattern="GET /broken" status=500 bytes=22 request_id=req-br remote=192.0.2.1:1234
	// 500 req-br
}
