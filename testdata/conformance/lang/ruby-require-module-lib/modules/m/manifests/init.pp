class m {
  $data = { 'z' => 1, 'a' => { 'y' => 2, 'b' => 3 } }
  $flat = m_implode($data)
  notify { "flat=${flat}": }
  notify { 'sorted':
    message => template('m/sorted.erb'),
  }
}
