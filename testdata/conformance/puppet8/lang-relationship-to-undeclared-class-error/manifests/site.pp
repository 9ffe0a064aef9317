class notincluded { }
notify { 'x': require => Class['notincluded'] }
