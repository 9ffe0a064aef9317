class { 'motd':
  content       => "Hello from ${facts['networking']['hostname']}\n",
  issue_content => "Authorized use only\n",
}
