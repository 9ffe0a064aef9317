class { 'webserver': vhost_dir => '/tmp/marionette-vhosts' }
