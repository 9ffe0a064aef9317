type Demo::Unit = Pattern[/^[^\/]+\.(service|socket)$/]
define demo::unit() {
  assert_type(Demo::Unit, $name)
}
demo::unit { 'test.badtype': }
