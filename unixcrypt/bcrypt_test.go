package unixcrypt

import (
	"errors"
	"strings"
	"testing"
)

// TestBcrypt checks bcrypt against Ruby's String#crypt on Debian 12
// (libxcrypt), the crypt(3) Puppet's pw_hash calls: "*0" where it
// rejects the setting.
func TestBcrypt(t *testing.T) {
	tests := []struct{ key, setting, want string }{
		{"password", "$2b$05$salt.salt.salt.salt.sa", "$2b$05$salt.salt.salt.salt.sO5QUgeeLRANZyvfNiKJW5amLo3cVD8nW"},
		{"password", "$2a$05$salt.salt.salt.salt.sa", "$2a$05$salt.salt.salt.salt.sO5QUgeeLRANZyvfNiKJW5amLo3cVD8nW"},
		{"password", "$2x$05$salt.salt.salt.salt.sa", "$2x$05$salt.salt.salt.salt.sO5QUgeeLRANZyvfNiKJW5amLo3cVD8nW"},
		{"password", "$2y$05$salt.salt.salt.salt.saXYZ", "$2y$05$salt.salt.salt.salt.sO5QUgeeLRANZyvfNiKJW5amLo3cVD8nW"},
		{"", "$2b$04$abcdefghijklmnopqrstuu", "$2b$04$abcdefghijklmnopqrstuubyCG3zY1GIXMyxfivm.ClDiInHzxjiq"},
		{"pässword", "$2b$05$salt.salt.salt.salt.sa", "$2b$05$salt.salt.salt.salt.sO39KYrfNnPNbi5RxB.7Ju2lyRqVaIkq2"},
		{"pässword", "$2y$06$ABCDEFGHIJKLMNOPQRSTUV", "$2y$06$ABCDEFGHIJKLMNOPQRSTUORchdtVk1qzAgR2jZaaLWUZH9xHRkRcO"},
		{strings.Repeat("a", 80), "$2b$04$0123456789012345678901", "$2b$04$012345678901234567890uydJq55j67EtdPksopGMnhmoI3F/lxU2"},
		{strings.Repeat("a", 71) + "b", "$2b$04$0123456789012345678901", "$2b$04$012345678901234567890uDg/o1SHoX6vSsutSea.gGczjWXfRJBG"},
		{strings.Repeat("a", 72) + "c", "$2b$04$0123456789012345678901", "$2b$04$012345678901234567890uydJq55j67EtdPksopGMnhmoI3F/lxU2"},
		{"x", "$2b$04$0123456789!12345678901", "*0"},
		{"x", "$2b$03$0123456789012345678901", "*0"},
		{"x", "$2b$32$0123456789012345678901", "*0"},
		{"x", "$2b$04$012345678901234567890", "*0"},
		{"x", "$2c$04$0123456789012345678901", "*0"},
	}
	for _, tt := range tests {
		out, ok, supported, err := Bcrypt(tt.key, tt.setting, nil)
		if err != nil || !supported {
			t.Errorf("Bcrypt(%q, %q): supported %v, err %v", tt.key, tt.setting, supported, err)
			continue
		}
		if !ok {
			out = "*0"
		}
		if out != tt.want {
			t.Errorf("Bcrypt(%q, %q) = %q, want %q", tt.key, tt.setting, out, tt.want)
		}
	}
	// Bytes past ASCII under the schemes that keep or guard against the
	// sign-extension bug are not computed.
	if _, _, supported, _ := Bcrypt("pässword", "$2x$05$salt.salt.salt.salt.sa", nil); supported {
		t.Error("$2x$ with a byte past ASCII: supported, want not")
	}
	// A cost of 31 stops at the first poll that says so.
	stop := errors.New("stopped")
	polls := 0
	_, _, _, err := Bcrypt("x", "$2b$31$0123456789012345678901", func() error {
		polls++
		if polls > 2 {
			return stop
		}
		return nil
	})
	if err != stop {
		t.Errorf("cost 31 with a poll that stops: err %v, want %v", err, stop)
	}
}
