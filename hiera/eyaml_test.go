package hiera

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/eyaml"
	"github.com/marionette-dev/marionette/value"
)

// eyamlTestKeys are the test-only key pairs of package eyaml (its
// testdata/README.md): the first encrypts, "other" is a wrong pair.
func eyamlTestKeys(t *testing.T) (keyDir, otherDir string, kp *eyaml.KeyPair) {
	t.Helper()
	keyDir, _ = filepath.Abs("../eyaml/testdata/keys")
	otherDir, _ = filepath.Abs("../eyaml/testdata/other/keys")
	kp, err := eyaml.LoadKeyPair(filepath.Join(keyDir, "private_key.pkcs7.pem"), filepath.Join(keyDir, "public_key.pkcs7.pem"))
	if err != nil {
		t.Fatal(err)
	}
	return keyDir, otherDir, kp
}

func TestEyamlLookupKey(t *testing.T) {
	keyDir, otherDir, kp := eyamlTestKeys(t)
	enc := func(s string) string {
		b, err := eyaml.Encrypt(s, kp)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	dir := writeTree(t, map[string]string{
		"hiera.yaml": `version: 5
hierarchy:
  - name: secrets
    lookup_key: eyaml_lookup_key
    path: secrets.eyaml
    options:
      pkcs7_private_key: "%{keydir}/private_key.pkcs7.pem"
      pkcs7_public_key: "%{keydir}/public_key.pkcs7.pem"
`,
		"data/secrets.eyaml": "whole: " + enc("s3cret") + "\n" +
			"inside: \"u:" + enc("pw") + "@%{host}\"\n" +
			"list:\n  - " + enc("a") + "\n  - plain\n" +
			"hash:\n  \"%{host}\": " + enc("v") + "\n" +
			"interpolated: " + enc("on %{host}") + "\n" +
			"number: 3\n" +
			"corrupt: ENC[PKCS7,MIIBeQYJKoZIhvcN]\n" +
			"gpg: ENC[GPG,aGVsbG8=]\n",
	})
	file := filepath.Join(dir, "data", "secrets.eyaml")
	tests := []struct {
		name, key, keydir string
		want              value.Value
		err               string
	}{
		{name: "whole string", key: "whole", keydir: keyDir, want: value.String("s3cret")},
		{name: "inside a string", key: "inside", keydir: keyDir, want: value.String("u:pw@h1")},
		{name: "array", key: "list", keydir: keyDir, want: value.Array{value.String("a"), value.String("plain")}},
		{name: "hash", key: "hash", keydir: keyDir, want: value.NewHash(value.String("h1"), value.String("v"))},
		{name: "decrypted then interpolated", key: "interpolated", keydir: keyDir, want: value.String("on h1")},
		{name: "not a string", key: "number", keydir: keyDir, want: value.Integer(3)},
		{name: "plain values need no keys", key: "number", keydir: "/nonexistent", want: value.Integer(3)},
		{name: "wrong key", key: "whole", keydir: otherDir,
			err: "hiera-eyaml backend error decrypting ENC[PKCS7,"},
		{name: "wrong key names file", key: "whole", keydir: otherDir,
			err: "] when looking up whole in " + file + ". Error was bad decrypt"},
		{name: "missing key file", key: "whole", keydir: "/nonexistent",
			err: "Error was No such file or directory @ rb_sysopen - /nonexistent/private_key.pkcs7.pem"},
		{name: "corrupt block", key: "corrupt", keydir: keyDir,
			err: "decrypting ENC[PKCS7,MIIBeQYJKoZIhvcN] when looking up corrupt in " + file + ". Error was Could not parse the PKCS7: no start line"},
		{name: "gpg refused", key: "gpg", keydir: keyDir, err: "the GPG encryptor (hiera-eyaml-gpg) is not supported by marionette"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewSession(Options{GlobalConfig: filepath.Join(dir, "hiera.yaml")}, mapScope{"keydir": value.String(tt.keydir), "host": value.String("h1")})
			v, err := s.Lookup(Request{Keys: []string{tt.key}})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want it to contain %q", err, tt.err)
				}
				if strings.Contains(err.Error(), "s3cret") {
					t.Errorf("error shows the plaintext: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !value.Identical(v, tt.want) {
				t.Errorf("got %v, want %v", v, tt.want)
			}
		})
	}
}

// TestEyamlKeyFilesReloaded checks that a replaced key pair is read again.
func TestEyamlKeyFilesReloaded(t *testing.T) {
	keyDir, otherDir, kp := eyamlTestKeys(t)
	secret, err := eyaml.Encrypt("s3cret", kp)
	if err != nil {
		t.Fatal(err)
	}
	dir := writeTree(t, map[string]string{
		"hiera.yaml":         "version: 5\nhierarchy:\n  - name: s\n    lookup_key: eyaml_lookup_key\n    path: s.eyaml\n    options:\n      pkcs7_private_key: keys/private_key.pkcs7.pem\n      pkcs7_public_key: keys/public_key.pkcs7.pem\n",
		"data/s.eyaml":       "k: " + secret + "\n",
		"keys/.placeholder":  "",
		"other/.placeholder": "",
	})
	t.Chdir(dir) // relative key paths are relative to the working directory, as in Puppet
	copyKeys := func(from string) {
		for _, f := range []string{"private_key.pkcs7.pem", "public_key.pkcs7.pem"} {
			data, err := os.ReadFile(filepath.Join(from, f))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "keys", f), data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	cache := NewCache()
	lookup := func() error {
		s := NewSession(Options{Cache: cache, GlobalConfig: filepath.Join(dir, "hiera.yaml")}, nil)
		_, err := s.Lookup(Request{Keys: []string{"k"}})
		return err
	}
	copyKeys(otherDir)
	if err := lookup(); err == nil || !strings.Contains(err.Error(), "bad decrypt") {
		t.Fatalf("with the wrong keys: %v", err)
	}
	copyKeys(keyDir)
	// Same size, maybe the same modification time: make the change visible.
	later := mustStat(t, filepath.Join(dir, "keys", "private_key.pkcs7.pem")).ModTime().Add(2e9)
	for _, f := range []string{"private_key.pkcs7.pem", "public_key.pkcs7.pem"} {
		if err := os.Chtimes(filepath.Join(dir, "keys", f), later, later); err != nil {
			t.Fatal(err)
		}
	}
	if err := lookup(); err != nil {
		t.Fatalf("with the right keys: %v", err)
	}
}

func mustStat(t *testing.T, path string) os.FileInfo {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}
