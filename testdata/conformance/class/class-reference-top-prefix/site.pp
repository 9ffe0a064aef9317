class alpha {
  notify { 'alpha': }
}
include alpha
notify { 'after': require => Class['::alpha'] }
