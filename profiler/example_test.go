package profiler_test

import (
	"fmt"
	"net/http/httptest"

	"github.com/cairn-go/cairn"
	"github.com/cairn-go/cairn/profiler"
)

// The profiles sit behind the admin group's authentication.
func ExampleRegister() {
	r := cairn.New()
	admin := r.Group("/admin", requireToken)
	profiler.Register(admin, "/debug/pprof")

	for _, token := range []bool{false, true} {
		req := httptest.NewRequest("GET", "/admin/debug/pprof/goroutine?debug=1", nil)
		if token {
			req.Header.Set("Authorization", "Bearer secret")
		}
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, req)
		fmt.Println(rec.Code, req.Pattern)
	}
	// Output:
	// 401 GET /admin/debug/pprof/{profile}
	// 200 GET /admin/debug/pprof/{profile}
}
