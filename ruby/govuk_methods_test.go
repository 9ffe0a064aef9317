package ruby

import "testing"

// TestTemplateStringEncodingMethods checks the String and Hash methods
// govuk's templates call: encoding, encode(enc, universal_newline: true)
// (govuk::app::envvar), to_pson (aptly's config), and what memcached's and
// nginx's templates read: Puppet::Parser::Functions.function, an unassigned
// global (nil).
func TestTemplateStringEncodingMethods(t *testing.T) {
	tests := []struct{ name, code, want string }{
		{"encoding", `"abc".encoding.to_s`, "UTF-8"},
		{"encode keeps LF", `"a\nb".encode("a".encoding, universal_newline: true).gsub(/\n/, "|")`, "a|b"},
		{"encode universal_newline", `"a\r\nb\rc".encode("a".encoding, universal_newline: true).gsub(/\n/, "|")`, "a|b|c"},
		{"encode without options", `"a\r\nb".encode("UTF-8").size.to_s`, "4"},
		{"to_pson", `{"b" => ["x"], "a" => "y"}.to_pson`, `{"b":["x"],"a":"y"}`},
		{"Puppet::Parser::Functions.function", `Puppet::Parser::Functions.function('memcached_max_memory')`, "function_memcached_max_memory"},
		{"unassigned global", `$is_default_vhost ? " default_server" : ""`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tmpl, err := ParseTemplate("t.erb", []Segment{{Kind: SegOutput, Text: tc.code, Line: 1}})
			var out string
			if err == nil {
				out, err = tmpl.Render(nil)
			}
			if err != nil || out != tc.want {
				t.Errorf("%s: got %q, %v; want %q", tc.code, out, err, tc.want)
			}
		})
	}
}
