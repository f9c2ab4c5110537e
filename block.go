package cairn

// This file holds block, which hands out the values that registering a
// route makes before the router serves, from arrays of many.

import "unsafe"

// A block allocates values of type T from arrays, one after the other.
// The zero value is ready to use.
//
// Optimization: registering a route makes four values that live as long
// as the router (its identity, the route, a node and a leaf); allocated one
// by one, they cost a fifth of the instructions that registering a static
// route runs. A value from a block keeps the whole array it is in alive,
// so blocks serve only the changes made before the router serves, which
// never drop what they make (they modify the table in place, see change),
// with one exception: a node's leaf is made again when a route is added
// to it, and its first one is dropped. That wastes at most one leaf per
// route, 24 bytes, and only for routes that share a path. Once the router
// serves, a change copies the nodes it modifies (see change.own), and an
// original stays in its array while another value there is in use: what
// that keeps is bounded by the nodes made before the router served.
type block[T any] struct {
	free []T // what is left of the current array
	made int // the values of all the arrays so far
}

// The sizes of the arrays that blocks allocate, in bytes: a size class of
// the Go allocator, from minBlockBytes to maxBlockBytes, the largest not
// above a quarter of the bytes of the values made so far, so that the
// values left unused in the last array are at most a quarter of those in
// use, or minBlockBytes.
const (
	minBlockBytes = 256
	maxBlockBytes = 3072
)

// mallocHeader is the room the Go allocator takes in an object larger
// than 512 bytes that holds pointers, for its type; an array that filled
// its size class to the last byte would be given the next class up.
const mallocHeader = 8

// new returns a new zero value from b.
func (b *block[T]) new() *T {
	if len(b.free) == 0 {
		size := int(unsafe.Sizeof(*new(T)))
		n := blockLen(blockBytes(b.made*size/4), size)
		b.free = make([]T, n)
		b.made += n
	}
	v := &b.free[0]
	b.free = b.free[1:]
	return v
}

// blockBytes returns the size of the array to allocate for a block that
// wants about want bytes: the size class of the allocator, between
// minBlockBytes and maxBlockBytes, at most want if one is.
func blockBytes(want int) int {
	for _, c := range [...]int{maxBlockBytes, 2048, 1024, 512} {
		if want >= c {
			return c
		}
	}
	return minBlockBytes
}

// blockLen returns the number of values of size bytes that an array
// allocated in the size class of the given bytes holds.
func blockLen(bytes, size int) int {
	if bytes > 512 {
		bytes -= mallocHeader
	}
	return max(bytes/size, 1)
}

// blocks are the blocks of a router, for the values that registering
// makes before it serves; see block.
type blocks struct {
	idents block[ident]
	routes block[route]
	nodes  block[lookupNode]
	leaves block[leaf]
}
