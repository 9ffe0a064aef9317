package hiera

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/marionette-dev/marionette/eyaml"
	"github.com/marionette-dev/marionette/filecache"
	"github.com/marionette-dev/marionette/value"
)

// eyamlLookupKey is Puppet's built-in lookup_key function for hiera-eyaml
// data, run natively (package eyaml) instead of through the gem.
const eyamlLookupKey = "eyaml_lookup_key"

// eyamlKeyCache holds parsed key pairs by their two files, reloaded when a
// file changes; parsing an RSA key costs more than a lookup.
type eyamlKeyCache struct{ pairs sync.Map }

type eyamlKeyFiles struct{ private, public string }

type eyamlKeyEntry struct {
	privateStamp, publicStamp filecache.Stamp
	pair                      *eyaml.KeyPair
}

// keyPair loads (or reuses) the key pair of two files. Errors are not
// cached: a key file put in place later is found by the next lookup.
func (kc *eyamlKeyCache) keyPair(privatePath, publicPath string) (*eyaml.KeyPair, error) {
	files := eyamlKeyFiles{privatePath, publicPath}
	ps, perr := statFile(privatePath)
	us, uerr := statFile(publicPath)
	if perr == nil && uerr == nil {
		if e, ok := kc.pairs.Load(files); ok {
			if e := e.(*eyamlKeyEntry); e.privateStamp == ps && e.publicStamp == us {
				return e.pair, nil
			}
		}
	}
	kp, err := eyaml.LoadKeyPair(privatePath, publicPath)
	if err != nil {
		return nil, err
	}
	if perr == nil && uerr == nil {
		kc.pairs.Store(files, &eyamlKeyEntry{ps, us, kp})
	}
	return kp, nil
}

// eyamlLookup is locationLookup for a level with lookup_key:
// eyaml_lookup_key: the file is read as YAML, the strings of the key's
// value are decrypted, then the value is interpolated.
func (s *Session) eyamlLookup(p *provider, lv *Level, loc resolvedLocation, root string, c *call) (value.Value, bool, error) {
	if loc.dir {
		return nil, false, isDirectoryError(loc.path)
	}
	data, warning, err := s.opts.Cache.dataFile(loc.path, "yaml_data", loc.stamp, s.opts.MaxYAMLNodes)
	if err != nil {
		return nil, false, err
	}
	if warning != "" {
		s.warn("", warning)
	}
	v, ok := data.GetString(root)
	if !ok || (p.layer == ModuleLayer && root != "lookup_options" && !strings.HasPrefix(root, p.module+"::")) {
		if c.ex != nil {
			c.ex.add("not_found", fmt.Sprintf("No such key: %q", root), nil)
		}
		return nil, false, nil
	}
	var kp *eyaml.KeyPair
	keys := func() (*eyaml.KeyPair, error) {
		if kp != nil {
			return kp, nil
		}
		opts, err := s.levelOptions(lv, c)
		if err != nil {
			return nil, err
		}
		option := func(name string) string {
			v, _ := opts.GetString(name)
			sv, _ := v.(value.String)
			return string(sv)
		}
		ko := eyaml.KeyOptions{
			PrivateKey: option("pkcs7_private_key"), PublicKey: option("pkcs7_public_key"),
			PrivateKeyEnvVar: option("pkcs7_private_key_env_var"), PublicKeyEnvVar: option("pkcs7_public_key_env_var"),
		}
		if !ko.UsesFilesOnly() {
			s.opts.Reads.Untracked("eyaml keys from environment variables")
			kp, err = ko.Load()
			return kp, err
		}
		s.opts.Reads.File(ko.PrivateKey)
		s.opts.Reads.File(ko.PublicKey)
		kp, err = s.opts.Cache.eyamlKeys.keyPair(ko.PrivateKey, ko.PublicKey)
		return kp, err
	}
	v, err = decryptValue(v, keys)
	var failure *decryptFailure
	if errors.As(err, &failure) {
		// Puppet's words; the string shown is the one still encrypted.
		return nil, false, fmt.Errorf("hiera-eyaml backend error decrypting %s when looking up %s in %s. Error was %w", failure.data, root, loc.path, failure.err)
	}
	v, err = s.interpolate(v, true, c)
	if err != nil {
		return nil, false, err
	}
	if c.ex != nil {
		c.ex.add("found", fmt.Sprintf("Found key: %q value: %s", root, explainValue(v)), v)
	}
	return v, true, nil
}

// decryptFailure carries the string that failed to decrypt (as written,
// still encrypted) out of decryptValue for Puppet's error message.
type decryptFailure struct {
	data string
	err  error
}

func (e *decryptFailure) Error() string { return e.err.Error() }
func (e *decryptFailure) Unwrap() error { return e.err }

// decryptValue decrypts the strings of v, inside arrays and hash values
// (not hash keys, as in Puppet). On failure the error is a
// *decryptFailure naming the encrypted string.
func decryptValue(v value.Value, keys eyaml.KeySource) (value.Value, error) {
	switch v := v.(type) {
	case value.String:
		out, err := eyaml.DecryptString(string(v), keys)
		if err != nil {
			return nil, &decryptFailure{string(v), err}
		}
		return value.String(out), nil
	case value.Array:
		out := make(value.Array, len(v))
		for i, e := range v {
			r, err := decryptValue(e, keys)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	case *value.Hash:
		b := value.NewHashBuilder(v.Len())
		for i := 0; i < v.Len(); i++ {
			k, e := v.At(i)
			r, err := decryptValue(e, keys)
			if err != nil {
				return nil, err
			}
			b.Set(k, r)
		}
		return b.Build(), nil
	}
	return v, nil
}

// levelOptions is a level's options interpolated in the lookup's scope, as
// Puppet gives them to a backend function (method calls not allowed).
func (s *Session) levelOptions(lv *Level, c *call) (*value.Hash, error) {
	if lv.Options == nil {
		return value.EmptyHash, nil
	}
	oc := &call{locals: c.locals, scope: c.scope, unread: c.unread}
	v, err := s.interpolate(lv.Options, false, oc)
	c.addReads(oc.reads)
	if err != nil {
		return nil, err
	}
	return v.(*value.Hash), nil
}
