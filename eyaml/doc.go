// Package eyaml decrypts hiera-eyaml data natively: the PKCS7 encryptor's
// ENC[PKCS7,...] blocks (an RSA key pair, AES-256-CBC content in PKCS7
// enveloped data), as Puppet's eyaml_lookup_key does with the hiera-eyaml
// gem. It also encrypts, as `eyaml encrypt` does, for tests and tools.
//
// Errors never carry decrypted text: a failure names what could not be done
// (a key file, the PKCS7 structure, "bad decrypt"), and callers add the
// encrypted block and the data file, as Puppet does.
package eyaml
