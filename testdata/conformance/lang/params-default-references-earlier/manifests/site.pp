class paths(String $base = '/opt', String $app = "${base}/app", String $os = $facts['os']['family']) {
  notify { "app=${app} os=${os}": }
}
include paths
