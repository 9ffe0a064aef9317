package compiler

import (
	"context"
	"fmt"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// Store is where a compile finds what other nodes exported (PuppetDB, as
// Puppet's storeconfigs backend). A Request with a Store compiles as Puppet
// does with storeconfigs = true: `<<| |>>` collects the node's own exports
// and the store's, and puppetdb_query is a function. *puppetdb.Client
// implements it.
type Store interface {
	// CollectExported returns the exported resources of type typ
	// (capitalized, "Nagios_service") that filter selects (nil: all),
	// from every node but excludeCertname, whose exports come from its own
	// catalog.
	CollectExported(ctx context.Context, typ string, filter *catalog.ExportFilter, excludeCertname string) ([]*catalog.ExportedResource, error)
	// QueryData runs puppetdb_query's query (a PQL string or an AST, as
	// an Array of Data) and returns the answer as Puppet data.
	QueryData(ctx context.Context, query value.Value) (value.Value, error)
}

// exportFilter turns a collector's query into the store's filter, as
// Puppet's collector transformer builds its "match" triple: names and
// values evaluated, parentheses dropped.
func (c *Compilation) exportFilter(sc *eval.Scope, q syntax.Expr) (*catalog.ExportFilter, error) {
	switch q := q.(type) {
	case nil:
		return nil, nil
	case *syntax.ParenExpr:
		return c.exportFilter(sc, q.X)
	case *syntax.BinaryExpr:
		switch q.Op {
		case syntax.AND, syntax.OR:
			l, err := c.exportFilter(sc, q.Left)
			if err != nil {
				return nil, err
			}
			r, err := c.exportFilter(sc, q.Right)
			if err != nil {
				return nil, err
			}
			op := "and"
			if q.Op == syntax.OR {
				op = "or"
			}
			return &catalog.ExportFilter{Op: op, Left: l, Right: r}, nil
		case syntax.EQL, syntax.NEQ:
			name, err := queryAttribute(q.Left)
			if err != nil {
				return nil, eval.Errorf(c.pos(sc, q), "%s", err)
			}
			want, err := c.ev.Eval(q.Right, sc)
			if err != nil {
				return nil, err
			}
			op := "=="
			if q.Op == syntax.NEQ {
				op = "!="
			}
			return &catalog.ExportFilter{Op: op, Attr: name, Value: dataformat.GoData(want)}, nil
		}
	}
	return nil, eval.Errorf(c.pos(sc, q), "Unsupported collector query expression")
}

// collectStored adds the store's resources for an exported collector, once
// per compile (the store's answer does not change while it runs). Each
// enters the catalog as Puppet's collector adds it: declared in the
// collector's scope (its defaults, container and tags), without file and
// line, not exported; one already in the catalog is a duplicate unless it
// came from the same node.
func (c *Compilation) collectStored(col *collector) (int, error) {
	if col.fetched {
		return 0, nil
	}
	col.fetched = true
	filter, err := c.exportFilter(col.scope, col.x.Query)
	if err != nil {
		return 0, err
	}
	found, err := c.req.Store.CollectExported(c.ctx, col.typ, filter, c.req.Node)
	if err != nil {
		// Puppet raises it from the compiler, not the evaluator: no
		// position.
		return 0, err
	}
	n := 0
	for _, row := range found {
		if err := c.ev.Tick(); err != nil {
			return n, err
		}
		ref := catalog.Ref{Type: col.typ, Title: row.Title}
		if existing := c.byRef[ref]; existing != nil {
			if existing.collectorID != row.CollectorID() {
				return n, fmt.Errorf("A duplicate resource was found while collecting exported resources, with the type and title %s", ref)
			}
			continue
		}
		r, err := c.storedResource(col, row)
		if err != nil {
			return n, err
		}
		if err := c.addResource(r); err != nil {
			return n, err
		}
		if r.define != nil {
			c.pendingDefines = append(c.pendingDefines, r)
		}
		col.seen[r] = true
		col.matched = append(col.matched, r)
		n++
		c.applyCollectorOps(r, col.ops)
	}
	return n, nil
}

// storedResource builds the resource for one row of the store.
func (c *Compilation) storedResource(col *collector, row *catalog.ExportedResource) (*resource, error) {
	kind := catalog.KindNative
	var def *environment.Definition
	typeName := environment.CanonicalName(col.typ)
	if c.types != nil {
		if _, ok := c.types.Lookup(typeName); !ok {
			d, err := c.env.lookup(environment.KindDefine, typeName)
			if err != nil {
				return nil, err
			}
			if d != nil {
				def, kind = d, catalog.KindDefined
			}
		}
	}
	r := c.newResource(typeName, row.Title, col.scope, syntax.Position{}, kind)
	r.Type = col.typ
	r.define = def
	r.collectorID = row.CollectorID()
	r.Params = make([]catalog.Param, 0, len(row.Params))
	for _, p := range row.Params {
		if p.Name == "tag" {
			r.Tags = dedupeTags(append(tagValues(p.Value), r.Tags...))
		}
		c.setParam(r, p.Name, p.Value)
	}
	c.applyDefaults(r, col.scope, nil)
	return r, nil
}

// addStoreFunctions adds the functions a store provides (puppetdb_query,
// as the PuppetDB termini define it) to the compile's own table t.
func (c *Compilation) addStoreFunctions(t functions.Table) {
	query := functions.Param{Name: "query", Type: value.NewVariant(
		&value.StringType{Min: 1, Max: value.MaxInt},
		&value.ArrayType{Elem: value.DataType, Min: 1, Max: value.MaxInt})}
	t["puppetdb_query"] = functions.Dispatch("puppetdb_query", functions.Signature{
		Params: []functions.Param{query}, Required: 1,
		Impl: func(_ *functions.Ctx, args []value.Value) (value.Value, error) {
			return c.req.Store.QueryData(c.ctx, args[0])
		},
	})
}

// storeCatalog is the catalog with the exported resources the node did not
// collect, for the store: they keep their place in declaration order and
// the edge from their container.
func (c *Compilation) storeCatalog() *catalog.Catalog {
	sc := catalog.New(c.cat.Name, c.cat.Environment)
	sc.Version, sc.CodeID, sc.UUID = c.cat.Version, c.cat.CodeID, c.cat.UUID
	sc.Tags, sc.Classes, sc.RichData = c.cat.Tags, c.cat.Classes, c.cat.RichData
	var edges []catalog.Edge
	for _, r := range c.resources {
		switch {
		case !r.virtual:
			sc.Add(r.Resource)
		case r.exported:
			e := *r.Resource
			e.Exported = true
			sc.Add(&e)
			if r.container != nil {
				edges = append(edges, catalog.Edge{Source: r.container.Ref(), Target: r.Ref()})
			}
		}
	}
	sc.Edges = append(append(sc.Edges, c.cat.Edges...), edges...)
	return sc
}

// TrustedHash is $trusted of a compile server's request with trusted
// data t, as the facts PuppetDB stores carry it.
func TrustedHash(t *TrustedInfo) *value.Hash { return remoteTrusted(t) }
