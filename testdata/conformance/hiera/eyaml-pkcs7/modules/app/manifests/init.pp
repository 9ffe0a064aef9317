class app (
  String $password,
  String $dsn,
  Array[String] $tokens,
  Hash $settings,
  String $motd,
  String $greeting,
  Integer $count,
) {
  notify { 'password': message => $password }
  notify { 'dsn': message => $dsn }
  notify { 'tokens': message => $tokens }
  notify { 'settings': message => $settings }
  notify { 'motd': message => $motd }
  notify { 'greeting': message => $greeting }
  notify { 'count': message => $count }
}
