module github.com/cairn-go/cairn

go 1.26.0
