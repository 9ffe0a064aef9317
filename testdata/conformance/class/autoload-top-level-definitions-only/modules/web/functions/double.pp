function web::double(Integer $x) >> Integer {
  $x * 2
}
