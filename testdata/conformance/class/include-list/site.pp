class alpha {
  notify { 'alpha': }
}
class beta {
  notify { 'beta': }
}
include alpha, beta
