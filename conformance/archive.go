package conformance

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// A case can be one txtar archive instead of a directory: <area>/<name>.txtar,
// whose comment (the text before the first file) is the case.yaml and whose
// files are the case's files (site.pp, expected.json or expected-error.txt,
// and facts.yaml unless the area's default-facts.yaml is meant). Small cases
// read as one file, and most share their facts instead of copying them.
//
// Every consumer of a case works on a directory (Puppet's oracle too), so an
// archive is laid out into a work directory when it is loaded; -update
// writes the expected file back into the archive.

// ArchiveExt is the extension of a case archive.
const ArchiveExt = ".txtar"

// DefaultFacts is the facts file of an area that its archive cases without
// a facts.yaml of their own compile with.
const DefaultFacts = "default-facts.yaml"

// archiveFile is one file of a txtar archive.
type archiveFile struct {
	Name string
	Data []byte
}

// parseArchive splits txtar data into its comment and files. A file's data
// runs to the next "-- name --" line; a missing final newline is added, as
// txtar does.
func parseArchive(data []byte) (comment []byte, files []archiveFile) {
	comment, name, data := cutArchiveFile(data)
	for name != "" {
		f := archiveFile{Name: name}
		f.Data, name, data = cutArchiveFile(data)
		files = append(files, f)
	}
	return comment, files
}

// cutArchiveFile returns the text before the first file marker, the name in
// that marker and the data after it.
func cutArchiveFile(data []byte) (before []byte, name string, after []byte) {
	var i int
	for {
		if n, ok := archiveMarker(data[i:]); ok {
			before = fixNewline(data[:i])
			rest := data[i:]
			if j := bytes.IndexByte(rest, '\n'); j >= 0 {
				return before, n, rest[j+1:]
			}
			return before, n, nil
		}
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			return fixNewline(data), "", nil
		}
		i += j + 1
	}
}

// archiveMarker reports whether line (up to its newline) is "-- name --".
func archiveMarker(data []byte) (string, bool) {
	line := data
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	s := strings.TrimRight(string(line), "\r")
	if !strings.HasPrefix(s, "-- ") || !strings.HasSuffix(s, " --") || len(s) < 7 {
		return "", false
	}
	name := strings.TrimSpace(s[3 : len(s)-3])
	return name, name != ""
}

func fixNewline(data []byte) []byte {
	if len(data) > 0 && data[len(data)-1] != '\n' {
		return append(append([]byte{}, data...), '\n')
	}
	return data
}

// formatArchive is the inverse of parseArchive.
func formatArchive(comment []byte, files []archiveFile) []byte {
	var b bytes.Buffer
	b.Write(fixNewline(comment))
	for _, f := range files {
		fmt.Fprintf(&b, "-- %s --\n", f.Name)
		b.Write(fixNewline(f.Data))
	}
	return b.Bytes()
}

// readArchiveCase reads the archive at file (case ID id) and lays it out in
// workRoot/id.
func readArchiveCase(file, id, workRoot string) (*Case, error) {
	if workRoot == "" {
		return nil, fmt.Errorf("%s: an archive case needs a work directory", id)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	comment, files := parseArchive(data)
	dir := filepath.Join(workRoot, filepath.FromSlash(id))
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, CaseFile), comment, 0o644); err != nil {
		return nil, err
	}
	hasFacts := false
	for _, f := range files {
		clean := path.Clean(f.Name)
		if clean != f.Name || path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") || clean == CaseFile {
			return nil, fmt.Errorf("%s: file name %q in the archive is not a plain relative path", id, f.Name)
		}
		hasFacts = hasFacts || clean == FactsFile
		p := filepath.Join(dir, filepath.FromSlash(clean))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return nil, err
		}
	}
	c, err := ReadCase(dir, id)
	if err != nil {
		return nil, err
	}
	c.Archive = file
	if c.ENC != "" {
		if err := os.Chmod(filepath.Join(dir, c.ENC), 0o755); err != nil {
			return nil, fmt.Errorf("%s: enc %s: %v", id, c.ENC, err)
		}
	}
	if !hasFacts {
		facts, err := os.ReadFile(filepath.Join(filepath.Dir(file), DefaultFacts))
		if err != nil {
			return nil, fmt.Errorf("%s: no %s in the archive and no %s for its area: %v", id, FactsFile, DefaultFacts, err)
		}
		if err := os.WriteFile(filepath.Join(dir, FactsFile), facts, 0o644); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// SaveExpected writes the case's expected file (expected.json or
// expected-error.txt, whichever its directory now holds) back into its
// archive, dropping the other. A directory case has nothing to save.
func (c *Case) SaveExpected() error {
	if c.Archive == "" {
		return nil
	}
	data, err := os.ReadFile(c.Archive)
	if err != nil {
		return err
	}
	comment, files := parseArchive(data)
	kept := files[:0]
	for _, f := range files {
		if f.Name != ExpectedCatalog && f.Name != ExpectedError {
			kept = append(kept, f)
		}
	}
	found := false
	for _, name := range []string{ExpectedCatalog, ExpectedError} {
		data, err := os.ReadFile(filepath.Join(c.Dir, name))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		kept = append(kept, archiveFile{Name: name, Data: data})
		found = true
	}
	if !found {
		return fmt.Errorf("%s: neither %s nor %s to save", c.ID, ExpectedCatalog, ExpectedError)
	}
	return os.WriteFile(c.Archive, formatArchive(comment, kept), 0o644)
}
