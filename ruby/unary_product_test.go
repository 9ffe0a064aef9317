package ruby

import "testing"

// TestStringUnaryAndArrayProduct checks String#-@ (ocf's
// `<%=- nameserver -%>` is `<%=` of `-nameserver`) and Array#product
// (puppetlabs-apache's vhost template), as Ruby computes them.
func TestStringUnaryAndArrayProduct(t *testing.T) {
	tests := []struct{ name, code, want string }{
		{"unary minus of a string is the string", `x = "2607:f140::1"; - x`, "2607:f140::1"},
		{"unary minus freezes", `(-"a").frozen?.to_s`, "true"},
		{"product of two arrays", `[1, 2].product(["a", "b"]).inspect`, `[[1, "a"], [1, "b"], [2, "a"], [2, "b"]]`},
		{"product of three", `[1].product([2, 3], [4]).inspect`, `[[1, 2, 4], [1, 3, 4]]`},
		{"product with nothing", `[1, 2].product.inspect`, `[[1], [2]]`},
		{"product with an empty array", `[1, 2].product([]).inspect`, `[]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tmpl, err := ParseTemplate("t.erb", []Segment{{Kind: SegOutput, Text: tc.code, Line: 1}})
			var out string
			if err == nil {
				out, err = tmpl.Render(nil)
			}
			if err != nil || out != tc.want {
				t.Errorf("%q: got %q, %v; want %q", tc.code, out, err, tc.want)
			}
		})
	}
	tmpl, err := ParseTemplate("t.erb", []Segment{{Kind: SegOutput, Text: `[1].product(2)`, Line: 1}})
	if err == nil {
		_, err = tmpl.Render(nil)
	}
	if err == nil {
		t.Errorf("[1].product(2): no error, want a TypeError")
	}
}
