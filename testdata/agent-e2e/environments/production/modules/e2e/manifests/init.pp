# Resources confined to $facts['e2e_root']/<certname>: a file served by the
# server, a template, an exec and (on the first run only) a notify.
class e2e {
  $root = $facts['e2e_root']
  unless $root =~ String and $root =~ /marionette-e2e/ {
    fail("the e2e_root fact is missing or not a marionette-e2e temp directory: ${root}")
  }
  $dir = "${root}/${trusted['certname']}"

  file { $dir:
    ensure => directory,
  }
  file { "${dir}/hello.txt":
    ensure => file,
    source => 'puppet:///modules/e2e/hello.txt',
  }
  file { "${dir}/motd":
    ensure  => file,
    content => template('e2e/motd.erb'),
  }
  exec { 'e2e stamp':
    command => "/bin/touch ${dir}/exec-ran",
    creates => "${dir}/exec-ran",
    require => File[$dir],
  }
  if $facts['e2e_first_run'] {
    notify { "first run of ${trusted['certname']}": }
  }
}
