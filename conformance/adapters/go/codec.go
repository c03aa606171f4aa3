// The codec half of the Go conformance adapter: PackedGuid and NamedGuid,
// standard library only. main.go and corpus_test.go reach it only through
// codecUnderTest (near the end of this file), a Codec, so a file of your own
// can take this one's place: it defines codecUnderTest, and may use what
// main.go defines for it (Codec, GuidError, ErrUnsupported).
//
// Positions taken (vectors/NOTES.md): the PackedGuid mask selects byte
// positions, least significant first; the encoder writes the shortest form,
// the decoder accepts any. A NamedGuid is a little-endian uint64, then, when
// it is not 0, a strict UTF-8 name ended by a NUL. Names have no length bound
// here. "No name" (hasName false) is not an empty name: GUID 0 with an empty
// name is refused (name_without_guid), and a non-zero GUID without a name is
// refused (other); the corpus finds both answers acceptable.

package main

import (
	"encoding/binary"
	"unicode/utf8"
)

var (
	errEOF             = &GuidError{"eof"}
	errInvalidUTF8     = &GuidError{"invalid_utf8"}
	errInteriorNul     = &GuidError{"interior_nul"}
	errNameWithoutGuid = &GuidError{"name_without_guid"}
	errOther           = &GuidError{"other"}
)

// ReadPackedGuid decodes one PackedGuid from the front of in and returns it
// with the number of bytes it took.
func ReadPackedGuid(in []byte) (guid uint64, n int, err error) {
	if len(in) == 0 {
		return 0, 0, errEOF
	}
	mask := in[0]
	n = 1
	for bit := uint(0); bit < 8; bit++ {
		if mask&(1<<bit) != 0 {
			if n >= len(in) {
				return 0, 0, errEOF
			}
			guid |= uint64(in[n]) << (8 * bit)
			n++
		}
	}
	return guid, n, nil
}

// AppendPackedGuid appends the shortest encoding of guid to out.
func AppendPackedGuid(out []byte, guid uint64) []byte {
	var mask byte
	var body [8]byte
	k := 0
	for bit := uint(0); bit < 8; bit++ {
		if b := byte(guid >> (8 * bit)); b != 0 {
			mask |= 1 << bit
			body[k] = b
			k++
		}
	}
	out = append(out, mask)
	return append(out, body[:k]...)
}

// ReadNamedGuid decodes one NamedGuid from the front of in. name is nil
// exactly when guid is 0.
func ReadNamedGuid(in []byte) (guid uint64, name []byte, n int, err error) {
	if len(in) < 8 {
		return 0, nil, 0, errEOF
	}
	guid = binary.LittleEndian.Uint64(in)
	if guid == 0 {
		return 0, nil, 8, nil
	}
	// The name's extent first, then its bytes (NOTES.md, "Two faults in one
	// input": eof before invalid_utf8).
	end := -1
	for i := 8; i < len(in); i++ {
		if in[i] == 0 {
			end = i
			break
		}
	}
	if end < 0 {
		return 0, nil, 0, errEOF
	}
	if !utf8.Valid(in[8:end]) {
		return 0, nil, 0, errInvalidUTF8
	}
	name = append([]byte{}, in[8:end]...)
	return guid, name, end + 1, nil
}

// AppendNamedGuid appends guid and, when it is not 0, the name and its NUL.
// hasName false means no name was given at all.
func AppendNamedGuid(out []byte, guid uint64, name []byte, hasName bool) ([]byte, error) {
	if hasName {
		for _, b := range name {
			if b == 0 {
				return out, errInteriorNul
			}
		}
		if !utf8.Valid(name) {
			return out, errInvalidUTF8
		}
		if guid == 0 {
			return out, errNameWithoutGuid
		}
	} else if guid != 0 {
		return out, errOther
	}
	out = binary.LittleEndian.AppendUint64(out, guid)
	if guid != 0 {
		out = append(out, name...)
		out = append(out, 0)
	}
	return out, nil
}

// codecUnderTest is the codec the adapter (main.go) and the example test
// (corpus_test.go) use: the one thing a codec file must define.
var codecUnderTest Codec = OwnCodec{}

// OwnCodec puts the functions above behind the adapter's Codec interface.
type OwnCodec struct{}

func (OwnCodec) ReadPackedGuid(in []byte) (uint64, int, error) { return ReadPackedGuid(in) }

func (OwnCodec) ReadNamedGuid(in []byte) (uint64, []byte, int, error) { return ReadNamedGuid(in) }

func (OwnCodec) AppendPackedGuid(out []byte, guid uint64) ([]byte, error) {
	return AppendPackedGuid(out, guid), nil
}

func (OwnCodec) AppendNamedGuid(out []byte, guid uint64, name []byte, hasName bool) ([]byte, error) {
	return AppendNamedGuid(out, guid, name, hasName)
}

// PackedGuidSize is how many bytes AppendPackedGuid writes: the mask byte
// and one byte for each non-zero GUID byte.
func (OwnCodec) PackedGuidSize(guid uint64) (int, error) {
	size := 1
	for i := 0; i < 8; i++ {
		if byte(guid>>(8*i)) != 0 {
			size++
		}
	}
	return size, nil
}

// NamedGuidSize is how many bytes AppendNamedGuid writes: the GUID, then the
// name in bytes (never characters) and its NUL when the GUID is not 0. A
// value AppendNamedGuid refuses is refused with the same error.
func (OwnCodec) NamedGuidSize(guid uint64, name []byte, hasName bool) (int, error) {
	if _, err := AppendNamedGuid(nil, guid, name, hasName); err != nil {
		return 0, err
	}
	if guid == 0 {
		return 8, nil
	}
	return 8 + len(name) + 1, nil
}
