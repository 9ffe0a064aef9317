$x = `ls -l`
