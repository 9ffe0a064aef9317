class web {
  tag 'frontend'
  $a = tagged('frontend')
  $b = tagged('web')
  $c = tagged('backend')
  notify { "frontend=${a} web=${b} backend=${c}": }
}
include web
