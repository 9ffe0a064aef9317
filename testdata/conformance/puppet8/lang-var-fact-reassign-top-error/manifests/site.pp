$hostname = 'other'
notify { "h=${hostname}": }
