// Package puppetdb connects marionette to a PuppetDB the way Puppet's
// puppetdb termini (puppet-terminus-puppetdb) do: puppetdb.conf, the
// commands a compile server submits (replace facts v5, replace catalog v9,
// store report v8, deactivate node v3) with their wire formats, the
// exported-resource query behind `<<| |>>`, and /pdb/query/v4 queries, with
// the termini's failover across server_urls and their error messages.
package puppetdb

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Config is puppetdb.conf's [main] section after Puppet's validation.
type Config struct {
	// ServerURLs are tried in order for queries and commands.
	ServerURLs []*url.URL
	// SubmitOnlyServerURLs receive commands only, after ServerURLs.
	SubmitOnlyServerURLs []*url.URL
	// SoftWriteFailure turns a failed command into a logged error instead
	// of a failed compile.
	SoftWriteFailure bool
	// ServerURLTimeout bounds each request to one server.
	ServerURLTimeout time.Duration
	// IncludeUnchangedResources is carried for reports.
	IncludeUnchangedResources bool
	// MinSuccessfulSubmissions is how many servers must accept a broadcast
	// command.
	MinSuccessfulSubmissions int
	// CommandBroadcast sends each command to every server instead of the
	// first that accepts it.
	CommandBroadcast bool
	// StickyReadFailover makes queries start at the last server that
	// answered rather than the first.
	StickyReadFailover bool
	// VerifyClientCertificate is the termini's setting of that name (when
	// false, they verify the server with Puppet's CA only).
	VerifyClientCertificate bool
}

// DefaultServerURL is the termini's server_urls default.
const DefaultServerURL = "https://puppetdb:8081"

// DefaultConfig is what the termini use without a puppetdb.conf.
func DefaultConfig() *Config {
	u, _ := url.Parse(DefaultServerURL)
	return &Config{
		ServerURLs:               []*url.URL{u},
		ServerURLTimeout:         30 * time.Second,
		MinSuccessfulSubmissions: 1,
		VerifyClientCertificate:  true,
	}
}

// The line shapes the termini's parser knows, in the order it tries them.
var (
	sectionLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\[(\w+)\s*\]$`) })
	retiredLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(server|port)\s*=.*$`) })
	settingLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(\w+)\s*=\s*(.+?)\s*$`) })
	commentLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*[#;]`) })
	blankLine   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*$`) })
)

// ReadConfig reads puppetdb.conf at path (through fsys; nil means the
// operating system's files). A missing file gives DefaultConfig, as with
// the termini.
func ReadConfig(fsys fs.FS, path string) (*Config, []string, error) {
	var data []byte
	var err error
	if fsys == nil {
		data, err = os.ReadFile(path)
	} else {
		data, err = fs.ReadFile(fsys, strings.TrimPrefix(path, "/"))
	}
	if errors.Is(err, fs.ErrNotExist) {
		return DefaultConfig(), nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return ParseConfig(path, data)
}

// ParseConfig parses puppetdb.conf as the termini do (Puppet::Util::
// Puppetdb::Config.load): [section] lines, key = value settings, # and ;
// comments; only [main] counts. It returns the warnings Puppet logs (the
// retired server and port settings) and errors in Puppet's words.
func ParseConfig(file string, data []byte) (*Config, []string, error) {
	var warnings []string
	main := map[string]string{}
	section := ""
	lines := strings.SplitAfter(string(data), "\n")
	for i, line := range lines {
		if line == "" {
			continue
		}
		body := strings.TrimSuffix(line, "\n")
		switch {
		case sectionLine().MatchString(body):
			section = sectionLine().FindStringSubmatch(body)[1]
		case retiredLine().MatchString(body):
			warnings = append(warnings, fmt.Sprintf("Setting '%s' is retired: use 'server_urls' instead. Defaulting to 'server_urls=%s'.", body, DefaultServerURL))
		case settingLine().MatchString(body):
			if section == "" {
				return nil, warnings, fmt.Errorf("Setting '%s' is illegal outside of section in PuppetDB config %s:%d", line, file, i+1)
			}
			if section == "main" {
				m := settingLine().FindStringSubmatch(body)
				main[m[1]] = m[2]
			}
		case commentLine().MatchString(body), blankLine().MatchString(body):
		default:
			return nil, warnings, fmt.Errorf("Unparseable line '%s' in PuppetDB config %s:%d", line, file, i+1)
		}
	}
	c, err := configFrom(main)
	return c, warnings, err
}

func configFrom(main map[string]string) (*Config, error) {
	get := func(k, def string) string {
		if v, ok := main[k]; ok {
			return v
		}
		return def
	}
	c := &Config{}
	var err error
	if c.ServerURLs, err = parseURLs(get("server_urls", DefaultServerURL)); err != nil {
		return nil, err
	}
	if c.SubmitOnlyServerURLs, err = parseURLs(get("submit_only_server_urls", "")); err != nil {
		return nil, err
	}
	c.ServerURLTimeout = time.Duration(rubyToI(get("server_url_timeout", "30"))) * time.Second
	c.MinSuccessfulSubmissions = rubyToI(get("min_successful_submissions", "1"))
	bools := []struct {
		key, def string
		dst      *bool
	}{
		{"include_unchanged_resources", "false", &c.IncludeUnchangedResources},
		{"soft_write_failure", "false", &c.SoftWriteFailure},
		{"command_broadcast", "false", &c.CommandBroadcast},
		{"sticky_read_failover", "false", &c.StickyReadFailover},
		{"verify_client_certificate", "true", &c.VerifyClientCertificate},
	}
	for _, b := range bools {
		switch v := get(b.key, b.def); v {
		case "true":
			*b.dst = true
		case "false":
			*b.dst = false
		default:
			return nil, fmt.Errorf("invalid value for Boolean: %q", v)
		}
	}
	if c.SoftWriteFailure && c.MinSuccessfulSubmissions > 1 {
		return nil, errors.New("soft_write_failure cannot be enabled when min_successful_submissions is greater than 1")
	}
	var both []string
	for _, u := range c.ServerURLs {
		for _, s := range c.SubmitOnlyServerURLs {
			if u.String() == s.String() {
				both = append(both, fmt.Sprintf("%q", u.String()))
			}
		}
	}
	if len(both) > 0 {
		return nil, fmt.Errorf("Server URLs must be in either server_urls or submit_only_server_urls, not both. ([%s] are in both)", strings.Join(both, ", "))
	}
	if c.MinSuccessfulSubmissions > 1 && !c.CommandBroadcast {
		return nil, errors.New("command_broadcast must be set to true to use min_successful_submissions")
	}
	if c.MinSuccessfulSubmissions > len(c.ServerURLs) {
		return nil, fmt.Errorf("min_successful_submissions (%d) must be less than or equal to the number of server_urls (%d)", c.MinSuccessfulSubmissions, len(c.ServerURLs))
	}
	return c, nil
}

// parseURLs splits a comma-separated URL list; the termini accept only
// https URLs without a path.
func parseURLs(list string) ([]*url.URL, error) {
	var out []*url.URL
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		if s == "" && list == "" {
			break
		}
		u, err := url.Parse(s)
		if err != nil {
			return nil, fmt.Errorf("Error parsing URL '%s' in PuppetDB 'server_urls', error message was '%v'", s, err)
		}
		if u.Scheme != "https" {
			return nil, fmt.Errorf("PuppetDB 'server_urls' must be https, found '%s'", s)
		}
		if u.Path != "" && u.Path != "/" {
			return nil, fmt.Errorf("PuppetDB 'server_urls' cannot contain URL paths, found '%s'", s)
		}
		u.Path = ""
		out = append(out, u)
	}
	return out, nil
}

// rubyToI is Ruby's String#to_i: the leading decimal integer, 0 when none.
func rubyToI(s string) int {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	end := 0
	if end < len(s) && (s[end] == '-' || s[end] == '+') {
		end++
	}
	for end < len(s) && (s[end] >= '0' && s[end] <= '9' || s[end] == '_' && end > 0) {
		end++
	}
	n, err := strconv.Atoi(strings.ReplaceAll(s[:end], "_", ""))
	if err != nil {
		return 0
	}
	return n
}
