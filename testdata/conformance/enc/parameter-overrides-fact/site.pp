notify { "osfamily=${osfamily} fact=${facts['osfamily']}": }
