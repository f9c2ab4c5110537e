//go:build !go1.27

package cairn_test

// serveMuxKeepsEscapes reports whether the running Go's net/http.ServeMux
// builds redirect locations from the escaped path, keeping its escapes. It
// does since Go 1.27; Go 1.26 builds them from the unescaped path, so that
// "%2F" becomes "/" and "%25" becomes "%2525", and reports the cleaned
// unescaped path as the pattern of a CONNECT redirect. cairn keeps the
// escapes on every Go version.
const serveMuxKeepsEscapes = false
