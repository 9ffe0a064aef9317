class base {
  notify { 'base': }
}
class { 'base': }
class { 'base': }
