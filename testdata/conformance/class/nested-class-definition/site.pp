class outer {
  class inner {
    notify { 'inner': }
  }
  notify { 'outer': }
}
include outer
include outer::inner
