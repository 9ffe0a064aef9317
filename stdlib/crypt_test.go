package stdlib

import "testing"

// The expected hashes are what Ruby's String#crypt (glibc) computes for
// the same password and "$id$salt", which is all stdlib's pw_hash does;
// the sha-512 case, the empty password and the first two errors were
// also checked on Puppet 7.23.
func TestPwHash(t *testing.T) {
	checkValues(t, []valueCase{
		{`pw_hash('password', 'sha-512', 'saltsalt')`, `'$6$saltsalt$qFmFH.bQmmtXzyBY0s9v7Oicd2z4XSIecDzlB5KiA2/jctKu9YterLp8wwnSq.qc.eoxqOmSuNp2xS0ktL3nh/'`},
		{`pw_hash('password', 'sha-256', 'saltsalt')`, `'$5$saltsalt$gOjOtoMpVhru2uyjeJSEc/JaLQWOXMNmlOnj6T4AtC.'`},
		{`pw_hash('password', 'md5', 'saltsalt')`, `'$1$saltsalt$qjXMvbEw8oaL.CzflDtaK/'`},
		{`pw_hash('a much longer password with spaces and more than 64 bytes of content in total!!', 'sha-512', 'abcdefghijklmnopqrstu')`, `'$6$abcdefghijklmnop$kuzqAgNHbGOoaByiF0Y8u.rQoGvQRAdXzWH3.c/O.qcNvMn.STiIyPHw4fOerBfk5ZUKKIMecwRj3u1K0ZgKV.'`},
		{`pw_hash('x', 'sha-256', 'ab')`, `'$5$ab$5ydlOaPxAq0VpamGFK.BZgHF7HlR0erJsH.F7VB19f0'`},
		{`pw_hash('héllo', 'md5', '0123456789')`, `'$1$01234567$ORTmWLl5sqYcXgdfoualg/'`},
		{`pw_hash('', 'sha-512', 'abc')`, `undef`},
		// bcrypt: as Puppet 7.23 on Debian 12 (libxcrypt) returns them.
		{`pw_hash('password', 'bcrypt', '05$salt.salt.salt.salt.sa')`, `'$2b$05$salt.salt.salt.salt.sO5QUgeeLRANZyvfNiKJW5amLo3cVD8nW'`},
		{`pw_hash('hunter2', 'bcrypt-y', '10$abcdefghijklmnopqrstuvXYZ')`, `'$2y$10$abcdefghijklmnopqrstuu7gIUFBKrYXdzQy8HrouzMJyZ4cijAb2'`},
		{`pw_hash('pässword', 'bcrypt', '04$ABCDEFGHIJKLMNOPQRSTUV')`, `'$2b$04$ABCDEFGHIJKLMNOPQRSTUOlEzGbuElQBnttfztYENI.CWrGOFxplS'`},
		{`pw_hash('', 'bcrypt', '04$ABCDEFGHIJKLMNOPQRSTUV')`, `undef`},
	})
	checkErrors(t, []errorCase{
		{`pw_hash('x', 'sha-1', 'abc')`, `pw_hash(): sha-1 is not a valid hash type`},
		{`pw_hash('x', 'md5', 'a$b')`, `pw_hash(): characters in salt must be in the set [a-zA-Z0-9./]`},
		{`pw_hash('x', 'md5', '')`, `pw_hash(): third argument must not be empty`},
		{`pw_hash('x', 'bcrypt', '03$ABCDEFGHIJKLMNOPQRSTUV')`, `pw_hash(): characters in salt must match (?-mix:^(0[4-9]|[12][0-9]|3[01])\$[.\/A-Za-z0-9]{22})`},
	})
}

// The expected key is Ruby's OpenSSL::PKCS5.pbkdf2_hmac for the same
// input, which is what stdlib's str2saltedpbkdf2 returns in hex.
func TestStr2SaltedPBKDF2(t *testing.T) {
	checkValues(t, []valueCase{
		{`str2saltedpbkdf2('Pa55w0rd', 'Using s0m3 s@lt', 50000)`, `{'password_hex' => '3577f79f7d2e73df1cf1eecc36da16fffcd3650126d79e797a8b227492d13de4cdd0656933b43118b7361692f755e5b3c1e0536f826d12442400f3467bcc8fb4ac2235d5648b0f1b0906d0712aecd265834319b5a42e98af2ced81597fd78d1ac916f6eff6122c3577bb120a9f534e2a5c9a58c7d1209e3914c967c6a467b594', 'salt_hex' => '5573696e672073306d332073406c74', 'iterations' => 50000}`},
	})
	checkErrors(t, []errorCase{
		{`str2saltedpbkdf2('a', 'short', 50000)`, `str2saltedpbkdf2(): second argument must be at least 8 bytes long`},
		{`str2saltedpbkdf2('a', 'long enough', 5)`, `str2saltedpbkdf2(): third argument must be between 40,000 and 70,000`},
	})
}
