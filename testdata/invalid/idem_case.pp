$a = 1
case $a { default: { 2 } }
notice($a)
