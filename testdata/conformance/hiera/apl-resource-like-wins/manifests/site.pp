class { 'ntp': servers => ['explicit.example.com'] }
