package transcode

// This file turns the text of a path variable or a query parameter into a
// protobuf value. A field bound this way is a scalar leaf: one of the
// scalar kinds, an enum, or a well-known type whose JSON form is a string
// or a number (Timestamp, Duration, FieldMask and the wrappers). The text
// is read as protojson reads the same value inside a JSON string, with two
// allowances that URLs need: enums by name or number, and bytes in either
// base64 alphabet, padded or not.

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// errBadValue is wrapped by the errors of parseScalar.
var errBadValue = errors.New("invalid value")

// scalarMessage reports whether a message-typed field can be bound to one
// text value: Timestamp, Duration, FieldMask and the wrapper types.
func scalarMessage(md protoreflect.MessageDescriptor) bool {
	switch md.FullName() {
	case "google.protobuf.Timestamp", "google.protobuf.Duration", "google.protobuf.FieldMask",
		"google.protobuf.DoubleValue", "google.protobuf.FloatValue",
		"google.protobuf.Int64Value", "google.protobuf.UInt64Value",
		"google.protobuf.Int32Value", "google.protobuf.UInt32Value",
		"google.protobuf.BoolValue", "google.protobuf.StringValue", "google.protobuf.BytesValue":
		return true
	}
	return false
}

// bindable reports whether fd can take its value from one piece of text:
// a scalar or enum field, or a field of a type accepted by scalarMessage.
func bindable(fd protoreflect.FieldDescriptor) bool {
	if fd.IsMap() {
		return false
	}
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return scalarMessage(fd.Message())
	}
	return true
}

// parseValue parses s as a value of the field fd (for a repeated field, one
// element of it; for a map, one value). msg is the message that holds fd;
// a message-typed value is made with it.
func parseValue(msg protoreflect.Message, fd protoreflect.FieldDescriptor, s string) (protoreflect.Value, error) {
	vfd := fd
	if fd.IsMap() {
		vfd = fd.MapValue()
	}
	if k := vfd.Kind(); k != protoreflect.MessageKind && k != protoreflect.GroupKind {
		return parseScalar(vfd, s)
	}
	var m protoreflect.Message
	switch {
	case fd.IsList():
		m = msg.Mutable(fd).List().NewElement().Message()
	case fd.IsMap():
		m = msg.Mutable(fd).Map().NewValue().Message()
	default:
		m = msg.NewField(fd).Message()
	}
	md := m.Descriptor()
	switch md.FullName() {
	case "google.protobuf.FieldMask":
		// Paths separated by commas, in the JSON form (updateTime) or as
		// in the .proto file (update_time); "" is the empty mask, as
		// protojson writes it.
		if s == "" {
			break
		}
		paths := m.Mutable(md.Fields().ByName("paths")).List()
		for p := range strings.SplitSeq(s, ",") {
			if p == "" || !utf8.ValidString(p) {
				return protoreflect.Value{}, fmt.Errorf("%w for FieldMask: %q", errBadValue, s)
			}
			paths.Append(protoreflect.ValueOfString(snakeCase(p)))
		}
		// A path that has no JSON form ("0", "a__b") could never be
		// written back: protojson is the judge of which paths are valid.
		if _, err := protojson.Marshal(m.Interface()); err != nil {
			return protoreflect.Value{}, fmt.Errorf("%w for FieldMask: %q", errBadValue, s)
		}
	case "google.protobuf.Timestamp", "google.protobuf.Duration":
		// Their JSON forms are strings; protojson knows the formats.
		if err := protojson.Unmarshal(strconv.AppendQuote(nil, s), m.Interface()); err != nil {
			return protoreflect.Value{}, fmt.Errorf("%w for %s: %q", errBadValue, md.Name(), s)
		}
	default: // a wrapper: one field named value
		inner := md.Fields().ByName("value")
		v, err := parseScalar(inner, s)
		if err != nil {
			return protoreflect.Value{}, err
		}
		m.Set(inner, v)
	}
	return protoreflect.ValueOfMessage(m), nil
}

// parseScalar parses s as a value of the scalar or enum field fd.
func parseScalar(fd protoreflect.FieldDescriptor, s string) (protoreflect.Value, error) {
	switch fd.Kind() {
	case protoreflect.StringKind:
		if utf8.ValidString(s) {
			return protoreflect.ValueOfString(s), nil
		}
		return protoreflect.Value{}, fmt.Errorf("%w for string field %s: not UTF-8", errBadValue, fd.Name())
	case protoreflect.BoolKind:
		switch s {
		case "true":
			return protoreflect.ValueOfBool(true), nil
		case "false":
			return protoreflect.ValueOfBool(false), nil
		}
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		if n, err := strconv.ParseInt(s, 10, 32); err == nil {
			return protoreflect.ValueOfInt32(int32(n)), nil
		}
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return protoreflect.ValueOfInt64(n), nil
		}
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		if n, err := strconv.ParseUint(s, 10, 32); err == nil {
			return protoreflect.ValueOfUint32(uint32(n)), nil
		}
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		if n, err := strconv.ParseUint(s, 10, 64); err == nil {
			return protoreflect.ValueOfUint64(n), nil
		}
	case protoreflect.FloatKind:
		if f, ok := parseFloat(s, 32); ok {
			return protoreflect.ValueOfFloat32(float32(f)), nil
		}
	case protoreflect.DoubleKind:
		if f, ok := parseFloat(s, 64); ok {
			return protoreflect.ValueOfFloat64(f), nil
		}
	case protoreflect.BytesKind:
		if b, ok := parseBytes(s); ok {
			return protoreflect.ValueOfBytes(b), nil
		}
	case protoreflect.EnumKind:
		ed := fd.Enum()
		if v := ed.Values().ByName(protoreflect.Name(s)); v != nil {
			return protoreflect.ValueOfEnum(v.Number()), nil
		}
		if n, err := strconv.ParseInt(s, 10, 32); err == nil {
			if ed.IsClosed() && ed.Values().ByNumber(protoreflect.EnumNumber(n)) == nil {
				break
			}
			return protoreflect.ValueOfEnum(protoreflect.EnumNumber(n)), nil
		}
	}
	return protoreflect.Value{}, fmt.Errorf("%w for %s field %s: %q", errBadValue, fd.Kind(), fd.Name(), s)
}

// parseFloat parses s as protojson does a float in a string: a decimal
// number, or "NaN", "Infinity" or "-Infinity". A finite number out of the
// type's range is rejected.
func parseFloat(s string, bits int) (float64, bool) {
	switch s {
	case "NaN":
		return math.NaN(), true
	case "Infinity":
		return math.Inf(1), true
	case "-Infinity":
		return math.Inf(-1), true
	}
	if strings.ContainsAny(s, "nNiI_xX") { // no "inf", "nan", hex or underscores
		return 0, false
	}
	f, err := strconv.ParseFloat(s, bits)
	return f, err == nil
}

// parseBytes decodes s as base64 in the standard or the URL alphabet,
// padded or not, as protojson accepts.
func parseBytes(s string) ([]byte, bool) {
	enc := base64.StdEncoding
	if strings.ContainsAny(s, "-_") {
		enc = base64.URLEncoding
	}
	if len(s)%4 != 0 {
		enc = enc.WithPadding(base64.NoPadding)
	}
	b, err := enc.DecodeString(s)
	return b, err == nil
}

// snakeCase turns the JSON form of a field path (bookTitle.authorName)
// into the form of the .proto file (book_title.author_name); a path
// already in that form is kept.
func snakeCase(p string) string {
	if strings.IndexFunc(p, func(r rune) bool { return 'A' <= r && r <= 'Z' }) < 0 {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if 'A' <= c && c <= 'Z' {
			b.WriteByte('_')
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}
