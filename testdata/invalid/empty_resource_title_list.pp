file { : }
