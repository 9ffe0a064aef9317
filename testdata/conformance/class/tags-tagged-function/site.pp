class app {
  tag 'frontend'
  $is_frontend = tagged('frontend')
  $is_app = tagged('app')
  $is_backend = tagged('backend')
  notify { "frontend=${is_frontend} app=${is_app} backend=${is_backend}": }
}
include app
