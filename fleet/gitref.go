package fleet

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// IsGitRef reports whether ref names a commit in the git repository that
// holds dir (a branch, tag, remote branch, HEAD~2, a commit id).
func IsGitRef(dir, ref string) bool {
	if strings.HasPrefix(ref, "-") {
		return false
	}
	cmd := exec.Command("git", "-C", dir, "rev-parse", "--verify", "--quiet", ref+"^{commit}")
	return cmd.Run() == nil
}

// GitRoot is the top directory of the git work tree that holds dir.
func GitRoot(dir string) (string, error) {
	out, err := exec.Command("git", "-C", dir, "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return "", fmt.Errorf("%s is not in a git repository", dir)
	}
	return strings.TrimSpace(string(out)), nil
}

// ExtractGitRef writes the tree of commit ref of the repository at repo
// into a new temporary directory, from git's objects (`git archive`): the
// work tree, the index and HEAD are left as they are, so a diff of
// uncommitted work against origin/main reads the committed main. remove
// deletes the directory.
func ExtractGitRef(ctx context.Context, repo, ref string) (dir string, remove func(), err error) {
	if strings.HasPrefix(ref, "-") {
		return "", nil, fmt.Errorf("invalid git ref %q", ref)
	}
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "git", "-C", repo, "archive", "--format=tar", ref+"^{tree}")
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("git archive %s: %v", ref, err)
	}
	dir, err = os.MkdirTemp("", "marionette-diff-")
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return "", nil, err
	}
	remove = func() { os.RemoveAll(dir) }
	untarErr := untar(out, dir)
	// Drain what is left, so that git does not block on a full pipe.
	io.Copy(io.Discard, out)
	waitErr := cmd.Wait()
	switch {
	case waitErr != nil:
		remove()
		return "", nil, fmt.Errorf("git archive %s: %v: %s", ref, waitErr, strings.TrimSpace(stderr.String()))
	case untarErr != nil:
		remove()
		return "", nil, fmt.Errorf("extracting %s: %v", ref, untarErr)
	}
	return dir, remove, nil
}

// untar writes a tar stream's directories, regular files and symbolic
// links under dir; a name that would leave dir is an error.
func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.Clean(filepath.FromSlash(h.Name))
		if name == "." {
			continue
		}
		if !filepath.IsLocal(name) {
			return fmt.Errorf("%s: path outside the tree", h.Name)
		}
		target := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(h.Mode)&0o755|0o600)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		case tar.TypeSymlink:
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			if err := os.Symlink(h.Linkname, target); err != nil {
				return err
			}
		}
		// Other entries (git archive writes a pax header) carry no files.
	}
}
