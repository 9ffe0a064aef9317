class alpha {
  notify { 'alpha': }
}
class beta {
  notify { 'beta': }
}
include alpha
include alpha
include alpha, beta
