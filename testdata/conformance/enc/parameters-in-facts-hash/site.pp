notify { "facts has datacenter: ${'datacenter' in $facts}": }
