module github.com/cairn-go/cairn/compress

go 1.26.0

replace github.com/cairn-go/cairn => ../

require (
	github.com/cairn-go/cairn v0.0.0
	github.com/klauspost/compress v1.20.3
)
