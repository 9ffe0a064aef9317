$p = lookup('webserver::modules', Array, 'unique')
notify { "p=${p}": }
