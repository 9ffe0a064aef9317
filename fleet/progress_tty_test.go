package fleet

import (
	"os"
	"testing"
)

// TestIsTerminalDevNull: /dev/null is a character device but no terminal,
// so output redirected there is written as for a file or pipe.
func TestIsTerminalDevNull(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Fatalf("IsTerminal(%s) = true", os.DevNull)
	}
}
