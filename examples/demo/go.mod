module github.com/cairn-go/cairn/examples/demo

go 1.26.0

replace (
	github.com/cairn-go/cairn => ../..
	github.com/cairn-go/cairn/compress => ../../compress
	github.com/cairn-go/cairn/metrics => ../../metrics
	github.com/cairn-go/cairn/transcode => ../../transcode
)

require (
	github.com/cairn-go/cairn v0.0.0
	github.com/cairn-go/cairn/compress v0.0.0
	github.com/cairn-go/cairn/metrics v0.0.0
	github.com/cairn-go/cairn/transcode v0.0.0
	github.com/klauspost/compress v1.20.3
	github.com/prometheus/client_golang v1.25.0
	google.golang.org/genproto/googleapis/api v0.0.0-20261026165753-2ffab32bce7e
	google.golang.org/grpc v1.85.0
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/beorn7/perks v1.0.1 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/munnerz/goautoneg v0.0.0-20191010083416-a7dc8b61c822 // indirect
	github.com/prometheus/client_model v0.6.3 // indirect
	github.com/prometheus/common v0.72.0 // indirect
	github.com/prometheus/procfs v0.22.0 // indirect
	golang.org/x/net v0.60.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/text v0.42.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20261026165753-2ffab32bce7e // indirect
)
