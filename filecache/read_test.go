package filecache

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadAgreesWithOS: Read returns what os.ReadFile does, the
// same bytes or the same error text, whatever size stat gave beforehand.
func TestReadAgreesWithOS(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("class a { notify { 'x': } }\n", 5000)
	writeTree(t, dir, map[string]string{"small.pp": "notify { 'x': }\n", "big.pp": big, "empty.pp": ""})
	for _, name := range []string{"small.pp", "big.pp", "empty.pp", "missing.pp", "."} {
		path := filepath.Join(dir, name)
		want, wantErr := os.ReadFile(path)
		for _, size := range []int64{0, 1, 16, int64(len(big)), int64(len(big)) * 2, -1} {
			got, err := Read(path, size)
			if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
				t.Errorf("%s, size %d: error %v, os.ReadFile: %v", name, size, err, wantErr)
				continue
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s, size %d: %d bytes, os.ReadFile: %d", name, size, len(got), len(want))
			}
		}
	}
}
