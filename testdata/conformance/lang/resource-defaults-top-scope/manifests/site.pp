Package { ensure => 'present' }
class app {
  package { 'app-tools': }
}
include app
package { 'top-level': }
