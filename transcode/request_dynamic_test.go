package transcode

import (
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// TestQueryMapEntries checks query parameters that name map entries, for
// maps whose keys are not strings and whose values are messages, on a
// message built at run time.
func TestQueryMapEntries(t *testing.T) {
	entry := func(name string, key descriptorpb.FieldDescriptorProto_Type, value *descriptorpb.FieldDescriptorProto) *descriptorpb.DescriptorProto {
		value.Name, value.Number, value.Label = proto.String("value"), proto.Int32(2), descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum()
		return &descriptorpb.DescriptorProto{
			Name:    proto.String(name),
			Options: &descriptorpb.MessageOptions{MapEntry: proto.Bool(true)},
			Field: []*descriptorpb.FieldDescriptorProto{
				{Name: proto.String("key"), Number: proto.Int32(1), Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(), Type: key.Enum()},
				value,
			},
		}
	}
	mapField := func(name string, n int32, entry string) *descriptorpb.FieldDescriptorProto {
		return &descriptorpb.FieldDescriptorProto{
			Name: proto.String(name), JsonName: proto.String(name), Number: proto.Int32(n),
			Label: descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum(),
			Type:  descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum(), TypeName: proto.String(".q.M." + entry),
		}
	}
	message := descriptorpb.FieldDescriptorProto_TYPE_MESSAGE
	fdp := &descriptorpb.FileDescriptorProto{
		Name: proto.String("q.proto"), Package: proto.String("q"), Syntax: proto.String("proto3"),
		Dependency: []string{"google/protobuf/timestamp.proto"},
		MessageType: []*descriptorpb.DescriptorProto{{
			Name: proto.String("M"),
			Field: []*descriptorpb.FieldDescriptorProto{
				mapField("when", 1, "WhenEntry"),
				mapField("flags", 2, "FlagsEntry"),
				mapField("subs", 3, "SubsEntry"),
				// oneof o { M a = 4; string b = 5; }
				{Name: proto.String("a"), JsonName: proto.String("a"), Number: proto.Int32(4), OneofIndex: proto.Int32(0),
					Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(), Type: message.Enum(), TypeName: proto.String(".q.M")},
				{Name: proto.String("b"), JsonName: proto.String("b"), Number: proto.Int32(5), OneofIndex: proto.Int32(0),
					Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(), Type: descriptorpb.FieldDescriptorProto_TYPE_STRING.Enum()},
			},
			OneofDecl: []*descriptorpb.OneofDescriptorProto{{Name: proto.String("o")}},
			NestedType: []*descriptorpb.DescriptorProto{
				entry("WhenEntry", descriptorpb.FieldDescriptorProto_TYPE_INT32,
					&descriptorpb.FieldDescriptorProto{Type: message.Enum(), TypeName: proto.String(".google.protobuf.Timestamp")}),
				entry("FlagsEntry", descriptorpb.FieldDescriptorProto_TYPE_BOOL,
					&descriptorpb.FieldDescriptorProto{Type: descriptorpb.FieldDescriptorProto_TYPE_UINT64.Enum()}),
				entry("SubsEntry", descriptorpb.FieldDescriptorProto_TYPE_STRING,
					&descriptorpb.FieldDescriptorProto{Type: message.Enum(), TypeName: proto.String(".q.M")}),
			},
		}},
	}
	_ = timestamppb.Now // the dependency, linked in
	fd, err := protodesc.NewFile(fdp, protoregistry.GlobalFiles)
	if err != nil {
		t.Fatal(err)
	}
	md := fd.Messages().ByName("M")
	h := new(Handler)
	for _, tt := range []struct {
		query string
		want  string // protojson of the message, or "" for a 400
	}{
		{"when[7]=2020-01-02T03:04:05Z&when[-1]=1970-01-01T00:00:00Z", `{"when":{"7":"2020-01-02T03:04:05Z","-1":"1970-01-01T00:00:00Z"}}`},
		{"flags[true]=1&flags[false]=18446744073709551615", `{"flags":{"true":"1","false":"18446744073709551615"}}`},
		{"when[x]=2020-01-02T03:04:05Z", ""},           // not an int32 key
		{"when[99999999999]=2020-01-02T03:04:05Z", ""}, // out of range
		{"when[1]=yesterday", ""},
		{"flags[yes]=1", ""},
		{"flags[true]=-1", ""},
		{"subs[a]=x", ""}, // a message value that no text sets
		{"when[1]=2020-01-02T03:04:05Z&when[01]=2020-01-02T03:04:05Z", ""}, // one key, twice
		{"a.flags[true]=1&a.flags[false]=2", `{"a":{"flags":{"true":"1","false":"2"}}}`},
		{"a.flags[true]=1&b=x", ""}, // two members of one oneof
		{"b=x&a.flags[true]=1", ""},
		{"flags[true]=1&b=x", `{"flags":{"true":"1"},"b":"x"}`},
	} {
		params, err := parseQuery(tt.query)
		if err != nil {
			t.Fatal(err)
		}
		msg := dynamicpb.NewMessage(md)
		var set []fieldPath
		for _, p := range params {
			if err = h.setQuery(&route{}, msg, p.key, p.vals, &set); err != nil {
				break
			}
		}
		if tt.want == "" {
			if err == nil {
				t.Errorf("?%s: no error", tt.query)
			}
			continue
		}
		if err != nil {
			t.Errorf("?%s: %v", tt.query, err)
			continue
		}
		if got, _ := protojson.Marshal(msg); !sameJSON(string(got), tt.want) {
			t.Errorf("?%s: got %s, want %s", tt.query, got, tt.want)
		}
	}
}

// TestUpdateMaskField checks which field of a request a PATCH fills from
// its body: its one singular FieldMask other than the body, whatever its
// name, as grpc-gateway chooses it, and none when there are two.
func TestUpdateMaskField(t *testing.T) {
	field := func(name string, n int32, typeName string, repeated bool) *descriptorpb.FieldDescriptorProto {
		label := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL
		if repeated {
			label = descriptorpb.FieldDescriptorProto_LABEL_REPEATED
		}
		return &descriptorpb.FieldDescriptorProto{
			Name: proto.String(name), JsonName: proto.String(name), Number: proto.Int32(n), Label: label.Enum(),
			Type: descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum(), TypeName: proto.String(typeName),
		}
	}
	const mask = ".google.protobuf.FieldMask"
	messages := []*descriptorpb.DescriptorProto{
		{Name: proto.String("Book")},
		{Name: proto.String("Named"), Field: []*descriptorpb.FieldDescriptorProto{field("book", 1, ".u.Book", false), field("field_mask", 2, mask, false)}},
		{Name: proto.String("Two"), Field: []*descriptorpb.FieldDescriptorProto{field("book", 1, ".u.Book", false), field("update_mask", 2, mask, false), field("read_mask", 3, mask, false)}},
		{Name: proto.String("Repeated"), Field: []*descriptorpb.FieldDescriptorProto{field("book", 1, ".u.Book", false), field("masks", 2, mask, true)}},
		{Name: proto.String("Body"), Field: []*descriptorpb.FieldDescriptorProto{field("book", 1, mask, false), field("update_mask", 2, mask, false)}},
	}
	fd, err := protodesc.NewFile(&descriptorpb.FileDescriptorProto{
		Name: proto.String("u.proto"), Package: proto.String("u"), Syntax: proto.String("proto3"),
		Dependency: []string{"google/protobuf/field_mask.proto"}, MessageType: messages,
	}, protoregistry.GlobalFiles)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ message, want string }{
		{"Named", "field_mask"},
		{"Two", ""},
		{"Repeated", ""},
		{"Body", "update_mask"}, // the body is not its own mask
	} {
		md := fd.Messages().ByName(protoreflect.Name(tt.message))
		got := ""
		if f := updateMaskField(md, md.Fields().ByName("book")); f != nil {
			got = string(f.Name())
		}
		if got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.message, got, tt.want)
		}
	}
}
