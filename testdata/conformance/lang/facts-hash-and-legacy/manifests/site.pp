notify { "family=${facts['os']['family']}": }
notify { "legacy=${osfamily} qualified=${::osfamily} hash=${facts['osfamily']}": }
notify { "major=${facts['os']['release']['major']} host=${hostname}": }
