package metrics_test

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/cairn-go/cairn"
	"github.com/cairn-go/cairn/metrics"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Example measures a cairn Router and serves the metrics on it. The
// middleware is added with Use, so it labels every answer of the router,
// its 404s included, with the matched pattern; the scrape itself is counted
// once it is over, so it is in flight in its own exposition.
func Example() {
	reg := prometheus.NewRegistry()
	r := cairn.New()
	r.Use(metrics.New(&metrics.Options{Registerer: reg}))
	r.HandleFunc("GET /users/{id}", func(w http.ResponseWriter, req *http.Request) {
		fmt.Fprintf(w, "user %s\n", cairn.Param(req, "id"))
	})
	r.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))

	srv := httptest.NewServer(r)
	defer srv.Close()
	for _, target := range []string{"/users/1", "/users/2", "/users/3", "/nope", "/nope/again"} {
		resp, err := http.Get(srv.URL + target)
		if err != nil {
			panic(err)
		}
		resp.Body.Close()
	}

	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "http_server_requests_total{") ||
			strings.HasPrefix(line, "http_server_request_duration_seconds_count{") ||
			strings.HasPrefix(line, "http_server_requests_in_flight ") {
			fmt.Println(line)
		}
	}
	// Output:
	// http_server_request_duration_seconds_count{method="GET",route="GET /users/{id}",status="2xx"} 3
	// http_server_request_duration_seconds_count{method="GET",route="unmatched",status="4xx"} 2
	// http_server_requests_in_flight 1
	// http_server_requests_total{method="GET",route="GET /users/{id}",status="2xx"} 3
	// http_server_requests_total{method="GET",route="unmatched",status="4xx"} 2
}
