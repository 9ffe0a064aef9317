package eyaml

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/internal/corpus"
)

// testKeys loads a committed test-only key pair (testdata/README.md).
func testKeys(t testing.TB, dir string) *KeyPair {
	t.Helper()
	kp, err := LoadKeyPair(filepath.Join(dir, "private_key.pkcs7.pem"), filepath.Join(dir, "public_key.pkcs7.pem"))
	if err != nil {
		t.Fatal(err)
	}
	return kp
}

func source(kp *KeyPair) KeySource { return func() (*KeyPair, error) { return kp, nil } }

type toolBlock struct {
	Name, Plaintext, Format, Encrypted string
}

func toolBlocks(t *testing.T) []toolBlock {
	t.Helper()
	data, err := os.ReadFile("testdata/blocks.json")
	if err != nil {
		t.Fatal(err)
	}
	var blocks []toolBlock
	if err := json.Unmarshal(data, &blocks); err != nil {
		t.Fatal(err)
	}
	return blocks
}

// folded is a block as a YAML folded scalar (>) gives it to Hiera: the
// lines joined with spaces, one trailing newline.
func folded(block string) string {
	lines := strings.Split(strings.TrimSpace(block), "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(lines, " ") + "\n"
}

// TestDecryptEyamlToolBlocks decrypts what Debian's `eyaml encrypt` wrote.
func TestDecryptEyamlToolBlocks(t *testing.T) {
	kp := testKeys(t, "testdata/keys")
	for _, b := range toolBlocks(t) {
		t.Run(b.Name, func(t *testing.T) {
			in := b.Encrypted
			if b.Format == "block" {
				in = folded(in)
			}
			got, err := DecryptString(in, source(kp))
			if err != nil {
				t.Fatal(err)
			}
			if want := chomp(b.Plaintext); got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}

func TestDecryptString(t *testing.T) {
	kp := testKeys(t, "testdata/keys")
	other := testKeys(t, "testdata/other/keys")
	secret, err := Encrypt("s3cret", kp)
	if err != nil {
		t.Fatal(err)
	}
	unprefixed := "ENC[" + strings.TrimPrefix(secret, "ENC[PKCS7,")
	spaced := secret[:40] + " " + secret[40:80] + "  " + secret[80:]
	// Puppet takes a string for encrypted when one line holds ENC[...]:
	// a block wrapped over lines (a YAML literal block) stays as written.
	wrapped := secret[:40] + "\n  " + secret[40:]
	tests := []struct {
		name, in, want, err string
		keys                KeySource
	}{
		{name: "plain", in: "no blocks here\n", want: "no blocks here\n"},
		{name: "whole", in: secret, want: "s3cret"},
		{name: "inside text", in: "user:" + secret + "@host", want: "user:s3cret@host"},
		{name: "two blocks", in: secret + "/" + secret, want: "s3cret/s3cret"},
		{name: "default scheme", in: unprefixed, want: "s3cret"},
		{name: "lower-case scheme", in: strings.Replace(secret, "PKCS7", "pkcs7", 1), want: "s3cret"},
		{name: "wrapped with spaces", in: spaced, want: "s3cret"},
		{name: "wrapped over lines", in: wrapped, want: wrapped},
		{name: "trailing newline chomped", in: secret + "\n", want: "s3cret"},
		{name: "marker that is no block", in: "ENC[not!a,block]\n", want: "ENC[not!a,block]"},
		{name: "interpolation kept", in: "%{facts.x}-" + secret, want: "%{facts.x}-s3cret"},
		{name: "corrupt", in: "ENC[PKCS7,MIIBeQYJKoZIhvcNAQcDoIIBajCCAWYCAQAx]", err: "Could not parse the PKCS7: no start line"},
		{name: "not base64 length", in: "ENC[PKCS7,MIIBe]", err: "Could not parse the PKCS7"},
		{name: "wrong key", in: secret, keys: source(other), err: "bad decrypt"},
		{name: "gpg", in: "ENC[GPG,aGVsbG8=]", err: "the GPG encryptor (hiera-eyaml-gpg) is not supported by marionette"},
		{name: "unknown scheme", in: "ENC[KMS,aGVsbG8=]", err: "cannot load such file -- hiera/backend/eyaml/encryptors/kms"},
		{name: "missing key file", in: secret, keys: func() (*KeyPair, error) { return LoadKeyPair("/nonexistent/private.pem", "/nonexistent/public.pem") },
			err: "No such file or directory @ rb_sysopen - /nonexistent/private.pem"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			keys := tt.keys
			if keys == nil {
				keys = source(kp)
			}
			got, err := DecryptString(tt.in, keys)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				if strings.Contains(err.Error(), "s3cret") {
					t.Errorf("error shows the plaintext: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestKeysReadOnlyForBlocks(t *testing.T) {
	called := false
	keys := func() (*KeyPair, error) { called = true; return nil, os.ErrNotExist }
	if _, err := DecryptString("plain ENC[x!]", keys); err != nil || called {
		t.Fatalf("err %v, keys read %v", err, called)
	}
}

func TestLoadKeyPairErrors(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.pem")
	if err := os.WriteFile(garbage, []byte("not a key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	good := "testdata/keys/"
	tests := []struct{ name, private, public, err string }{
		{"no public key", good + "private_key.pkcs7.pem", "", "pkcs7_public_key is not defined"},
		{"no private key", "", good + "public_key.pkcs7.pem", "pkcs7_private_key is not defined"},
		{"missing private", filepath.Join(dir, "nope.pem"), good + "public_key.pkcs7.pem", "No such file or directory @ rb_sysopen - " + filepath.Join(dir, "nope.pem")},
		{"missing public", good + "private_key.pkcs7.pem", filepath.Join(dir, "nope.pem"), "No such file or directory @ rb_sysopen - " + filepath.Join(dir, "nope.pem")},
		{"garbage private", garbage, good + "public_key.pkcs7.pem", "Neither PUB key nor PRIV key"},
		{"garbage public", good + "private_key.pkcs7.pem", garbage, "PEM_read_bio_X509: no start line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadKeyPair(tt.private, tt.public)
			if err == nil || err.Error() != tt.err {
				t.Fatalf("error %v, want %q", err, tt.err)
			}
		})
	}
}

func TestKeysFromEnvironment(t *testing.T) {
	priv, _ := os.ReadFile("testdata/keys/private_key.pkcs7.pem")
	pub, _ := os.ReadFile("testdata/keys/public_key.pkcs7.pem")
	env := map[string]string{"EYAML_PRIVATE": string(priv), "EYAML_PUBLIC": string(pub)}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	tests := []struct {
		name string
		o    KeyOptions
		err  string
	}{
		{"both from the environment", KeyOptions{PrivateKeyEnvVar: "EYAML_PRIVATE", PublicKeyEnvVar: "EYAML_PUBLIC"}, ""},
		{"an unset variable falls back to the file", KeyOptions{PrivateKeyEnvVar: "UNSET", PrivateKey: "testdata/keys/private_key.pkcs7.pem", PublicKeyEnvVar: "EYAML_PUBLIC"}, ""},
		{"an unset variable without a file", KeyOptions{PrivateKeyEnvVar: "UNSET", PublicKeyEnvVar: "EYAML_PUBLIC"}, "no implicit conversion of nil into String"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.o.LookupEnv = lookup
			kp, err := tt.o.Load()
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || kp.PrivateKey == nil || kp.Certificate == nil {
				t.Fatalf("got %v, %v", kp, err)
			}
		})
	}
}

// TestAgainstEyamlTool checks both directions with Debian's eyaml tool.
func TestAgainstEyamlTool(t *testing.T) {
	tool, err := exec.LookPath("eyaml")
	if err != nil {
		corpus.Absent(t, fmt.Errorf("the eyaml tool is not installed (Debian's hiera-eyaml: apt-get install hiera-eyaml; .ci/run installs it)"))
	}
	keyArgs := []string{"--pkcs7-private-key", "testdata/keys/private_key.pkcs7.pem", "--pkcs7-public-key", "testdata/keys/public_key.pkcs7.pem"}
	kp := testKeys(t, "testdata/keys")
	for _, plain := range []string{"hunter2", "with spaces and ünïcode", strings.Repeat("long ", 100)} {
		ours, err := Encrypt(plain, kp)
		if err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(tool, append([]string{"decrypt", "-s", ours}, keyArgs...)...).Output()
		if err != nil {
			t.Fatalf("eyaml decrypt: %v", err)
		}
		if got := strings.TrimSuffix(string(out), "\n"); got != plain {
			t.Errorf("eyaml decrypted our block to %q, want %q", got, plain)
		}
		out, err = exec.Command(tool, append([]string{"encrypt", "-o", "string", "-s", plain}, keyArgs...)...).Output()
		if err != nil {
			t.Fatalf("eyaml encrypt: %v", err)
		}
		got, err := DecryptString(strings.TrimSpace(string(out)), source(kp))
		if err != nil || got != plain {
			t.Errorf("eyaml's block decrypted to %q (%v), want %q", got, err, plain)
		}
	}
}
