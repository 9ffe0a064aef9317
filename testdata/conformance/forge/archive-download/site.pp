include archive
archive { '/tmp/forge-a/app-1.0.tar.gz':
  ensure        => present,
  source        => 'https://example.com/app-1.0.tar.gz',
  checksum      => 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9',
  checksum_type => 'sha256',
  extract       => true,
  extract_path  => '/opt',
  creates       => '/opt/app-1.0',
  cleanup       => true,
}
archive::download { 'tool.zip':
  url => 'https://example.com/tool.zip',
}
