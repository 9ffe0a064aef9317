# Sample calls of fqdn_uuid; each result is a notify message.
notify { 'call 1: fqdn_uuid(\'example.com\')':
  message => fqdn_uuid('example.com'),
}
notify { 'call 2: fqdn_uuid(\'web01.example.com\')':
  message => fqdn_uuid('web01.example.com'),
}
notify { 'call 3: fqdn_uuid(\'\')':
  message => fqdn_uuid(''),
}
notify { 'call 4: fqdn_uuid(\'héllo.example\')':
  message => fqdn_uuid('héllo.example'),
}
