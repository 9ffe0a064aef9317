package value

import (
	"errors"
	"strings"
	"testing"
)

// A match the backtracking engine gives up on is an error naming the
// regexp and the limit, never "no match" (Ruby matches this one).
func TestRegexpTimeoutIsAnError(t *testing.T) {
	re, err := NewRegexp(`(a+)+\1$|!`)
	if err != nil {
		t.Fatal(err)
	}
	subject := strings.Repeat("a", 24) + "!"
	calls := []struct {
		name string
		call func() error
	}{
		{"Match", func() error { _, err := re.Match(subject); return err }},
		{"FindSubmatchIndex", func() error { _, err := re.FindSubmatchIndex(subject); return err }},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			var timeout *RegexpTimeout
			if !errors.As(err, &timeout) {
				t.Fatalf("err = %v, want a *RegexpTimeout", err)
			}
			if !strings.Contains(err.Error(), `/(a+)+\1$|!/`) || !strings.Contains(err.Error(), "2s") {
				t.Errorf("err = %q, want the regexp and the limit named", err)
			}
		})
	}
}
