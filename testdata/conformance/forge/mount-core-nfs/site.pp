mount { '/mnt/share':
  ensure  => mounted,
  device  => 'nfs01.example.com:/export/share',
  fstype  => 'nfs',
  options => 'rw,hard,intr',
  atboot  => true,
}
mount { '/tmp/forge-a-tmpfs':
  ensure  => defined,
  device  => 'tmpfs',
  fstype  => 'tmpfs',
  options => 'size=64m',
}
