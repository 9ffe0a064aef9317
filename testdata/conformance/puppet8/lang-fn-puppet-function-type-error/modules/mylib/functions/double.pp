function mylib::double(Integer $x) >> Integer {
  $x * 2
}
