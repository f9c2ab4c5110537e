// Package testpb holds the messages and the Test service of the
// transcoder's tests, generated from test.proto.
package testpb

//go:generate sh -c "cd ../../../benchmarks && go run ./cmd/protogen -I ../transcode/internal/testpb -out ../transcode/internal/testpb -plugins go,go-grpc test.proto"
