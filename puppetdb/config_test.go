package puppetdb

import (
	"testing"
	"testing/fstest"
	"time"
)

func TestParseConfig(t *testing.T) {
	tests := []struct {
		name, text string
		check      func(*testing.T, *Config)
		warnings   int
		err        string
	}{
		{name: "empty gives the defaults", text: "", check: func(t *testing.T, c *Config) {
			if len(c.ServerURLs) != 1 || c.ServerURLs[0].String() != "https://puppetdb:8081" {
				t.Errorf("server_urls = %v", c.ServerURLs)
			}
			if c.ServerURLTimeout != 30*time.Second || c.SoftWriteFailure || c.MinSuccessfulSubmissions != 1 || !c.VerifyClientCertificate {
				t.Errorf("defaults = %+v", c)
			}
		}},
		{name: "full main section", text: "# comment\n; other\n[main]\nserver_urls = https://a:8081/, https://b:8081\n" +
			"submit_only_server_urls = https://c:8081\nsoft_write_failure = true\nserver_url_timeout = 5\n" +
			"sticky_read_failover = true\n\n[other]\nserver_urls = nonsense\n", check: func(t *testing.T, c *Config) {
			if len(c.ServerURLs) != 2 || c.ServerURLs[0].String() != "https://a:8081" || c.ServerURLs[1].String() != "https://b:8081" {
				t.Errorf("server_urls = %v", c.ServerURLs)
			}
			if len(c.SubmitOnlyServerURLs) != 1 || c.SubmitOnlyServerURLs[0].Host != "c:8081" {
				t.Errorf("submit_only_server_urls = %v", c.SubmitOnlyServerURLs)
			}
			if !c.SoftWriteFailure || c.ServerURLTimeout != 5*time.Second || !c.StickyReadFailover {
				t.Errorf("config = %+v", c)
			}
		}},
		{name: "broadcast with two submissions", text: "[main]\nserver_urls = https://a:8081,https://b:8081\ncommand_broadcast = true\nmin_successful_submissions = 2\n",
			check: func(t *testing.T, c *Config) {
				if !c.CommandBroadcast || c.MinSuccessfulSubmissions != 2 {
					t.Errorf("config = %+v", c)
				}
			}},
		{name: "timeout as Ruby's to_i", text: "[main]\nserver_url_timeout = 12abc\n", check: func(t *testing.T, c *Config) {
			if c.ServerURLTimeout != 12*time.Second {
				t.Errorf("timeout = %v", c.ServerURLTimeout)
			}
		}},
		{name: "retired server setting warns", text: "[main]\nserver = pdb\nport = 8081\n", warnings: 2},
		{name: "setting outside a section", text: "server_urls = https://a:8081\n",
			err: "Setting 'server_urls = https://a:8081\n' is illegal outside of section in PuppetDB config /etc/puppetdb.conf:1"},
		{name: "unparseable line", text: "[main]\nwhat is this\n",
			err: "Unparseable line 'what is this\n' in PuppetDB config /etc/puppetdb.conf:2"},
		{name: "indented section header", text: " [main]\n",
			err: "Unparseable line ' [main]\n' in PuppetDB config /etc/puppetdb.conf:1"},
		{name: "http refused", text: "[main]\nserver_urls = http://a:8080\n",
			err: "PuppetDB 'server_urls' must be https, found 'http://a:8080'"},
		{name: "path refused", text: "[main]\nserver_urls = https://a:8081/pdb\n",
			err: "PuppetDB 'server_urls' cannot contain URL paths, found 'https://a:8081/pdb'"},
		{name: "bad boolean", text: "[main]\nsoft_write_failure = yes\n",
			err: `invalid value for Boolean: "yes"`},
		{name: "url in both lists", text: "[main]\nserver_urls = https://a:8081\nsubmit_only_server_urls = https://a:8081\n",
			err: `Server URLs must be in either server_urls or submit_only_server_urls, not both. (["https://a:8081"] are in both)`},
		{name: "min submissions without broadcast", text: "[main]\nserver_urls = https://a:8081,https://b:8081\nmin_successful_submissions = 2\n",
			err: "command_broadcast must be set to true to use min_successful_submissions"},
		{name: "min submissions above server count", text: "[main]\ncommand_broadcast = true\nmin_successful_submissions = 2\n",
			err: "min_successful_submissions (2) must be less than or equal to the number of server_urls (1)"},
		{name: "soft write failure with min submissions", text: "[main]\nserver_urls = https://a:8081,https://b:8081\ncommand_broadcast = true\nmin_successful_submissions = 2\nsoft_write_failure = true\n",
			err: "soft_write_failure cannot be enabled when min_successful_submissions is greater than 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, warnings, err := ParseConfig("/etc/puppetdb.conf", []byte(tt.text))
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(warnings) != tt.warnings {
				t.Errorf("warnings = %q", warnings)
			}
			if tt.check != nil {
				tt.check(t, c)
			}
		})
	}
}

func TestReadConfigMissingFileGivesDefaults(t *testing.T) {
	fsys := fstest.MapFS{"etc/puppet/puppetdb.conf": {Data: []byte("[main]\nserver_urls = https://pdb.example:8081\n")}}
	c, _, err := ReadConfig(fsys, "/etc/puppet/puppetdb.conf")
	if err != nil || c.ServerURLs[0].Host != "pdb.example:8081" {
		t.Fatalf("ReadConfig = %v, %v", c, err)
	}
	c, _, err = ReadConfig(fsys, "/etc/none/puppetdb.conf")
	if err != nil || c.ServerURLs[0].String() != DefaultServerURL {
		t.Fatalf("missing file: %v, %v", c, err)
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add("[main]\nserver_urls = https://a:8081, https://b\n")
	f.Add("[main]\nsoft_write_failure = true\nserver_url_timeout=-3\n")
	f.Fuzz(func(t *testing.T, s string) {
		c, _, err := ParseConfig("f", []byte(s))
		if err == nil && len(c.ServerURLs) == 0 {
			t.Fatalf("no server_urls without an error")
		}
	})
}
