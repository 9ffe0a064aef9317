# Values resolved after the compile, as an agent would: a Deferred call of
# a Ruby function and a Sensitive value.
class demo::deferred {
  notify { 'later':
    message => Deferred('demo::triple', [14]),
  }
  file { '/tmp/secret':
    content => Sensitive('s3cret'),
  }
}
