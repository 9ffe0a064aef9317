class profile::tools {
  ensure_packages(['vim', 'git'], { 'ensure' => 'present' })
  stdlib::ensure_packages(['screen'])
}
include profile::tools
