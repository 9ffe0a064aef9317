class inner {
  notify { 'inner': }
}
class outer {
  contain inner
}
include inner
include outer
