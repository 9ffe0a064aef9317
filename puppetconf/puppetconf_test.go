package puppetconf

import (
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func load(t *testing.T, conf string, flags map[string]string, files fstest.MapFS) (*Settings, error) {
	t.Helper()
	if files == nil {
		files = fstest.MapFS{}
	}
	o := Options{FS: files, Root: true, Hostname: "vm.example.com", Flags: flags}
	if conf != "" {
		files["etc/puppet.conf"] = &fstest.MapFile{Data: []byte(conf)}
		o.Config = "/etc/puppet.conf"
	}
	return Load(o)
}

func TestPrecedence(t *testing.T) {
	for _, tc := range []struct {
		name, conf string
		flags      map[string]string
		key, want  string
		isSet      bool
	}{
		{"default", "", nil, EnvironmentPath, "/etc/puppetlabs/code/environments", false},
		{"main", "[main]\nenvironmentpath = /a\n", nil, EnvironmentPath, "/a", true},
		{"master over main", "[main]\nenvironmentpath = /a\n[master]\nenvironmentpath = /b\n", nil, EnvironmentPath, "/b", true},
		{"server over master", "[main]\nenvironmentpath = /a\n[server]\nenvironmentpath = /c\n[master]\nenvironmentpath = /b\n", nil, EnvironmentPath, "/c", true},
		{"agent ignored", "[agent]\nenvironmentpath = /a\n", nil, EnvironmentPath, "/etc/puppetlabs/code/environments", false},
		{"flag over file", "[server]\nenvironmentpath = /c\n", map[string]string{EnvironmentPath: "/f"}, EnvironmentPath, "/f", true},
		{"lines before a section are main", "environmentpath = /top\n", nil, EnvironmentPath, "/top", true},
		{"codedir interpolated", "[main]\ncodedir = /code\n", nil, BaseModulePath, "/code/modules:/opt/puppetlabs/puppet/modules", false},
		{"braces", "[main]\nvardir = ${confdir}/v\n", nil, Vardir, "/etc/puppetlabs/puppet/v", true},
		{"chain", "[main]\nvardir = $confdir/v\nlogdir = $vardir/log\n", nil, "logdir", "/etc/puppetlabs/puppet/v/log", true},
		{"environment", "[main]\nenvironment = $certname\n", nil, Environment, "vm.example.com", true},
		{"file metadata dropped", "[main]\nvardir = /v { owner = service }\n", nil, Vardir, "/v", true},
		{"comments", "# c\n; c\n[main]\n  certname = x  \n", nil, Certname, "x", true},
		{"default node terminus", "", nil, NodeTerminus, "plain", false},
		{"default strict", "", nil, StrictHostnameChecking, "true", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := load(t, tc.conf, tc.flags, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Get(tc.key); got != tc.want {
				t.Errorf("%s = %q, want %q", tc.key, got, tc.want)
			}
			if s.IsSet(tc.key) != tc.isSet {
				t.Errorf("IsSet(%s) = %v", tc.key, !tc.isSet)
			}
		})
	}
}

func TestNonRootDefaults(t *testing.T) {
	s, err := Load(Options{Home: "/home/u", FS: fstest.MapFS{}})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Get(EnvironmentPath); got != "/home/u/.puppetlabs/etc/code/environments" {
		t.Errorf("environmentpath = %q", got)
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct{ name, conf, want string }{
		{"junk line", "[main]\nfoo = bar\njunk line here\n",
			"Could not parse /etc/puppet.conf: Could not match line junk line here (file: /etc/puppet.conf, line: 3)"},
		{"manifest", "[main]\nmanifest = /x.pp\n", "Cannot set manifest settings in puppet.conf (file: /etc/puppet.conf, line: 2)"},
		{"modulepath", "[server]\nmodulepath = /x\n", "Cannot set modulepath settings in puppet.conf (file: /etc/puppet.conf, line: 2)"},
		{"unknown variable", "[main]\nvardir = $nosuch/x\n", "Error converting value for param 'vardir': Could not find value for $nosuch"},
		{"cycle", "[main]\nvardir = $logdir\nlogdir = $vardir\n", "cyclic reference"},
		{"strict", "[main]\nstrict_hostname_checking = maybe\n", `strict_hostname_checking must be true or false, got "maybe"`},
		{"timeout", "[main]\nenvironment_timeout = bogus\n", "Invalid 'time to live' format 'bogus' for parameter: environment_timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := load(t, tc.conf, nil, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := Load(Options{FS: fstest.MapFS{}, Config: "/nosuch.conf"}); err == nil {
		t.Error("missing puppet.conf: no error")
	}
}

func TestAccessors(t *testing.T) {
	s, err := load(t, "[main]\nnode_terminus = exec\nexternal_nodes = /bin/enc\nenvironment_timeout = 5m\nstrict_hostname_checking = false\n", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.ENC(); got != "/bin/enc" {
		t.Errorf("ENC = %q", got)
	}
	if d, _ := s.EnvironmentTimeout(); d != 5*time.Minute {
		t.Errorf("timeout %v", d)
	}
	if b, _ := s.StrictHostnameChecking(); b {
		t.Error("strict_hostname_checking = false not read")
	}
	s, _ = load(t, "[main]\nexternal_nodes = /bin/enc\n", nil, nil)
	if got := s.ENC(); got != "" {
		t.Errorf("plain terminus: ENC = %q", got)
	}
	for v, want := range map[string]time.Duration{"0": 0, "30": 30 * time.Second, "3s": 3 * time.Second, "2h": 2 * time.Hour, "unlimited": Unlimited} {
		if got, err := ParseTimeout(v, "x"); err != nil || got != want {
			t.Errorf("ParseTimeout(%q) = %v, %v", v, got, err)
		}
	}
	for _, v := range []string{"-1", "x", "1w", "99999999999999999y"} {
		if _, err := ParseTimeout(v, "x"); err == nil {
			t.Errorf("ParseTimeout(%q): no error", v)
		}
	}
}

// TestHieraConfigDefault: Puppet 7 uses $confdir/hiera.yaml when it exists,
// else $codedir/hiera.yaml (checked with puppet config print).
func TestHieraConfigDefault(t *testing.T) {
	s, _ := load(t, "", nil, fstest.MapFS{})
	if got := s.HieraConfigPath(); got != "/etc/puppetlabs/code/hiera.yaml" {
		t.Errorf("no confdir hiera.yaml: %q", got)
	}
	s, _ = load(t, "", nil, fstest.MapFS{"etc/puppetlabs/puppet/hiera.yaml": {}})
	if got := s.HieraConfigPath(); got != "/etc/puppetlabs/puppet/hiera.yaml" {
		t.Errorf("confdir hiera.yaml: %q", got)
	}
	s, _ = load(t, "", map[string]string{HieraConfig: "/h.yaml"}, nil)
	if got := s.HieraConfigPath(); got != "/h.yaml" {
		t.Errorf("set: %q", got)
	}
}

func TestReadEnvironmentConf(t *testing.T) {
	files := fstest.MapFS{
		"envs/a/environment.conf":   {Data: []byte("manifest = site.pp\nmodulepath = site:modules:/abs:$basemodulepath\nconfig_version = /bin/v $environment\nenvironment_timeout = unlimited\n")},
		"envs/bad/environment.conf": {Data: []byte("modulepath\n")},
	}
	s, err := load(t, "[main]\ncodedir = /code\n", nil, files)
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.ReadEnvironmentConf("/envs/a", "a")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/envs/a/site", "/envs/a/modules", "/abs", "/code/modules", "/opt/puppetlabs/puppet/modules"}
	if c.Manifest != "/envs/a/site.pp" || strings.Join(c.ModulePath, ":") != strings.Join(want, ":") ||
		c.ConfigVersion != "/bin/v a" || c.Timeout != Unlimited {
		t.Errorf("got %+v", c)
	}
	c, err = s.ReadEnvironmentConf("/envs/none", "none")
	if err != nil {
		t.Fatal(err)
	}
	if c.Manifest != "/envs/none/manifests" || c.ModulePath[0] != "/envs/none/modules" || c.Timeout != 0 {
		t.Errorf("defaults: %+v", c)
	}
	if _, err := s.ReadEnvironmentConf("/envs/bad", "bad"); err == nil || !strings.Contains(err.Error(), "line: 1") {
		t.Errorf("junk line: %v", err)
	}
}

// TestInterpolationBounded: settings that refer to each other repeatedly
// must not expand exponentially (found by reasoning about FuzzLoad; before
// the memo and the limit this took minutes and gigabytes).
func TestInterpolationBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("[main]\n")
	for i := 0; i < 40; i++ {
		b.WriteString("s" + string(rune('a'+i%26)) + strings.Repeat("x", i/26) + " = ")
		next := "s" + string(rune('a'+(i+1)%26)) + strings.Repeat("x", (i+1)/26)
		b.WriteString("$" + next + "/$" + next + "\n")
	}
	b.WriteString("s" + string(rune('a'+40%26)) + strings.Repeat("x", 40/26) + " = ab\n")
	done := make(chan error, 1)
	go func() {
		_, err := load(t, b.String(), nil, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "a limit of marionette") {
			t.Fatalf("err = %v, want the length limit", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("interpolation did not finish in 10s")
	}
}

// TestCycleErrorStable: a cycle is reported the same way on every load
// (found by FuzzLoad: the settings were expanded in map order).
func TestCycleErrorStable(t *testing.T) {
	const conf = "[main]\nb = $a\na = $b\n"
	want := "Error converting value for param 'a': cyclic reference to $a"
	for i := 0; i < 20; i++ {
		_, err := load(t, conf, nil, nil)
		if err == nil || err.Error() != want {
			t.Fatalf("load %d: err = %v, want %q", i, err, want)
		}
	}
}
