package names

import (
	"strings"
	"testing"
)

func TestValidCertname(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"web01.example.com", true},
		{"db_2-a", true},
		{"Web01", true},
		{"a..b", true},
		{strings.Repeat("a", MaxCertname), true},
		{"", false},
		{strings.Repeat("a", MaxCertname+1), false},
		{"web 01", false},
		{"a/b", false},
		{"../etc/passwd", false},
		{"..", false},
		{".hidden", false},
		{"-rf", false},
		{"$(reboot)", false},
		{"x;y", false},
		{"caf\u00e9", false},
		{"a\nb", false},
	}
	for _, tt := range tests {
		if got := ValidCertname(tt.name); got != tt.want {
			t.Errorf("ValidCertname(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestValidEnvironment(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"production", true},
		{"feature_42", true},
		{"Staging", true},
		{"", false},
		{"a-b", false},
		{"a.b", false},
		{"..", false},
		{"a/b", false},
		{"prod\n", false},
	}
	for _, tt := range tests {
		if got := ValidEnvironment(tt.name); got != tt.want {
			t.Errorf("ValidEnvironment(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}
