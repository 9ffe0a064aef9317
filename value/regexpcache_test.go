package value

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestRegexpCacheShares: the same expression compiled twice is one
// compiled regexp, and expressions built for separate values share it.
func TestRegexpCacheShares(t *testing.T) {
	a, err := CompileGo(`(?m)^cache-share-\d+$`)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := CompileGo(`(?m)^cache-share-\d+$`)
	if a != b {
		t.Errorf("CompileGo compiled the same expression twice")
	}
	r1, _ := NewRegexp(`^cache-lit-[a-z]+$`)
	r2, _ := NewRegexp(`^cache-lit-[a-z]+$`)
	if r1.Go() == nil || r1.Go() != r2.Go() {
		t.Errorf("two Regexp values of one source compiled separately")
	}
	if _, err := CompileGo(`(?m)[`); err == nil {
		t.Errorf("an invalid expression compiled")
	}
}

// TestRegexpCacheBounded: endless distinct patterns do not grow the cache
// past its bound, and sources too long are not kept.
func TestRegexpCacheBounded(t *testing.T) {
	var c regexpCache
	for i := 0; i < maxCachedRegexps*2+10; i++ {
		re, err := CompileGo(fmt.Sprintf("bounded-%d", i))
		if err != nil {
			t.Fatal(err)
		}
		c.put(fmt.Sprintf("bounded-%d", i), re)
		if len(c.m) > maxCachedRegexps {
			t.Fatalf("cache holds %d expressions, bound %d", len(c.m), maxCachedRegexps)
		}
	}
	long := strings.Repeat("a", maxCachedRegexpBytes+1)
	re, _ := CompileGo(long)
	c.put(long, re)
	if c.get(long) != nil {
		t.Errorf("a %d-byte expression was cached", len(long))
	}
}

// TestRegexpCacheConcurrent: compiles in parallel share the cache safely
// (run with -race).
func TestRegexpCacheConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				r, err := NewRegexp(fmt.Sprintf(`^conc-%d-\w+$`, i%17))
				if err != nil {
					t.Error(err)
					return
				}
				if !r.Go().MatchString(fmt.Sprintf("conc-%d-x", i%17)) {
					t.Errorf("pattern %d did not match", i%17)
					return
				}
			}
		}()
	}
	wg.Wait()
}
