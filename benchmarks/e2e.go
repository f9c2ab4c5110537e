package benchmarks

// This file drives a router end to end, over the loopback interface, to
// put its cost in proportion to everything else a request costs: the
// client, the kernel's TCP stack and net/http's parsing and writing.
//
// [LoadTest] serves a handler on 127.0.0.1 and sends it a closed-loop
// load: a fixed number of workers, each with its own keep-alive connection,
// each sending its next request as soon as the last one's response has been
// read. A shared counter hands out request numbers, so the run stops at
// exactly the requested count, and request k goes to target k modulo the
// number of targets, so that the run cycles through all of them whatever
// the scheduling. A timer stops the run early once its duration is up.
//
// It is written on the standard library rather than with a load generator
// such as vegeta: vegeta is an open-loop attacker paced at a fixed rate,
// which answers "what latency at this rate", whereas the question here is
// "how many requests per second, and at what latency, can this machine
// serve", which a closed loop answers; its module also requires some thirty
// others, Prometheus's among them, for what is a hundred lines here, and it
// summarises latencies with estimating histograms where sorting the exact
// values of a run is cheap.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// A Target is one request of a load test.
type Target struct {
	Method, Path string
}

// Targets returns, for each route, a request that it matches, as made by
// [Route.Request].
func Targets(routes []Route) []Target {
	ts := make([]Target, len(routes))
	for i, rt := range routes {
		path, _ := rt.Request()
		ts[i] = Target{Method: rt.Method, Path: path}
	}
	return ts
}

// LoadConfig bounds a [LoadTest]. Concurrency, MaxRequests and Duration
// are required: a run always ends.
type LoadConfig struct {
	Concurrency int           // workers, each with its own connection
	MaxRequests int           // requests to send in all, at most
	Duration    time.Duration // time to send them in, at most
	Warmup      int           // requests each worker sends before the clock starts, not counted
}

// LoadResult is what a [LoadTest] measured. Latencies run from sending a
// request to having read its whole response.
type LoadResult struct {
	Requests int           // requests answered with status 200
	Errors   int           // requests that failed or got another status
	Err      error         // the first of those errors, if any
	Elapsed  time.Duration // from the first request sent to the last response read
	RPS      float64       // Requests per second of Elapsed
	P50, P99 time.Duration // percentiles of the latencies of Requests
}

// String returns a one-line summary of r.
func (r LoadResult) String() string {
	return fmt.Sprintf("%d requests, %d errors in %v: %.0f req/s, p50 %v, p99 %v",
		r.Requests, r.Errors, r.Elapsed.Round(time.Millisecond), r.RPS, r.P50, r.P99)
}

// LoadTest serves h on a free port of 127.0.0.1 and sends it a closed-loop
// load of requests cycling through targets, with cfg.Concurrency workers,
// until cfg.MaxRequests requests have been sent or cfg.Duration has passed,
// whichever comes first. Requests still in flight when the duration is up
// are cancelled and counted neither as requests nor as errors. Each worker
// first sends cfg.Warmup requests, which open its connection and warm the
// handler; they are not counted, but one that fails fails the test.
//
// LoadTest returns an error if cfg is out of bounds, the server cannot
// start or stop, a warm-up request fails or ctx is done; requests that fail
// during the run are counted in the result instead. The server is shut
// down before LoadTest returns.
func LoadTest(ctx context.Context, h http.Handler, targets []Target, cfg LoadConfig) (res LoadResult, err error) {
	if cfg.Concurrency < 1 || cfg.MaxRequests < 1 || cfg.Duration <= 0 || cfg.Warmup < 0 || len(targets) == 0 {
		return res, fmt.Errorf("benchmarks: load test needs targets, Concurrency, MaxRequests and Duration above 0 and Warmup not below: got %d targets and %+v", len(targets), cfg)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return res, fmt.Errorf("benchmarks: load test: %w", err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	tr := &http.Transport{
		Proxy:               nil, // never through a proxy from the environment
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		MaxIdleConns:        cfg.Concurrency,
		MaxIdleConnsPerHost: cfg.Concurrency,
		MaxConnsPerHost:     cfg.Concurrency,
		IdleConnTimeout:     time.Minute,
		DisableCompression:  true,
	}
	defer func() {
		tr.CloseIdleConnections()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if e := srv.Shutdown(sctx); e != nil {
			err = errors.Join(err, fmt.Errorf("benchmarks: load test: shutting down: %w", e))
		}
		if e := <-served; e != http.ErrServerClosed {
			err = errors.Join(err, fmt.Errorf("benchmarks: load test: serving: %w", e))
		}
	}()

	run := &loadRun{
		client:  &http.Client{Transport: tr},
		base:    "http://" + ln.Addr().String(),
		targets: targets,
		max:     int64(cfg.MaxRequests),
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	if err := run.warmUp(runCtx, cfg); err != nil {
		return res, err
	}

	lats := make([][]time.Duration, cfg.Concurrency)
	for w := range lats {
		lats[w] = make([]time.Duration, 0, cfg.MaxRequests/cfg.Concurrency+64)
	}
	var wg sync.WaitGroup
	start := time.Now()
	timer := time.AfterFunc(cfg.Duration, func() {
		run.stop.Store(true)
		cancel()
	})
	defer timer.Stop()
	for w := range lats {
		wg.Go(func() { run.work(runCtx, &lats[w]) })
	}
	wg.Wait()
	res.Elapsed = time.Since(start)

	all := slices.Concat(lats...)
	slices.Sort(all)
	res.Requests = len(all)
	res.Errors = int(run.errors.Load())
	res.Err = run.firstErr()
	res.RPS = float64(res.Requests) / res.Elapsed.Seconds()
	res.P50, res.P99 = percentile(all, 50), percentile(all, 99)
	if err := ctx.Err(); err != nil {
		return res, fmt.Errorf("benchmarks: load test: %w", err)
	}
	return res, nil
}

// A loadRun is the state the workers of a [LoadTest] share.
type loadRun struct {
	client  *http.Client
	base    string // "http://127.0.0.1:port"
	targets []Target
	max     int64

	issued atomic.Int64 // request numbers handed out, including past max
	stop   atomic.Bool  // set when the duration is up
	errors atomic.Int64

	mu  sync.Mutex
	err error // the first request error
}

// warmUp has every worker's connection send cfg.Warmup requests, all
// workers at once so that each opens its own connection, and returns the
// first error.
func (run *loadRun) warmUp(ctx context.Context, cfg LoadConfig) error {
	errs := make([]error, cfg.Concurrency)
	var wg sync.WaitGroup
	for w := range errs {
		wg.Go(func() {
			for k := range cfg.Warmup {
				if _, errs[w] = run.send(ctx, w*cfg.Warmup+k); errs[w] != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("benchmarks: load test: warming up: %w", err)
	}
	return nil
}

// work sends requests until the run is over, appending the latency of each
// one answered with status 200 to *lats.
func (run *loadRun) work(ctx context.Context, lats *[]time.Duration) {
	for !run.stop.Load() && ctx.Err() == nil {
		k := run.issued.Add(1) - 1
		if k >= run.max {
			return
		}
		d, err := run.send(ctx, int(k))
		switch {
		case err == nil:
			*lats = append(*lats, d)
		case run.stop.Load() || ctx.Err() != nil:
			// Cut off by the end of the run: neither a request nor an error.
		default:
			run.fail(err)
		}
	}
}

// send sends request number k, to target k modulo the number of targets,
// and reads the whole response. It returns the time from sending to having
// read, and reports any failure, including a status other than 200, as an
// error.
func (run *loadRun) send(ctx context.Context, k int) (time.Duration, error) {
	t := run.targets[k%len(run.targets)]
	req, err := http.NewRequestWithContext(ctx, t.Method, run.base+t.Path, nil)
	if err != nil {
		return 0, fmt.Errorf("benchmarks: %s %s: %w", t.Method, t.Path, err)
	}
	t0 := time.Now()
	resp, err := run.client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("benchmarks: %s %s: %w", t.Method, t.Path, err)
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	d := time.Since(t0)
	switch {
	case err != nil:
		return d, fmt.Errorf("benchmarks: %s %s: reading the response: %w", t.Method, t.Path, err)
	case resp.StatusCode != http.StatusOK:
		return d, fmt.Errorf("benchmarks: %s %s: status %s", t.Method, t.Path, resp.Status)
	}
	return d, nil
}

// fail counts a request error and keeps it if it is the first.
func (run *loadRun) fail(err error) {
	run.errors.Add(1)
	run.mu.Lock()
	if run.err == nil {
		run.err = err
	}
	run.mu.Unlock()
}

// firstErr returns the first request error, or nil.
func (run *loadRun) firstErr() error {
	run.mu.Lock()
	defer run.mu.Unlock()
	return run.err
}

// percentile returns the p-th percentile (0 < p <= 100) of sorted by the
// nearest-rank method: the smallest value that at least p percent of the
// values do not exceed. It returns 0 for no values.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	return sorted[min(max(rank, 1), len(sorted))-1]
}
