include sssd
class { 'ssh::server': }
alternatives { 'editor': path => '/usr/bin/vim.basic' }
