package conformance

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// ErrorWording returns the message Puppet gave for an error case (from its
// expected-error.txt) and the one marionette gave (its first "Error:" line
// on stderr), both as bare messages: without "Error: ", without the
// trailing " on node NODE", with the case directory (and the corpus's) and Ruby object
// addresses taken out. Comparing them checks the whole wording and the
// position, where the case's error: substring checks only the gist.
func ErrorWording(c *Case, stderr []byte) (puppet, ours string, err error) {
	data, err := os.ReadFile(filepath.Join(c.Dir, ExpectedError))
	if err != nil {
		return "", "", err
	}
	puppet = mainError(string(maskRubyAddresses(data)), c.Node)
	text := string(maskRubyAddresses(stderr))
	for _, dir := range c.Bases() {
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		text = strings.ReplaceAll(text, dir+string(filepath.Separator), "")
	}
	ours = mainError(text, c.Node)
	return puppet, ours, nil
}

// mainError picks the first "Error:" line of output, preferring one that is
// not Puppet's closing "Could not call 'find' on 'catalog'" restatement.
func mainError(output, node string) string {
	const restated = "Could not call 'find' on 'catalog': "
	var first string
	for _, line := range strings.Split(output, "\n") {
		msg, ok := strings.CutPrefix(line, "Error: ")
		if !ok {
			continue
		}
		msg = strings.TrimSuffix(msg, " on node "+node)
		if !strings.HasPrefix(msg, restated) {
			return msg
		}
		if first == "" {
			first = strings.TrimPrefix(msg, restated)
		}
	}
	return first
}

// WordingList is wording-differs.txt: the error cases whose message is
// known to differ from Puppet's (each with a comment saying why). It must
// only shrink.
type WordingList struct {
	Lines map[string]int // case ID → line number
}

// ParseWordingList reads a list of case IDs, one a line; '#' starts a comment.
func ParseWordingList(r io.Reader) (*WordingList, error) {
	list := &WordingList{Lines: map[string]int{}}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		id := strings.TrimSpace(line)
		if id == "" {
			continue
		}
		if strings.ContainsAny(id, " \t") {
			return nil, fmt.Errorf("line %d: want one case ID, got %q", n, id)
		}
		if prev, dup := list.Lines[id]; dup {
			return nil, fmt.Errorf("line %d: %s already listed on line %d", n, id, prev)
		}
		list.Lines[id] = n
	}
	return list, sc.Err()
}
