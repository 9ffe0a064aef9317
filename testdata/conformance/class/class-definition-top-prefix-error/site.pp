class ::alpha {
  notify { 'alpha': }
}
include alpha
