package site

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// fallbackMaxMemory is the memory budget of a compile when neither an
// address-space limit nor the machine's memory can be read.
const fallbackMaxMemory = 4 << 30

// DefaultMaxMemory is the default of --max-memory: an eighth of the
// process's address-space limit when it has one (ulimit -v: the Go
// runtime reserves address space far beyond its heap; measured, a compile
// under a 1 GB cap ran out of it with 250 to 285 MB of heap in use, and
// with a quarter, 256 MB, the heap sometimes got there first), else three
// quarters of the machine's memory, so that a runaway compile fails with
// an error naming the limit before the kernel or the Go runtime kills
// the process.
func DefaultMaxMemory() int64 {
	return maxMemoryFor(physicalMemory(), addressSpaceLimit())
}

// maxMemoryFor is DefaultMaxMemory for a machine with physical bytes of
// memory and a process address-space limit of addressSpace bytes (0: not
// known, none).
func maxMemoryFor(physical, addressSpace int64) int64 {
	budget := int64(0)
	if physical > 0 {
		budget = physical / 4 * 3
	}
	if addressSpace > 0 && (budget == 0 || addressSpace/8 < budget) {
		budget = addressSpace / 8
	}
	if budget <= 0 {
		return fallbackMaxMemory
	}
	return budget
}

// physicalMemory is MemTotal of /proc/meminfo in bytes, 0 where there is
// none.
func physicalMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
