class { 'mysql::server':
  root_password => 'strongpassword',
  users         => {
    'report@%' => {
      ensure        => 'present',
      password_hash => '*F3A2A51A9B0F2BE2468926B4132313728C250DBF',
    },
  },
  grants        => {
    'report@%/reports.*' => {
      ensure     => 'present',
      privileges => ['SELECT'],
      table      => 'reports.*',
      user       => 'report@%',
    },
  },
}
include mysql::client
