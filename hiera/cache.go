package hiera

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/marionette-dev/marionette/hocon"
	"github.com/marionette-dev/marionette/value"
)

// Cache holds parsed hiera.yaml files and data files shared by any number of
// concurrent compiles. Entries are immutable once loaded and are keyed by path;
// a file whose modification time or size changed is parsed again.
type Cache struct {
	mu      sync.Mutex
	entries map[cacheKey]*cacheEntry
	// eyamlKeys holds hiera-eyaml key pairs (eyaml.go).
	eyamlKeys eyamlKeyCache
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{entries: map[cacheKey]*cacheEntry{}}
}

type cacheKey struct {
	path string
	// kind is "yaml_data", "json_data", "hocon_data" or "config:<layer>".
	kind string
}

type fileStamp struct {
	modTime time.Time
	size    int64
}

type cacheEntry struct {
	stamp fileStamp
	once  sync.Once
	// Loaded results (set once).
	data    *value.Hash
	config  *Config
	warning string
	err     error
}

// errNotExist is returned for files that do not exist.
var errNotExist = errors.New("file does not exist")

// statFile returns a file's stamp; errNotExist for missing files and directories.
func statFile(path string) (fileStamp, error) {
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fileStamp{}, errNotExist
		}
		return fileStamp{}, err
	}
	if st.IsDir() {
		return fileStamp{}, errNotExist
	}
	return fileStamp{st.ModTime(), st.Size()}, nil
}

// entry returns the cache entry for path, loading it with load on first use.
func (c *Cache) entry(path, kind string, load func(data []byte, e *cacheEntry)) (*cacheEntry, error) {
	stamp, err := statFile(path)
	if err != nil {
		return nil, err
	}
	return c.entryAt(path, kind, stamp, load), nil
}

// entryAt is entry for a file already stat'ed.
func (c *Cache) entryAt(path, kind string, stamp fileStamp, load func(data []byte, e *cacheEntry)) *cacheEntry {
	key := cacheKey{path, kind}
	c.mu.Lock()
	e, ok := c.entries[key]
	if !ok || e.stamp != stamp {
		e = &cacheEntry{stamp: stamp}
		c.entries[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() {
		data, err := os.ReadFile(path)
		if err != nil {
			e.err = err
			return
		}
		load(data, e)
	})
	return e
}

// Config returns the parsed hiera.yaml at path for a layer; (nil, nil) when
// the file does not exist.
func (c *Cache) Config(path string, layer Layer) (*Config, error) {
	e, err := c.entry(path, "config:"+layer.String(), func(data []byte, e *cacheEntry) {
		e.config, e.err = ParseConfig(path, data, layer)
	})
	if err == errNotExist {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return e.config, e.err
}

// dataFile returns the data hash of a yaml_data or json_data file (stat'ed
// as stamp), and a warning to report when the file held no hash. maxNodes
// bounds a YAML file (0: MaxYAMLNodes); files read under different bounds
// are cached apart.
func (c *Cache) dataFile(path, function string, stamp fileStamp, maxNodes int) (*value.Hash, string, error) {
	kind := function
	if maxNodes > 0 && function == "yaml_data" {
		kind = fmt.Sprintf("%s:%d", function, maxNodes)
	}
	e := c.entryAt(path, kind, stamp, func(data []byte, e *cacheEntry) {
		var v value.Value
		if function == "hocon_data" {
			v, e.err = hocon.Parse(string(data))
			if e.err != nil {
				e.err = fmt.Errorf("Unable to parse (%s): %v", path, e.err)
				return
			}
			e.data = v.(*value.Hash)
			return
		}
		if function == "json_data" {
			v, e.err = FromJSON(data, path)
			if e.err != nil {
				return
			}
			if h, ok := v.(*value.Hash); ok {
				e.data = h
			} else {
				e.err = fmt.Errorf("Value returned from data_hash function 'json_data', when using location '%s', has wrong type, expects a Hash value, got %s", path, typeName(v))
			}
			return
		}
		v, e.err = FromYAMLLimit(data, path, maxNodes)
		if e.err != nil {
			e.err = fmt.Errorf("Unable to parse %w", e.err)
			return
		}
		if h, ok := v.(*value.Hash); ok {
			e.data = h
			return
		}
		e.data = value.EmptyHash
		if !value.IsUndef(v) && v != value.False {
			e.warning = fmt.Sprintf("%s: file does not contain a valid yaml hash", path)
		}
	})
	return e.data, e.warning, e.err
}

// FromJSON parses JSON into a Puppet value keeping object key order; numbers
// without fraction or exponent are Integers.
func FromJSON(data []byte, file string) (value.Value, error) {
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
