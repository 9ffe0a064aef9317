include apache::vhost::config
