package ruby

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// TestCryptAgainstRuby compares String#crypt with real Ruby's.
func TestCryptAgainstRuby(t *testing.T) {
	if _, err := exec.LookPath("ruby"); err != nil {
		t.Skip("ruby not found")
	}
	in, _ := json.Marshal(cryptCases)
	out, err := exec.Command("ruby", "-rjson", "-e", `puts JSON.parse(ARGV[0]).map { |k, s| k.crypt(s) }.to_json`, string(in)).Output()
	if err != nil {
		t.Fatalf("ruby: %v", err)
	}
	var want []string
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	f, err := LoadRubyFunction("crypt.rb", []byte("Puppet::Functions.create_function(:c) do\n  def c(k, s)\n    k.crypt(s)\n  end\nend\n"))
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cryptCases {
		got, err := f.Call(funcScope{}, []value.Value{value.String(c[0]), value.String(c[1])})
		if err != nil {
			t.Errorf("%q.crypt(%q): %v", c[0], c[1], err)
			continue
		}
		if got != value.String(want[i]) {
			t.Errorf("%q.crypt(%q) = %v, Ruby gives %s", c[0], c[1], got, want[i])
		}
	}
}

// TestCryptErrors checks Ruby's errors for a short salt and that schemes
// not computed here are unsupported rather than wrong.
func TestCryptErrors(t *testing.T) {
	f, err := LoadRubyFunction("crypt.rb", []byte("Puppet::Functions.create_function(:c) do\n  def c(k, s)\n    k.crypt(s)\n  end\nend\n"))
	if err != nil {
		t.Fatal(err)
	}
	for salt, want := range map[string]string{
		"a":                             "salt too short (need >=2 bytes)",
		"":                              "salt too short (need >=2 bytes)",
		"$2b$05$abcdefghijklmnopqrstuu": "unsupported Ruby",
		"$y$j9T$salt":                   "unsupported Ruby",
		"_J9..salt":                     "unsupported Ruby",
		"$1$sa%lt$":                     "unsupported Ruby",
	} {
		_, err := f.Call(funcScope{}, []value.Value{value.String("secret"), value.String(salt)})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("crypt(%q): got %v, want %q", salt, err, want)
		}
	}
}

// cryptCases are String#crypt calls: password and salt.
var cryptCases = [][2]string{
	{"secret", "ab"}, {"secret", "FO"}, {"", "ab"}, {"a very long password more than 8", "zz"},
	{"pässwörd", "ab"}, {"secret", "abcdef"}, {"x", "./"}, {"Zz9", "z9"},
	{"secret", "$1$saltsalt$"}, {"secret", "$1$saltsaltlonger"}, {"", "$1$"}, {"pässwörd", "$1$ab$"},
	{strings.Repeat("long", 20), "$1$x.y/z"},
	{"secret", "$5$saltsalt"}, {"secret", "$5$rounds=5000$saltsalt"}, {"secret", "$5$rounds=1000$saltsalt$junk"},
	{"secret", "$5$saltsaltsaltsaltsalt$"}, {"", "$5$"}, {strings.Repeat("p", 70), "$5$abc"},
	{"secret", "$6$saltsalt$"}, {"secret", "$6$rounds=1000$x"}, {strings.Repeat("p", 130), "$6$roundsx=1000$salt"},
	{"secret", "$6$rounds=10$saltsalt"}, {"secret", "$5$rounds=01000$s"}, {"secret", "$5$rounds=$s"},
	{"secret", "$1$sa:lt$"}, {"secret", "$5$sa:lt$"}, {"secret", "!!"}, {"secret", "a!"}, {"secret", "*0"},
	{"secret", "a\n"},
}
