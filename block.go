package cairn

import "unsafe"

// This file holds block, which hands out the values that registering a
// route makes before the router serves, from arrays of many.

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
// route, 24 bytes, and only for routes that share a path.
type block[T any] struct {
	free  []T // what is left of the current array
	bytes int // the size of the last array, in bytes
}

// The sizes of the arrays that blocks allocate, in bytes: from
// minBlockBytes, twice as large as the last, up to maxBlockBytes, so that
// a router of a few routes keeps few values unused, and one of many, a
// few hundred at most. Both are size classes of the Go allocator, as are
// the sizes between them.
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
		b.bytes = min(max(2*b.bytes, minBlockBytes), maxBlockBytes)
		b.free = make([]T, blockLen(b.bytes, int(unsafe.Sizeof(*new(T)))))
	}
	v := &b.free[0]
	b.free = b.free[1:]
	return v
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
