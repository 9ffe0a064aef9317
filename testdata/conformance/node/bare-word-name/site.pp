node web01 {
  notify { 'matched bare word': }
}
