package resourcetype

import "syscall"

// sysFstatat is fstatat(2), named newfstatat on amd64.
const sysFstatat = syscall.SYS_NEWFSTATAT
