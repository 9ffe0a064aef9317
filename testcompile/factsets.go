package testcompile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"
	"unicode/utf8"
)

// Fact sets (rspec-puppet-facts over FacterDB) are the other big cost of a
// module's suite: FacterDB answers each query by parsing its whole
// database (1,684 JSON files, 16 MB in Debian's facterdb) and testing every
// fact set in Ruby, once per operating system a module supports. The Ruby
// adapter answers those queries itself from the few top-level facts a
// query tests, which the "factsets" request reads here once per file and
// keeps for the service's life; only the fact sets that match are parsed
// in Ruby.

// factFile is the top-level facts of one fact-set file, kept while the file
// is unchanged.
type factFile struct {
	size    int64
	modTime time.Time
	facts   map[string]json.RawMessage
}

// factFiles caches fact-set files by path.
type factFiles struct {
	mu    sync.Mutex
	files map[string]*factFile
}

// maxFactFileSize bounds one fact-set file (FacterDB's largest is under
// 100 KB).
const maxFactFileSize = 16 << 20

// maxFactFiles bounds the files of one request.
const maxFactFiles = 100000

// values answers a "factsets" request: for each file, the value of each key
// among its top-level facts (JSON null when it has no such fact).
func (c *factFiles) values(paths, keys []string) ([][]json.RawMessage, error) {
	if len(paths) > maxFactFiles {
		return nil, fmt.Errorf("bad request: %d fact files (at most %d)", len(paths), maxFactFiles)
	}
	files := make([]*factFile, len(paths))
	errs := make([]error, len(paths))
	// The files are read by a few goroutines at once: the first request
	// of a suite reads all of FacterDB's 1,700, which one goroutine takes
	// about 0.3 s for.
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(paths)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				files[i], errs[i] = c.file(paths[i])
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	out := make([][]json.RawMessage, len(paths))
	for i := range paths {
		f, err := files[i], errs[i]
		if err != nil {
			return nil, err
		}
		row := make([]json.RawMessage, len(keys))
		for j, k := range keys {
			if v, ok := f.facts[k]; ok {
				row[j] = v
			} else {
				row[j] = json.RawMessage("null")
			}
		}
		out[i] = row
	}
	return out, nil
}

// file returns path's top-level facts, reading the file when it is new or
// its size or modification time changed.
func (c *factFiles) file(path string) (*factFile, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	f := c.files[path]
	c.mu.Unlock()
	if f != nil && f.size == st.Size() && f.modTime.Equal(st.ModTime()) {
		return f, nil
	}
	if st.Size() > maxFactFileSize {
		return nil, fmt.Errorf("%s: %d bytes, more than a fact set's %d", path, st.Size(), maxFactFileSize)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	facts, err := topLevel(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	f = &factFile{size: st.Size(), modTime: st.ModTime(), facts: facts}
	c.mu.Lock()
	if c.files == nil {
		c.files = make(map[string]*factFile)
	}
	c.files[path] = f
	c.mu.Unlock()
	return f, nil
}

// topLevel decodes a JSON object into its members, the last of a repeated
// name winning as in Ruby's JSON.parse. Anything but one object is an
// error: FacterDB would read such a file differently, so the caller asks
// FacterDB instead.
func topLevel(data []byte) (map[string]json.RawMessage, error) {
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("not UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var facts map[string]json.RawMessage
	if err := dec.Decode(&facts); err != nil {
		return nil, err
	}
	if facts == nil {
		return nil, fmt.Errorf("not a JSON object")
	}
	if len(bytes.TrimSpace(data[dec.InputOffset():])) != 0 {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return facts, nil
}
