package erb

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// allocated reports the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Sizes that overflow or pass the limits must fail with Ruby's error or one
// naming the limit, promptly and without allocating the result.
func TestRenderSizeLimits(t *testing.T) {
	tests := []struct {
		name, src, wantErr, want string
	}{
		{"array times 2^62", "<%= [1,2] * 4611686018427387904 %>", "ArgumentError: argument too big", ""},
		{"array times 2^61, 3 elements", "<%= ([1,2,3] * (1<<61)).size %>", "ArgumentError: argument too big", ""},
		{"array times past the limit", "<%= ([1,2] * 1000000).size %>", "array larger than MaxArraySize (1048576)", ""},
		{"array times negative", "<%= [1] * -1 %>", "ArgumentError: negative argument", ""},
		{"empty array times 2^62", "<%= ([] * 4611686018427387904).size %>", "", "0"},
		{"array times", "<%= [1,2] * 2 %>", "", "[1, 2, 1, 2]"},
		{"string times 2^62", `<%= "xxxx" * (1<<62) %>`, "ArgumentError: argument too big", ""},
		{"string times past the limit", `<%= "x" * 100000000 %>`, "string larger than MaxStringSize (67108864)", ""},
		{"string times negative", `<%= "x" * -1 %>`, "ArgumentError: negative argument", ""},
		{"string times float", `<%= "ab" * 2.5 %>`, "", "abab"},
		{"ljust past the limit", `<%= "x".ljust(1<<62) %>`, "string larger than MaxStringSize", ""},
		{"center with a long pad", `<%= "x".center(20000000, "\u00e9\u00e9") %>`, "string larger than MaxStringSize", ""},
		{"rjust", `<%= "x".rjust(3, "ab") %>`, "", "abx"},
		{"Array.new 2^62", "<%= Array.new(1<<62).size %>", "ArgumentError: array size too big", ""},
		{"Array.new negative", "<%= Array.new(-1) %>", "ArgumentError: negative array size", ""},
		{"Array.new past the limit", "<%= Array.new(2000000).size %>", "array larger than MaxArraySize", ""},
		{"range wider than int64", "<%= (-(1<<62)..(1<<62)).to_a.size %>", "array larger than MaxArraySize", ""},
		{"range at MaxInt64", "<%= (9223372036854775805..9223372036854775807).to_a %>", "", "[9223372036854775805, 9223372036854775806, 9223372036854775807]"},
		{"step at MaxInt64", "<%= (9223372036854775800..9223372036854775807).step(3).to_a %>", "", "[9223372036854775800, 9223372036854775803, 9223372036854775806]"},
		{"step wider than int64", "<%= (-(1<<62)..(1<<62)).step(2).to_a.size %>", "array larger than MaxArraySize", ""},
		{"format width past C int", `<%= "%1000000000000000000d" % 1 %>`, "ArgumentError: width too big", ""},
		{"format width past the limit", `<%= "%100000000d" % 1 %>`, "format width larger than MaxFormatWidth", ""},
		{"format output past the limit", `<%= ("%999999d" * 100) % ([1] * 100) %>`, "string larger than MaxStringSize", ""},
		{"format", `<%= "%05.1f|%-3d|" % [2.25, 7] %>`, "", "002.2|7  |"},
		{"power of one, huge exponent", "<%= 1 ** 4611686018427387904 %>", "", "1"},
		{"power of -1, odd exponent", "<%= (-1) ** 4611686018427387905 %>", "", "-1"},
		{"power", "<%= 3 ** 5 %>", "", "243"},
		{"insert doubling", "<% a = [1] * 1000; 30.times { a.insert(0, *a) } %><%= a.size %>", "array larger than MaxArraySize", ""},
		{"unshift doubling", "<% a = [1] * 1000; 30.times { a.unshift(*a) } %><%= a.size %>", "array larger than MaxArraySize", ""},
		{"push doubling", "<% a = [1] * 1000; 30.times { a.push(*a) } %><%= a.size %>", "array larger than MaxArraySize", ""},
		{"gsub squaring", `<% s = "x" * 10000; 5.times { s = s.gsub(/./, s) } %><%= s.size %>`, "string larger than MaxStringSize", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmpl, err := Parse("limits.erb", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			var got string
			start := time.Now()
			n := allocated(func() { got, err = tmpl.Render(mapScope{}) })
			if n > 1<<30 {
				t.Errorf("rendering allocated %d MiB", n>>20)
			}
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("rendering took %v", d)
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// RenderOptions.MaxSize raises (or lowers) the string and output limit, and
// every limit's error says it is marionette's and how to raise it.
func TestRenderOptionsMaxSize(t *testing.T) {
	tests := []struct {
		name, src string
		maxSize   int
		wantErr   string
		wantLen   int
	}{
		{"default refuses 100 MB", `<%= "x" * 100000000 %>`, 0, "string larger than MaxStringSize (67108864): a limit of marionette (--max-template-size raises it)", 0},
		{"raised allows 100 MB", `<%= "x" * 100000000 %>`, 128 << 20, "", 100000000},
		{"lowered output", `<% 20.times do %>xxxxxxxxxx<%= 1 %><% end %>`, 100, "template output larger than MaxStringSize (100): a limit of marionette (--max-template-size raises it)", 0},
		{"above the ceiling is the ceiling", `<%= "x" * (MaxTemplateSizeCeiling + 1) %>`, 4 << 30, "", 0},
		{"fixed limit", `<%= "%100000000d" % 1 %>`, 0, "format width larger than MaxFormatWidth (1000000): a fixed limit of marionette", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := strings.ReplaceAll(tt.src, "MaxTemplateSizeCeiling", "1073741824")
			tmpl, err := Parse("limits.erb", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			got, err := tmpl.RenderWith(mapScope{}, RenderOptions{MaxSize: tt.maxSize})
			if tt.wantErr == "" && tt.wantLen == 0 {
				if err == nil || !strings.Contains(err.Error(), "MaxStringSize (1073741824)") {
					t.Fatalf("err = %v, want the ceiling", err)
				}
				return
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || len(got) != tt.wantLen {
				t.Fatalf("got %d bytes, %v; want %d", len(got), err, tt.wantLen)
			}
		})
	}
}

// A regexp only the backtracking engine runs cannot hang a rendering: a
// catastrophic match fails after the engine's timeout, with an error no
// rescue catches.
func TestRenderRegexpTimeout(t *testing.T) {
	src := `<% begin -%><%= ('a' * 40 + '!') =~ /\A(?=(a+)+\z)/ %><% rescue => e -%>rescued<% end -%>`
	tmpl, err := Parse("re", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = tmpl.Render(mapScope{})
	if err == nil || !strings.Contains(err.Error(), "template re:1: regexp /\\A(?=(a+)+\\z)/ takes longer than 2s to match") {
		t.Errorf("got %v, want a regexp timeout", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
}
