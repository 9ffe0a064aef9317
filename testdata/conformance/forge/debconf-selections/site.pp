debconf { 'tzdata/Areas':
  package => 'tzdata',
  type    => 'select',
  value   => 'Europe',
}
debconf { 'postfix/main_mailer_type':
  package => 'postfix',
  type    => 'select',
  value   => 'Internet Site',
  seen    => true,
}
