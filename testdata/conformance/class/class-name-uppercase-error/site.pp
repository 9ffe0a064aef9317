class Apache {
  notify { 'apache': }
}
include apache
