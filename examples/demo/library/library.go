// Package library is the demo's library service: shelves of books, kept in
// memory, served over gRPC. The demo server transcodes it to HTTP/JSON
// under /v1/ from the rules in librarypb/library.proto.
package library

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cairn-go/cairn/examples/demo/library/librarypb"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// Server implements librarypb.LibraryServiceServer. It is safe for
// concurrent use.
type Server struct {
	librarypb.UnimplementedLibraryServiceServer

	mu      sync.Mutex         // guards the fields below
	shelves []*librarypb.Shelf // in the order they were created
	books   []*librarypb.Book  // in the order they were created
	nextID  int                // the next identifier the server may choose

	// Invariant: a stored message is never modified nor handed out; a
	// change stores a new one and callers receive clones.
}

// seeded is when the books a new library holds were added.
var seeded = time.Date(2026, time.January, 2, 15, 4, 5, 0, time.UTC)

// NewServer returns a library with two shelves and three books:
//
//	shelves/1 (fiction)  shelves/1/books/1  The Left Hand of Darkness, Ursula K. Le Guin
//	                     shelves/1/books/2  Invisible Cities, Italo Calvino
//	shelves/2 (poetry)   shelves/2/books/3  Ariel, Sylvia Plath
//
// Identifiers the server chooses continue from 4.
func NewServer() *Server {
	s := &Server{nextID: 4}
	s.shelves = []*librarypb.Shelf{{Name: "shelves/1", Theme: "fiction"}, {Name: "shelves/2", Theme: "poetry"}}
	s.books = []*librarypb.Book{
		{Name: "shelves/1/books/1", Title: "The Left Hand of Darkness", Author: "Ursula K. Le Guin"},
		{Name: "shelves/1/books/2", Title: "Invisible Cities", Author: "Italo Calvino"},
		{Name: "shelves/2/books/3", Title: "Ariel", Author: "Sylvia Plath"},
	}
	for _, b := range s.books {
		b.CreateTime = timestamppb.New(seeded)
	}
	return s
}

// Register registers s on gs as the LibraryService.
func (s *Server) Register(gs grpc.ServiceRegistrar) { librarypb.RegisterLibraryServiceServer(gs, s) }

// name returns prefix followed by want, or by the next numeric identifier
// for which taken reports false if want is empty. The caller checks that
// a wanted name is valid and free.
func (s *Server) name(prefix, want string, taken func(name string) bool) string {
	if want != "" {
		return prefix + want
	}
	for {
		s.nextID++
		if name := prefix + strconv.Itoa(s.nextID-1); !taken(name) {
			return name
		}
	}
}

// checkShelfName returns an InvalidArgument error unless name has the form
// shelves/{shelf}.
func checkShelfName(name string) error {
	parts := strings.Split(name, "/")
	if len(parts) != 2 || parts[0] != "shelves" || parts[1] == "" {
		return status.Errorf(codes.InvalidArgument, "%q is not the name of a shelf", name)
	}
	return nil
}

// checkBookName returns an InvalidArgument error unless name has the form
// shelves/{shelf}/books/{book}.
func checkBookName(name string) error {
	parts := strings.Split(name, "/")
	if len(parts) != 4 || parts[0] != "shelves" || parts[1] == "" || parts[2] != "books" || parts[3] == "" {
		return status.Errorf(codes.InvalidArgument, "%q is not the name of a book", name)
	}
	return nil
}

// shelf returns the index of the shelf named name.
func (s *Server) shelf(name string) (int, error) {
	if err := checkShelfName(name); err != nil {
		return 0, err
	}
	i := slices.IndexFunc(s.shelves, func(sh *librarypb.Shelf) bool { return sh.Name == name })
	if i < 0 {
		return 0, status.Errorf(codes.NotFound, "shelf %s not found", name)
	}
	return i, nil
}

// book returns the index of the book named name.
func (s *Server) book(name string) (int, error) {
	if err := checkBookName(name); err != nil {
		return 0, err
	}
	i := slices.IndexFunc(s.books, func(b *librarypb.Book) bool { return b.Name == name })
	if i < 0 {
		return 0, status.Errorf(codes.NotFound, "book %s not found", name)
	}
	return i, nil
}

// ListShelves returns every shelf.
func (s *Server) ListShelves(context.Context, *librarypb.ListShelvesRequest) (*librarypb.ListShelvesResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	resp := &librarypb.ListShelvesResponse{}
	for _, sh := range s.shelves {
		resp.Shelves = append(resp.Shelves, proto.CloneOf(sh))
	}
	return resp, nil
}

// CreateShelf adds a shelf.
func (s *Server) CreateShelf(_ context.Context, req *librarypb.CreateShelfRequest) (*librarypb.Shelf, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sh := proto.CloneOf(req.GetShelf())
	if sh == nil {
		sh = &librarypb.Shelf{}
	}
	sh.Name = s.name("shelves/", req.GetShelfId(), func(name string) bool {
		_, err := s.shelf(name)
		return err == nil
	})
	if err := checkShelfName(sh.Name); err != nil {
		return nil, err
	}
	if _, err := s.shelf(sh.Name); err == nil {
		return nil, status.Errorf(codes.AlreadyExists, "shelf %s already exists", sh.Name)
	}
	s.shelves = append(s.shelves, sh)
	return proto.CloneOf(sh), nil
}

// GetShelf returns a shelf.
func (s *Server) GetShelf(_ context.Context, req *librarypb.GetShelfRequest) (*librarypb.Shelf, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, err := s.shelf(req.GetName())
	if err != nil {
		return nil, err
	}
	return proto.CloneOf(s.shelves[i]), nil
}

// DeleteShelf deletes an empty shelf, or any shelf and its books with
// force.
func (s *Server) DeleteShelf(_ context.Context, req *librarypb.DeleteShelfRequest) (*emptypb.Empty, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, err := s.shelf(req.GetName())
	if err != nil {
		return nil, err
	}
	prefix := req.GetName() + "/books/"
	inside := func(b *librarypb.Book) bool { return strings.HasPrefix(b.Name, prefix) }
	if slices.ContainsFunc(s.books, inside) {
		if !req.GetForce() {
			return nil, status.Errorf(codes.FailedPrecondition, "shelf %s has books", req.GetName())
		}
		s.books = slices.DeleteFunc(s.books, inside)
	}
	s.shelves = slices.Delete(s.shelves, i, i+1)
	return &emptypb.Empty{}, nil
}

// ListBooks returns the books of a shelf, a page at a time.
func (s *Server) ListBooks(_ context.Context, req *librarypb.ListBooksRequest) (*librarypb.ListBooksResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.shelf(req.GetParent()); err != nil {
		return nil, err
	}
	start := 0
	if t := req.GetPageToken(); t != "" {
		n, err := strconv.Atoi(t)
		if err != nil || n < 0 {
			return nil, status.Errorf(codes.InvalidArgument, "invalid page token %q", t)
		}
		start = n
	}
	if req.GetPageSize() < 0 {
		return nil, status.Error(codes.InvalidArgument, "negative page size")
	}
	resp := &librarypb.ListBooksResponse{}
	n := 0
	for _, b := range s.books {
		if !strings.HasPrefix(b.Name, req.GetParent()+"/books/") {
			continue
		}
		n++
		if n <= start {
			continue
		}
		if size := int(req.GetPageSize()); size > 0 && len(resp.Books) == size {
			resp.NextPageToken = strconv.Itoa(n - 1)
			break
		}
		resp.Books = append(resp.Books, proto.CloneOf(b))
	}
	return resp, nil
}

// CreateBook adds a book to a shelf.
func (s *Server) CreateBook(_ context.Context, req *librarypb.CreateBookRequest) (*librarypb.Book, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.shelf(req.GetParent()); err != nil {
		return nil, err
	}
	b := proto.CloneOf(req.GetBook())
	if b == nil || b.Title == "" {
		return nil, status.Error(codes.InvalidArgument, "a book needs a title")
	}
	b.Name = s.name(req.GetParent()+"/books/", req.GetBookId(), func(name string) bool {
		_, err := s.book(name)
		return err == nil
	})
	if err := checkBookName(b.Name); err != nil {
		return nil, err
	}
	if _, err := s.book(b.Name); err == nil {
		return nil, status.Errorf(codes.AlreadyExists, "book %s already exists", b.Name)
	}
	b.CreateTime = timestamppb.Now()
	s.books = append(s.books, b)
	return proto.CloneOf(b), nil
}

// GetBook returns a book.
func (s *Server) GetBook(_ context.Context, req *librarypb.GetBookRequest) (*librarypb.Book, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, err := s.book(req.GetName())
	if err != nil {
		return nil, err
	}
	return proto.CloneOf(s.books[i]), nil
}

// UpdateBook changes the fields of a book that the mask names, or all that
// the request's book sets.
func (s *Server) UpdateBook(_ context.Context, req *librarypb.UpdateBookRequest) (*librarypb.Book, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, err := s.book(req.GetBook().GetName())
	if err != nil {
		return nil, err
	}
	paths := req.GetUpdateMask().GetPaths()
	if len(paths) == 0 {
		paths = setFields(req.GetBook())
	}
	if _, err := fieldmaskpb.New(req.GetBook(), paths...); err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "update_mask: %v", err)
	}
	b := proto.CloneOf(s.books[i])
	for _, p := range paths {
		switch p {
		case "title":
			b.Title = req.GetBook().GetTitle()
		case "author":
			b.Author = req.GetBook().GetAuthor()
		case "read":
			b.Read = req.GetBook().GetRead()
		case "name":
		default:
			return nil, status.Errorf(codes.InvalidArgument, "update_mask: %s cannot be updated", p)
		}
	}
	s.books[i] = b
	return proto.CloneOf(b), nil
}

// setFields returns the names of the fields that b sets.
func setFields(b *librarypb.Book) []string {
	var paths []string
	if b.GetTitle() != "" {
		paths = append(paths, "title")
	}
	if b.GetAuthor() != "" {
		paths = append(paths, "author")
	}
	if b.GetRead() {
		paths = append(paths, "read")
	}
	return paths
}

// DeleteBook deletes a book.
func (s *Server) DeleteBook(_ context.Context, req *librarypb.DeleteBookRequest) (*emptypb.Empty, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, err := s.book(req.GetName())
	if err != nil {
		return nil, err
	}
	s.books = slices.Delete(s.books, i, i+1)
	return &emptypb.Empty{}, nil
}

// MoveBook moves a book to another shelf, where it keeps its identifier.
// Moving a book to its own shelf leaves it there.
func (s *Server) MoveBook(_ context.Context, req *librarypb.MoveBookRequest) (*librarypb.Book, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, err := s.book(req.GetName())
	if err != nil {
		return nil, err
	}
	if _, err := s.shelf(req.GetOtherShelfName()); err != nil {
		return nil, err
	}
	id := req.GetName()[strings.LastIndexByte(req.GetName(), '/')+1:]
	name := fmt.Sprintf("%s/books/%s", req.GetOtherShelfName(), id)
	if name == req.GetName() {
		return proto.CloneOf(s.books[i]), nil
	}
	if _, err := s.book(name); err == nil {
		return nil, status.Errorf(codes.AlreadyExists, "book %s already exists", name)
	}
	b := proto.CloneOf(s.books[i])
	b.Name = name
	s.books[i] = b
	return proto.CloneOf(b), nil
}

// WatchBooks sends the books the shelf holds when it is called, up to
// limit (0: all of them), one message each, and ends; or stops early with
// the stream's context.
func (s *Server) WatchBooks(req *librarypb.WatchBooksRequest, stream grpc.ServerStreamingServer[librarypb.Book]) error {
	if req.GetLimit() < 0 {
		return status.Error(codes.InvalidArgument, "negative limit")
	}
	ctx := stream.Context()
	resp, err := s.ListBooks(ctx, &librarypb.ListBooksRequest{Parent: req.GetParent(), PageSize: req.GetLimit()})
	if err != nil {
		return err
	}
	for _, b := range resp.GetBooks() {
		if err := ctx.Err(); err != nil {
			return status.FromContextError(err).Err()
		}
		if err := stream.Send(b); err != nil {
			return err
		}
	}
	return nil
}

// Serve serves a new library over gRPC on a listener at addr (such as
// "127.0.0.1:0") and returns a connection to it, and a function that
// closes the connection and stops the server.
func Serve(addr string) (*grpc.ClientConn, func(), error) {
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	gs := grpc.NewServer()
	NewServer().Register(gs)
	go gs.Serve(lis)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		gs.Stop()
		return nil, nil, err
	}
	return conn, func() { conn.Close(); gs.Stop() }, nil
}
