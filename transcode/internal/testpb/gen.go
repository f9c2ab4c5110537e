// Package testpb holds the messages and the Test service of the
// transcoder's tests, generated from test.proto.
//
// Regenerate test.pb.go and test_grpc.pb.go after changing test.proto with
//
//	go generate ./internal/testpb
//
// from the transcode directory; it runs the benchmarks module's protogen,
// which needs no protoc.
package testpb

//go:generate sh -c "cd ../../../benchmarks && go run ./cmd/protogen -I ../transcode/internal/testpb -go_out=../transcode/internal/testpb -go-grpc_out=../transcode/internal/testpb test.proto"
