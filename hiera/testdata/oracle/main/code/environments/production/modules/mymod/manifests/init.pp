class mymod($from_env = 1) {}
