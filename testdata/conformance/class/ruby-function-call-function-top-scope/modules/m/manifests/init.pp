class m {
  m::declare('from m')
  notify { 'in m': }
}
