package puppetdb

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

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
// them (/pdb/query/v4/nodes/<certname>/facts, one fact a row, in the
// terminus's order: see terminusFacts; a known node without facts has
// none). A node PuppetDB does not know is ErrNoFacts; other failures are worded as the
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
	var rows []factRow
	if err := json.Unmarshal(body, &rows); err != nil {
		return nil, fmt.Errorf("Failed to find facts from PuppetDB at  could not parse PuppetDB's facts: %v", err)
	}
	return terminusFacts(rows)
}

// factRow is one fact of a PuppetDB answer.
type factRow struct {
	Name  string          `json:"name"`
	Value json.RawMessage `json:"value"`
}

// terminusFacts makes a node's facts hash from PuppetDB's rows in one
// fixed order, so that a fleet read in batches and a node read on its own
// give the same $facts (iteration order in manifests and templates).
//
// Puppet's facts terminus builds its hash row by row from the answer to
// /pdb/query/v4/nodes/<certname>/facts, which has no order_by, and
// PuppetDB guarantees none: fresh PuppetDB 7 servers (PostgreSQL 15)
// answered in jsonb's key order (shorter keys first, then bytewise) and in
// its reverse, and the factsets endpoint in jsonb's order. The order used
// here is jsonb's reversed, the one most often measured there; it is
// Puppet's whenever PuppetDB answers that way. Values of facts keep the
// order of the stored jsonb, as in Puppet. A fact named twice keeps its
// last value.
func terminusFacts(rows []factRow) (*value.Hash, error) {
	last := make(map[string]int, len(rows))
	for i, r := range rows {
		last[r.Name] = i
	}
	order := make([]int, 0, len(last))
	for i, r := range rows {
		if last[r.Name] == i {
			order = append(order, i)
		}
	}
	slices.SortFunc(order, func(a, b int) int { return terminusCompare(rows[a].Name, rows[b].Name) })
	h := value.NewHashBuilder(len(order))
	for _, i := range order {
		v, err := JSONValue(rows[i].Value)
		if err != nil {
			return nil, fmt.Errorf("Failed to find facts from PuppetDB at  %v", err)
		}
		h.Set(value.String(rows[i].Name), v)
	}
	return h.Build(), nil
}

// terminusCompare orders fact names as the facts terminus receives them:
// jsonb's key order (shorter first, then bytewise), reversed.
func terminusCompare(a, b string) int {
	if len(a) != len(b) {
		return cmp.Compare(len(b), len(a))
	}
	return strings.Compare(b, a)
}

// FactsBatch reads the facts of a known list of nodes, many nodes a
// request: a fleet run asks for nodes in list order, and a request per
// node would cost more than the compile. A page of nodes is fetched when
// one of its nodes is first asked for and dropped once each of its nodes
// has been asked for, so memory holds a few pages, however large the
// fleet. It is safe for concurrent use.
type FactsBatch struct {
	c     *Client
	names []string
	index map[string]int
	size  int
	mu    sync.Mutex
	pages map[int]*factsPage
}

// factsPage is one page's facts, loaded once.
type factsPage struct {
	once  sync.Once
	facts map[string]*value.Hash
	err   error
	left  int // nodes of the page not yet asked for
}

// NewFactsBatch reads the facts of names pageSize nodes at a time (100
// when pageSize <= 0).
func (c *Client) NewFactsBatch(names []string, pageSize int) *FactsBatch {
	if pageSize <= 0 {
		pageSize = 100
	}
	b := &FactsBatch{c: c, names: names, index: make(map[string]int, len(names)), size: pageSize, pages: map[int]*factsPage{}}
	for i, n := range names {
		if _, dup := b.index[n]; !dup {
			b.index[n] = i
		}
	}
	return b
}

// Facts returns certname's latest facts as NodeFacts does; a node not in
// the batch's list is read on its own.
func (b *FactsBatch) Facts(ctx context.Context, certname string) (*value.Hash, error) {
	i, ok := b.index[certname]
	if !ok {
		return b.c.NodeFacts(ctx, certname)
	}
	n := i / b.size
	b.mu.Lock()
	p := b.pages[n]
	if p == nil {
		end := min((n+1)*b.size, len(b.names))
		p = &factsPage{left: end - n*b.size}
		b.pages[n] = p
	}
	p.left--
	if p.left <= 0 {
		delete(b.pages, n)
	}
	b.mu.Unlock()
	p.once.Do(func() {
		end := min((n+1)*b.size, len(b.names))
		p.facts, p.err = b.c.factsets(ctx, b.names[n*b.size:end])
	})
	if p.err != nil {
		return nil, p.err
	}
	if f, ok := p.facts[certname]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("%s: %w", certname, ErrNoFacts)
}

// factsets reads the factsets of names in one request.
func (c *Client) factsets(ctx context.Context, names []string) (map[string]*value.Hash, error) {
	list := make([]any, len(names))
	for i, n := range names {
		list[i] = n
	}
	// POSTed: a page of certnames can exceed what a URL may hold.
	q, err := marshal(map[string]any{"query": []any{"from", "factsets", []any{"in", "certname", []any{"array", list}}}})
	if err != nil {
		return nil, err
	}
	resp, err := c.postQuery(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("Failed to find facts from PuppetDB at  %w", err)
	}
	body := resp.body
	var rows []struct {
		Certname string `json:"certname"`
		Facts    struct {
			Data []factRow `json:"data"`
		} `json:"facts"`
	}
	if err := json.Unmarshal(body, &rows); err != nil {
		return nil, fmt.Errorf("Failed to find facts from PuppetDB at  could not parse PuppetDB's factsets: %v", err)
	}
	out := make(map[string]*value.Hash, len(rows))
	for _, r := range rows {
		h, err := terminusFacts(r.Facts.Data)
		if err != nil {
			return nil, err
		}
		out[r.Certname] = h
	}
	return out, nil
}
