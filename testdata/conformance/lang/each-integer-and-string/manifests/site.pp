3.each |$i| { notify { "int ${i}": } }
Integer[5, 7].each |$i| { notify { "range ${i}": } }
