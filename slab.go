package cairn

// This file holds slab, which hands out the values that registering a
// route makes before the router serves, from arrays of many.

import "unsafe"

// A slab allocates values of type T from arrays, one after the other.
// The zero value is ready to use.
//
// Optimization: registering a route makes four values that live as long
// as the router (its identity, the route, a node and a leaf); allocated one
// by one, they cost a fifth of the instructions that registering a static
// route runs. A value from a slab keeps the whole array it is in alive, so
// slabs serve only the changes made before the router serves, which modify
// the table in place (see change) and drop almost nothing they make: a
// node's leaf is made again when a route is added to it, and the first
// one is dropped, which wastes at most one leaf, 24 bytes, per route that
// shares its path with another; and a registration that fails after its
// pattern parsed drops its identity. Once the router serves, a change
// copies the nodes it modifies (see change.own), and an original stays in
// its array while another value there is in use: what that keeps is
// bounded by the nodes made before the router served.
type slab[T any] struct {
	free []T // what is left of the current array
	made int // the values of all the arrays so far
}

// maxSlabBytes is the size of the largest array a slab allocates. An
// array is the largest of the allocator's size classes below that is at
// most a quarter of the bytes of the values made so far, so that the
// values left unused are at most a quarter of those in use; while that is
// less than the smallest size class that holds two values, the array
// holds one, so that a router of one route keeps nothing unused.
const maxSlabBytes = 3072

// slabClasses are the allocator's size classes that slabs use, largest
// first.
var slabClasses = [...]int{maxSlabBytes, 2048, 1024, 512, 256, 128, 64}

// mallocHeader is the room the Go allocator takes in an object larger
// than 512 bytes that holds pointers, for its type; an array that filled
// its size class to the last byte would be given the next class up.
const mallocHeader = 8

// new returns a new zero value from b.
func (b *slab[T]) new() *T {
	if len(b.free) == 0 {
		n := slabLen(b.made*int(unsafe.Sizeof(*new(T)))/4, int(unsafe.Sizeof(*new(T))))
		b.free = make([]T, n)
		b.made += n
	}
	v := &b.free[0]
	b.free = b.free[1:]
	return v
}

// slabLen returns the number of values of size bytes in the array to
// allocate for a slab that may leave want bytes unused: as many as the
// largest size class of slabClasses that is at most want holds, or one.
func slabLen(want, size int) int {
	for _, c := range slabClasses {
		if c <= want {
			if c > 512 {
				c -= mallocHeader
			}
			return max(c/size, 1)
		}
	}
	return 1
}

// slabs are the slabs of a router, for the values that registering makes
// before it serves; see slab.
type slabs struct {
	idents slab[ident]
	routes slab[route]
	nodes  slab[lookupNode]
	leaves slab[leaf]
}

// ident, route, node and leaf return a new zero value from s, or, if s is
// nil (the router serves), one allocated alone.
func (s *slabs) ident() *ident {
	if s == nil {
		return new(ident)
	}
	return s.idents.new()
}

func (s *slabs) route() *route {
	if s == nil {
		return new(route)
	}
	return s.routes.new()
}

func (s *slabs) node() *lookupNode {
	if s == nil {
		return new(lookupNode)
	}
	return s.nodes.new()
}

func (s *slabs) leaf() *leaf {
	if s == nil {
		return new(leaf)
	}
	return s.leaves.new()
}
