package ca

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// TestHelperSubmitCSR is the process TestInterruptedAutosign kills: it
// submits the CSR of $CA_TEST_CSR to the CA in $CA_TEST_DIR, whose policy
// executable kills it.
func TestHelperSubmitCSR(t *testing.T) {
	dir := os.Getenv("CA_TEST_DIR")
	if dir == "" {
		t.Skip("run by TestInterruptedAutosign")
	}
	c, err := Open(dir, Options{KeyLength: 2048, Autosign: Autosign{Path: os.Getenv("CA_TEST_POLICY")}})
	if err != nil {
		t.Fatal(err)
	}
	csr, err := os.ReadFile(os.Getenv("CA_TEST_CSR"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.SubmitCSR("agent.example.com", csr)
	t.Fatalf("the policy did not kill the process: %v", err)
}

// TestInterruptedAutosign: a server killed (SIGKILL) while its autosign
// policy decides leaves the CSR saved and unsigned; the agent's retry of
// the same request is not refused as a duplicate (as it would be by
// puppetserver, for ever) but decided again and signed. Another key for
// the name, or a request whose decision was made (no), stays a duplicate.
func TestInterruptedAutosign(t *testing.T) {
	c := newCA(t, nil)
	work := t.TempDir()
	policy := filepath.Join(work, "policy.sh")
	// First call: kill the CA's process, the policy's parent. Later: sign.
	script := "#!/bin/sh\nif [ ! -e " + work + "/killed ]; then touch " + work + "/killed; kill -9 $PPID; sleep 10; fi\nexit 0\n"
	if err := os.WriteFile(policy, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	csr := makeCSR(t, csrSpec{cn: "agent.example.com"})
	csrFile := filepath.Join(work, "csr.pem")
	if err := os.WriteFile(csrFile, csr, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperSubmitCSR$", "-test.count=1")
	cmd.Env = append(os.Environ(), "CA_TEST_DIR="+c.Dir(), "CA_TEST_POLICY="+policy, "CA_TEST_CSR="+csrFile)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("helper was not killed: %v\n%s", err, out)
	}
	if _, err := os.Stat(c.requestPath("agent.example.com")); err != nil {
		t.Fatalf("the CSR was not saved before the kill: %v", err)
	}
	if _, err := os.Stat(c.signedPath("agent.example.com")); err == nil {
		t.Fatal("signed before the policy decided")
	}

	// The restarted server (a new CA over the directory) and the agent's
	// retry with the same key.
	c2, err := Open(c.Dir(), Options{KeyLength: 2048, Autosign: Autosign{Path: policy}})
	if err != nil {
		t.Fatal(err)
	}
	other := makeCSR(t, csrSpec{cn: "agent.example.com"})
	if _, err := c2.SubmitCSR("agent.example.com", other); err == nil {
		t.Error("another key for a pending name was taken")
	}
	res, err := c2.SubmitCSR("agent.example.com", csr)
	if err != nil || !res.Signed {
		t.Fatalf("retry: %+v %v", res, err)
	}
	if _, err := os.Stat(c2.autosignPendingPath("agent.example.com")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the decision is still pending: %v", err)
	}

	// A request the policy refused stays a duplicate, as in puppetserver.
	deny := filepath.Join(work, "deny.sh")
	_ = os.WriteFile(deny, []byte("#!/bin/sh\nexit 1\n"), 0o755)
	c2.SetOptions(Options{KeyLength: 2048, Autosign: Autosign{Path: deny}})
	refused := makeCSR(t, csrSpec{cn: "refused.example.com"})
	if res, err := c2.SubmitCSR("refused.example.com", refused); err != nil || res.Signed {
		t.Fatalf("refused: %+v %v", res, err)
	}
	c2.SetOptions(Options{KeyLength: 2048, Autosign: Autosign{All: true}})
	var re *RequestError
	if _, err := c2.SubmitCSR("refused.example.com", refused); !errors.As(err, &re) || re.Kind != KindDuplicateCert {
		t.Errorf("a decided request again: %v", err)
	}
}
