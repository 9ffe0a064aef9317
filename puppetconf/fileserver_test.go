package puppetconf

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseFileserverConf(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       []Mount
		err        string
	}{
		{"mounts", "# files\n[site]\n  path /srv/site\n  allow *\n\n[other]\npath\t/srv/o\ndeny 10.0.0.1\n", []Mount{{"site", "/srv/site"}, {"other", "/srv/o"}}, ""},
		{"built-in mounts are Puppet's", "[plugins]\n  allow *\n[modules]\n  path /x\n", nil, ""},
		{"per-client path", "[h]\n  path /srv/%H\n", nil, "fileserver.conf:2: mount [h]: per-client paths"},
		{"relative path", "[r]\n  path srv\n", nil, "fileserver.conf:2: mount [r]: path \"srv\" is not absolute"},
		{"no path", "[n]\n  allow *\n", nil, "mount [n] has no path"},
		{"unknown directive", "[u]\n  path /u\n  hosts *\n", nil, "fileserver.conf:3: unknown directive \"hosts\""},
		{"outside a section", "path /x\n", nil, "fileserver.conf:1: \"path /x\" outside a [mount] section"},
		{"twice", "[a]\npath /a\n[a]\npath /b\n", nil, "fileserver.conf:3: mount [a] is defined twice"},
		{"bad section", "[a/b]\n", nil, "fileserver.conf:1: invalid mount"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseFileserverConf("fileserver.conf", tt.text)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v %v, want %v", got, err, tt.want)
			}
		})
	}
}
