package main

// sampleOutput is synthetic output of go test -bench -benchmem -v, as
// benchreport saves it: its description of the run first. Medians:
//
//	Single/static:  cairn 12.5 ns (10 11 12 13 14 100), servemux 50 ns,
//	                cairn-pathvalue 20 ns, httprouter 10 ns, chi 100 ns
//	Single/param1:  cairn 30 ns, servemux 150 ns, cairn-pathvalue 40 ns,
//	                httprouter 25 ns, chi 300 ns
//	Constraints:    cairn 100 ns, gorilla 1.5 µs, httprouter skipped
//	Growth/static:  routes=10, routes=1000; cairn 20 → 30 ns, httprouter 15 → 15 ns
//	Register/static: routes=100, routes=10000; cairn 200 → 150 B/route,
//	                httprouter 100 → 120 B/route
//	EndToEnd/github: cairn 20 µs, 50000 req/s; chi 25 µs, 40000 req/s
const sampleOutput = `# benchreport command: go test -run '^$' -bench . -benchmem -count 1 -benchtime 1s -timeout 0 -cpu 1 -v .
# benchreport passes: 6
# benchreport date: 2026-01-02 15:04 UTC
# benchreport cpu: Test CPU @ 3.0GHz
# benchreport cores: 2
# benchreport memory: 8.00 GiB
# benchreport os: Test Linux, Linux 6.1.0, amd64
# benchreport go: go1.26.0
# benchreport cairn: abc1234
# benchreport module: httprouter github.com/julienschmidt/httprouter v1.3.0
# benchreport module: chi github.com/go-chi/chi/v5 v5.5.0
goos: linux
goarch: amd64
pkg: github.com/cairn-go/cairn/benchmarks
cpu: Test CPU @ 3.0GHz
BenchmarkSingle
BenchmarkSingle/static
BenchmarkSingle/static/router=cairn
BenchmarkSingle/static/router=cairn         	100000000	        10.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkSingle/static/router=cairn         	100000000	        11.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkSingle/static/router=cairn         	100000000	        12.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkSingle/static/router=cairn         	100000000	        13.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkSingle/static/router=cairn         	100000000	        14.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkSingle/static/router=cairn         	100000000	       100.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkSingle/static/router=cairn-pathvalue
BenchmarkSingle/static/router=cairn-pathvalue	100000000	        20.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkSingle/static/router=cairn-pathvalue	100000000	        20.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkSingle/static/router=servemux
BenchmarkSingle/static/router=servemux      	 20000000	        50.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkSingle/static/router=servemux      	 20000000	        50.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkSingle/static/router=httprouter
BenchmarkSingle/static/router=httprouter    	100000000	        10.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkSingle/static/router=httprouter    	100000000	        10.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkSingle/static/router=chi
BenchmarkSingle/static/router=chi           	 10000000	       100.0 ns/op	      64 B/op	       1 allocs/op
BenchmarkSingle/static/router=chi           	 10000000	       100.0 ns/op	      64 B/op	       1 allocs/op
BenchmarkSingle/param1
BenchmarkSingle/param1/router=cairn         	 50000000	        30.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkSingle/param1/router=cairn         	 50000000	        30.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkSingle/param1/router=cairn-pathvalue	 50000000	        40.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkSingle/param1/router=cairn-pathvalue	 50000000	        40.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkSingle/param1/router=servemux      	  8000000	       150.0 ns/op	      16 B/op	       1 allocs/op
BenchmarkSingle/param1/router=servemux      	  8000000	       150.0 ns/op	      16 B/op	       1 allocs/op
BenchmarkSingle/param1/router=httprouter    	 50000000	        25.00 ns/op	      32 B/op	       1 allocs/op
BenchmarkSingle/param1/router=httprouter    	 50000000	        25.00 ns/op	      32 B/op	       1 allocs/op
BenchmarkSingle/param1/router=chi           	  4000000	       300.0 ns/op	     400 B/op	       2 allocs/op
BenchmarkSingle/param1/router=chi           	  4000000	       300.0 ns/op	     400 B/op	       2 allocs/op
BenchmarkConstraints
BenchmarkConstraints/router=cairn
BenchmarkConstraints/router=cairn           	 10000000	       100.0 ns/op	       0 B/op	       0 allocs/op
BenchmarkConstraints/router=cairn           	 10000000	       100.0 ns/op	       0 B/op	       0 allocs/op
BenchmarkConstraints/router=httprouter
    constraints_test.go:31: benchmarks: the router cannot express these routes: GET /users/{id:[0-9]+}
--- SKIP: BenchmarkConstraints/router=httprouter
BenchmarkConstraints/router=gorilla
BenchmarkConstraints/router=gorilla         	  1000000	      1500 ns/op	    1024 B/op	       8 allocs/op
BenchmarkConstraints/router=gorilla         	  1000000	      1500 ns/op	    1024 B/op	       8 allocs/op
BenchmarkGrowth/static/routes=10/router=cairn      	50000000	        20.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkGrowth/static/routes=10/router=cairn      	50000000	        20.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkGrowth/static/routes=10/router=httprouter 	50000000	        15.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkGrowth/static/routes=10/router=httprouter 	50000000	        15.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkGrowth/static/routes=1000/router=cairn    	50000000	        30.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkGrowth/static/routes=1000/router=cairn    	50000000	        30.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkGrowth/static/routes=1000/router=httprouter	50000000	        15.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkGrowth/static/routes=1000/router=httprouter	50000000	        15.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkRegister/static/routes=100/router=cairn   	   10000	    100000 ns/op	       200.0 B/route	   30000 B/op	     300 allocs/op
BenchmarkRegister/static/routes=100/router=cairn   	   10000	    100000 ns/op	       200.0 B/route	   30000 B/op	     300 allocs/op
BenchmarkRegister/static/routes=100/router=httprouter	   10000	    100000 ns/op	       100.0 B/route	   20000 B/op	     200 allocs/op
BenchmarkRegister/static/routes=100/router=httprouter	   10000	    100000 ns/op	       100.0 B/route	   20000 B/op	     200 allocs/op
BenchmarkRegister/static/routes=10000/router=cairn 	     100	  10000000 ns/op	       150.0 B/route	 3000000 B/op	   30000 allocs/op
BenchmarkRegister/static/routes=10000/router=cairn 	     100	  10000000 ns/op	       150.0 B/route	 3000000 B/op	   30000 allocs/op
BenchmarkRegister/static/routes=10000/router=httprouter	     100	  10000000 ns/op	       120.0 B/route	 2000000 B/op	   20000 allocs/op
BenchmarkRegister/static/routes=10000/router=httprouter	     100	  10000000 ns/op	       120.0 B/route	 2000000 B/op	   20000 allocs/op
BenchmarkEndToEnd/github/router=cairn      	   50000	     20000 ns/op	     50000 req/s	     18000 p50-ns	     40000 p99-ns	    5000 B/op	      40 allocs/op
BenchmarkEndToEnd/github/router=cairn      	   50000	     20000 ns/op	     50000 req/s	     18000 p50-ns	     40000 p99-ns	    5000 B/op	      40 allocs/op
BenchmarkEndToEnd/github/router=chi        	   40000	     25000 ns/op	     40000 req/s	     22000 p50-ns	     50000 p99-ns	    6000 B/op	      50 allocs/op
BenchmarkEndToEnd/github/router=chi        	   40000	     25000 ns/op	     40000 req/s	     22000 p50-ns	     50000 p99-ns	    6000 B/op	      50 allocs/op
PASS
ok  	github.com/cairn-go/cairn/benchmarks	42.000s
`
