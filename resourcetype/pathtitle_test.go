package resourcetype

import "testing"

// The path fast path must agree with file's title pattern regexp.
func TestPathTitleFastPathAgreesWithRegexp(t *testing.T) {
	file := Builtin("file")
	var re titlePattern
	for _, p := range file.patterns {
		if p.path {
			re = p
		}
	}
	if !re.path {
		t.Fatal("file's title pattern is not recognized as pathTitle")
	}
	for _, title := range []string{"/tmp/a", "/tmp/a/", "/", "//", "c:/", "relative", "a/b//", "/x\ny", "/tmp/é", "x:/y/", "/tmp/a\n"} {
		got, _ := file.ParseTitle(title)
		m := re.re.FindStringSubmatch(title)
		var want []Param
		if m != nil {
			want = []Param{{Name: "path", Value: m[1]}}
		}
		if len(got) != len(want) || (len(got) == 1 && got[0] != want[0]) {
			t.Errorf("ParseTitle(%q) = %v, regexp gives %v", title, got, want)
		}
	}
}
