// Package librarypb holds the messages and the LibraryService of the
// demo's library, generated from library.proto.
package librarypb

//go:generate sh -c "cd ../../../../benchmarks && go run ./cmd/protogen -I ../examples/demo/library/librarypb -out ../examples/demo/library/librarypb -plugins go,go-grpc library.proto"
