notice('a notice')
info('some info')
warning('a warning')
debug('debugging')
$r = notice('x')
notify { "returned=[${r}]": }
