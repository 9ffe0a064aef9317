node 'web01.example.com' {
  pick_role('web')
  include mymod::db
  notify { "node ${picked}": }
}
