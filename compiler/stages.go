package compiler

import (
	"errors"
	"fmt"
	"strings"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/names"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// reservedTopVariables cannot be assigned by manifests.
var reservedTopVariables = map[string]bool{"facts": true, "trusted": true, "server_facts": true}

func (c *Compilation) stageNode() error {
	if !c.req.AnyNodeName && !names.ValidCertname(c.req.Node) {
		return fmt.Errorf("The node name '%s' contains illegal characters (only letters, digits, '_', '-', and '.' are allowed)", c.req.Node)
	}
	return nil
}

// stageTop creates Stage[main], Class[Settings], Class[main] and the top
// scope with facts, ENC parameters and Puppet's own variables.
func (c *Compilation) stageTop() error {
	c.top = eval.NewScope(eval.TopScope, "", nil, nil)
	facts := c.req.Facts
	if facts == nil {
		facts = value.EmptyHash
	}
	// Facts as legacy top-scope variables, then the ENC's parameters.
	// A node sends its facts: however many there are, the loops over them
	// stop with the compile's deadline.
	c.top.Reserve(len(facts.Keys()) + 16)
	for i, k := range facts.Keys() {
		if i%1024 == 1023 {
			if err := c.ev.Poll(); err != nil {
				return err
			}
		}
		if s, ok := k.(value.String); ok && !reservedTopVariables[string(s)] {
			c.top.Set(string(s), facts.Values()[i])
		}
	}
	if p := c.req.Parameters; p != nil {
		for i, k := range p.Keys() {
			if i%1024 == 1023 {
				if err := c.ev.Poll(); err != nil {
					return err
				}
			}
			if s, ok := k.(value.String); ok && !reservedTopVariables[string(s)] {
				c.setTop(string(s), p.Values()[i])
			}
		}
	}
	c.setTop("facts", facts)
	c.setTop("trusted", c.trusted())
	c.setTop("environment", value.String(c.env.Name))
	version := PuppetVersionFor(c.env.PuppetMajor())
	c.setTop("serverversion", value.String(version))
	// $server_facts: the server's identity when a server compiles (each
	// also a top-scope variable, $servername, $serverip, ...), then the
	// version and environment.
	serverFacts := value.NewHashBuilder(4)
	if sf := c.req.ServerFacts; sf != nil {
		for i, k := range sf.Keys() {
			if name, ok := k.(value.String); ok {
				serverFacts.Set(name, sf.Values()[i])
				c.setTop(string(name), sf.Values()[i])
			}
		}
	}
	serverFacts.Set(value.String("serverversion"), value.String(version))
	serverFacts.Set(value.String("environment"), value.String(c.env.Name))
	c.setTop("server_facts", serverFacts.Build())
	c.setTop("clientcert", value.String(c.req.Node))
	c.setTop("name", value.String("main"))
	c.setTop("title", value.String("main"))

	// Stages are not contained in anything.
	c.mainStage = &resource{Resource: &catalog.Resource{Type: "Stage", Title: "main", Tags: []string{"stage"}, Kind: catalog.KindNative,
		Params: []catalog.Param{{Name: "name", Value: value.String("main")}}}}
	settings := &resource{Resource: &catalog.Resource{Type: "Class", Title: "Settings", Tags: []string{"class", "settings"}, Kind: catalog.KindClass}, container: c.mainStage}
	c.mainClass = &resource{Resource: &catalog.Resource{Type: "Class", Title: "main", Tags: []string{"class"}, Kind: catalog.KindClass,
		Params: []catalog.Param{{Name: "name", Value: value.String("main")}}}, container: c.mainStage}
	for _, r := range []*resource{c.mainStage, settings, c.mainClass} {
		if err := c.addResource(r); err != nil {
			return err
		}
	}
	// Puppet lists the classifier's classes first, then settings; classes
	// are listed again when evaluated.
	for _, ec := range c.req.Classes {
		c.cat.Classes = append(c.cat.Classes, environment.CanonicalName(ec.Name))
	}
	c.cat.Classes = append(c.cat.Classes, "settings")
	c.scopes[c.top] = &scopeData{resource: c.mainClass}
	c.classes["settings"] = &classInstance{name: "settings", res: settings, scope: c.settingsScope()}
	c.classes[""] = &classInstance{name: "", res: c.mainClass, scope: c.top}
	// From now on what the compile looks up at top scope is a fact read.
	if c.req.Reads != nil {
		c.top.RecordFactReads(c.req.Reads)
	}
	return nil
}

// setTop sets a top-scope variable, replacing a fact of the same name.
func (c *Compilation) setTop(name string, v value.Value) {
	if !c.top.Set(name, v) {
		c.top.Replace(name, v)
	}
}

// trusted builds $trusted as Puppet does for a node compiled without a
// client certificate: certname from the clientcert fact, when present.
func (c *Compilation) trusted() *value.Hash {
	if t := c.req.Trusted; t != nil {
		return remoteTrusted(t)
	}
	certname := value.Value(value.Undef)
	hostname, domain := value.Value(value.Undef), value.Value(value.Undef)
	c.req.Reads.Fact("clientcert")
	if c.req.Facts != nil {
		if v, ok := c.req.Facts.GetString("clientcert"); ok {
			if s, ok := v.(value.String); ok {
				certname = s
				h, d, found := strings.Cut(string(s), ".")
				hostname = value.String(h)
				if found {
					domain = value.String(d)
				}
			}
		}
	}
	return value.NewHash(
		value.String("authenticated"), value.String("local"),
		value.String("certname"), certname,
		value.String("extensions"), value.EmptyHash,
		value.String("hostname"), hostname,
		value.String("domain"), domain,
		value.String("external"), value.EmptyHash,
	)
}

// remoteTrusted is $trusted for a request a compile server received: from
// the certificate, never from the facts.
func remoteTrusted(t *TrustedInfo) *value.Hash {
	if t.Hash != nil {
		return t.Hash
	}
	if t.Authenticated == "" {
		return value.NewHash(
			value.String("authenticated"), value.False,
			value.String("certname"), value.Undef,
			value.String("extensions"), value.EmptyHash,
			value.String("hostname"), value.Undef,
			value.String("domain"), value.Undef,
			value.String("external"), value.EmptyHash,
		)
	}
	ext := t.Extensions
	if ext == nil {
		ext = value.EmptyHash
	}
	external := t.External
	if external == nil {
		external = value.EmptyHash
	}
	h, d, found := strings.Cut(t.Certname, ".")
	domain := value.Value(value.Undef)
	if found {
		domain = value.String(d)
	}
	return value.NewHash(
		value.String("authenticated"), value.String(t.Authenticated),
		value.String("certname"), value.String(t.Certname),
		value.String("extensions"), ext,
		value.String("hostname"), value.String(h),
		value.String("domain"), domain,
		value.String("external"), external,
	)
}

// stageMain evaluates the main manifest's top-level code in Class[main].
func (c *Compilation) stageMain() error {
	for _, prog := range c.env.Manifests {
		sc := c.top
		sc.File = prog.File
		for _, stmt := range prog.Body {
			switch stmt.(type) {
			case *syntax.NodeDef, *syntax.ImportStmt:
				// Nodes are evaluated later; imports were loaded with the
				// environment.
				continue
			}
			if _, err := c.ev.Eval(stmt, sc); err != nil {
				return err
			}
		}
	}
	return nil
}

// stageNodeBody evaluates the matched node definition, if any.
func (c *Compilation) stageNodeBody() error {
	if c.req.FuzzyNodeMatching && len(c.env.Nodes) > 0 {
		// fuzzyNames reads these.
		for _, f := range []string{"fqdn", "hostname", "domain"} {
			c.req.Reads.Fact(f)
		}
	}
	m, err := matchNode(c.env.Nodes, c.req.Node, c.req.Facts, !c.req.FuzzyNodeMatching)
	if err != nil {
		return err
	}
	if m == nil {
		return nil
	}
	pos := m.node.File.Position(m.node.Def.Pos())
	node := &resource{Resource: &catalog.Resource{Type: "Node", Title: m.name, Kind: catalog.KindClass}, container: c.mainClass, pos: pos}
	node.AddTags("node", m.name)
	node.AddTags(c.mainClass.Tags...)
	if err := c.addResource(node); err != nil {
		return err
	}
	c.nodeRes = node
	c.cat.Classes = append(c.cat.Classes, m.name)
	// Legacy node inheritance: the parent node's body runs first and its
	// scope is the parent of this node's scope.
	parentScope := c.top
	if m.node.Def.Parent != nil {
		ps, err := c.evaluateParentNode(m.node, node)
		if err != nil {
			return err
		}
		parentScope = ps
	}
	c.nodeScope = eval.NewScope(eval.NodeScope, m.name, parentScope, m.node.File)
	c.scopes[c.nodeScope] = &scopeData{resource: node}
	if m.captures != nil {
		c.nodeScope.SetCaptures(m.captures)
	}
	if err := c.ev.Exec(m.node.Def.Body, c.nodeScope); err != nil {
		return err
	}
	return nil
}

// evaluateParentNode evaluates the node definition a legacy `node x
// inherits y` names, recursively, and returns its scope.
func (c *Compilation) evaluateParentNode(child *environment.NodeDef, node *resource) (*eval.Scope, error) {
	name, ok := environment.NodeKey(child.Def.Parent)
	if !ok {
		return nil, fmt.Errorf("invalid parent node name")
	}
	for depth := 0; depth < 100; depth++ {
		var parent *environment.NodeDef
		for _, n := range c.env.Nodes {
			for _, x := range n.Def.Names {
				if k, _ := environment.NodeKey(x); k == name {
					parent = n
				}
			}
		}
		if parent == nil {
			return nil, fmt.Errorf("Could not find parent node '%s' of node %s", strings.TrimPrefix(name, "n:"), node.Title)
		}
		scopeParent := c.top
		if parent.Def.Parent != nil {
			sp, err := c.evaluateParentNode(parent, node)
			if err != nil {
				return nil, err
			}
			scopeParent = sp
		}
		sc := eval.NewScope(eval.NodeScope, strings.TrimPrefix(name, "n:"), scopeParent, parent.File)
		c.scopes[sc] = &scopeData{resource: node}
		if err := c.ev.Exec(parent.Def.Body, sc); err != nil {
			return nil, err
		}
		return sc, nil
	}
	return nil, fmt.Errorf("node inheritance is too deep")
}

// stageENC declares the ENC's classes at node scope, after the node body:
// plain names like include, classes with parameters resource-like; all are
// declared before any is evaluated, as Puppet does.
func (c *Compilation) stageENC() error {
	sc := c.nodeScope
	if sc == nil {
		sc = c.top
	}
	var plain []string
	var withParams []ENCClass
	for _, ec := range c.req.Classes {
		if def, err := c.findClass(ec.Name); err != nil {
			return err
		} else if def == nil || def.Class == nil {
			cname := environment.CanonicalName(ec.Name)
			return c.unknownClass(cname, fmt.Sprintf("Could not find class %s for %s", cname, c.req.Node))
		}
		if ec.Params == nil {
			plain = append(plain, ec.Name)
		} else {
			withParams = append(withParams, ec)
		}
	}
	if len(plain) > 0 {
		if _, err := c.includeClasses(sc, plain, nil); err != nil {
			return err
		}
	}
	var declared []*classInstance
	for _, ec := range withParams {
		ci, err := c.declareClassWithParams(sc, ec.Name, ec.Params, syntax.Position{}, nil)
		if err != nil {
			// Puppet declares the ENC's classes outside its evaluator: a
			// duplicate is reported as it is.
			if errors.Is(err, errDuplicate) {
				return err
			}
			return evalError(nil, nil, "Error while evaluating a Resource Statement, ", err)
		}
		// Resource-like as to parameters, but Puppet's ENC declares the
		// class outside the evaluator and records its kind as an
		// included class's.
		ci.res.Kind = catalog.KindClass
		declared = append(declared, ci)
	}
	for _, ci := range declared {
		if err := c.evaluateClass(ci); err != nil {
			return evalError(nil, nil, "Error while evaluating a Resource Statement, ", err)
		}
	}
	return nil
}

// stageLazy runs the generator fixpoint: defined-type instances are
// evaluated in declaration order and collectors re-run, until a round adds
// nothing.
func (c *Compilation) stageLazy() error {
	for round := 0; ; round++ {
		if round > MaxLazyRounds {
			return evaluationError(diag.Range{}, fmt.Sprintf("the compile did not settle after %d rounds of defined types and collectors (MaxLazyRounds, a fixed limit of marionette)", round), nil)
		}
		if err := c.ev.Poll(); err != nil {
			return err
		}
		progress := false
		for len(c.pendingDefines) > 0 {
			r := c.pendingDefines[0]
			c.pendingDefines = c.pendingDefines[1:]
			if r.evaluated || r.virtual {
				continue
			}
			progress = true
			if err := c.ev.Tick(); err != nil {
				return err
			}
			if err := c.evaluateDefine(r); err != nil {
				return defineError(err, r.pos)
			}
		}
		n, err := c.runCollectors()
		if err != nil {
			return err
		}
		if n > 0 {
			progress = true
		}
		if !progress {
			return nil
		}
	}
}

// settingsScope is the scope of class settings: every setting as a
// variable ($settings::certname), and all_local, a hash of them all, as
// Puppet merges the settings into it.
func (c *Compilation) settingsScope() *eval.Scope {
	sc := eval.NewScope(eval.ClassScope, "settings", c.top, nil)
	settings := c.env.Settings()
	sc.Reserve(len(settings) + 1)
	for _, st := range settings {
		sc.Set(st.Name, st.Value)
	}
	sc.Set("all_local", c.env.AllSettings())
	return sc
}
