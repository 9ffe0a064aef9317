package catalog

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestGrow: after Grow, adding up to the counts allocates no more, and the
// catalog behaves as one that grew step by step (duplicates refused,
// lookups found, order kept).
func TestGrow(t *testing.T) {
	c := New("n", "production")
	c.Add(&Resource{Type: "Class", Title: "main"})
	const n = 100
	c.Grow(n, n)
	var rs []*Resource
	for i := range n {
		rs = append(rs, &Resource{Type: "File", Title: fmt.Sprintf("/tmp/%d", i)})
	}
	rcap, ecap := cap(c.Resources), cap(c.Edges)
	if rcap < n+1 || ecap < n {
		t.Fatalf("Grow(%d, %d): room for %d resources, %d edges", n, n, rcap, ecap)
	}
	for _, r := range rs {
		c.Add(r)
		c.AddEdge(Ref{"Class", "main"}, Ref{r.Type, r.Title})
	}
	if cap(c.Resources) != rcap || cap(c.Edges) != ecap {
		t.Errorf("the lists grew again after Grow")
	}
	if len(c.Resources) != n+1 || len(c.Edges) != n || c.Resources[1] != rs[0] {
		t.Fatalf("%d resources, %d edges", len(c.Resources), len(c.Edges))
	}
	if c.Add(&Resource{Type: "Class", Title: "main"}) || c.Lookup(Ref{"File", "/tmp/7"}) != rs[7] {
		t.Error("the index lost a resource added before or after Grow")
	}
}

// TestWriteJSONBuffersReused: catalogs written one after another, and at
// once from several goroutines, through the encoders' shared buffers, are
// each written as alone: nothing of one shows in another.
func TestWriteJSONBuffersReused(t *testing.T) {
	cats := make([]*Catalog, 3)
	want := make([]string, len(cats))
	for i := range cats {
		c := New(fmt.Sprintf("node%d", i), "production")
		for j := range (i + 1) * 3000 {
			c.Add(&Resource{Type: "Notify", Title: fmt.Sprintf("n%d-%d", i, j), Kind: "resource", Tags: []string{"notify"}})
		}
		cats[i] = c
		var b strings.Builder
		if err := c.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		want[i] = b.String()
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 12 {
				i := (g + k) % len(cats)
				var b strings.Builder
				if err := cats[i].WriteJSON(&b); err != nil || b.String() != want[i] {
					t.Errorf("catalog %d written again differs (err %v)", i, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}
