// Package librarypb holds the messages and the LibraryService of the
// demo's library, generated from library.proto.
//
// Regenerate library.pb.go and library_grpc.pb.go after changing
// library.proto with
//
//	go generate ./library/librarypb
//
// from the examples/demo directory; it runs the benchmarks module's
// protogen, which needs no protoc. benchmarks/internal/librarygw holds
// grpc-gateway's handler for the same file: regenerate it too.
package librarypb

//go:generate sh -c "cd ../../../../benchmarks && go run ./cmd/protogen -I ../examples/demo/library/librarypb -go_out=../examples/demo/library/librarypb -go-grpc_out=../examples/demo/library/librarypb library.proto"
