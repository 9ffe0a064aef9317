class {'nosuch': }
