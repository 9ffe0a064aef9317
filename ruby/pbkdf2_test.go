package ruby

import (
	"os"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// pbkdf2GemFile is icinga-icinga2's copy of the pbkdf2-ruby gem, in the
// sites corpus beside the checkout.
const pbkdf2GemFile = "../../shared/sites/miraheze/modules/icinga2/lib/puppet_x/icinga2/pbkdf2.rb"

// libScope answers require 'puppet_x/icinga2/pbkdf2' with src.
type libScope struct {
	funcScope
	src []byte
}

func (s libScope) RubyFile(path string) (string, []byte, bool) {
	if path != "puppet_x/icinga2/pbkdf2" {
		return "", nil, false
	}
	return "pbkdf2.rb", s.src, true
}

// pbkdf2Fn calls the gem's class as icinga2_ticket_id does, with the
// options given (a hash), and rescues the gem's errors.
const pbkdf2Fn = `require 'puppet_x/icinga2/pbkdf2'
Puppet::Functions.create_function(:'t::kdf') do
  def kdf(opts, digest)
    o = {}
    opts.each { |k, v| o[k.to_sym] = v }
    o[:hash_function] = OpenSSL::Digest.new(digest) if digest
    PBKDF2.new(o).hex_string
  rescue ArgumentError, TypeError => e
    "#{e.class}: #{e.message}"
  end
end
`

// TestPBKDF2Gem runs a known copy of the pbkdf2-ruby gem as the subset's
// own class: RFC 6070's PBKDF2-HMAC-SHA1 vectors, the gem's defaults
// (SHA-256, its digest's length) and its checks; a changed copy is Ruby
// the subset then has to run itself.
func TestPBKDF2Gem(t *testing.T) {
	src, err := os.ReadFile(pbkdf2GemFile)
	if err != nil {
		t.Skip("no sites corpus beside the checkout (" + pbkdf2GemFile + ")")
	}
	f, err := LoadRubyFunction("kdf.rb", []byte(pbkdf2Fn))
	if err != nil {
		t.Fatal(err)
	}
	opts := func(kv ...any) value.Value {
		var e []value.Value
		for _, x := range kv {
			switch x := x.(type) {
			case string:
				e = append(e, value.String(x))
			case int:
				e = append(e, value.Integer(x))
			}
		}
		return value.NewHash(e...)
	}
	sha1 := value.String("sha1")
	tests := []struct {
		name   string
		opts   value.Value
		digest value.Value
		want   string
	}{
		{"RFC 6070, 1 iteration", opts("password", "password", "salt", "salt", "iterations", 1), sha1, "0c60c80f961f0e71f3a9b524af6012062fe037a6"},
		{"RFC 6070, 2 iterations", opts("password", "password", "salt", "salt", "iterations", 2), sha1, "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"},
		{"RFC 6070, 4096 iterations", opts("password", "password", "salt", "salt", "iterations", 4096), sha1, "4b007901b765489abead49d926f721d065a429c1"},
		{"RFC 6070, a 25-byte key over two blocks", opts("password", "passwordPASSWORDpassword", "salt", "saltSALTsaltSALTsaltSALTsaltSALTsalt", "iterations", 4096, "key_length", 25), sha1, "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038"},
		{"SHA-256 and its length by default", opts("password", "password", "salt", "salt", "iterations", 1), value.Undef, "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b"},
		{"a name the gem strips hmacWith from", opts("password", "password", "salt", "salt", "iterations", 1, "hash_function", "hmacWithSHA1"), value.Undef, "0c60c80f961f0e71f3a9b524af6012062fe037a6"},
		{"an option the gem has no writer for", opts("password", "p", "salt", "s", "rounds", 3), sha1, "ArgumentError: Argument 'rounds' is not allowed"},
		{"no salt", opts("password", "p", "iterations", 3), sha1, "ArgumentError: salt not set"},
		{"no iterations", opts("password", "p", "salt", "s"), sha1, "ArgumentError: iterations not set"},
		{"zero iterations", opts("password", "p", "salt", "s", "iterations", 0), sha1, "ArgumentError: iterations can't be less than 1"},
		{"a zero key length", opts("password", "p", "salt", "s", "iterations", 1, "key_length", 0), sha1, "ArgumentError: key too short"},
		{"an unknown hash type", opts("password", "p", "salt", "s", "iterations", 1, "hash_function", 5), value.Undef, "TypeError: Unknown hash type: Integer"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := f.Call(libScope{src: src}, []value.Value{tc.opts, tc.digest})
			if err != nil || v != value.String(tc.want) {
				t.Errorf("got %v, %v; want %q", v, err, tc.want)
			}
		})
	}

	// The String#^ the gem adds.
	xor, err := LoadRubyFunction("xor.rb", []byte(`require 'puppet_x/icinga2/pbkdf2'
Puppet::Functions.create_function(:'t::xor') do
  def xor(a, b)
    a ^ b
  rescue ArgumentError => e
    e.message
  end
end
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ a, b, want string }{
		{"ab", "\x03\x03", "ba"},
		{"ab", "abc", "Can't bitwise-XOR strings of different length"},
	} {
		v, err := xor.Call(libScope{src: src}, []value.Value{value.String(tc.a), value.String(tc.b)})
		if err != nil || v != value.String(tc.want) {
			t.Errorf("%q ^ %q: got %v, %v; want %q", tc.a, tc.b, v, err, tc.want)
		}
	}

	// A copy that differs from the gem's is run as Ruby: the subset
	// cannot (its attribute writers), which an unchanged copy proves is
	// not what ran above.
	changed := append(append([]byte{}, src...), "\n# changed\n"...)
	_, err = f.Call(libScope{src: changed}, []value.Value{opts("password", "password", "salt", "salt", "iterations", 1), sha1})
	if err == nil || !strings.Contains(err.Error(), "pbkdf2.rb:55") {
		t.Errorf("a changed copy: got %v, want the subset's error at the file's line 55", err)
	}
}
