case $x 'a': { }
