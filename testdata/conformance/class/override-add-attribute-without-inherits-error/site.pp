class base::unix {
  $owner = 'root'
  file { '/tmp/marionette-passwd':
    owner => 'root',
    group => 'root',
    mode  => '0644',
  }
  file { '/tmp/marionette-shadow':
    owner => 'root',
    group => 'root',
    mode  => '0440',
  }
}

class other {
  File['/tmp/marionette-passwd'] {
    backup => false,
  }
}
include base::unix
include other
