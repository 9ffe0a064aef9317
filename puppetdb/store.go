package puppetdb

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/value"
)

// Filter is a collector's query expression as the resource terminus gets
// it: ==/!= comparing an attribute with a value, or and/or joining two
// filters.
type Filter = catalog.ExportFilter

// ExportedResource is one row of /pdb/query/v4/resources.
type ExportedResource = catalog.ExportedResource

// FilterString renders the filter like Ruby's inspect of the terminus's
// filter triple, for the unsupported-operator message.
func FilterString(f *Filter) string {
	if f == nil {
		return "nil"
	}
	switch f.Op {
	case "and", "or":
		return fmt.Sprintf("[%s, %q, %s]", FilterString(f.Left), f.Op, FilterString(f.Right))
	}
	v, _ := marshal(f.Value)
	return fmt.Sprintf("[%q, %q, %s]", f.Attr, f.Op, v)
}

// Expression turns a collector filter into PuppetDB's AST as the resource
// terminus does: tag comparisons lowercased, title compared with title,
// other attributes as ["parameter", name], != as not.
func Expression(f *Filter) (any, error) {
	if f == nil {
		return nil, nil
	}
	switch f.Op {
	case "==", "!=":
		var e []any
		switch f.Attr {
		case "tag":
			s, _ := f.Value.(string)
			e = []any{"=", "tag", strings.ToLower(s)}
		case "title":
			e = []any{"=", "title", f.Value}
		default:
			e = []any{"=", []any{"parameter", f.Attr}, f.Value}
		}
		if f.Op == "!=" {
			return []any{"not", e}, nil
		}
		return e, nil
	case "and", "or":
		l, err := Expression(f.Left)
		if err != nil {
			return nil, err
		}
		r, err := Expression(f.Right)
		if err != nil {
			return nil, err
		}
		return []any{f.Op, l, r}, nil
	}
	return nil, fmt.Errorf("Operator %s in %s not supported", f.Op, FilterString(f))
}

// ExportedQuery is the AST the resource terminus sends for `<<| |>>`.
func ExportedQuery(typ string, filter *Filter, excludeCertname string) (any, error) {
	q := []any{"and",
		[]any{"=", "type", typ},
		[]any{"=", "exported", true},
		[]any{"not", []any{"=", "certname", excludeCertname}},
	}
	fe, err := Expression(filter)
	if err != nil {
		return nil, err
	}
	if fe != nil {
		q = append(q, fe)
	}
	return q, nil
}

// CollectExported implements the compiler's Store with the resource terminus's query; a
// failure is worded as the terminus words it.
func (c *Client) CollectExported(ctx context.Context, typ string, filter *Filter, excludeCertname string) ([]*ExportedResource, error) {
	q, err := ExportedQuery(typ, filter, excludeCertname)
	if err != nil {
		return nil, err
	}
	// The terminus names the server it tried last.
	var last *url.URL
	body, err := c.queryEndpoint(ctx, "resources", q, func(u *url.URL) { last = u })
	if err != nil {
		if last == nil {
			last = c.cfg.ServerURLs[0]
		}
		return nil, fmt.Errorf("Could not retrieve resources from the PuppetDB at %s: %w", baseOf(last), err)
	}
	return DecodeResources(body)
}

func baseOf(u *url.URL) string {
	h, p := hostPort(u)
	return u.Scheme + "://" + h + ":" + p
}

// DecodeResources decodes a /pdb/query/v4/resources answer, keeping each
// resource's parameter order.
func DecodeResources(body []byte) ([]*ExportedResource, error) {
	var rows []struct {
		Certname    string          `json:"certname"`
		Type        string          `json:"type"`
		Title       string          `json:"title"`
		Exported    bool            `json:"exported"`
		Tags        []string        `json:"tags"`
		File        *string         `json:"file"`
		Line        *int            `json:"line"`
		Environment *string         `json:"environment"`
		Parameters  json.RawMessage `json:"parameters"`
	}
	if err := json.Unmarshal(body, &rows); err != nil {
		return nil, fmt.Errorf("could not parse PuppetDB's resources: %v", err)
	}
	out := make([]*ExportedResource, len(rows))
	for i, row := range rows {
		r := &ExportedResource{Certname: row.Certname, Type: row.Type, Title: row.Title, Exported: row.Exported, Tags: row.Tags}
		if row.File != nil {
			r.File = *row.File
		}
		if row.Line != nil {
			r.Line = *row.Line
		}
		if row.Environment != nil {
			r.Environment = *row.Environment
		}
		if len(row.Parameters) > 0 && !bytes.Equal(row.Parameters, []byte("null")) {
			v, err := JSONValue(row.Parameters)
			if err != nil {
				return nil, err
			}
			h, ok := v.(*value.Hash)
			if !ok {
				return nil, fmt.Errorf("could not parse PuppetDB's resources: parameters of %s[%s] are not an object", r.Type, r.Title)
			}
			for j, k := range h.Keys() {
				r.Params = append(r.Params, catalog.Param{Name: value.ToString(k), Value: h.Values()[j]})
			}
		}
		out[i] = r
	}
	return out, nil
}

// JSONValue decodes JSON into Puppet values with dataformat.FromJSON
// (objects become ordered hashes, integral numbers Integer, other numbers
// Float, null undef, nesting bounded as Ruby's JSON bounds it, which is
// how Puppet's terminus reads PuppetDB's answers).
func JSONValue(data []byte) (value.Value, error) {
	v, err := dataformat.FromJSON(data, "PuppetDB's answer")
	if err != nil {
		return nil, fmt.Errorf("could not parse PuppetDB's answer: %v", err)
	}
	return v, nil
}

// QueryData implements Store for puppetdb_query: the query (a PQL string
// or an AST) is posted as Query posts it, and the answer is read as the
// function's Ruby reads it (objects ordered, integral numbers Integer).
func (c *Client) QueryData(ctx context.Context, query value.Value) (value.Value, error) {
	body, err := marshal(map[string]json.RawMessage{"query": catalog.ValueJSON(query)})
	if err != nil {
		return nil, err
	}
	resp, err := c.postQuery(ctx, body)
	if err != nil {
		return nil, err
	}
	return JSONValue(resp.body)
}
