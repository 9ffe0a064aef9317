package compiler

// compileEnv is a compile's view of its environment: definitions are looked
// up through it so that the compile reports, in its own diagnostics, the
// warnings of each file it loads or uses, once, when it first does. The
// warnings belong to the file, not to the shared environment: a file
// loaded by one compile still warns in every other compile that uses it,
// and concurrent compiles never share a list.
type compileEnv struct {
	*Environment
	c    *Compilation
	used map[*sourceFile]bool
}

// lookup finds a definition as Environment.lookup does, and reports the
// warnings of the files that took.
func (e *compileEnv) lookup(kind defKind, name string) (*Definition, error) {
	d, err := e.Environment.lookupNoting(kind, name, e.use)
	if d != nil {
		e.use(d.source)
	}
	return d, err
}

// use reports the warnings of f unless this compile already has.
func (e *compileEnv) use(f *sourceFile) {
	if f == nil || e.used[f] {
		return
	}
	if e.used == nil {
		e.used = make(map[*sourceFile]bool)
	}
	e.used[f] = true
	e.c.diags = append(e.c.diags, f.warnings...)
}

// useMainFiles reports the warnings of the main manifest, which Puppet
// logs when it parses it, before the compile.
func (e *compileEnv) useMainFiles() {
	for _, f := range e.mainFiles {
		e.use(f)
	}
}
