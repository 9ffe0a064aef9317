# expect: 1 not a regular file
# The drill makes @FIFO@ a FIFO no one writes to.
notify { file('@FIFO@'): }
