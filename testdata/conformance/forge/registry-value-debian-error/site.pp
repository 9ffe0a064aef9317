registry::value { 'puppetmaster':
  key  => 'HKLM\Software\Vendor\PuppetLabs',
  data => 'puppet.example.com',
}
