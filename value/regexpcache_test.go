package value

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// TestRegexpCacheShares: the same expression compiled twice is one
// compiled regexp, and expressions built for separate values share it.
func TestRegexpCacheShares(t *testing.T) {
	r1, _ := NewRegexp(`^cache-lit-[a-z]+$`)
	r2, _ := NewRegexp(`^cache-lit-[a-z]+$`)
	if r1.Go() == nil || r1.Go() != r2.Go() {
		t.Errorf("two Regexp values of one source compiled separately")
	}
}

// TestRegexpCacheBounded: endless distinct patterns do not grow the cache
// past its bound, and sources too long are not kept.
func TestRegexpCacheBounded(t *testing.T) {
	var c regexpCache
	for i := 0; i < maxCachedRegexps*2+10; i++ {
		c.put(fmt.Sprintf("bounded-%d", i), regexp.MustCompile(fmt.Sprintf("bounded-%d", i)))
		if len(c.m) > maxCachedRegexps {
			t.Fatalf("cache holds %d expressions, bound %d", len(c.m), maxCachedRegexps)
		}
	}
	long := strings.Repeat("a", maxCachedRegexpBytes+1)
	c.put(long, regexp.MustCompile(long))
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
