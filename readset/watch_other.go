//go:build !linux

package readset

// TreeWatcher is TreeStamp on systems without inotify: every Stamp walks.
type TreeWatcher struct{}

// NewTreeWatcher returns nil: Stamp walks the tree every time.
func NewTreeWatcher() *TreeWatcher { return nil }

// Close does nothing.
func (w *TreeWatcher) Close() error { return nil }

// Stamp is TreeStamp(dir).
func (w *TreeWatcher) Stamp(dir string) (string, error) {
	s, _, err := TreeStamp(dir)
	return s, err
}
