package fleet

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/marionette-dev/marionette/names"
)

// factsExts are the facts file extensions, in lookup order.
var factsExts = []string{".yaml", ".yml", ".json"}

// FromFactsDir lists one node per facts file in dir (*.yaml, *.yml,
// *.json), named after the file without its extension, sorted by name. Two
// files for the same node are an error.
func FromFactsDir(dir string) ([]Node, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	seen := map[string]string{}
	var nodes []Node
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		name, ok := nodeName(e.Name())
		if !ok {
			continue
		}
		if prev, dup := seen[name]; dup {
			return nil, fmt.Errorf("node %s has two facts files in %s: %s and %s", name, dir, prev, e.Name())
		}
		seen[name] = e.Name()
		nodes = append(nodes, Node{Name: name, FactsPath: filepath.Join(dir, e.Name())})
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].Name < nodes[j].Name })
	return nodes, nil
}

// nodeName is a facts file's node name: the file name without a facts
// extension; ok is false for other files and hidden ones.
func nodeName(file string) (string, bool) {
	if strings.HasPrefix(file, ".") {
		return "", false
	}
	for _, ext := range factsExts {
		if name, ok := strings.CutSuffix(file, ext); ok && name != "" {
			return name, true
		}
	}
	return "", false
}

// FromNodesFile reads node names from path, one a line; blank lines and
// text after '#' are ignored. With factsDir set each node's facts file is
// NAME.yaml, NAME.yml or NAME.json there, and a node without one is an
// error; with factsDir empty the nodes have no facts.
func FromNodesFile(path, factsDir string) ([]Node, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var nodes []Node
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for lineno := 1; sc.Scan(); lineno++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		name := strings.TrimSpace(line)
		if name == "" {
			continue
		}
		if !names.ValidCertname(name) {
			return nil, fmt.Errorf("%s:%d: invalid node name %q (one certname a line: letters, digits, '.', '_' and '-')", path, lineno, name)
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		n := Node{Name: name}
		if factsDir != "" {
			n.FactsPath = findFacts(factsDir, name)
			if n.FactsPath == "" {
				return nil, fmt.Errorf("%s:%d: no facts file for node %s in %s", path, lineno, name, factsDir)
			}
		}
		nodes = append(nodes, n)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return nodes, nil
}

// findFacts returns the first existing facts file for node in dir, or "".
func findFacts(dir, node string) string {
	for _, ext := range factsExts {
		p := filepath.Join(dir, node+ext)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	return ""
}

// FactsFile is node's facts file in dir (NAME.yaml, NAME.yml or
// NAME.json); none is an error.
func FactsFile(dir, node string) (string, error) {
	if !names.ValidCertname(node) {
		return "", fmt.Errorf("invalid node name %q", node)
	}
	p := findFacts(dir, node)
	if p == "" {
		return "", fmt.Errorf("no facts file for node %s in %s", node, dir)
	}
	return p, nil
}
