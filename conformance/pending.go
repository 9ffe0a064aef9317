package conformance

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"regexp"
	"strings"
)

// PendingRule is one line of pending.txt: the cases matching Pattern are
// expected to fail until Issue is done.
type PendingRule struct {
	Pattern string // a case path or a path.Match glob, e.g. node/exact-name or lang/*
	Issue   string // e.g. #4
	Line    int    // line number in pending.txt, for messages
}

// PendingList is the parsed pending.txt.
type PendingList struct {
	Rules []PendingRule
}

var issuePattern = regexp.MustCompile(`^#[0-9]+$`)

// ParsePending reads pending.txt. Each non-blank line that does not start
// with '#' is "PATTERN #ISSUE", optionally followed by a comment starting
// with '#'. Patterns are case paths relative to testdata/conformance, where
// '*' matches within one path segment (path.Match); they must be unique.
func ParsePending(r io.Reader) (*PendingList, error) {
	list := &PendingList{}
	seen := map[string]int{}
	scanner := bufio.NewScanner(r)
	lineNo := 0
	for scanner.Scan() {
		lineNo++
		line := strings.TrimSpace(scanner.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 2 || !issuePattern.MatchString(fields[1]) {
			return nil, fmt.Errorf("pending.txt:%d: want \"PATTERN #ISSUE\", got %q", lineNo, line)
		}
		if len(fields) > 2 && !strings.HasPrefix(fields[2], "#") {
			return nil, fmt.Errorf("pending.txt:%d: text after the issue must be a '#' comment: %q", lineNo, line)
		}
		pattern := fields[0]
		if err := checkPattern(pattern); err != nil {
			return nil, fmt.Errorf("pending.txt:%d: %v", lineNo, err)
		}
		if first, dup := seen[pattern]; dup {
			return nil, fmt.Errorf("pending.txt:%d: %s already listed on line %d", lineNo, pattern, first)
		}
		seen[pattern] = lineNo
		list.Rules = append(list.Rules, PendingRule{Pattern: pattern, Issue: fields[1], Line: lineNo})
	}
	if err := scanner.Err(); err != nil {
		return nil, err
	}
	return list, nil
}

func checkPattern(pattern string) error {
	if strings.HasPrefix(pattern, "/") || strings.Contains(pattern, `\`) || path.Clean(pattern) != pattern || strings.HasPrefix(pattern, "..") {
		return fmt.Errorf("pattern %q must be a clean path relative to testdata/conformance", pattern)
	}
	if _, err := path.Match(pattern, ""); err != nil {
		return fmt.Errorf("pattern %q: %v", pattern, err)
	}
	return nil
}

// Match returns the rule that makes caseID pending. A line naming the case
// exactly wins over globs, so that a glob can be replaced by per-case lines
// one at a time; otherwise the first matching glob wins.
func (p *PendingList) Match(caseID string) (PendingRule, bool) {
	var glob *PendingRule
	for i, r := range p.Rules {
		if r.Pattern == caseID {
			return r, true
		}
		if glob == nil {
			if ok, _ := path.Match(r.Pattern, caseID); ok {
				glob = &p.Rules[i]
			}
		}
	}
	if glob != nil {
		return *glob, true
	}
	return PendingRule{}, false
}

// Unused returns the rules that match none of caseIDs: a stale line that
// must be removed so the list stays true.
func (p *PendingList) Unused(caseIDs []string) []PendingRule {
	var out []PendingRule
	for _, r := range p.Rules {
		used := false
		for _, id := range caseIDs {
			if ok, _ := path.Match(r.Pattern, id); ok {
				used = true
				break
			}
		}
		if !used {
			out = append(out, r)
		}
	}
	return out
}
