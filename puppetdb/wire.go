package puppetdb

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/value"
)

// marshal encodes as Ruby's JSON generator does: no HTML escaping, no
// trailing newline.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func jsonString(s string) []byte {
	b, _ := marshal(s)
	return b
}

// decodeAny decodes JSON keeping numbers exact (json.Number).
func decodeAny(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, fmt.Errorf("could not parse PuppetDB's answer: %v", err)
	}
	return v, nil
}

// object is a JSON object that keeps its keys in order.
type object struct {
	keys []string
	vals []json.RawMessage
}

func (o *object) set(k string, v json.RawMessage) {
	for i, have := range o.keys {
		if have == k {
			o.vals[i] = v
			return
		}
	}
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
}

func (o *object) get(k string) (json.RawMessage, bool) {
	for i, have := range o.keys {
		if have == k {
			return o.vals[i], true
		}
	}
	return nil, false
}

func (o *object) delete(k string) {
	for i, have := range o.keys {
		if have == k {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			o.vals = append(o.vals[:i], o.vals[i+1:]...)
			return
		}
	}
}

// MarshalJSON writes the keys in order.
func (o *object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(jsonString(k))
		b.WriteByte(':')
		b.Write(o.vals[i])
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// FactsPayload is replace facts v5's payload.
type FactsPayload struct {
	Certname          string          `json:"certname"`
	Environment       string          `json:"environment"`
	ProducerTimestamp string          `json:"producer_timestamp"`
	Producer          string          `json:"producer"`
	Values            json.RawMessage `json:"values"`
	PackageInventory  json.RawMessage `json:"package_inventory,omitempty"`
}

// Facts builds replace facts v5's payload as the facts terminus does: the
// node's facts plus "trusted" (the trusted data of the request), with the
// _puppet_inventory_1 fact's packages moved to package_inventory. producer
// is the compile server's certname.
func Facts(certname, environment, producer string, at time.Time, facts, trusted *value.Hash) ([]byte, error) {
	values := &object{}
	var inventory value.Value
	for i, k := range facts.Keys() {
		name := value.ToString(k)
		if name == "_puppet_inventory_1" {
			inventory = facts.Values()[i]
			continue
		}
		if name == "trusted" {
			continue
		}
		values.set(name, catalog.ValueJSON(facts.Values()[i]))
	}
	if trusted == nil {
		trusted = value.EmptyHash
	}
	values.set("trusted", catalog.ValueJSON(trusted))
	vj, _ := values.MarshalJSON()
	p := FactsPayload{Certname: certname, Environment: environment, ProducerTimestamp: WireTime(at), Producer: producer, Values: vj}
	if inv, ok := inventory.(*value.Hash); ok {
		if pk, ok := inv.GetString("packages"); ok {
			p.PackageInventory = catalog.ValueJSON(pk)
		} else {
			p.PackageInventory = json.RawMessage("null")
		}
	}
	return marshal(p)
}

// Deactivate builds deactivate node v3's payload.
func Deactivate(certname string, at time.Time) ([]byte, error) {
	return marshal(map[string]string{"certname": certname, "producer_timestamp": WireTime(at)})
}

// CatalogInfo is what replace catalog needs beyond the catalog: the
// request's identifiers and who produced it.
type CatalogInfo struct {
	TransactionUUID string // the agent's transaction_uuid; "" is null
	JobID           string // "" is null
	Producer        string // the compile server's certname
	At              time.Time
	// KeyAttributes tells, for a resource type, its key attributes and
	// whether it is isomorphic, to add the namevar aliases the termini
	// add. nil, or ok false, means a type with the single key "name".
	KeyAttributes func(typ string) (attrs []string, isomorphic, ok bool)
}

// Edge is one edge of replace catalog's payload.
type Edge struct {
	Source       RefJSON `json:"source"`
	Target       RefJSON `json:"target"`
	Relationship string  `json:"relationship"`
}

// RefJSON is a resource reference as the payload writes it.
type RefJSON struct {
	Type  string `json:"type"`
	Title string `json:"title"`
}

type wireResource struct {
	Type       string   `json:"type"`
	Title      string   `json:"title"`
	Tags       []string `json:"tags"`
	File       *string  `json:"file,omitempty"`
	Line       *int     `json:"line,omitempty"`
	Exported   bool     `json:"exported"`
	Parameters *object  `json:"parameters"`
	params     *object  // the same object, for munging
	res        *catalog.Resource
}

// relationships maps the relationship metaparameters to edges: forward
// from the resource, or reverse (the other resource is the source).
var relationships = []struct {
	param, relationship string
	forward             bool
}{
	{"before", "before", true},
	{"require", "required-by", false},
	{"notify", "notifies", true},
	{"subscribe", "subscription-of", false},
}

// unorderedMetaparams are sorted by the termini so that order does not
// make catalogs differ.
var unorderedMetaparams = []string{"alias", "audit", "before", "check", "notify", "require", "subscribe", "tag"}

var (
	refShape = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z][a-z0-9_]*(::[A-Z][a-z0-9_]*)*\[(?s:.*)\]`) })
	refParts = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?s)([^\[\]]+)\[(.+)\]$`) })
)

// Catalog builds replace catalog v9's payload from a compiled catalog, as
// the catalog terminus munges Puppet's: version as a string, namevar
// aliases, sorted unordered metaparameters, containment edges plus edges
// from before/require/notify/subscribe, sensitive parameters removed.
// Exported resources not collected by the node itself are virtual: they
// carry no relationship edges, and pointing at one is an error.
func Catalog(cat *catalog.Catalog, info CatalogInfo) ([]byte, error) {
	resources := make([]*wireResource, len(cat.Resources))
	table := make(map[catalog.Ref]*wireResource, len(cat.Resources))
	for i, r := range cat.Resources {
		w := &wireResource{Type: r.Type, Title: r.Title, Tags: r.Tags, Exported: r.Exported, res: r}
		if w.Tags == nil {
			w.Tags = []string{}
		}
		if r.File != "" {
			f, l := r.File, r.Line
			w.File, w.Line = &f, &l
		}
		w.params = &object{}
		for _, p := range r.Params {
			w.params.set(p.Name, catalog.ValueJSON(p.Value))
		}
		w.Parameters = w.params
		addNamevarAlias(w, info)
		sortMetaparams(w.params)
		resources[i] = w
		table[r.Ref()] = w
	}
	aliases := map[catalog.Ref]*wireResource{}
	for _, w := range resources {
		for _, a := range stringsOf(w.params, "alias") {
			aliases[catalog.Ref{Type: w.Type, Title: a}] = w
		}
	}
	edges := make([]Edge, 0, len(cat.Edges))
	for _, e := range cat.Edges {
		edges = append(edges, Edge{RefJSON{e.Source.Type, e.Source.Title}, RefJSON{e.Target.Type, e.Target.Title}, "contains"})
	}
	for _, w := range resources {
		if w.Exported {
			continue
		}
		self := RefJSON{w.Type, w.Title}
		for _, rel := range relationships {
			raw, ok := w.params.get(rel.param)
			if !ok {
				continue
			}
			for _, other := range flatStrings(raw) {
				desc := fmt.Sprintf("%s[%s] { %s => %s }", w.Type, w.Title, rel.param, other)
				if !refShape().MatchString(other) {
					return nil, fmt.Errorf("Invalid relationship: %s, because %s doesn't seem to be in the correct format. Resource references should be formatted as: Classname['title'] or Modulename::Classname['title'] (take careful note of the capitalization).", desc, other)
				}
				m := refParts().FindStringSubmatch(other)
				oref := catalog.Ref{}
				if m != nil {
					oref = catalog.Ref{Type: m[1], Title: m[2]}
				}
				if oref.Type == "File" && strings.HasSuffix(oref.Title, "/") {
					oref.Title = strings.TrimRight(oref.Title, "/")
				}
				target := table[oref]
				if target == nil {
					target = aliases[oref]
				}
				if target == nil {
					return nil, fmt.Errorf("Invalid relationship: %s, because %s doesn't seem to be in the catalog", desc, other)
				}
				if target.Exported {
					return nil, fmt.Errorf("Invalid relationship: %s, because %s is exported but not collected", desc, other)
				}
				o := RefJSON{oref.Type, target.Title}
				if rel.forward {
					edges = append(edges, Edge{self, o, rel.relationship})
				} else {
					edges = append(edges, Edge{o, self, rel.relationship})
				}
			}
		}
	}
	edges = uniqueEdges(edges)
	for _, w := range resources {
		for _, s := range w.res.Sensitive {
			w.params.delete(s)
		}
	}
	nullable := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	payload := struct {
		Certname          string          `json:"certname"`
		Version           string          `json:"version"`
		Environment       string          `json:"environment"`
		TransactionUUID   *string         `json:"transaction_uuid"`
		CatalogUUID       *string         `json:"catalog_uuid"`
		CodeID            *string         `json:"code_id"`
		JobID             *string         `json:"job_id"`
		ProducerTimestamp string          `json:"producer_timestamp"`
		Producer          string          `json:"producer"`
		Resources         []*wireResource `json:"resources"`
		Edges             []Edge          `json:"edges"`
	}{
		Certname:          cat.Name,
		Version:           fmt.Sprint(cat.Version),
		Environment:       cat.Environment,
		TransactionUUID:   nullable(info.TransactionUUID),
		CatalogUUID:       nullable(cat.UUID),
		CodeID:            nullable(cat.CodeID),
		JobID:             nullable(info.JobID),
		ProducerTimestamp: WireTime(info.At.UTC()),
		Producer:          info.Producer,
		Resources:         resources,
		Edges:             edges,
	}
	if payload.CatalogUUID == nil {
		// The termini fall back to the transaction UUID.
		payload.CatalogUUID = payload.TransactionUUID
	}
	return marshal(payload)
}

// addNamevarAlias adds the namevar's value to the alias parameter when it
// differs from the title, as the termini do for isomorphic types with one
// key attribute.
func addNamevarAlias(w *wireResource, info CatalogInfo) {
	attrs, isomorphic := []string{"name"}, true
	if info.KeyAttributes != nil {
		if a, iso, ok := info.KeyAttributes(w.Type); ok {
			attrs, isomorphic = a, iso
		}
	}
	if len(attrs) > 1 {
		return
	}
	aliases := stringsOf(w.params, "alias")
	if isomorphic && len(attrs) == 1 {
		name := w.Title
		if v, ok := w.res.Param(attrs[0]); ok {
			name = value.ToString(v)
		}
		// Puppet titles Class[main] and Stage[main] with the symbol :main,
		// which never equals the name "main": they get that alias.
		symbolTitle := w.Title == "main" && (w.Type == "Class" || w.Type == "Stage")
		if (name != w.Title || symbolTitle) && !contains(aliases, name) {
			aliases = append(aliases, name)
		}
	}
	if len(aliases) > 0 {
		b, _ := marshal(aliases)
		w.params.set("alias", b)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// stringsOf reads a parameter that is a string or an array of strings.
func stringsOf(o *object, name string) []string {
	raw, ok := o.get(name)
	if !ok {
		return nil
	}
	return flatStrings(raw)
}

// flatStrings flattens a JSON value to its strings (nulls dropped), as
// [value].flatten does to the termini's relationship values; other
// scalars are kept in their JSON text.
func flatStrings(raw json.RawMessage) []string {
	v, err := decodeAny(raw)
	if err != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case nil:
		case []any:
			for _, x := range v {
				walk(x)
			}
		case string:
			out = append(out, v)
		default:
			b, _ := marshal(v)
			out = append(out, string(b))
		}
	}
	walk(v)
	return out
}

// sortMetaparams sorts array values of the unordered metaparameters by
// their string forms; an empty array is left as it is.
func sortMetaparams(o *object) {
	for _, name := range unorderedMetaparams {
		raw, ok := o.get(name)
		if !ok || !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("[")) {
			continue
		}
		var elems []json.RawMessage
		if json.Unmarshal(raw, &elems) != nil || len(elems) == 0 {
			continue
		}
		key := func(r json.RawMessage) string {
			var s string
			if json.Unmarshal(r, &s) == nil {
				return s
			}
			return string(r)
		}
		sort.SliceStable(elems, func(i, j int) bool { return key(elems[i]) < key(elems[j]) })
		var b bytes.Buffer
		b.WriteByte('[')
		for i, e := range elems {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(e)
		}
		b.WriteByte(']')
		o.set(name, b.Bytes())
	}
}

func uniqueEdges(edges []Edge) []Edge {
	seen := make(map[Edge]bool, len(edges))
	out := edges[:0]
	for _, e := range edges {
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out
}
