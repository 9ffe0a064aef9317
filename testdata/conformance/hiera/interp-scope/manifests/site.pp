$datacenter = 'dc-east'
notify { "v=${lookup('location')}": }
