# Declared before class yum, whose own default is guarded by defined().
yum::config { 'installonly_limit':
  ensure => 2,
}

class { 'yum':
  keep_kernel_devel => false,
  clean_old_kernels => true,
  config_options    => {
    my_cachedir => {
      ensure => '/home/waldo/.local/yum/cache',
      key    => 'cachedir',
    },
    gpgcheck    => true,
    debuglevel  => 5,
  },
}
