// Checks the codec behind the Codec interface against every vector of the
// exported corpus (vectors/vectors.json; schema conformance/export.schema.json).
//
//	go test ./...                                 (from this directory)
//	WOWGUID_VECTORS=/path/to/vectors.json go test ./...
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"testing"
)

// byteList is a JSON array of numbers 0 to 255 (encoding/json would want
// base64 for a []byte).
type byteList []byte

func (b *byteList) UnmarshalJSON(data []byte) error {
	var ints []int
	if err := json.Unmarshal(data, &ints); err != nil {
		return err
	}
	*b = make([]byte, len(ints))
	for i, v := range ints {
		if v < 0 || v > 255 {
			return fmt.Errorf("byte out of range: %d", v)
		}
		(*b)[i] = byte(v)
	}
	return nil
}

type vector struct {
	ID      string `json:"id"`
	Type    string `json:"type"`
	Op      string `json:"op"`
	Outcome string `json:"outcome"`
	Request struct {
		Bytes   byteList `json:"bytes"`
		Guid    *string  `json:"guid"`
		Name    byteList `json:"name"`
		HasName bool     `json:"has_name"`
	} `json:"request"`
	Expect struct {
		Line     string   `json:"line"`
		Guid     *string  `json:"guid"`
		Consumed *int     `json:"consumed"`
		Name     byteList `json:"name"`
		Bytes    byteList `json:"bytes"`
		Size     *int     `json:"size"`
		Error    *string  `json:"error"`
		OrError  *string  `json:"or_error"`
	} `json:"expect"`
}

type corpus struct {
	Format        string   `json:"format"`
	FormatVersion int      `json:"format_version"`
	VectorCount   int      `json:"vector_count"`
	Vectors       []vector `json:"vectors"`
}

type result struct {
	err      string // "" on success
	guid     uint64
	consumed int
	name     []byte
	bytes    []byte
	size     int
}

func parseGuid(s string) uint64 {
	g, err := strconv.ParseUint(s, 16, 64)
	if err != nil {
		panic(err)
	}
	return g
}

func call(c Codec, v *vector) result {
	var r result
	var err error
	if v.Op == "decode" {
		if v.Type == "packed_guid" {
			r.guid, r.consumed, err = c.ReadPackedGuid(v.Request.Bytes)
		} else {
			r.guid, r.name, r.consumed, err = c.ReadNamedGuid(v.Request.Bytes)
		}
	} else if v.Op == "size" {
		guid := parseGuid(*v.Request.Guid)
		sizer, ok := c.(Sizer)
		switch {
		case !ok:
			err = ErrUnsupported
		case v.Type == "packed_guid":
			r.size, err = sizer.PackedGuidSize(guid)
		default:
			r.size, err = sizer.NamedGuidSize(guid, v.Request.Name, v.Request.HasName)
		}
	} else {
		guid := parseGuid(*v.Request.Guid)
		if v.Type == "packed_guid" {
			r.bytes, err = c.AppendPackedGuid(nil, guid)
		} else {
			r.bytes, err = c.AppendNamedGuid(nil, guid, v.Request.Name, v.Request.HasName)
		}
	}
	if err != nil {
		var ge *GuidError
		if errors.As(err, &ge) {
			r.err = ge.Code
		} else {
			r.err = "other"
		}
	}
	return r
}

// valueMismatch is "" when r is the expected value.
func valueMismatch(v *vector, r result) string {
	e := &v.Expect
	if r.err != "" {
		return "error " + r.err + ", expected " + e.Line
	}
	if v.Op == "decode" {
		guid := parseGuid(*e.Guid)
		same := r.guid == guid && r.consumed == *e.Consumed
		if v.Type == "named_guid" && guid != 0 {
			same = same && r.name != nil && bytes.Equal(r.name, e.Name)
		}
		if !same {
			return fmt.Sprintf("got %016x consumed %d name %x, expected %s", r.guid, r.consumed, r.name, e.Line)
		}
		return ""
	}
	if v.Op == "size" {
		if r.size != *e.Size {
			return fmt.Sprintf("got size %d, expected %s", r.size, e.Line)
		}
		return ""
	}
	if !bytes.Equal(r.bytes, e.Bytes) {
		return fmt.Sprintf("got %x, expected %s", r.bytes, e.Line)
	}
	return ""
}

// check is "" when the vector passes.
func check(v *vector, r result) string {
	e := &v.Expect
	if r.err != "" && e.OrError != nil && r.err == *e.OrError {
		return ""
	}
	switch v.Outcome {
	case "invalid":
		if r.err == *e.Error {
			return ""
		}
		if r.err == "" {
			return "a value, expected error " + *e.Error
		}
		return "error " + r.err + ", expected error " + *e.Error
	case "acceptable":
		if r.err != "" {
			return ""
		}
	}
	return valueMismatch(v, r)
}

func TestCorpus(t *testing.T) {
	path := os.Getenv("WOWGUID_VECTORS")
	if path == "" {
		path = "../../../vectors/vectors.json"
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (set WOWGUID_VECTORS)", err)
	}
	var c corpus
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	if c.Format != "wow-guid-vectors" || c.FormatVersion != 1 || c.VectorCount != len(c.Vectors) {
		t.Fatalf("not a wow-guid-vectors document of format 1: %q %d", c.Format, c.FormatVersion)
	}
	passed, failed := 0, 0
	for i := range c.Vectors {
		v := &c.Vectors[i]
		if why := check(v, call(codecUnderTest, v)); why != "" {
			failed++
			t.Errorf("%s: %s", v.ID, why)
		} else {
			passed++
		}
	}
	fmt.Printf("%d passed, %d failed\n", passed, failed)
	if passed == 0 {
		t.Fatal("no vector ran")
	}
}
