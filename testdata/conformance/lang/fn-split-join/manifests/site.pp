$parts = split('a,b,,c', ',')
$re = split('one1two22three', /\d+/)
$j = join(['x', 'y', 'z'], '-')
$j2 = join([1, 2, 3])
notify { "parts=${parts} re=${re} j=${j} j2=${j2}": }
