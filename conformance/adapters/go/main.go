// The protocol half of the Go conformance adapter (conformance/PROTOCOL.md):
// reads request lines on stdin, writes one answer line for each on stdout and
// flushes after every answer. The codec is reached only through Codec.
//
//	go build -o adapter-go . && wow-guid-conformance run --strict-errors -- ./adapter-go
package main

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Codec is what the protocol needs from an implementation. Reads decode one
// value from the front of in and return the bytes it took. Return a
// *GuidError to name the error code (any other error answers "other"), and
// ErrUnsupported for a kind of request you do not implement.
type Codec interface {
	ReadPackedGuid(in []byte) (guid uint64, n int, err error)
	ReadNamedGuid(in []byte) (guid uint64, name []byte, n int, err error)
	AppendPackedGuid(out []byte, guid uint64) ([]byte, error)
	// hasName is false when the request gives no name (an empty name is not
	// no name).
	AppendNamedGuid(out []byte, guid uint64, name []byte, hasName bool) ([]byte, error)
}

// Sizer is what the optional `size` requests need: how many bytes the
// encoding of a value takes, or the error its Append gives it. A Codec that
// is not also a Sizer answers them "unsupported".
type Sizer interface {
	PackedGuidSize(guid uint64) (int, error)
	NamedGuidSize(guid uint64, name []byte, hasName bool) (int, error)
}

// ErrUnsupported makes the adapter answer "unsupported".
var ErrUnsupported = errors.New("unsupported")

// GuidError is a rejection; Code is the protocol's error code.
type GuidError struct{ Code string }

func (e *GuidError) Error() string { return "wowguid: " + e.Code }

// The seam: the codec file (codec.go, or yours in its place) defines
// codecUnderTest, a Codec; this file defines Codec, GuidError and
// ErrUnsupported for it, and uses nothing else of the codec file.
func main() {
	if err := Run(codecUnderTest, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "adapter:", err)
		os.Exit(1)
	}
}

// Run answers every request line of r on w, flushing after each answer, and
// returns at end of input (answering a last line that has no "\n").
func Run(codec Codec, r io.Reader, w io.Writer) error {
	in := bufio.NewReader(r)
	out := bufio.NewWriter(w)
	for {
		line, err := in.ReadString('\n')
		if err != nil && err != io.EOF {
			return err
		}
		if line == "" && err == io.EOF {
			return nil
		}
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if line == "" || line[0] == ' ' {
			fmt.Fprintln(os.Stderr, "adapter: a request line without an id, ignored")
		} else {
			out.WriteString(Answer(codec, line))
			out.WriteByte('\n')
			if ferr := out.Flush(); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

// Answer is the response line (without "\n") to one request line.
func Answer(codec Codec, line string) string {
	f := strings.Split(line, " ")
	return f[0] + " " + answerFields(codec, f)
}

func answerFields(codec Codec, f []string) string {
	if len(f) < 4 {
		return "error other"
	}
	op, typ := f[1], f[2]
	packed, named := typ == "packed_guid", typ == "named_guid"
	sizer, sizes := codec.(Sizer)
	if op == "size" && !sizes {
		return "unsupported"
	}
	if (op != "decode" && op != "encode" && op != "size") || (!packed && !named) {
		return "unsupported"
	}
	if op == "decode" {
		input, ok := parseBytes(f[3])
		if !ok || len(f) != 4 {
			return "error other"
		}
		if packed {
			guid, n, err := codec.ReadPackedGuid(input)
			if err != nil {
				return errorAnswer(err)
			}
			return fmt.Sprintf("ok %016x %d", guid, n)
		}
		guid, name, n, err := codec.ReadNamedGuid(input)
		if err != nil {
			return errorAnswer(err)
		}
		if guid == 0 {
			return fmt.Sprintf("ok %016x %d", guid, n)
		}
		return fmt.Sprintf("ok %016x %d %s", guid, n, formatBytes(name))
	}
	guid, err := strconv.ParseUint(f[3], 16, 64)
	if err != nil || len(f[3]) != 16 { // base 16: no sign, prefix or underscore
		return "error other"
	}
	var out []byte
	size := -1
	if packed {
		if len(f) != 4 {
			return "error other"
		}
		if op == "size" {
			size, err = sizer.PackedGuidSize(guid)
		} else {
			out, err = codec.AppendPackedGuid(nil, guid)
		}
	} else {
		if len(f) > 5 {
			return "error other"
		}
		var name []byte
		if len(f) == 5 {
			var ok bool
			if name, ok = parseBytes(f[4]); !ok {
				return "error other"
			}
		}
		if op == "size" {
			size, err = sizer.NamedGuidSize(guid, name, len(f) == 5)
		} else {
			out, err = codec.AppendNamedGuid(nil, guid, name, len(f) == 5)
		}
	}
	if err != nil {
		return errorAnswer(err)
	}
	if op == "size" {
		return "ok " + strconv.Itoa(size)
	}
	return "ok " + formatBytes(out)
}

func errorAnswer(err error) string {
	var ge *GuidError
	switch {
	case errors.Is(err, ErrUnsupported):
		return "unsupported"
	case errors.As(err, &ge):
		return "error " + ge.Code
	default:
		fmt.Fprintln(os.Stderr, "adapter:", err)
		return "error other"
	}
}

// parseBytes reads hex pairs, or "-" for the empty string.
func parseBytes(s string) ([]byte, bool) {
	if s == "-" {
		return []byte{}, true
	}
	if s == "" {
		return nil, false
	}
	b, err := hex.DecodeString(s)
	return b, err == nil
}

func formatBytes(b []byte) string {
	if len(b) == 0 {
		return "-"
	}
	return hex.EncodeToString(b)
}
