package conformance

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// ForceNoop returns the catalog with noop => true on every resource.
// `puppet apply --noop` alone is not enough: a resource (or class) that
// says noop => false overrides the global setting and really changes the
// machine, which apply-check must never do.
func ForceNoop(raw []byte) ([]byte, error) {
	start := bytes.IndexByte(raw, '{')
	if start < 0 {
		return nil, fmt.Errorf("no JSON object in catalog")
	}
	dec := json.NewDecoder(bytes.NewReader(raw[start:]))
	dec.UseNumber()
	var catalog map[string]any
	if err := dec.Decode(&catalog); err != nil {
		return nil, fmt.Errorf("catalog is not valid JSON: %v", err)
	}
	resources, ok := catalog["resources"].([]any)
	if !ok {
		return nil, fmt.Errorf("catalog has no resources list")
	}
	for i, item := range resources {
		r, ok := item.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("resources[%d] is not an object", i)
		}
		params, _ := r["parameters"].(map[string]any)
		if params == nil {
			params = map[string]any{}
			r["parameters"] = params
		}
		params["noop"] = true
	}
	return json.Marshal(catalog)
}

// ApplyNoop runs `puppet apply --catalog --noop` on a catalog in fresh,
// isolated Puppet directories below workDir (as the oracle isolates its
// compiles; facts come from an empty yaml terminus, so Facter does not run)
// and reports every problem: a non-zero exit or `Error:` lines.
func ApplyNoop(ctx context.Context, catalog []byte, workDir string, timeout time.Duration) ([]string, error) {
	safe, err := ForceNoop(catalog)
	if err != nil {
		return []string{err.Error()}, nil
	}
	dirs := map[string]string{}
	for _, name := range []string{"conf", "var", "code", "log", "run", "public", "yaml", "home"} {
		dirs[name] = filepath.Join(workDir, name)
		if err := os.MkdirAll(dirs[name], 0o755); err != nil {
			return nil, err
		}
	}
	catalogFile := filepath.Join(workDir, "catalog.json")
	if err := os.WriteFile(catalogFile, safe, 0o644); err != nil {
		return nil, err
	}
	res, err := Run(ctx, timeout, workDir, []string{"HOME=" + dirs["home"], "LANG=C.UTF-8", "LC_ALL=C.UTF-8"},
		"puppet", "apply", "--catalog", catalogFile, "--noop",
		"--confdir", dirs["conf"], "--vardir", dirs["var"], "--codedir", dirs["code"],
		"--logdir", dirs["log"], "--rundir", dirs["run"], "--publicdir", dirs["public"],
		"--yamldir", dirs["yaml"], "--facts_terminus", "yaml",
		"--color", "false")
	if err != nil {
		return nil, err
	}
	var problems []string
	if res.TimedOut {
		problems = append(problems, fmt.Sprintf("puppet apply did not finish within %v", timeout))
	} else if res.ExitCode != 0 {
		problems = append(problems, fmt.Sprintf("puppet apply exited %d", res.ExitCode))
	}
	problems = append(problems, agentErrors(string(res.Stdout)+"\n"+string(res.Stderr))...)
	if len(problems) > 0 && len(agentErrors(string(res.Stdout)+"\n"+string(res.Stderr))) == 0 {
		problems = append(problems, "output:\n"+indent(string(res.Stdout)+string(res.Stderr)))
	}
	return problems, nil
}

// agentErrors picks the agent's `Error:` lines that say the catalog was
// not accepted. Left out: Facter's complaints about this machine, and what
// says the agent accepted the catalog and then could not inspect a resource
// here — "Could not evaluate" (a command or a puppet:/// source this
// machine lacks), "Provider ... is not functional on this host" and "Could
// not find a suitable provider" (no mysql here, say) — which Puppet's own
// catalog hits alike.
func agentErrors(output string) []string {
	var out []string
	for _, line := range strings.Split(output, "\n") {
		switch {
		case !strings.HasPrefix(line, "Error:"),
			strings.HasPrefix(line, "Error: Facter:"),
			strings.HasPrefix(line, "Error: /") && strings.Contains(line, ": Could not evaluate: "),
			strings.HasPrefix(line, "Error: /") && strings.HasSuffix(line, " is not functional on this host"),
			strings.HasPrefix(line, "Error: Could not find a suitable provider for "):
			continue
		}
		out = append(out, line)
	}
	return out
}

// SampleCases picks n cases deterministically: the n smallest SHA-256
// hashes of seed and case ID. Another seed gives another sample.
func SampleCases(cases []*Case, n int, seed string) []*Case {
	type keyed struct {
		key string
		c   *Case
	}
	list := make([]keyed, len(cases))
	for i, c := range cases {
		sum := sha256.Sum256([]byte(seed + "\x00" + c.ID))
		list[i] = keyed{hex.EncodeToString(sum[:]), c}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].key < list[j].key })
	if n > len(list) {
		n = len(list)
	}
	out := make([]*Case, n)
	for i := range out {
		out[i] = list[i].c
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
