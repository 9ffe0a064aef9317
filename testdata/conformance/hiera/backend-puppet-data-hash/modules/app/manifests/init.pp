class app (String $app_name, Integer $port, String $greeting, String $env, String $module, Array $keys) {
  notify { 'name': message => $app_name }
  notify { 'port': message => $port }
  notify { 'greeting': message => $greeting }
  notify { 'env': message => $env }
  notify { 'module': message => $module }
  notify { 'keys': message => $keys }
}
