//go:build !linux

package filecache

// openStamp cannot answer here: LoadFile takes Stat and Read's two steps.
func openStamp(string) (fd int, stamp Stamp, ok bool) { return -1, Stamp{}, false }

func closeFD(int) {}

func readOpened(int, string, int64) ([]byte, error) { panic("filecache: no file opened by openStamp") }
