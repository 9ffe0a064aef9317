['a', 'b'].each |$x| { notify { "one ${x}": } }
['c', 'd'].each |$i, $x| { notify { "two ${i}=${x}": } }
