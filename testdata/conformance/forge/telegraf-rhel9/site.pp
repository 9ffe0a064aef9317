include telegraf

telegraf::processor { 'rename':
  options => [
    {
      'replace' => [{ 'tag' => 'host', 'dest' => 'hostname' }],
    },
  ],
}
