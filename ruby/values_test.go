package ruby

import "testing"

func TestFormatFloat(t *testing.T) {
	tests := []struct {
		f    float64
		want string
	}{
		{1, "1.0"}, {0.1, "0.1"}, {1e15, "1.0e+15"}, {123456789012345.6, "123456789012345.6"},
		{1e-4, "0.0001"}, {1e-5, "1.0e-05"}, {-2.5, "-2.5"}, {1.5e300, "1.5e+300"}, {100, "100.0"},
	}
	for _, tc := range tests {
		if got := formatFloat(tc.f); got != tc.want {
			t.Errorf("formatFloat(%v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}
