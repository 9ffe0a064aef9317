package hiera

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"

	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/filecache"
	"github.com/marionette-dev/marionette/hocon"
	"github.com/marionette-dev/marionette/value"
)

// Cache holds parsed hiera.yaml files and data files shared by any number of
// concurrent compiles, in a filecache.Cache (that of the environments, when
// made with NewCacheOn): a file is parsed again once its modification time
// or size changed.
type Cache struct {
	files *filecache.Cache
	// eyamlKeys holds hiera-eyaml key pairs (eyaml.go).
	eyamlKeys eyamlKeyCache
	// snapshot caches see each hiera.yaml and data file as it was when
	// first looked at: stats holds what stat found at each path (a
	// statResult), found once for the cache's life.
	snapshot bool
	stats    sync.Map
}

// NewCache returns an empty cache with a file cache of its own.
func NewCache() *Cache { return NewCacheOn(filecache.New()) }

// NewCacheOn returns a cache keeping its files in files.
func NewCacheOn(files *filecache.Cache) *Cache { return &Cache{files: files} }

// NewSnapshotCacheOn returns a cache as NewCacheOn does, for a batch run
// that compiles a snapshot of the code (environment.Options.Snapshot):
// each hiera.yaml and data file path is stat'ed once, so a file created,
// removed or changed later is not noticed. A fleet's compiles stat the same dozens
// of files (every module's hiera.yaml, the shared data files) for every
// node otherwise.
func NewSnapshotCacheOn(files *filecache.Cache) *Cache {
	return &Cache{files: files, snapshot: true}
}

// statResult is what stat found at a path: the file's stamp, or
// errNotExist.
type statResult struct {
	stamp filecache.Stamp
	err   error
}

// stat is statFile, remembered by a snapshot cache (a failure other than
// a missing file is not: it is reported each time).
func (c *Cache) stat(path string) (filecache.Stamp, error) {
	if !c.snapshot {
		return statFile(path)
	}
	if r, ok := c.stats.Load(path); ok {
		r := r.(statResult)
		return r.stamp, r.err
	}
	stamp, err := statFile(path)
	if err == nil || err == errNotExist {
		c.stats.Store(path, statResult{stamp, err})
	}
	return stamp, err
}

// parsedFile is what the cache keeps of a hiera.yaml or data file.
type parsedFile struct {
	data    *value.Hash
	config  *Config
	warning string
}

// errNotExist is returned for files that do not exist.
var errNotExist = errors.New("file does not exist")

// isDir reports whether path is a directory.
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// isDirectoryError is Ruby's error for reading a directory as a data
// file, as Puppet reports it.
func isDirectoryError(path string) error {
	return fmt.Errorf("Is a directory @ io_fread - %s", path)
}

// statFile returns a file's stamp; errNotExist for missing files and
// directories. (Unlike filecache.Stat, a path below a file is an error.)
func statFile(path string) (filecache.Stamp, error) {
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return filecache.Stamp{}, errNotExist
		}
		return filecache.Stamp{}, err
	}
	if st.IsDir() {
		return filecache.Stamp{}, errNotExist
	}
	return filecache.Stamp{Size: st.Size(), ModTime: st.ModTime()}, nil
}

// Config returns the parsed hiera.yaml at path for a layer; (nil, nil) when
// the file does not exist.
func (c *Cache) Config(path string, layer Layer) (*Config, error) {
	stamp, err := c.stat(path)
	if err == errNotExist {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	v, err := c.files.Load("config:"+layer.String(), path, stamp, func(data []byte) (any, error) {
		cfg, err := ParseConfig(path, data, layer)
		return &parsedFile{config: cfg}, err
	})
	if v == nil {
		return nil, err
	}
	return v.(*parsedFile).config, err
}

// dataFile returns the data hash of a yaml_data or json_data file (stat'ed
// as stamp), and a warning to report when the file held no hash. maxNodes
// bounds a YAML file (0: MaxYAMLNodes); files read under different bounds
// are cached apart.
func (c *Cache) dataFile(path, function string, stamp filecache.Stamp, maxNodes int) (*value.Hash, string, error) {
	kind := function
	if maxNodes > 0 && function == "yaml_data" {
		kind = fmt.Sprintf("%s:%d", kind, maxNodes)
	}
	v, err := c.files.Load(kind, path, stamp, func(data []byte) (any, error) {
		return parseDataFile(path, function, data, maxNodes)
	})
	if v == nil {
		return nil, "", err
	}
	f := v.(*parsedFile)
	return f.data, f.warning, err
}

// parseDataFile parses a data file of a data_hash function.
func parseDataFile(path, function string, data []byte, maxNodes int) (*parsedFile, error) {
	switch function {
	case "hocon_data":
		v, err := hocon.Parse(string(data))
		if err != nil {
			return &parsedFile{}, fmt.Errorf("Unable to parse (%s): %v", path, err)
		}
		return &parsedFile{data: v.(*value.Hash)}, nil
	case "json_data":
		v, err := dataformat.FromJSON(data, path)
		if err != nil {
			return &parsedFile{}, err
		}
		if h, ok := v.(*value.Hash); ok {
			return &parsedFile{data: h}, nil
		}
		return &parsedFile{}, fmt.Errorf("Value returned from data_hash function 'json_data', when using location '%s', has wrong type, expects a Hash value, got %s", path, typeName(v))
	}
	v, err := dataformat.FromYAMLLimit(data, path, maxNodes)
	if err != nil {
		return &parsedFile{}, fmt.Errorf("Unable to parse %w", err)
	}
	if h, ok := v.(*value.Hash); ok {
		return &parsedFile{data: h}, nil
	}
	f := &parsedFile{data: value.EmptyHash}
	if !value.IsUndef(v) && v != value.False {
		f.warning = fmt.Sprintf("%s: file does not contain a valid yaml hash", path)
	}
	return f, nil
}
