package library

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"sync"
	"testing"

	"github.com/cairn-go/cairn/examples/demo/library/librarypb"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
)

// newClient serves a new library over gRPC on loopback for the duration
// of the test and returns a client of it.
func newClient(tb testing.TB) librarypb.LibraryServiceClient {
	tb.Helper()
	conn, stop, err := Serve("127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(stop)
	return librarypb.NewLibraryServiceClient(conn)
}

// names returns the names of books.
func names(books []*librarypb.Book) []string {
	var out []string
	for _, b := range books {
		out = append(out, b.GetName())
	}
	return out
}

// watch calls WatchBooks and returns the names of the books it sent and
// the error that ended the stream, nil for its normal end.
func watch(ctx context.Context, c librarypb.LibraryServiceClient, req *librarypb.WatchBooksRequest) ([]string, error) {
	stream, err := c.WatchBooks(ctx, req)
	if err != nil {
		return nil, err
	}
	var got []string
	for {
		b, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return got, nil
		}
		if err != nil {
			return got, err
		}
		got = append(got, b.GetName())
	}
}

// TestSeed checks the shelves and books a new library holds.
func TestSeed(t *testing.T) {
	c := newClient(t)
	ctx := t.Context()
	shelves, err := c.ListShelves(ctx, &librarypb.ListShelvesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	want := &librarypb.ListShelvesResponse{Shelves: []*librarypb.Shelf{
		{Name: "shelves/1", Theme: "fiction"},
		{Name: "shelves/2", Theme: "poetry"},
	}}
	if !proto.Equal(shelves, want) {
		t.Errorf("ListShelves: got %v, want %v", shelves, want)
	}
	for shelf, want := range map[string][]string{
		"shelves/1": {"shelves/1/books/1", "shelves/1/books/2"},
		"shelves/2": {"shelves/2/books/3"},
	} {
		resp, err := c.ListBooks(ctx, &librarypb.ListBooksRequest{Parent: shelf})
		if err != nil {
			t.Fatal(err)
		}
		if got := names(resp.GetBooks()); !slices.Equal(got, want) || resp.GetNextPageToken() != "" {
			t.Errorf("ListBooks(%q): got %q (next %q), want %q", shelf, got, resp.GetNextPageToken(), want)
		}
	}
	b, err := c.GetBook(ctx, &librarypb.GetBookRequest{Name: "shelves/1/books/1"})
	if err != nil {
		t.Fatal(err)
	}
	if b.GetTitle() != "The Left Hand of Darkness" || b.GetAuthor() != "Ursula K. Le Guin" || !b.GetCreateTime().AsTime().Equal(seeded) {
		t.Errorf("GetBook(shelves/1/books/1): got %v", b)
	}
}

// TestErrors calls every method with requests it must refuse.
func TestErrors(t *testing.T) {
	c := newClient(t)
	for _, tt := range []struct {
		name string
		call func(context.Context, librarypb.LibraryServiceClient) error
		want codes.Code
	}{
		{"CreateShelf taken", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.CreateShelf(ctx, &librarypb.CreateShelfRequest{ShelfId: "1"})
			return err
		}, codes.AlreadyExists},
		{"CreateShelf bad id", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.CreateShelf(ctx, &librarypb.CreateShelfRequest{ShelfId: "a/b"})
			return err
		}, codes.InvalidArgument},
		{"GetShelf missing", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.GetShelf(ctx, &librarypb.GetShelfRequest{Name: "shelves/9"})
			return err
		}, codes.NotFound},
		{"GetShelf bad name", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.GetShelf(ctx, &librarypb.GetShelfRequest{Name: "shelves/1/books/1"})
			return err
		}, codes.InvalidArgument},
		{"GetShelf empty name", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.GetShelf(ctx, &librarypb.GetShelfRequest{})
			return err
		}, codes.InvalidArgument},
		{"DeleteShelf with books", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.DeleteShelf(ctx, &librarypb.DeleteShelfRequest{Name: "shelves/1"})
			return err
		}, codes.FailedPrecondition},
		{"DeleteShelf missing", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.DeleteShelf(ctx, &librarypb.DeleteShelfRequest{Name: "shelves/9", Force: true})
			return err
		}, codes.NotFound},
		{"ListBooks missing shelf", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.ListBooks(ctx, &librarypb.ListBooksRequest{Parent: "shelves/9"})
			return err
		}, codes.NotFound},
		{"ListBooks bad parent", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.ListBooks(ctx, &librarypb.ListBooksRequest{Parent: "shelf/1"})
			return err
		}, codes.InvalidArgument},
		{"ListBooks bad token", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.ListBooks(ctx, &librarypb.ListBooksRequest{Parent: "shelves/1", PageToken: "x"})
			return err
		}, codes.InvalidArgument},
		{"ListBooks negative size", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.ListBooks(ctx, &librarypb.ListBooksRequest{Parent: "shelves/1", PageSize: -1})
			return err
		}, codes.InvalidArgument},
		{"CreateBook taken", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.CreateBook(ctx, &librarypb.CreateBookRequest{Parent: "shelves/1", BookId: "1", Book: &librarypb.Book{Title: "t"}})
			return err
		}, codes.AlreadyExists},
		{"CreateBook no title", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.CreateBook(ctx, &librarypb.CreateBookRequest{Parent: "shelves/1", Book: &librarypb.Book{Author: "a"}})
			return err
		}, codes.InvalidArgument},
		{"CreateBook no book", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.CreateBook(ctx, &librarypb.CreateBookRequest{Parent: "shelves/1"})
			return err
		}, codes.InvalidArgument},
		{"CreateBook bad id", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.CreateBook(ctx, &librarypb.CreateBookRequest{Parent: "shelves/1", BookId: "a/b", Book: &librarypb.Book{Title: "t"}})
			return err
		}, codes.InvalidArgument},
		{"CreateBook missing shelf", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.CreateBook(ctx, &librarypb.CreateBookRequest{Parent: "shelves/9", Book: &librarypb.Book{Title: "t"}})
			return err
		}, codes.NotFound},
		{"GetBook missing", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.GetBook(ctx, &librarypb.GetBookRequest{Name: "shelves/1/books/3"})
			return err
		}, codes.NotFound},
		{"GetBook bad name", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.GetBook(ctx, &librarypb.GetBookRequest{Name: "shelves/1/books/"})
			return err
		}, codes.InvalidArgument},
		{"UpdateBook missing", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.UpdateBook(ctx, &librarypb.UpdateBookRequest{Book: &librarypb.Book{Name: "shelves/2/books/1", Title: "t"}})
			return err
		}, codes.NotFound},
		{"UpdateBook no book", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.UpdateBook(ctx, &librarypb.UpdateBookRequest{})
			return err
		}, codes.InvalidArgument},
		{"UpdateBook unknown field", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.UpdateBook(ctx, &librarypb.UpdateBookRequest{
				Book:       &librarypb.Book{Name: "shelves/1/books/1"},
				UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"nope"}},
			})
			return err
		}, codes.InvalidArgument},
		{"UpdateBook create_time", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.UpdateBook(ctx, &librarypb.UpdateBookRequest{
				Book:       &librarypb.Book{Name: "shelves/1/books/1"},
				UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"create_time"}},
			})
			return err
		}, codes.InvalidArgument},
		{"DeleteBook missing", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.DeleteBook(ctx, &librarypb.DeleteBookRequest{Name: "shelves/1/books/9"})
			return err
		}, codes.NotFound},
		{"DeleteBook bad name", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.DeleteBook(ctx, &librarypb.DeleteBookRequest{Name: "books/1"})
			return err
		}, codes.InvalidArgument},
		{"MoveBook missing book", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.MoveBook(ctx, &librarypb.MoveBookRequest{Name: "shelves/1/books/9", OtherShelfName: "shelves/2"})
			return err
		}, codes.NotFound},
		{"MoveBook missing shelf", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.MoveBook(ctx, &librarypb.MoveBookRequest{Name: "shelves/1/books/1", OtherShelfName: "shelves/9"})
			return err
		}, codes.NotFound},
		{"MoveBook bad shelf", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := c.MoveBook(ctx, &librarypb.MoveBookRequest{Name: "shelves/1/books/1", OtherShelfName: "2"})
			return err
		}, codes.InvalidArgument},
		{"WatchBooks missing shelf", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := watch(ctx, c, &librarypb.WatchBooksRequest{Parent: "shelves/9"})
			return err
		}, codes.NotFound},
		{"WatchBooks negative limit", func(ctx context.Context, c librarypb.LibraryServiceClient) error {
			_, err := watch(ctx, c, &librarypb.WatchBooksRequest{Parent: "shelves/1", Limit: -1})
			return err
		}, codes.InvalidArgument},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := status.Code(tt.call(t.Context(), c)); got != tt.want {
				t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
			}
		})
	}
	// None of the refused requests changed anything.
	shelves, err := c.ListShelves(t.Context(), &librarypb.ListShelvesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(shelves.GetShelves()) != 2 {
		t.Errorf("after refused requests: got shelves %v, want the two seeded", shelves)
	}
}

// TestShelves creates, gets, lists and deletes shelves.
func TestShelves(t *testing.T) {
	c := newClient(t)
	ctx := t.Context()
	essays, err := c.CreateShelf(ctx, &librarypb.CreateShelfRequest{ShelfId: "essays", Shelf: &librarypb.Shelf{Name: "ignored", Theme: "essays"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := (&librarypb.Shelf{Name: "shelves/essays", Theme: "essays"}); !proto.Equal(essays, want) {
		t.Errorf("CreateShelf(essays): got %v, want %v", essays, want)
	}
	// A chosen identifier skips those already taken.
	if _, err := c.CreateShelf(ctx, &librarypb.CreateShelfRequest{ShelfId: "4"}); err != nil {
		t.Fatal(err)
	}
	auto, err := c.CreateShelf(ctx, &librarypb.CreateShelfRequest{Shelf: &librarypb.Shelf{Theme: "drama"}})
	if err != nil {
		t.Fatal(err)
	}
	if auto.GetName() != "shelves/5" {
		t.Errorf("CreateShelf without an id after shelves/4: got %q, want shelves/5", auto.GetName())
	}
	got, err := c.GetShelf(ctx, &librarypb.GetShelfRequest{Name: "shelves/5"})
	if err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(got, auto) {
		t.Errorf("GetShelf(shelves/5): got %v, want %v", got, auto)
	}

	// An empty shelf goes without force; one with books needs it and
	// takes its books along.
	if _, err := c.DeleteShelf(ctx, &librarypb.DeleteShelfRequest{Name: "shelves/5"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteShelf(ctx, &librarypb.DeleteShelfRequest{Name: "shelves/1", Force: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetBook(ctx, &librarypb.GetBookRequest{Name: "shelves/1/books/1"}); status.Code(err) != codes.NotFound {
		t.Errorf("GetBook on a deleted shelf: got %v, want NotFound", err)
	}
	list, err := c.ListShelves(ctx, &librarypb.ListShelvesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, sh := range list.GetShelves() {
		left = append(left, sh.GetName())
	}
	if want := []string{"shelves/2", "shelves/essays", "shelves/4"}; !slices.Equal(left, want) {
		t.Errorf("ListShelves after deletes: got %q, want %q", left, want)
	}
}

// TestListBooksPages lists a shelf at every page size and checks that
// following the page tokens gives each book once, in order.
func TestListBooksPages(t *testing.T) {
	c := newClient(t)
	ctx := t.Context()
	for _, id := range []string{"a", "b", "c"} {
		if _, err := c.CreateBook(ctx, &librarypb.CreateBookRequest{Parent: "shelves/1", BookId: id, Book: &librarypb.Book{Title: id}}); err != nil {
			t.Fatal(err)
		}
	}
	all := []string{"shelves/1/books/1", "shelves/1/books/2", "shelves/1/books/a", "shelves/1/books/b", "shelves/1/books/c"}
	for size := 1; size <= 6; size++ {
		var got []string
		token := ""
		for pages := 0; ; pages++ {
			if pages > len(all) {
				t.Fatalf("page size %d: more pages than books", size)
			}
			resp, err := c.ListBooks(ctx, &librarypb.ListBooksRequest{Parent: "shelves/1", PageSize: int32(size), PageToken: token})
			if err != nil {
				t.Fatal(err)
			}
			if len(resp.GetBooks()) > size || len(resp.GetBooks()) == 0 {
				t.Errorf("page size %d, token %q: got %d books", size, token, len(resp.GetBooks()))
			}
			got = append(got, names(resp.GetBooks())...)
			if token = resp.GetNextPageToken(); token == "" {
				break
			}
		}
		if !slices.Equal(got, all) {
			t.Errorf("page size %d: got %q, want %q", size, got, all)
		}
	}
}

// TestBooks creates, updates, moves and deletes books.
func TestBooks(t *testing.T) {
	c := newClient(t)
	ctx := t.Context()
	kindred, err := c.CreateBook(ctx, &librarypb.CreateBookRequest{
		Parent: "shelves/2",
		BookId: "kindred",
		Book:   &librarypb.Book{Name: "ignored", Title: "Kindred", Author: "Octavia E. Butler"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if kindred.GetName() != "shelves/2/books/kindred" || kindred.GetCreateTime() == nil {
		t.Errorf("CreateBook(kindred): got %v, want shelves/2/books/kindred with a create_time", kindred)
	}
	auto, err := c.CreateBook(ctx, &librarypb.CreateBookRequest{Parent: "shelves/2", Book: &librarypb.Book{Title: "Untitled"}})
	if err != nil {
		t.Fatal(err)
	}
	if auto.GetName() != "shelves/2/books/4" {
		t.Errorf("CreateBook without an id: got %q, want shelves/2/books/4", auto.GetName())
	}

	for _, tt := range []struct {
		mask []string
		book *librarypb.Book
		want *librarypb.Book
	}{
		{[]string{"read"}, &librarypb.Book{Read: true, Title: "ignored"},
			&librarypb.Book{Title: "Kindred", Author: "Octavia E. Butler", Read: true}},
		{nil, &librarypb.Book{Author: "O. E. Butler"},
			&librarypb.Book{Title: "Kindred", Author: "O. E. Butler", Read: true}},
		{[]string{"title", "read"}, &librarypb.Book{Title: "Kindred (1979)"},
			&librarypb.Book{Title: "Kindred (1979)", Author: "O. E. Butler"}},
	} {
		tt.book.Name = kindred.GetName()
		req := &librarypb.UpdateBookRequest{Book: tt.book}
		if tt.mask != nil {
			req.UpdateMask = &fieldmaskpb.FieldMask{Paths: tt.mask}
		}
		got, err := c.UpdateBook(ctx, req)
		if err != nil {
			t.Fatalf("UpdateBook(%v): %v", tt.mask, err)
		}
		tt.want.Name, tt.want.CreateTime = kindred.GetName(), kindred.GetCreateTime()
		if !proto.Equal(got, tt.want) {
			t.Errorf("UpdateBook(%v): got %v, want %v", tt.mask, got, tt.want)
		}
		again, err := c.GetBook(ctx, &librarypb.GetBookRequest{Name: kindred.GetName()})
		if err != nil {
			t.Fatal(err)
		}
		if !proto.Equal(again, got) {
			t.Errorf("GetBook after UpdateBook(%v): got %v, want %v", tt.mask, again, got)
		}
	}

	moved, err := c.MoveBook(ctx, &librarypb.MoveBookRequest{Name: "shelves/1/books/1", OtherShelfName: "shelves/2"})
	if err != nil {
		t.Fatal(err)
	}
	if moved.GetName() != "shelves/2/books/1" || moved.GetTitle() != "The Left Hand of Darkness" {
		t.Errorf("MoveBook: got %v, want shelves/2/books/1", moved)
	}
	if _, err := c.GetBook(ctx, &librarypb.GetBookRequest{Name: "shelves/1/books/1"}); status.Code(err) != codes.NotFound {
		t.Errorf("GetBook at the old name after MoveBook: got %v, want NotFound", err)
	}
	same, err := c.MoveBook(ctx, &librarypb.MoveBookRequest{Name: moved.GetName(), OtherShelfName: "shelves/2"})
	if err != nil || !proto.Equal(same, moved) {
		t.Errorf("MoveBook to its own shelf: got %v, %v, want %v", same, err, moved)
	}
	if _, err := c.CreateBook(ctx, &librarypb.CreateBookRequest{Parent: "shelves/1", BookId: "3", Book: &librarypb.Book{Title: "t"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.MoveBook(ctx, &librarypb.MoveBookRequest{Name: "shelves/1/books/3", OtherShelfName: "shelves/2"}); status.Code(err) != codes.AlreadyExists {
		t.Errorf("MoveBook onto a taken name: got %v, want AlreadyExists", err)
	}

	if _, err := c.DeleteBook(ctx, &librarypb.DeleteBookRequest{Name: kindred.GetName()}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteBook(ctx, &librarypb.DeleteBookRequest{Name: kindred.GetName()}); status.Code(err) != codes.NotFound {
		t.Errorf("DeleteBook twice: got %v, want NotFound", err)
	}
	resp, err := c.ListBooks(ctx, &librarypb.ListBooksRequest{Parent: "shelves/2"})
	if err != nil {
		t.Fatal(err)
	}
	// Books are listed in the order they were created, wherever they
	// moved since.
	if got, want := names(resp.GetBooks()), []string{"shelves/2/books/1", "shelves/2/books/3", "shelves/2/books/4"}; !slices.Equal(got, want) {
		t.Errorf("ListBooks(shelves/2): got %q, want %q", got, want)
	}
}

// TestWatchBooks streams a shelf with and without a limit, and with a
// context canceled before the call.
func TestWatchBooks(t *testing.T) {
	c := newClient(t)
	for _, tt := range []struct {
		limit int32
		want  []string
	}{
		{0, []string{"shelves/1/books/1", "shelves/1/books/2"}},
		{1, []string{"shelves/1/books/1"}},
		{5, []string{"shelves/1/books/1", "shelves/1/books/2"}},
	} {
		got, err := watch(t.Context(), c, &librarypb.WatchBooksRequest{Parent: "shelves/1", Limit: tt.limit})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("WatchBooks(limit %d): got %q, want %q", tt.limit, got, tt.want)
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := watch(ctx, c, &librarypb.WatchBooksRequest{Parent: "shelves/1"}); status.Code(err) != codes.Canceled {
		t.Errorf("WatchBooks with a canceled context: got %v, want Canceled", err)
	}
}

// TestReturnsCopies checks that changing a returned message does not
// change the library.
func TestReturnsCopies(t *testing.T) {
	s := NewServer()
	ctx := t.Context()
	b, err := s.GetBook(ctx, &librarypb.GetBookRequest{Name: "shelves/1/books/1"})
	if err != nil {
		t.Fatal(err)
	}
	want := proto.Clone(b)
	b.Title = "changed"
	list, err := s.ListBooks(ctx, &librarypb.ListBooksRequest{Parent: "shelves/1"})
	if err != nil {
		t.Fatal(err)
	}
	list.Books[0].Author = "changed"
	again, err := s.GetBook(ctx, &librarypb.GetBookRequest{Name: "shelves/1/books/1"})
	if err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(again, want) {
		t.Errorf("GetBook after changing returned books: got %v, want %v", again, want)
	}
}

// TestConcurrent creates books from many goroutines at once; each gets
// a name of its own.
func TestConcurrent(t *testing.T) {
	c := newClient(t)
	const n = 32
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		seen = map[string]bool{}
	)
	for i := range n {
		wg.Go(func() {
			b, err := c.CreateBook(t.Context(), &librarypb.CreateBookRequest{Parent: "shelves/2", Book: &librarypb.Book{Title: fmt.Sprint(i)}})
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			seen[b.GetName()] = true
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(seen) != n {
		t.Errorf("%d concurrent CreateBook: got %d distinct names", n, len(seen))
	}
	resp, err := c.ListBooks(t.Context(), &librarypb.ListBooksRequest{Parent: "shelves/2"})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(resp.GetBooks()); got != n+1 {
		t.Errorf("ListBooks after %d concurrent CreateBook: got %d books, want %d", n, got, n+1)
	}
}

// ExampleServer serves the library over gRPC and reads a seeded book.
func ExampleServer() {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	gs := grpc.NewServer()
	NewServer().Register(gs)
	go gs.Serve(lis)
	defer gs.Stop()

	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	c := librarypb.NewLibraryServiceClient(conn)
	b, err := c.GetBook(context.Background(), &librarypb.GetBookRequest{Name: "shelves/2/books/3"})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s by %s\n", b.GetTitle(), b.GetAuthor())
	_, err = c.DeleteShelf(context.Background(), &librarypb.DeleteShelfRequest{Name: "shelves/2"})
	fmt.Println(status.Code(err))
	// Output:
	// Ariel by Sylvia Plath
	// FailedPrecondition
}
