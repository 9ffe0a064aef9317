package hiera

import (
	"slices"
	"testing"
)

func TestExpandBraces(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"a/b.yaml", []string{"a/b.yaml"}},
		{"{x,y}.yaml", []string{"x.yaml", "y.yaml"}},
		{"a/{b,{c,d}}/e", []string{"a/b/e", "a/c/e", "a/d/e"}},
		{"{x,y}-{1,2}", []string{"x-1", "x-2", "y-1", "y-2"}},
		{"unclosed{a,b", []string{"unclosed{a,b"}},
	}
	for _, tc := range tests {
		if got := expandBraces(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("expandBraces(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMatchDoubleStar(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
	}{
		{"d/**/*.yaml", "d/x.yaml", true},
		{"d/**/*.yaml", "d/a/b/x.yaml", true},
		{"d/**/*.yaml", "d/a/x.json", false},
		{"d/**", "d/a/b", true},
		{"d/**/c/*.yaml", "d/a/c/x.yaml", true},
		{"d/**/c/*.yaml", "d/a/b/x.yaml", false},
	}
	for _, tc := range tests {
		if got := matchDoubleStar(tc.pattern, tc.path); got != tc.want {
			t.Errorf("matchDoubleStar(%q, %q) = %v, want %v", tc.pattern, tc.path, got, tc.want)
		}
	}
}
