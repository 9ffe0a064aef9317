class alpha {
  notify { 'alpha': }
}
class beta {
  notify { 'beta': }
}
include [Class['alpha'], Class['beta']]
