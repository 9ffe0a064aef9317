File['/tmp/a'] ->
