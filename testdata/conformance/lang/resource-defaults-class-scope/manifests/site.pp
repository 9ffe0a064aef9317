class outer {
  Notify { message => 'outer-default' }
  notify { 'in-outer': }
  include inner
}
class inner {
  notify { 'in-inner': }
}
include outer
notify { 'at-top': }
