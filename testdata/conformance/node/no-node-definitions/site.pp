notify { "compiled for ${facts['hostname']}": }
file { '/tmp/marionette-no-nodes': ensure => file }
