class outer {
  $secret = 'from-outer'
  include inner
}
class inner {
  notify { "inner sees [${secret}]": }
}
include outer
