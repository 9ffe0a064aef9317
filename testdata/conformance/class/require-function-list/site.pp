class alpha {
  notify { 'alpha': }
}
class beta {
  notify { 'beta': }
}

class app {
  require alpha, beta
}
include app
