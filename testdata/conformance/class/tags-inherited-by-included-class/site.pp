class outer {
  tag 'outer_extra'
  include inner
  notify { 'outer': }
}
class inner {
  notify { 'inner': }
}
include outer
