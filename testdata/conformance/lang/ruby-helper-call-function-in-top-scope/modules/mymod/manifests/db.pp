class mymod::db {
  notify { 'db': }
}
