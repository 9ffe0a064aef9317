class limits (Integer $max_files, Float $ratio) {
  notify { "max_files=${max_files} ratio=${ratio}": }
  file { '/tmp/marionette-limits': ensure => file, content => "${max_files}\n" }
}
