//go:build go1.27

package cairn_test

// serveMuxKeepsEscapes: see servemux_go126_test.go.
const serveMuxKeepsEscapes = true
