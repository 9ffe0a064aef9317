package readset

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"
)

// JSONFact is one top-level fact of a JSON facts object, as its text holds
// it: the name (the key without its quotes) and the value's JSON text.
type JSONFact struct{ Name, Value []byte }

// FactsDigestJSON is FactsDigest for facts held as JSON text, without
// decoding them: values is the facts object's text and facts its
// top-level facts in their order (duplicates included), names and all as
// FactReads returns them. Two texts that digest the same give the same
// facts to read: the digest covers the text of each value read (every
// occurrence of its name), the names and nullness of every fact when the
// names were read, the whole text when all was; equal values written
// differently only digest apart. ok is false when a name is not plain
// printable ASCII (an escape could spell a read name otherwise): the
// caller digests decoded values instead, and keeps the two kinds of
// digest apart.
func FactsDigestJSON(values []byte, facts []JSONFact, names []string, all bool) (digest string, ok bool) {
	h := sha256.New()
	if all {
		h.Write(tagAll)
		h.Write(values)
		return hex.EncodeToString(h.Sum(nil)), true
	}
	if !sort.StringsAreSorted(names) {
		names = append([]string(nil), names...)
		sort.Strings(names)
	}
	listed := ReadsFactNames(names)
	var folds []string
	for _, n := range names {
		if f, isFold := strings.CutPrefix(n, foldPrefix); isFold {
			folds = append(folds, f)
		}
	}
	h.Write(tagNames)
	for _, f := range facts {
		if !plainName(f.Name) {
			return "", false
		}
		if listed {
			h.Write(tagListed)
			h.Write(f.Name)
			if string(f.Value) == "null" {
				h.Write(tagNull)
			} else {
				h.Write(tagNotNull)
			}
		}
		read := false
		if i := sort.Search(len(names), func(i int) bool { return names[i] >= string(f.Name) }); i < len(names) && names[i] == string(f.Name) {
			read = true
		}
		for _, fold := range folds {
			read = read || strings.EqualFold(string(f.Name), fold)
		}
		if read {
			h.Write(tagValue)
			h.Write(f.Name)
			h.Write(tagEnd)
			h.Write(f.Value)
			h.Write(tagEnd)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), true
}

// plainName reports whether a key's text is printable ASCII without a
// quote or an escape: the text is the name.
func plainName(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// The digest's separators (a name holds no NUL, and no JSON value text).
var (
	tagAll     = []byte("json all\x00")
	tagNames   = []byte("json names\x00")
	tagListed  = []byte("N")
	tagNull    = []byte("\x00null\x00")
	tagNotNull = []byte("\x00set\x00")
	tagValue   = []byte("V")
	tagEnd     = []byte{0}
)
