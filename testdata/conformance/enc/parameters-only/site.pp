notify { "dc=${datacenter}": }
