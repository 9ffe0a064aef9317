package compiler

import (
	"testing"

	"github.com/marionette-dev/marionette/resourcetype"
)

// A title and a uniqueness key of that one string index the same resource
// (findRef looks a name up by title); keys that differ never meet.
func TestUniqKeyIndex(t *testing.T) {
	if titleUniqKey("File", "/x") != uniqKey("File", resourcetype.Key{"/x"}) {
		t.Errorf("title and one-string key differ")
	}
	distinct := []uniqIndex{
		uniqKey("File", resourcetype.Key{}),
		uniqKey("File", resourcetype.Key{""}),
		uniqKey("File", resourcetype.Key{"a", "b"}),
		uniqKey("File", resourcetype.Key{"a\x00sb"}),
		uniqKey("File", resourcetype.Key{"a"}),
		uniqKey("Package", resourcetype.Key{"a"}),
		uniqKey("Package", resourcetype.Key{"a", "yum"}),
		uniqKey("Package", resourcetype.Key{"a", nil}),
	}
	seen := map[uniqIndex]int{}
	for i, k := range distinct {
		if j, dup := seen[k]; dup {
			t.Errorf("keys %d and %d meet: %q", j, i, k)
		}
		seen[k] = i
	}
}
