class app (String $first_role, Integer $db_port, Integer $web_port, Array $roles) {
  notify { 'first_role': message => $first_role }
  notify { 'db_port': message => $db_port }
  notify { 'web_port': message => $web_port }
  notify { 'roles': message => $roles }
}
