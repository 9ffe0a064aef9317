class apache {
  package { 'apache2': ensure => installed }
}
define apache::site () {
  include apache
  file { "/tmp/marionette-site-${title}": ensure => file }
}
apache::site { ['one', 'two']: }
