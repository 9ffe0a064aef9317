package catalog

import (
	"fmt"
	"io"
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// BenchmarkWriteJSON encodes a catalog shaped like the benchmark workload's
// medium one: 1,000 resources with tags, file and line, a few parameters
// (strings, an array, a reference) and 1,000 edges.
func BenchmarkWriteJSON(b *testing.B) {
	c := &Catalog{Name: "bench01.example.com", Version: 1700000000, Environment: "medium", UUID: "0b5f", Tags: []string{"settings", "role::bench"}}
	for i := 0; i < 1000; i++ {
		title := fmt.Sprintf("/etc/mod%02d/f%04d.conf", i%12, i)
		c.Resources = append(c.Resources, &Resource{
			Type: "File", Title: title, Kind: "resource",
			Tags: []string{"file", "class", fmt.Sprintf("mod%02d::config", i%12), fmt.Sprintf("mod%02d", i%12), "config"},
			File: "/srv/environments/medium/modules/mod01/manifests/config.pp", Line: 33,
			Params: []Param{
				{"ensure", value.String("file")},
				{"mode", value.String("0644")},
				{"content", value.String(fmt.Sprintf("# managed by puppet\nport=%d\nkey=%s\n\tvalue=\"x\"\n", 8000+i, title))},
				{"require", &value.ResourceType{Type: "File", Title: "/etc/mod01"}},
				{"notify", value.Array{value.String("a"), value.String("b")}},
			},
		})
		c.Edges = append(c.Edges, Edge{Source: Ref{"Class", "Mod01::Config"}, Target: Ref{"File", title}})
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := c.WriteJSON(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
