class base {
  notify { 'base from b_classes.pp': }
}
