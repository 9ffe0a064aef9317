package puppetdb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"

	"github.com/marionette-dev/marionette/value"
)

// DefaultPageSize is how many certnames ActiveNodes asks for at once: a
// page is a few hundred kilobytes, however large the fleet.
const DefaultPageSize = 1000

// ErrNoFacts is NodeFacts' error for a node PuppetDB knows nothing about
// (the facts terminus then finds no facts).
var ErrNoFacts = errors.New("no facts in PuppetDB")

// activeWithFacts selects the nodes a fleet run compiles: PuppetDB's nodes
// endpoint returns active nodes only (unless a query names node_state),
// and a node without a factset (only a report, say) has nothing to compile
// with.
var activeWithFacts = []any{"extract", []any{"certname"}, []any{"null?", "facts_timestamp", false}}

// ActiveNodes calls fn with the certname of every active node that has a
// factset, in certname order, asking PuppetDB pageSize nodes at a time
// (DefaultPageSize when pageSize <= 0) so that memory does not grow with
// the fleet. An error from fn stops the listing and is returned.
func (c *Client) ActiveNodes(ctx context.Context, pageSize int, fn func(certname string) error) error {
	if pageSize <= 0 {
		pageSize = DefaultPageSize
	}
	order := url.QueryEscape(`[{"field":"certname","order":"asc"}]`)
	for offset := 0; ; offset += pageSize {
		params := "limit=" + strconv.Itoa(pageSize) + "&offset=" + strconv.Itoa(offset) + "&order_by=" + order
		body, err := c.queryParams(ctx, "nodes", activeWithFacts, params, nil)
		if err != nil {
			return fmt.Errorf("Could not list the nodes in PuppetDB: %w", err)
		}
		var rows []struct {
			Certname string `json:"certname"`
		}
		if err := json.Unmarshal(body, &rows); err != nil {
			return fmt.Errorf("could not parse PuppetDB's nodes: %v", err)
		}
		for _, r := range rows {
			if err := fn(r.Certname); err != nil {
				return err
			}
		}
		if len(rows) < pageSize {
			return nil
		}
	}
}

// NodeFacts returns a node's latest facts as the facts terminus finds
// them (/pdb/query/v4/nodes/<certname>/facts, one fact a row, in
// PuppetDB's order; a fact named twice keeps its last value; a known node
// without facts has none). A node PuppetDB does not know is ErrNoFacts; other failures are worded as the
// terminus words them.
func (c *Client) NodeFacts(ctx context.Context, certname string) (*value.Hash, error) {
	body, err := c.queryEndpoint(ctx, "nodes/"+url.PathEscape(certname)+"/facts", nil, nil)
	if err != nil {
		var af *AllServersFailedError
		if errors.As(err, &af) && af.NotFound {
			return nil, fmt.Errorf("%s: %w", certname, ErrNoFacts)
		}
		return nil, fmt.Errorf("Failed to find facts from PuppetDB at  %w", err)
	}
	var rows []struct {
		Name  string          `json:"name"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(body, &rows); err != nil {
		return nil, fmt.Errorf("Failed to find facts from PuppetDB at  could not parse PuppetDB's facts: %v", err)
	}
	b := value.NewHashBuilder(len(rows))
	for _, r := range rows {
		v, err := JSONValue(r.Value)
		if err != nil {
			return nil, fmt.Errorf("Failed to find facts from PuppetDB at  %v", err)
		}
		b.Set(value.String(r.Name), v)
	}
	return b.Build(), nil
}
