package compiler

import "github.com/marionette-dev/marionette/filecache"

// fileCacheKey names a file read as one kind ("epp", "erb", "ruby",
// "rubylib"): a file read both as ERB and as EPP is parsed once as each.
type fileCacheKey struct{ kind, path string }

// loadFile is the environment's file cache remembered for the rest of
// the compile: the first use of a file checks the disk, a template
// rendered again or a Ruby function called again does not. Errors are not
// remembered.
func (c *Compilation) loadFile(path, kind string, parse filecache.Parser) (any, error) {
	key := fileCacheKey{kind, path}
	if v, ok := c.files[key]; ok {
		return v, nil
	}
	c.req.Reads.File(path)
	v, err := c.env.Files().Get(kind, path, parse)
	if err != nil {
		return nil, err
	}
	if c.files == nil {
		c.files = make(map[fileCacheKey]any)
	}
	c.files[key] = v
	return v, nil
}
