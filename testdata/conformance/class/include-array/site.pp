class alpha {
  notify { 'alpha': }
}
class beta {
  notify { 'beta': }
}
$roles = ['alpha', 'beta']
include $roles
