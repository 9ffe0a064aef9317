notify { "role=${role}": }
