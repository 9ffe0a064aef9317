package dataformat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/marionette-dev/marionette/value"
)

// FromJSON parses JSON into a Puppet value keeping object key order; numbers
// without fraction or exponent are Integers.
func FromJSON(data []byte, file string) (value.Value, error) {
	v, _, err := FromJSONCompact(data, file)
	return v, err
}

// FromJSONCompact is FromJSON, and reports whether the document is compact
// (no whitespace outside strings), as an agent's facts are: such a document
// can be stored as it is.
func FromJSONCompact(data []byte, file string) (v value.Value, compact bool, err error) {
	if v, compact, ok := decodeFastJSON(string(data)); ok {
		return v, compact, nil
	}
	v, err = fromJSONTokens(data, file)
	return v, false, err
}

// fromJSONTokens decodes with encoding/json's tokens: what decodeFastJSON
// does not take, errors worded as encoding/json words them.
func fromJSONTokens(data []byte, file string) (value.Value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := jsonValue(dec, 0)
	if err != nil {
		return nil, fmt.Errorf("Unable to parse (%s): %v", file, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("Unable to parse (%s): unexpected data after the JSON value", file)
	}
	return v, nil
}

func jsonValue(dec *json.Decoder, depth int) (value.Value, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth++; depth > MaxJSONDepth {
			// Ruby's JSON.parse, which Puppet uses, has the same limit.
			return nil, fmt.Errorf("nesting of %d is too deep", depth)
		}
		switch t {
		case '[':
			arr := value.Array{}
			for dec.More() {
				e, err := jsonValue(dec, depth)
				if err != nil {
					return nil, err
				}
				arr = append(arr, e)
			}
			_, err := dec.Token()
			return arr, err
		case '{':
			b := value.NewHashBuilder(4)
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := jsonValue(dec, depth)
				if err != nil {
					return nil, err
				}
				b.Set(value.String(kt.(string)), v)
			}
			_, err := dec.Token()
			return b.Build(), err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	case string:
		return value.String(t), nil
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return value.Integer(i), nil
		}
		f, err := t.Float64()
		if err != nil {
			return nil, err
		}
		return value.Float(f), nil
	case bool:
		return value.Boolean(t), nil
	case nil:
		return value.Undef, nil
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}
