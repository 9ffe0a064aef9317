package puppetconf

import (
	"runtime"
	"testing"
	"testing/fstest"
)

// FuzzLoad reads arbitrary text as puppet.conf: it must never panic or
// hang, and a successful load is deterministic and bounded.
func FuzzLoad(f *testing.F) {
	for _, s := range []string{
		"",
		"[main]\nenvironmentpath = /a\n[server]\nenvironmentpath = /c\n",
		"[main]\nvardir = ${confdir}/v\nlogdir = $vardir/log\n",
		"[main]\na = $b\nb = $a\n",
		"[main]\nvardir = /v { owner = service }\n",
		"# c\n; c\n[main]\n  certname = x  \n",
		"[main]\nmanifest = /x\n",
		"[main]\nenvironment_timeout = 5m\nstrict_hostname_checking = false\n",
		"[main]\nthis is junk\n",
		"[main]\nx = ${unterminated\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, conf string) {
		files := fstest.MapFS{"etc/puppet.conf": &fstest.MapFile{Data: []byte(conf)}}
		o := Options{FS: files, Config: "/etc/puppet.conf", Root: true, Hostname: "vm.example.com"}
		var s1, s2 *Settings
		var err1, err2 error
		checkAlloc(t, len(conf), func() {
			s1, err1 = Load(o)
			s2, err2 = Load(o)
		})
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("not deterministic: %v / %v", err1, err2)
		}
		if err1 != nil {
			if err1.Error() != err2.Error() {
				t.Fatalf("not deterministic: %v / %v", err1, err2)
			}
			return
		}
		for k, v := range s1.values {
			if len(v) > MaxSettingLength {
				t.Fatalf("%s is %d bytes, over the limit", k, len(v))
			}
			if s2.values[k] != v {
				t.Fatalf("%s: %q then %q", k, v, s2.values[k])
			}
		}
		// Whatever the settings, reading an environment.conf must not panic.
		_, _ = s1.ReadEnvironmentConf("/env", "production")
	})
}

// FuzzEnvironmentConf reads arbitrary text as an environment's
// environment.conf: never a panic or a hang; paths come back absolute.
func FuzzEnvironmentConf(f *testing.F) {
	for _, s := range []string{
		"",
		"manifest = site.pp\nmodulepath = modules:$basemodulepath\n",
		"modulepath = /abs:rel:${environment}/x\nconfig_version = /bin/true\n",
		"environment_timeout = unlimited\n",
		"environment_timeout = 3x\n",
		"manifest = $nosuch\n",
		"[main]\nmanifest = a.pp\n[other]\nmanifest = b.pp\n",
		"junk\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, conf string) {
		files := fstest.MapFS{"env/production/environment.conf": &fstest.MapFile{Data: []byte(conf)}}
		s, err := Load(Options{FS: files, Root: true, Hostname: "vm.example.com"})
		if err != nil {
			t.Fatal(err)
		}
		var ec *EnvironmentConf
		checkAlloc(t, len(conf), func() { ec, err = s.ReadEnvironmentConf("/env/production", "production") })
		if err != nil {
			return
		}
		if ec.Manifest != "" && ec.Manifest[0] != '/' {
			t.Fatalf("relative manifest %q", ec.Manifest)
		}
		for _, p := range ec.ModulePath {
			if p[0] != '/' {
				t.Fatalf("relative module path entry %q", p)
			}
		}
		if ec.Timeout < 0 {
			t.Fatalf("negative timeout %v", ec.Timeout)
		}
	})
}

// checkAlloc fails t when f allocates more than a bound linear in the n
// bytes of input it reads: settings expand variables, but never past
// MaxSettingLength each.
func checkAlloc(t *testing.T, n int, f func()) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20+4096*uint64(n) {
		t.Fatalf("reading %d bytes allocated %d MiB", n, got>>20)
	}
}
