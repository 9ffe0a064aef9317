notify { 'from a main manifest directory reached through a symlink': }
